"""The viewer's routes through FastAPI's TestClient: the task list's filters, pages and deep
links, the episode page's three views, screenshots (and only the runs' own), batch
comparison, and escaping. Expected values are computed from the trace files directly."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from viewer_runs import MODEL_AGENT, PAYLOAD, Runs

from webmdp.eval.analysis import analyse
from webmdp.eval.bifurcation import bifurcations
from webmdp.eval.load import load_runs
from webmdp.eval.write import report_json
from webmdp.tasks.io import read_tasks
from webmdp.tasks.model import Task
from webmdp.tasks.verifier import check_condition
from webmdp.trace import EpisodeTrace
from webmdp.viewer import RunIndex, create_app

ALL = {"per": "200"}


def traces(runs: Runs) -> list[EpisodeTrace]:
    return [EpisodeTrace.model_validate_json(p.read_text())
            for r in runs.all for p in sorted((r / "episodes").glob("*/*/*.json"))]


def tasks(runs: Runs) -> dict[str, Task]:
    out: dict[str, Task] = {}
    for r in runs.all:
        for t in read_tasks(r / "tasks.jsonl"):
            out.setdefault(t.id, t)
    return out


def listed(client: TestClient, **params: str) -> list[str]:
    """Task ids on the task list page for ``params``."""
    r = client.get("/", params={**ALL, **params})
    assert r.status_code == 200
    return re.findall(r'<tr data-task="([^"]+)">', r.text)


def label(t: EpisodeTrace) -> str:
    return f"{t.agent} ({t.mode})"


def outcome(t: EpisodeTrace) -> str:
    return "error" if t.termination == "infra_error" else "success" if t.success else "failure"


def page_of(client: TestClient, url: str) -> str:
    r = client.get(html.unescape(url))
    assert r.status_code == 200, url
    return r.text


# -- the task list ---------------------------------------------------------------------------
def test_one_row_per_task_one_mark_per_agent(client: TestClient, runs: Runs) -> None:
    all_traces = traces(runs)
    assert sorted(listed(client)) == sorted({t.task_id for t in all_traces})
    text = client.get("/", params=ALL).text
    marks = re.findall(r'<a class="mark (\w+)" href="/episode\?([^"]+)"', text)
    got = {(q["agent"], q["mode"], q["task"]): kind for kind, href in marks
           for q in [dict(parse_qsl(html.unescape(href)))]}
    assert got == {(t.agent, t.mode, t.task_id): outcome(t) for t in all_traces}
    assert "error" in got.values() and "failure" in got.values()


@pytest.mark.parametrize("params,keep", [
    ({"site": "mail"}, lambda t, task: task.site == "mail"),
    ({"template": "review_extract"}, lambda t, task: task.template == "review_extract"),
    ({"hn": "2"}, lambda t, task: task.complexity.hard_negative_count == 2),
    ({"access": "filter"}, lambda t, task: task.complexity.access_level == "filter"),
    ({"olen": "7-9"}, lambda t, task: 7 <= task.complexity.oracle_length <= 9),
    ({"agent": "greedy (semantic)", "outcome": "failure"},
     lambda t, task: label(t) == "greedy (semantic)" and not t.success),
    ({"outcome": "success", "site": "shopping"},
     lambda t, task: t.success and task.site == "shopping"),
    ({"infra": "only"}, lambda t, task: t.termination == "infra_error"),
    ({"q": "COOKWARE"}, lambda t, task: "cookware" in task.instruction.lower()),
])
def test_filters_keep_exactly_the_matching_tasks(client: TestClient, runs: Runs, params, keep
                                                 ) -> None:  # type: ignore[no-untyped-def]
    by_id = tasks(runs)
    want = {t.task_id for t in traces(runs) if keep(t, by_id[t.task_id])}
    assert want, params  # the filter has something to find
    assert set(listed(client, **params)) == want


def test_infra_exclude_and_disagreement_filters(client: TestClient, runs: Runs) -> None:
    per_task: dict[str, set[str]] = {}
    for t in traces(runs):
        per_task.setdefault(t.task_id, set()).add(outcome(t))
    assert set(listed(client, infra="exclude")) == {k for k, v in per_task.items()
                                                    if "error" not in v}
    disagree = {k for k, v in per_task.items() if {"success", "failure"} <= v}
    assert disagree and set(listed(client, disagree="1")) == disagree


def test_agent_filter_shows_only_those_agents_columns(client: TestClient, runs: Runs) -> None:
    text = client.get("/", params={"agent": ["oracle (semantic)", "random (semantic)"]}).text
    heads = re.findall(r'<th class="agent-col"><a href="[^"]*" title="only ([^"]+)">', text)
    assert heads == ["oracle (semantic)", "random (semantic)"]
    assert "greedy" not in "".join(re.findall(r'href="/episode\?[^"]+"', text))
    mail = client.get("/", params={"site": "mail"}).text  # agents without a mail episode: gone
    with_mail = sorted({label(t) for t in traces(runs) if t.site == "mail"})
    assert "greedy (semantic)" in with_mail and "claude_cua (browser)" in with_mail  # gmail
    assert re.findall(r'<th class="agent-col"><a href="[^"]*" title="only ([^"]+)">',
                      mail) == with_mail


def test_bifurcation_filter_lists_the_report_kind(client: TestClient, runs: Runs) -> None:
    assert runs.premature.id in listed(client, bif="premature_commit")
    assert runs.premature.id not in listed(client, bif="wrong_branch")


def test_pages_partition_the_list_and_keep_the_filters(client: TestClient) -> None:
    everything = listed(client, site="shopping")
    pages = -(-len(everything) // 5)
    seen: list[str] = []
    for n in range(1, pages + 1):
        seen += listed(client, site="shopping", per="5", page=str(n))
    assert seen == everything and pages > 2
    text = client.get("/", params={"site": "shopping", "per": "5", "page": "2"}).text
    nxt = re.search(r'<a rel="next" href="([^"]+)"', text)
    assert nxt is not None
    assert dict(parse_qsl(urlsplit(html.unescape(nxt.group(1))).query)) == {
        "site": "shopping", "per": "5", "page": "3"}
    assert "page 2 of" in text
    beyond = client.get("/", params={"site": "shopping", "per": "5", "page": "999"}).text
    assert f"page {pages} of {pages}" in beyond  # clamped to the last page


def test_a_task_list_url_restores_its_form(client: TestClient) -> None:
    text = client.get("/", params={"site": "mail", "agent": "random (semantic)",
                                   "disagree": "1", "q": "sent"}).text
    assert '<option value="mail" selected>' in text
    assert re.search(r'value="random \(semantic\)" data-autosubmit checked', text)
    assert re.search(r'name="disagree" value="1" data-autosubmit checked', text)
    assert 'name="q" value="sent"' in text


# -- the episode page ------------------------------------------------------------------------
def _episode(client: TestClient, agent: str, mode: str, task: str, **extra: str) -> str:
    r = client.get("/episode", params={"agent": agent, "mode": mode, "task": task, **extra})
    assert r.status_code == 200
    return r.text


def _visible(text: str, kind: str) -> list[str]:
    """``data-step`` of the ``kind`` blocks (frame / step-detail) without ``hidden``."""
    return re.findall(rf'class="{kind}" data-step="(\d+)"(?! hidden)>', text)


def test_unknown_episodes_and_pages_are_404(client: TestClient) -> None:
    for params in ({"agent": "nobody", "mode": "semantic", "task": "shopping_0000"},
                   {"agent": "oracle", "mode": "semantic", "task": "nope_0000"}, {}):
        r = client.get("/episode", params=params)
        assert r.status_code == 404 and "No episode" in r.text
    assert client.get("/no/such/page").status_code == 404


def test_episode_deep_link_opens_its_view_step_and_screenshot(client: TestClient,
                                                              runs: Runs) -> None:
    text = _episode(client, "oracle", "browser", "shopping_0030", step="2", view="trajectory",
                    shot="after")
    assert _visible(text, "frame") == ["2"] and _visible(text, "step-detail") == ["2"]
    assert re.search(r'id="pane-trajectory" data-pane="trajectory">', text)
    assert re.search(r'id="pane-replay" data-pane="replay" hidden>', text)
    assert 'data-shot="after"' in text
    # the active step's screenshots load now, the others when shown
    assert re.search(r'<img alt="screenshot before step 3" src="/shot\?[^"]*step=1"', text)
    assert re.search(r'<img alt="screenshot after step 3" src="/shot\?[^"]*step=2"', text)
    assert 'data-src="/shot?' in text


def test_first_step_shows_the_page_at_reset(client: TestClient, runs: Runs) -> None:
    """Browser traces store the page at reset: the first step's "before" screenshot is that
    file, served byte for byte, not the step's own after screenshot."""
    path = runs.browser / "episodes" / "oracle" / "browser" / "shopping_0030.json"
    trace = EpisodeTrace.model_validate_json(path.read_text())
    assert trace.initial_screenshot and trace.steps[0].screenshot
    assert trace.initial_screenshot != trace.steps[0].screenshot
    text = _episode(client, "oracle", "browser", "shopping_0030", step="0")
    assert re.search(r'<img alt="screenshot before step 1" src="/shot\?[^"]*step=-1"', text)
    assert "the page at the start of the episode" in text
    r = client.get("/shot", params={"agent": "oracle", "mode": "browser",
                                    "task": "shopping_0030", "step": "-1"})
    assert r.status_code == 200
    assert r.content == (path.parent / trace.initial_screenshot).read_bytes()
    assert r.content != (path.parent / trace.steps[0].screenshot).read_bytes()


