"""Agent-as-judge for rubric leaves (CAP §4.4), measured against the exact leaves.

CAP's judge scores each leaf of a task's rubric tree in two modes. Ours does the same:

* ``extract`` (extraction + verification, CAP: "parses structured information from A and
  applies deterministic checks"): the model reads the task, the agent's final answer, the URLs
  it visited and the screenshots it recorded (the last :data:`SHOTS`). For a leaf whose check
  is a value (``answer``, ``fact``) it extracts that value, without being told the expected
  one, and :func:`webmdp.tasks.answers.matches` (``mentions`` for a ``mentions`` condition)
  decides; only a leaf with no value to compare (``transition``, ``revealed``) takes the
  model's pass or fail;
* ``url`` (URL verification): our URLs render a session's current state, so "opening the URL
  the agent cited" means restoring the state the trace recorded when the agent last stood on
  that leaf's site: the trace's transitions are replayed on the task's MDP up to there and
  that page is rendered (the same views the server serves); the model reads its text.

A reply without its final ``Verdict: pass|fail`` (or ``Value: ...``) line leaves the leaf
unjudged (None, never 0), as does an endpoint that fails after its retries. The judged leaves
are aggregated by the same eq. 2 as the exact ones, where an unjudged leaf is never credit
(:func:`webmdp.tasks.rubric.aggregate`). Every verdict is stored with its evidence, prompt and
reply in ``RUN/rubric/judge.jsonl``, appended as each episode is judged (an interrupted judge
loses nothing); judging again replaces that judge's earlier verdicts (keyed by judge model,
judge mode, episode and leaf). :func:`agreement` compares them with the exact verdicts per leaf
kind (confusion matrix, Cohen's kappa) and gives the shift each metric of the report's ``cap``
object shows when the judge replaces the exact leaves, over the episodes judged both ways.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Literal

from webmdp.agents.llm.clients import ChatMessage, ModelClient
from webmdp.core.model import World
from webmdp.core.registry import get_site
from webmdp.errors import ConfigError
from webmdp.eval.cap_section import metrics, rubric_of
from webmdp.redact import scrubbed_line
from webmdp.sites._common.views import render_app
from webmdp.synth.agreement import verdict_agreement
from webmdp.synth.annotate import final_shot, load_shot
from webmdp.synth.episodes import Episode
from webmdp.synth.model_grader import ModelChat
from webmdp.synth.sidefile import write_rows
from webmdp.tasks.answers import matches, mentions
from webmdp.tasks.model import Task
from webmdp.tasks.rubric import AnswerCheck, FactCheck, RubricNode, aggregate, is_unjudged
from webmdp.trace import EpisodeTrace, LeafVerdict, RubricResult
from webmdp.tracking import Tracker

Mode = Literal["extract", "url"]
MODES: tuple[Mode, ...] = ("extract", "url")
SHOTS = 3
"""Screenshots shown in extract mode: the last ones the episode recorded."""
_VERDICT = re.compile(r"verdict:\s*\**\s*(pass|fail)\b", re.IGNORECASE)
_VALUE = re.compile(r"^[ \t*_`]*value[ \t*_`]*:[ \t*_`]*(.*?)[ \t*_`]*$",
                    re.IGNORECASE | re.MULTILINE)
_NONE = ("none", "n/a", "(none)", "not shown", "")
SYSTEM = ("You check one criterion of a web agent's work on a task over several websites. "
          "Judge only from the evidence given. Explain briefly, then end with one line: "
          "`Verdict: pass` if the criterion is met, `Verdict: fail` if it is not.")
SYSTEM_EXTRACT = ("You read a web agent's work on a task over several websites and extract "
                  "one value from it. Use only the evidence given. Explain briefly, then end "
                  "with one line: `Value: <the value, as the evidence states it>`, or "
                  "`Value: none` if the evidence does not show it.")


def parse_leaf_verdict(text: str | None) -> int | None:
    """The last ``Verdict: pass|fail`` as 1 / 0; None when there is none."""
    found = _VERDICT.findall(text or "")
    return None if not found else int(found[-1].lower() == "pass")


def parse_value(text: str | None) -> tuple[bool, str | None]:
    """(found, value) of the last ``Value: ...`` line; ``Value: none`` is (True, None), a
    reply without one (False, None)."""
    found = _VALUE.findall(text or "")
    if not found:
        return False, None
    value = found[-1].strip()
    return True, (None if value.lower() in _NONE else value)


def value_verdict(leaf: RubricNode, value: str | None) -> int:
    """The deterministic check of an extracted value against a value leaf's check (CAP's
    extraction + verification): :func:`matches` for an answer and for an ``eq`` / ``contains``
    / ``not_contains`` condition (every element of a list value), :func:`mentions` for a
    ``mentions`` condition, as the exact check compares them."""
    check = leaf.check
    if isinstance(check, AnswerCheck):
        return int(matches(check.value, value))
    assert isinstance(check, FactCheck)
    cond = check.condition
    wanted = cond.value if isinstance(cond.value, list) else [cond.value]
    if cond.op == "mentions":
        return int(value is not None and all(mentions(w, value) for w in wanted))
    if cond.op == "not_contains":
        return int(not matches(cond.value, value))
    return int(all(matches(w, value) for w in wanted))


def has_value(leaf: RubricNode) -> bool:
    """Whether a leaf's check is a value to compare (an answer or a fact)."""
    return isinstance(leaf.check, AnswerCheck | FactCheck)


