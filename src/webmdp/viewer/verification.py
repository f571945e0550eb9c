"""The verification panel: every verifier condition with the values it compared, the process
metrics of the episode and, for an imported bundle, what the bundle recorded beside what
webmdp recomputes from it (:mod:`webmdp.eval.disagreements`; a disagreement is shown, never
resolved)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from webmdp.errors import WebMDPError
from webmdp.eval.disagreements import CHECKS, episode_disagreements
from webmdp.eval.importers.webstep import RecordedValues
from webmdp.eval.metrics import EpisodeMetrics, episode_metrics
from webmdp.tasks.model import Task
from webmdp.tasks.verifier import check_condition
from webmdp.trace import EpisodeTrace


@dataclass(frozen=True)
class ConditionView:
    description: str
    fact: str
    op: str
    expected: Any
    actual: Any
    present: bool
    recorded: bool | None
    """The verdict the trace stores (None: the trace holds none for this condition)."""
    recomputed: bool
    """:func:`~webmdp.tasks.verifier.check_condition` on the trace's final facts, now."""


@dataclass(frozen=True)
class RecordedRow:
    field: str
    recorded: Any
    recomputed: Any
    agrees: bool | None
    """None: not recomputed (the process metrics cannot be computed for the task's site)."""
    note: str = ""


@dataclass(frozen=True)
class RubricNodeView:
    """A rubric tree node as the panel shows it: its score and, for a leaf, its verdict and
    the evidence the exact check found."""

    id: str
    description: str
    critical: bool
    score: float | None
    kind: str | None = None
    type_id: str | None = None
    verdict: int | None = None
    evidence: str = ""
    children: tuple[RubricNodeView, ...] = ()


def rubric_view(trace: EpisodeTrace, task: Task) -> RubricNodeView | None:
    """A cross-site task's tree with this episode's scores (from the trace, else evaluated
    now from its transitions)."""
    from webmdp.eval.cap_section import rubric_of
    from webmdp.tasks.rubric import RubricNode

    result = rubric_of(trace, task)
    if result is None or task.cross is None:
        return None
    leaves = {v.id: v for v in result.leaves}

    def node(n: RubricNode) -> RubricNodeView:
        v = leaves.get(n.id)
        return RubricNodeView(
            id=n.id, description=n.description, critical=n.critical,
            score=result.scores.get(n.id), kind=n.kind, type_id=n.type_id,
            verdict=v.score if v else None, evidence=v.evidence if v else "",
            children=tuple(node(c) for c in n.children))

    return node(task.cross.rubric)


@dataclass
class VerificationView:
    conditions: list[ConditionView] = field(default_factory=list)
    success: bool = False
    recomputed_success: bool = False
    metrics: EpisodeMetrics | None = None
    metrics_error: str | None = None
    recorded: list[RecordedRow] = field(default_factory=list)
    bundle: str | None = None
    rubric: RubricNodeView | None = None
    """A cross-site task's rubric tree (CAP), scored exactly."""

    @property
    def passed(self) -> int:
        return sum(c.recomputed for c in self.conditions)


def _facts(trace: EpisodeTrace) -> dict[str, Any]:
    """The final facts the verifier judges; an answer the facts lack is the ``final_answer``
    fact (as the importer records it)."""
    facts = dict(trace.final_facts)
    if trace.final_answer is not None:
        facts.setdefault("final_answer", trace.final_answer)
    return facts


def verification(trace: EpisodeTrace, task: Task, recorded: RecordedValues | None
                 ) -> VerificationView:
    facts = _facts(trace)
    view = VerificationView(success=trace.success)
    for c in task.verifier:
        view.conditions.append(ConditionView(
            description=c.description or c.fact, fact=c.fact, op=c.op, expected=c.value,
            actual=facts.get(c.fact), present=c.fact in facts,
            recorded=trace.verifier.get(c.description or c.fact),
            recomputed=check_condition(c, facts)))
    view.recomputed_success = bool(view.conditions) and all(
        c.recomputed for c in view.conditions)
    view.rubric = rubric_view(trace, task)
    try:
        view.metrics = episode_metrics(trace, task)
    except WebMDPError as exc:
        view.metrics_error = str(exc)
    if recorded is not None:
        view.bundle = recorded.bundle
        found = {d.field: d for d in episode_disagreements(trace, task, recorded)}
        for name in (k for k in CHECKS if k in recorded.fields):
            value, d = recorded.fields[name], found.get(name)
            if view.metrics is None and name != "outcome":
                view.recorded.append(RecordedRow(name, value, None, None, "not recomputed: "
                                                 f"{view.metrics_error}"))
            elif d is None:
                view.recorded.append(RecordedRow(name, value, value, True))
            else:
                view.recorded.append(RecordedRow(name, value, d.recomputed, False, d.note))
    return view