def test_replay_shows_each_model_step(client: TestClient, runs: Runs) -> None:
    trace = EpisodeTrace.model_validate_json(
        (runs.model / "episodes" / MODEL_AGENT / "semantic" / f"{runs.premature.id}.json"
         ).read_text())
    text = _episode(client, MODEL_AGENT, "semantic", runs.premature.id)
    details = re.split(r'<div class="step-detail" data-step=', text)[1:]
    assert len(details) == len(trace.steps) == 4
    for step, block in zip(trace.steps, details, strict=True):
        assert step.notes is not None and step.raw_output is not None
        assert escape(step.notes.thought or "") in block
        assert escape(step.raw_output) in block
        assert "1200 in · 40 out" in block
        for t in step.transitions:
            assert f'<span class="surface">{t.surface_before}</span> &rarr; ' \
                   f'<span class="surface">{t.surface_after}</span>' in block
    assert re.search(r'<meter min="0" max="1" value="[0-9.]+"></meter>', details[1])


def test_browser_replay_draws_the_action_on_the_screenshot(client: TestClient,
                                                           runs: Runs) -> None:
    path = runs.browser / "episodes" / "oracle" / "browser" / "shopping_0030.json"
    trace = EpisodeTrace.model_validate_json(path.read_text())
    text = _episode(client, "oracle", "browser", "shopping_0030")
    frames = re.split(r'<figure class="frame" data-step=', text)[1:]
    for step, frame in zip(trace.steps, frames, strict=True):
        a = step.action
        if a["kind"] == "click":
            assert f'data-kind="point" data-x="{float(a["x"])}" data-y="{float(a["y"])}"' in frame
        elif a["kind"] == "type":
            assert 'data-kind="text"' in frame
            assert escape(a["text"].strip()) in frame
    assert 'viewBox="0 0 1440 900"' in frames[0]