def _to_extract(leaf: RubricNode) -> str:
    """What a value leaf asks the model to extract, without the expected value."""
    check = leaf.check
    if isinstance(check, AnswerCheck):
        return "the value the agent's final answer gives for what the task asks"
    assert isinstance(check, FactCheck)
    cond = check.condition
    what = {"mentions": "the full text of", "contains": "every item (comma-separated) of",
            "not_contains": "every item (comma-separated) of"}.get(cond.op, "the value of")
    where = f" on {leaf.site}" if leaf.site else ""
    return f"{what} `{cond.fact}`, as the agent's work left it{where}"


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def page_text(html: str, limit: int = 6000) -> str:
    p = _Text()
    p.feed(html)
    text = " ".join(p.parts)
    return text if len(text) <= limit else text[:limit] + " …"


def restored_page(trace: EpisodeTrace, task: Task, site: str | None) -> tuple[str, str]:
    """(url, page text) of the state the trace recorded when the agent last stood on ``site``
    (the episode's end when ``site`` is None or never visited): its transitions replayed on
    the task's MDP, the page rendered by the server's views."""
    mdp = get_site(task.site)
    tracker = Tracker(mdp, World.from_dict(task.world))
    valid = [t for t in trace.transitions() if t.error is None]
    stop = len(valid)
    if site is not None:
        on_site = [i for i, t in enumerate(valid) if t.site == site]
        if on_site:
            stop = on_site[-1] + 1
    from webmdp.core.spec import Action

    for t in valid[:stop]:
        tracker.apply(Action(t.action, dict(t.params)))
    obs = mdp.observe(tracker.state, tracker.world)
    return f"/s/<session>/{obs.surface.lower()}", page_text(render_app(task.site, obs, error=None))


def _leaf_prompt(task: Task, trace: EpisodeTrace, leaf: RubricNode, mode: Mode,
                 page: tuple[str, str] | None) -> str:
    urls = list(dict.fromkeys(s.url for s in trace.steps if s.url))
    head = f"{leaf.kind}{', ' + leaf.type_id if leaf.type_id else ''}" \
           f"{', on ' + leaf.site if leaf.site else ''}"
    ask = f"EXTRACT ({head}): {_to_extract(leaf)}" if mode == "extract" and has_value(leaf) \
        else f"CRITERION ({head}): {leaf.description}"
    lines = [f"USER TASK: {task.instruction}", ask,
             f"FINAL ANSWER: {trace.final_answer or '(none given)'}"]
    if mode == "extract":
        lines.append(f"VISITED URLS ({len(urls)}): " + (", ".join(urls[-20:]) or "(none)"))
    elif page is not None:
        lines += [f"PAGE AT {page[0]} (the state the agent left that site in):", page[1]]
    return "\n".join(lines)


