"""Recorded versus recomputed: where an imported bundle's own values differ from ours.

An import (:mod:`webmdp.eval.importers`) writes what each bundle records and we also compute
to ``RUN/recorded.jsonl``. :func:`find_disagreements` recomputes each value from the imported
trace and task (:func:`~webmdp.eval.metrics.episode_metrics`, the judge's conditions on the
recorded final state) and returns every difference. A disagreement is reported, never resolved:
the trace keeps the recorded outcome as its ``success``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from webmdp.errors import WebMDPError
from webmdp.eval.importers.webstep import RecordedValues
from webmdp.eval.load import load_runs
from webmdp.eval.metrics import EpisodeMetrics, episode_metrics, valid_transitions
from webmdp.tasks.model import Task
from webmdp.tasks.verifier import check_condition
from webmdp.trace import EpisodeTrace

RECORDED_FILE = "recorded.jsonl"
TOLERANCE = 1e-9
"""Absolute difference below which two recorded and recomputed fractions agree."""


class Disagreement(BaseModel):
    """One value an episode's bundle records that differs from what we recompute."""

    task_id: str
    agent: str
    field: str
    recorded: Any
    recomputed: Any
    note: str = ""


def read_recorded(run_dir: str | Path) -> tuple[dict[tuple[str, str, str], RecordedValues],
                                                 list[tuple[str, str]]]:
    """Rows of ``RUN/recorded.jsonl`` by (agent, mode, task id), and the lines that could not
    be read as (``file:line``, reason). A run without the file has none."""
    path = Path(run_dir) / RECORDED_FILE
    rows: dict[tuple[str, str, str], RecordedValues] = {}
    bad: list[tuple[str, str]] = []
    if not path.is_file():
        return rows, bad
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = RecordedValues.model_validate_json(line)
        except ValidationError as e:
            bad.append((f"{path}:{n}", e.errors()[0]["msg"]))
            continue
        rows[(row.agent, row.mode, row.task_id)] = row
    return rows, bad


def find_disagreements(run_dir: str | Path) -> list[Disagreement]:
    """Every recorded-vs-recomputed difference of the imported episodes of a run, ordered by
    task, agent and field (fields in :data:`CHECKS` order)."""
    recorded, _ = read_recorded(run_dir)
    if not recorded:
        return []
    out: list[Disagreement] = []
    for trace, task in load_runs([run_dir]).episodes:
        row = recorded.get((trace.agent, trace.mode, trace.task_id))
        if row is not None:
            out += episode_disagreements(trace, task, row)
    return sorted(out, key=lambda d: (d.task_id, d.agent, list(CHECKS).index(d.field)))


def episode_disagreements(trace: EpisodeTrace, task: Task,
                          recorded: RecordedValues) -> list[Disagreement]:
    """The differences of one episode: the verdict always (when the task has conditions), the
    process metrics when they can be computed for the task's site."""
    try:
        metrics: EpisodeMetrics | None = episode_metrics(trace, task)
    except WebMDPError:
        metrics = None
    out = []
    for name, check in CHECKS.items():
        if name not in recorded.fields or (metrics is None and name != "outcome"):
            continue
        found = check(Recorded(recorded, name), trace, task, metrics)
        if found is not None:
            recomputed, note = found
            out.append(Disagreement(task_id=trace.task_id, agent=trace.agent, field=name,
                                    recorded=recorded.fields[name], recomputed=recomputed,
                                    note=note))
    return out


# -- the checks: (recorded, trace, task, metrics) -> (recomputed, note) when they differ --------
Found = tuple[Any, str] | None


@dataclass(frozen=True)
class Recorded:
    """The recorded value a check compares, with the rest of its bundle's row."""

    row: RecordedValues
    name: str

    @property
    def value(self) -> Any:
        return self.row.fields[self.name]