def test_trajectory_view_marks_the_report_bifurcation(client: TestClient, runs: Runs) -> None:
    bad = runs.premature
    trace = EpisodeTrace.model_validate_json(
        (runs.model / "episodes" / MODEL_AGENT / "semantic" / f"{bad.id}.json").read_text())
    [want] = bifurcations([(trace, bad)])
    assert (want.kind, want.reference) == ("premature_commit", "oracle")
    text = _episode(client, MODEL_AGENT, "semantic", bad.id, view="trajectory")
    assert '<span class="kind" id="bif-kind">premature commit</span>' in text
    assert f"at state {want.index} of the agent" in text
    rows = re.findall(r'<tr class="row-(\w+)( at-bif)?" data-kind', text)
    assert [k for k, _ in rows] == ["match", "match", "after", "after", "after"]
    at = text[text.index("bif-marker"):]
    assert at.index(f"{want.failing_action}()") < at.index("</tr>", at.index("at-bif"))
    assert f"{want.reference_action}()" in at
    # the replay timeline marks the step that took the failing action
    assert re.search(r'data-step="2" class="[^"]*bif"', text)


def test_verification_lists_every_condition_with_the_values_compared(client: TestClient,
                                                                     runs: Runs) -> None:
    bad = runs.premature
    trace = EpisodeTrace.model_validate_json(
        (runs.model / "episodes" / MODEL_AGENT / "semantic" / f"{bad.id}.json").read_text())
    text = _episode(client, MODEL_AGENT, "semantic", bad.id, view="verification")
    table = text[text.index('id="conditions"'):text.index("</table>", text.index(
        'id="conditions"'))]
    rows = re.findall(r'<tr class="(pass|fail)">(.*?)</tr>', table, re.S)
    assert len(rows) == len(bad.verifier) == 3
    for cond, (verdict, row) in zip(bad.verifier, rows, strict=True):
        assert verdict == ("pass" if check_condition(cond, trace.final_facts) else "fail")
        actual = json.dumps(trace.final_facts.get(cond.fact), sort_keys=True)
        assert escape(actual) in row and escape(cond.description) in row
    assert [v for v, _ in rows].count("fail") == 2  # the target is missing, a negative in


