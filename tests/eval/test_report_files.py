"""The full report: several runs in, report.md / report.html / report.json / figures /
episodes.parquet out; skills with support, temporal patterns, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from support import site_tasks
from webmdp.errors import ConfigError
from webmdp.eval.analysis import analyse
from webmdp.eval.load import load_runs
from webmdp.eval.skills import skill_invocation, temporal_pattern
from webmdp.eval.write import render, report_json, write_report
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.trace import EpisodeTrace


def _run(out: Path, agent: str, n: int, start: int = 0) -> list[EpisodeTrace]:
    return run_tasks(site_tasks("shopping")[start:start + n], out, RunConfig(agent=agent))


@pytest.fixture(scope="module")
def two_agents(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run")
    _run(out, "oracle", 6)
    _run(out, "greedy", 6)
    return out


def test_skill_invocation_counts_and_support(two_agents: Path) -> None:
    eps = load_runs([two_agents]).episodes
    table = skill_invocation(eps, min_support=5)
    oracle = table["oracle"]["all"]
    # the oracle invokes every category its own trajectory requires
    assert all(c.invoked == c.required for c in oracle.values())
    assert all(c.rate == (1.0 if c.required >= 5 else None) for c in oracle.values())
    assert oracle["navigate"].required < 5  # some categories stay under the support
    assert oracle["search"].required == 6
    low = skill_invocation(eps, min_support=20)["oracle"]["all"]["search"]
    assert (low.invoked, low.required, low.rate) == (6, 6, None)  # under support: no rate
    names = skill_invocation(eps, by="skill", min_support=1)["oracle"]["shopping"]
    assert names and all(c.rate == 1.0 for c in names.values())


def test_temporal_pattern_rows_are_distributions(two_agents: Path) -> None:
    pattern = temporal_pattern(load_runs([two_agents]).episodes, bins=4)
    for per in pattern.values():
        for row in per.values():
            assert len(row) == 4 and (sum(row) == 0 or abs(sum(row) - 1) < 1e-9)
    # the oracle's first action is always a search, its last a commit
    assert pattern["oracle"]["search"][0] > 0 and pattern["oracle"]["commit"][-1] == 1.0


def test_write_report_files(two_agents: Path, tmp_path: Path) -> None:
    a = analyse(load_runs([two_agents]))
    paths = write_report(a, tmp_path / "rep")
    html = paths["html"].read_text()
    assert html.count('src="data:image/png;base64,') >= 3  # figures embedded, file offline
    assert 'src="http' not in html and "<script" not in html
    md = paths["markdown"].read_text()
    assert "## Skill invocation by category (%)" in md and "![Temporal skill" in md
    for line in md.splitlines():
        if line.startswith("!["):
            assert (paths["markdown"].parent / line.split("](")[1][:-1]).is_file()
    table = pq.read_table(paths["parquet"]).to_pylist()
    assert len(table) == 12 and {"agent", "task_id", "exploration_success"} <= set(table[0])
    rep = json.loads(paths["json"].read_text())
    assert {"skill_invocation", "complexity", "planning", "bifurcation",
            "disagreements"} <= set(rep)
    assert rep["episodes"] == 12
    failed = sum(not t.success for t, _ in a.episodes if t.agent == "greedy")
    assert failed and rep["bifurcation"]["greedy (semantic)"]["failures"] == failed
    assert "## Bifurcation points" in md and (paths["markdown"].parent / "figures/bifurcation.png"
                                              ).is_file()


def test_agent_text_is_escaped_in_html(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out, "oracle", 1)
    path = next((out / "episodes").glob("*/*/*.json"))
    trace = EpisodeTrace.model_validate_json(path.read_text())
    trace.agent = "<img src=x onerror=alert(1)>"
    path.write_text(trace.model_dump_json())
    paths = write_report(analyse(load_runs([out])), tmp_path / "rep")
    html = paths["html"].read_text()
    assert "<img src=x" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def test_corrupt_trace_is_named_skipped_and_counted(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out, "oracle", 3)
    bad = sorted((out / "episodes").glob("*/*/*.json"))[0]
    bad.write_text(bad.read_text()[:100])
    a = analyse(load_runs([out]))
    assert len(a.rows) == 2
    assert [p for p, _ in a.skipped] == [str(bad)]
    assert "corrupt trace" in a.skipped[0][1]
    md, _ = render(a)
    assert "## Skipped inputs" in md and bad.name in md


def test_runs_with_different_task_sets_use_the_intersection(tmp_path: Path) -> None:
    r1, r2 = tmp_path / "r1", tmp_path / "r2"
    _run(r1, "oracle", 4)
    _run(r2, "greedy", 4, start=2)  # tasks 2..5: 2 in common
    a = analyse(load_runs([r1, r2]))
    assert {t.task_id for t, _ in a.episodes} == {t.id for t in site_tasks("shopping")[2:4]}
    assert len(a.rows) == 4
    assert a.notes and "2 tasks common to all runs" in a.notes[0]
    assert "different task sets" in render(a)[0]
    assert report_json(a)["notes"] == a.notes


def test_single_agent_and_not_a_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(out, "oracle", 2)
    md, images = render(analyse(load_runs([out])))
    assert "## Aggregate results" in md and images
    with pytest.raises(ConfigError, match="not a run directory"):
        load_runs([tmp_path / "empty"])


def test_report_on_imported_webstep_bundles(tmp_path: Path) -> None:
    """Every analysis that does not need our MDP runs on an imported run, and the bundles'
    recorded-vs-recomputed disagreements reach the report."""
    from webmdp.eval.importers import import_webstep

    bundles = Path(__file__).resolve().parents[1] / "data" / "webstep-bundles"
    summary = import_webstep([bundles], tmp_path / "ws")
    assert len(summary.imported) == 12 and not summary.skipped
    a = analyse(load_runs([tmp_path / "ws"]))
    assert len(a.rows) == 12 and not a.skipped
    outcome = [d for d in a.disagreements if d["field"] == "outcome"]
    assert [(d["task_id"], d["agent"]) for d in outcome] == [("airbnb_0001", "claude_cua")]
    assert set(a.skills["claude_cua"]) == {"accommodation", "mail", "all"}  # airbnb, gmail
    assert a.planning["all"]["episodes"]["step_success"] == 12
    md, _ = render(a)
    assert "## Recorded vs recomputed (imported runs)" in md
    assert report_json(a)["disagreements"] == a.disagreements