def _outcome(r: Recorded, trace: EpisodeTrace, task: Task, m: EpisodeMetrics | None) -> Found:
    if not task.verifier:
        return None
    facts = dict(trace.final_facts)
    if trace.final_answer is not None:
        facts.setdefault("final_answer", trace.final_answer)
    failing = [c for c in task.verifier if not check_condition(c, facts)]
    verdict = "failure" if failing else "success"
    rec = r.value
    if (rec == "success") == (verdict == "success"):
        return None
    if failing:
        why = "; ".join(f"{c.description or c.fact} (final state: "
                        f"{json.dumps(facts.get(c.fact), ensure_ascii=False)})" for c in failing)
        return verdict, f"judge condition(s) not met by mdp_state_final: {why}"
    return verdict, (f"all {len(task.verifier)} judge conditions hold in mdp_state_final, "
                     f"yet the bundle records {rec!r}")


def _commit_step(r: Recorded, trace: EpisodeTrace, task: Task, m: EpisodeMetrics | None
                 ) -> Found:
    assert m is not None
    valid = valid_transitions(trace)
    n, rec = len(valid), r.value
    ours = m.commit_step if m.commit_step is not None else n
    if rec == ours:
        return None
    what = (f"first state-changing commit-category transition, {valid[ours].action} at {ours}"
            if m.commit_step is not None else f"no commit: the final 'done' at {n}")
    if isinstance(rec, int) and 0 <= rec < n:
        theirs = (f"the bundle's step {rec} is {valid[rec].action} ({valid[rec].category or 'no'} "
                  "category): the definitions differ (theirs: first terminal action)")
    elif rec == n:
        theirs = "the bundle counts no commit (its final 'done')"
    else:
        theirs = (f"the bundle's step {rec} lies beyond the {n} imported transitions: its "
                  "metrics were computed on a longer trajectory (see total_steps)")
    return ours, f"recomputed: {what} (0-based); {theirs}"


def _coverage(r: Recorded, trace: EpisodeTrace, task: Task, m: EpisodeMetrics | None) -> Found:
    assert m is not None
    rec = r.value
    if isinstance(rec, int | float) and abs(rec - m.coverage_at_commit) <= TOLERANCE:
        return None
    note = (f"COV at our commit step over {m.constraint_count} constraint(s) from the recorded "
            "states (card-level fields of lists recorded only as a summary count as unseen)")
    traj, step = r.row.other.get("coverage_trajectory"), r.row.fields.get("commit_step")
    if isinstance(traj, list) and isinstance(step, int) and 0 <= step < len(traj):
        note += (f"; the bundle's own coverage_trajectory gives {traj[step]} at its commit step "
                 f"{step}")
    return m.coverage_at_commit, note


def _visited(attr: str, what: str) -> Callable[..., Found]:
    def check(r: Recorded, trace: EpisodeTrace, task: Task, m: EpisodeMetrics | None) -> Found:
        assert m is not None
        ours = sorted(set(getattr(m, attr)))
        if isinstance(r.value, list) and sorted(set(map(str, r.value))) == ours:
            return None
        return ours, f"distinct entities visited on detail surfaces {what} (compared as sets)"
    return check


def _total_steps(r: Recorded, trace: EpisodeTrace, task: Task, m: EpisodeMetrics | None
                 ) -> Found:
    ours, rec = len(valid_transitions(trace)) + 1, r.value
    if rec == ours:
        return None
    return ours, (f"the bundle's mdp_trajectory has {ours - 1} action(s); with the final 'done' "
                  f"that is {ours} steps, the metrics were recorded over {rec}")


def _constraints(r: Recorded, trace: EpisodeTrace, task: Task, m: EpisodeMetrics | None
                 ) -> Found:
    assert m is not None
    if r.value == m.constraint_count:
        return None
    return m.constraint_count, "information constraints parsed from process_metrics.constraints"


CHECKS: Mapping[str, Callable[[Recorded, EpisodeTrace, Task, EpisodeMetrics | None],
                               Found]] = {
    "outcome": _outcome,
    "commit_step": _commit_step,
    "coverage_at_commit": _coverage,
    "visited_entities": _visited("detail_visits", "in the whole episode"),
    "visited_entities_at_commit": _visited("visits_before_commit", "before the commit"),
    "total_steps": _total_steps,
    "constraint_count": _constraints,
}
"""Recorded field -> its check, in report order."""