def test_imported_bundle_shows_recorded_beside_recomputed(client: TestClient) -> None:
    text = _episode(client, "claude_cua", "browser", "gmail_0001", view="verification")
    table = text[text.index('id="recorded"'):]
    table = table[:table.index("</table>")]
    rows = dict((f, (rec, ours, cls)) for cls, f, rec, ours in re.findall(
        r'<tr class="(\w+)">\s*<td><code>(\w+)</code></td><td><code>([^<]*)</code></td>\s*'
        r'<td><code>([^<]*)</code></td>', table))
    assert rows["coverage_at_commit"] == ("0.6", "0.4", "disagree")
    assert rows["outcome"] == ("&#34;success&#34;", "&#34;success&#34;", "agree")


def test_a_site_we_cannot_replay_is_aligned_with_the_report_reference(
        client: TestClient, runs: Runs) -> None:
    episodes = [(EpisodeTrace.model_validate_json(p.read_text()), tasks(runs)["gmail_0001"])
                for p in sorted((runs.imported / "episodes").glob("*/*/gmail_0001.json"))]
    [want] = [b for b in bifurcations(episodes) if b.agent == "uitars"]
    text = _episode(client, "uitars", "browser", "gmail_0001", view="trajectory")
    chips = re.findall(r'<a class="chip( on)?" href="[^"]*">([^<]+)</a>', text)
    assert ("oracle" not in [c for _, c in chips]) and (" on", want.reference) in chips
    assert f'id="bif-kind">{want.kind.replace("_", " ")}</span>' in text


def test_screenshots_are_served_from_the_run_only(client: TestClient, runs: Runs) -> None:
    path = runs.browser / "episodes" / "oracle" / "browser" / "shopping_0030.json"
    trace = EpisodeTrace.model_validate_json(path.read_text())
    r = client.get("/shot", params={"agent": "oracle", "mode": "browser",
                                    "task": "shopping_0030", "step": "1"})
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    assert r.content == (path.parent / str(trace.steps[1].screenshot)).read_bytes()
    for step in ("0", "1", "99"):  # ../../etc/hostname, a symlink out of the run, no step
        r = client.get("/shot", params={"agent": "escape", "mode": "browser",
                                        "task": "shopping_0030", "step": step})
        assert r.status_code == 404 and b"localhost" not in r.content
    assert client.get("/shot", params={"agent": "oracle", "mode": "browser",
                                       "task": "shopping_0030",
                                       "step": "../../x"}).status_code == 422
    assert client.get("/static/..%2F..%2Fviewer%2Fapp.py").status_code == 404
    assert client.get("/static/viewer.js").status_code == 200