class RubricJudge(ModelChat):
    """Judges every leaf of a cross-site episode's rubric tree in one mode."""

    source = "rubric-judge"

    def __init__(self, model_id: str, base_url: str | None = None, *,
                 client: ModelClient | None = None, **options: Any):
        super().__init__(model_id, base_url, client=client, **options)

    def judge(self, ep: Episode, mode: Mode) -> tuple[RubricResult, list[dict[str, Any]]]:
        """The judged result of one episode and one stored row per leaf."""
        task, trace = ep.task, ep.trace
        if task.cross is None:
            raise ConfigError(f"{ep.task.id}: not a cross-site task (no rubric tree)")
        shots: list[tuple[str, bytes]] = []
        if mode == "extract":
            rels = [s.screenshot for s in trace.steps if s.screenshot]
            last = final_shot(trace)
            if last:
                rels.append(last)
            shots = [(f"screenshot {i}", load_shot(ep.path, r))
                     for i, r in enumerate(list(dict.fromkeys(rels))[-SHOTS:])]
        pages: dict[str | None, tuple[str, str]] = {}
        exact = {v.id: v for v in (rubric_of(trace, task) or RubricResult(
            root=0.0, scores={}, leaves=[])).leaves}

        def one(leaf: RubricNode) -> tuple[LeafVerdict, dict[str, Any]]:
            page = None
            if mode == "url":
                if leaf.site not in pages:
                    pages[leaf.site] = restored_page(trace, task, leaf.site)
                page = pages[leaf.site]
            prompt = _leaf_prompt(task, trace, leaf, mode, page)
            parts: list[str | bytes] = [prompt]
            for caption, png in shots:
                parts += [f"{caption}:", png]
            by_value = mode == "extract" and has_value(leaf)
            system = SYSTEM_EXTRACT if by_value else SYSTEM
            text, call, error = self.ask([ChatMessage.text("system", system),
                                          ChatMessage("user", tuple(parts))])
            extracted: str | None = None
            if by_value:
                found, extracted = parse_value(text)
                score = value_verdict(leaf, extracted) if found else None
            else:
                score = parse_leaf_verdict(text)
            why = "judged" if score is not None else ("infra_error" if error else "unparseable")
            verdict = LeafVerdict(id=leaf.id, kind=leaf.kind or "other", score=score,
                                  evidence=(text or error or "")[-300:])
            row = {"agent": ep.label, "mode": ep.mode, "task_id": task.id,
                   "judge": self.model_id, "judge_mode": mode, "leaf": leaf.id,
                   "kind": leaf.kind, "type_id": leaf.type_id, "critical": leaf.critical,
                   "exact": exact[leaf.id].score if leaf.id in exact else None,
                   "verdict": score, "why": why, "evidence": verdict.evidence,
                   "decided_by": "value" if by_value else "model", "extracted": extracted,
                   "prompt": prompt, "images": len(shots), "reply": text,
                   "prompt_tokens": call.prompt_tokens if call else None}
            return verdict, row

        done = self.map(task.cross.rubric.leaves(), one)
        verdicts = [v for v, _ in done]
        scores: dict[str, float] = {}
        root = aggregate(task.cross.rubric, {v.id: v.score for v in verdicts}, scores)
        result = RubricResult(root=root, leaves=verdicts, judge=f"{self.model_id}:{mode}",
                              scores={k: (None if v != v else v) for k, v in scores.items()})
        return result, [r for _, r in done]


def leaf_key(row: dict[str, Any]) -> tuple[str, ...]:
    """What a stored leaf verdict is about: judge model, judge mode, episode and leaf."""
    return (str(row["judge"]), str(row["judge_mode"]), str(row["agent"]), str(row["mode"]),
            str(row["task_id"]), str(row["leaf"]))


def tree_key(row: dict[str, Any]) -> tuple[str, ...]:
    """What a stored judged tree is about: judge model, judge mode and episode (older rows
    name the model only in ``result.judge``, ``model:mode``)."""
    model = row.get("judge") or str(row["result"]["judge"]).rpartition(":")[0]
    return (str(model), str(row["judge_mode"]), str(row["agent"]), str(row["mode"]),
            str(row["task_id"]))


def latest(rows: Iterable[dict[str, Any]], key: Any) -> list[dict[str, Any]]:
    """One row per key, the last written (a judge run again replaces its earlier verdicts)."""
    out: dict[Any, dict[str, Any]] = {}
    for r in rows:
        out.pop(key(r), None)
        out[key(r)] = r
    return list(out.values())