def test_trace_content_is_escaped_and_scripts_are_confined(client: TestClient) -> None:
    r = client.get("/episode", params={"agent": "xss", "mode": "browser",
                                       "task": "shopping_0030", "step": "1"})
    assert "window.__xss" in r.text
    assert "<script>window" not in r.text and "<img src=x" not in r.text
    assert escape(PAYLOAD) in r.text
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in r.text
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert re.findall(r"<script\b[^>]*>", r.text) == ['<script src="/static/viewer.js" defer>']


# -- batch comparison ------------------------------------------------------------------------
def _table(text: str, title: str) -> str:
    start = text.index(f"<h2>{title}</h2>")
    return text[start:text.index("</table>", start)]


def test_batch_cells_link_to_the_episodes_behind_them(client: TestClient, runs: Runs) -> None:
    text = client.get("/batch", params={"scope": "all"}).text
    main = _table(text, "Aggregate results")
    greedy = re.search(r'<tr><td><a href="[^"]*">greedy \(semantic\)</a></td>(.*?)</tr>', main)
    assert greedy is not None
    cells = re.findall(r'<td><a href="([^"]+)">([^<]+)</a></td>', greedy.group(1))
    mine = [t for t in traces(runs) if label(t) == "greedy (semantic)"]
    strict_href, strict = cells[1]
    assert strict == f"{100 * sum(t.success for t in mine) / len(mine):.1f}"
    assert set(listed(client, **dict(parse_qsl(urlsplit(html.unescape(strict_href)).query)))
               ) == {t.task_id for t in mine if t.success}
    bif = _table(text, "Bifurcation points (WebSTEP 4.3)")
    row = re.search(rf'{re.escape(MODEL_AGENT)} \(semantic\)</a></td>(.*?)</tr>', bif)
    assert row is not None
    hrefs = dict((html.unescape(h).split("bif=")[1], int(n)) for h, n in re.findall(
        r'<a href="([^"]*bif=[^"]+)">(\d+)</a>', row.group(1)))
    assert hrefs["premature_commit"] == 1
    assert listed(client, agent=f"{MODEL_AGENT} (semantic)", bif="premature_commit") == [
        runs.premature.id]


def test_batch_matches_webmdp_report_and_serves_its_figures(runs: Runs) -> None:
    """One run's batch page (scope common, as the report analyses) shows the report's numbers;
    the full report and its figures are served."""
    with TestClient(create_app(RunIndex.load([runs.semantic]))) as one:
        text = one.get("/batch").text
        rep = report_json(analyse(load_runs([runs.semantic])))
        main = _table(text, "Aggregate results")
        for agent, agg in rep["by_agent_mode"].items():
            row = re.search(rf'>{re.escape(agent)}</a></td>(.*?)</tr>', main)
            assert row is not None
            values = re.findall(r"<td>(?:<a [^>]*>)?([^<]+)", row.group(1))
            assert values[1] == f"{100 * agg['terminal_sr']:.1f}"
            assert values[2] == f"{100 * agg['exploration_sr']:.1f}"
            assert values[8] == str(agg["episodes"])
        full = one.get("/batch/report.html")
        assert full.status_code == 200 and "<h1>WebMDP evaluation</h1>" in full.text
        assert "script-src" not in full.headers["content-security-policy"]
        figures = re.findall(r'<img src="/batch/(figures/[\w.]+\.png)"', text)
        assert "figures/bifurcation.png" in figures
        png = one.get(f"/batch/{figures[0]}")
        assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"
        assert one.get("/batch/figures/nope.png").status_code == 404


def test_batch_common_scope_follows_the_report_on_differing_runs(client: TestClient) -> None:
    text = client.get("/batch").text
    assert "the runs cover different task sets" in text
    assert "No episode to analyse in this scope" in text and 'href="/batch?scope=all"' in text
    assert client.get("/batch/report.html").status_code == 404
    assert client.get("/batch/report.html", params={"scope": "all"}).status_code == 200


def test_a_served_page_never_needs_the_network(client: TestClient) -> None:
    for url in ("/", "/batch?scope=all",
                f"/episode?agent={MODEL_AGENT}&mode=semantic&task=shopping_0020"):
        text = client.get(url).text
        assert not re.search(r'(src|href)="(https?:)?//', text), url
    assert client.get("/static/viewer.css").status_code == 200