def tree_row(ep: Episode, mode: Mode, judge: str, result: RubricResult) -> dict[str, Any]:
    """A judged tree as stored: an unjudged root is null (JSON has no NaN)."""
    data = result.model_dump(mode="json")
    data["root"] = None if is_unjudged(result.root) else result.root
    return {"agent": ep.label, "mode": ep.mode, "task_id": ep.task.id, "judge": judge,
            "judge_mode": mode, "result": data}


def stored_result(row: dict[str, Any]) -> RubricResult:
    """A stored judged tree back as a result (a null or NaN root: unjudged)."""
    data = dict(row["result"])
    if is_unjudged(data.get("root")):
        data["root"] = float("nan")
    return RubricResult.model_validate(data)


def judge_run(run: Path, judge: RubricJudge, episodes: Iterable[Episode],
              modes: Iterable[Mode]) -> Path:
    """Judge every cross-site episode in each mode, appending to ``RUN/rubric/judge.jsonl``
    (one row per leaf) and ``RUN/rubric/judged.jsonl`` (one judged tree per episode) as each
    is judged; at the end each file keeps one row per key (:func:`leaf_key`,
    :func:`tree_key`), the newest, so judging again replaces that judge's earlier verdicts."""
    out = run / "rubric"
    out.mkdir(parents=True, exist_ok=True)
    rows_path, trees_path = out / "judge.jsonl", out / "judged.jsonl"
    with rows_path.open("a", encoding="utf-8") as rows, trees_path.open(
            "a", encoding="utf-8") as trees:
        for ep in episodes:
            if ep.task.cross is None:
                continue
            for mode in modes:
                result, leaf_rows = judge.judge(ep, mode)
                for r in leaf_rows:
                    rows.write(scrubbed_line(r))
                trees.write(scrubbed_line(tree_row(ep, mode, judge.model_id, result)))
                rows.flush()
                trees.flush()
    write_rows(rows_path, latest(read_rows(rows_path), leaf_key), leaf_key)
    write_rows(trees_path, latest(read_rows(trees_path), tree_key), tree_key)
    return rows_path


def agreement(rows: list[dict[str, Any]], trees: list[dict[str, Any]],
              episodes: dict[tuple[str, str, str], Episode]) -> dict[str, Any]:
    """Per judge mode: per leaf kind the confusion matrix of exact (rows) against the judge
    (columns), Cohen's kappa over the judged leaves and the unjudged count; the ``cap``
    metrics of the exact and the judged trees (``judge.n``: episodes whose judged root is
    judged, ``judge.unjudged``: those whose root stays unjudged); and the shift of each metric
    when the judge's trees replace the exact ones, over the ``shift.n`` episodes judged both
    ways (None when there is none). Rows and trees are taken one per key, the newest."""
    rows = latest(rows, leaf_key)
    trees = latest(trees, tree_key)
    out: dict[str, Any] = {}
    for mode in sorted({r["judge_mode"] for r in rows} | {t["judge_mode"] for t in trees}):
        by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            if r["judge_mode"] == mode:
                by_kind[r["kind"]].append(r)
                by_kind["all"].append(r)
        per_kind = {kind: verdict_agreement(rs) for kind, rs in sorted(by_kind.items())}
        exact_rows, judged_rows = [], []
        for t in trees:
            if t["judge_mode"] != mode:
                continue
            ep = episodes.get((t["agent"], t["mode"], t["task_id"]))
            if ep is None:
                continue
            exact = rubric_of(ep.trace, ep.task)
            if exact is None:
                continue
            exact_rows.append((ep.trace, ep.task, exact))
            judged_rows.append((ep.trace, ep.task, stored_result(t)))
        both = [i for i, (_, _, r) in enumerate(judged_rows) if not is_unjudged(r.root)]
        a = metrics([exact_rows[i] for i in both])
        b = metrics([judged_rows[i] for i in both])
        shift: dict[str, Any] = {"n": len(both)}
        shift |= {k: (None if a[k] is None or b[k] is None else round(b[k] - a[k], 4))
                  for k in SHIFTED}
        out[mode] = {"leaves": per_kind, "exact": metrics(exact_rows),
                     "judge": metrics(judged_rows), "shift": shift}
    return out


SHIFTED = ("partial_completion", "mean_score", "success_rate", "complex_a", "complex_p")
"""The metrics a judge can move (time and output length are the episode's own)."""


def read_rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
