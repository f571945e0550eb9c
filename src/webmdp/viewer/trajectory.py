"""Trajectory vs reference: an episode's semantic trajectory beside the oracle's (or another
agent's successful one), matched steps on one row, divergences and the bifurcation point
marked.

The trajectories, their alignment keys and the bifurcation point all come from
:mod:`webmdp.eval.bifurcation`, so the viewer shows exactly what ``webmdp report`` counts.
Rows: the shared states found the way :func:`~webmdp.eval.bifurcation.align` walks (every
match, not only the last) anchor the two columns; one move on each side between consecutive
anchors is a matched step, anything else a divergence that rejoins; after the last anchor
(the bifurcation point) the two part for good.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise, zip_longest

from webmdp.errors import WebMDPError
from webmdp.eval.bifurcation import (
    ORACLE,
    Bifurcation,
    Trajectory,
    bifurcations,
    find_bifurcation,
    oracle_trajectory,
    trajectory,
)
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace
from webmdp.viewer.replay import params_text

Episode = tuple[EpisodeTrace, Task]


@dataclass(frozen=True)
class MoveView:
    """One valid transition of a trajectory; ``step`` is its GUI step (None for the oracle,
    or when a restore rewound the path)."""

    n: int
    action: str
    params: str
    category: str
    commit: bool
    step: int | None = None
    surface: str = ""


@dataclass(frozen=True)
class Row:
    """``kind``: ``match`` (same step on both sides), ``detour`` (the agent left a shared state
    and came back), ``diverge`` (the two differ, then meet again), ``after`` (past the
    bifurcation point: they never meet again)."""

    kind: str
    agent: MoveView | None
    ref: MoveView | None
    bifurcation: bool = False


@dataclass
class TrajectoryView:
    reference: str
    """``oracle`` or ``agent (mode)`` of the reference episode."""
    rows: list[Row] = field(default_factory=list)
    point: Bifurcation | None = None
    why: str = ""
    """Why there is no bifurcation point or no alignment."""
    report: Bifurcation | None = None
    """The bifurcation ``webmdp report`` counts for this episode (its own reference)."""
    shared: int = 0
    agent_length: int = 0
    reference_length: int = 0
    error: str | None = None


def anchors(agent: Sequence[str], ref: Sequence[str]) -> list[tuple[int, int]]:
    """Every ``(agent state, reference state)`` match of :func:`align`'s walk, in order; its
    last is the bifurcation point."""
    where: dict[str, list[int]] = {}
    for i, key in enumerate(ref):
        where.setdefault(key, []).append(i)
    at, out = 0, []
    for j, key in enumerate(agent):
        positions = where.get(key)
        if positions is None:
            continue
        k = bisect_left(positions, at)
        if k < len(positions):
            at = positions[k]
            out.append((j, at))
    return out


def move_views(traj: Trajectory, trace: EpisodeTrace | None) -> list[MoveView]:
    """The moves with their GUI step and surface, when the trace's valid transitions are the
    trajectory's moves one for one (no restore rewound it)."""
    valid = [(s.index, t) for s in trace.steps for t in s.transitions
             if t.error is None] if trace is not None else []
    linked = len(valid) == len(traj.moves)
    out = []
    for n, m in enumerate(traj.moves):
        step, t = valid[n] if linked else (None, None)
        out.append(MoveView(n, m.action, params_text(m.params), m.category, m.commit,
                            step, t.surface_after if t is not None else ""))
    return out


def rows(agent: Trajectory, ref: Trajectory, agent_moves: list[MoveView],
         ref_moves: list[MoveView], point: Bifurcation | None) -> list[Row]:
    """The aligned rows of two trajectories (see the module doc)."""
    out: list[Row] = []
    marks = anchors(agent.states, ref.states) or [(0, 0)]
    if marks[0] != (0, 0):
        marks.insert(0, (0, 0))

    def mark(a: MoveView | None, r: MoveView | None) -> bool:
        return point is not None and ((a is not None and a.n == point.index) or
                                      (r is not None and r.n == point.reference_index))

    for (j0, i0), (j1, i1) in pairwise(marks):
        a, r = agent_moves[j0:j1], ref_moves[i0:i1]
        if len(a) == 1 and len(r) == 1:
            out.append(Row("match", a[0], r[0]))
        else:
            kind = "detour" if not r else "diverge"
            out += [Row(kind, x, y, mark(x, y)) for x, y in zip_longest(a, r)]
    j, i = marks[-1]
    out += [Row("after", x, y, mark(x, y)) for x, y in zip_longest(agent_moves[j:],
                                                                     ref_moves[i:])]
    return out


def _report_point(trace: EpisodeTrace, siblings: Sequence[Episode]) -> Bifurcation | None:
    """The report's bifurcation of this episode (reference chosen as ``webmdp report`` does)."""
    try:
        got = bifurcations(list(siblings))
    except WebMDPError:
        return None
    return next((b for b in got if (b.agent, b.mode) == (trace.agent, trace.mode)), None)


def references(trace: EpisodeTrace, siblings: Sequence[Episode]) -> list[str]:
    """Reference names on offer: the oracle, then every other agent that succeeded on the
    task (``agent (mode)``)."""
    mine = f"{trace.agent} ({trace.mode})"
    return [ORACLE, *sorted(f"{t.agent} ({t.mode})" for t, _ in siblings
                            if t.success and f"{t.agent} ({t.mode})" != mine)]


def compare(trace: EpisodeTrace, task: Task, siblings: Sequence[Episode], reference: str
            ) -> TrajectoryView:
    """``trace`` beside ``reference`` (``oracle`` or a sibling's ``agent (mode)``).
    ``siblings``: every episode of the task (this one included), for the report's point."""
    view = TrajectoryView(reference=reference, report=None)
    if not trace.success and trace.termination != "infra_error":
        view.report = _report_point(trace, siblings)
    try:
        mine = trajectory(trace, task)
        ref_trace = next((t for t, _ in siblings if f"{t.agent} ({t.mode})" == reference),
                         None)
        ref = oracle_trajectory(task) if ref_trace is None else trajectory(ref_trace, task)
    except WebMDPError as exc:
        view.error = str(exc)
        return view
    agent_moves, ref_moves = move_views(mine, trace), move_views(ref, ref_trace)
    view.agent_length, view.reference_length = len(mine.moves), len(ref.moves)
    found = anchors(mine.states, ref.states)
    view.shared = len(found)
    if trace.success:
        view.why = "the episode succeeded: no bifurcation point"
    elif trace.termination == "infra_error":
        view.why = "an infrastructure error ended the episode: it is not scored, and has no " \
                   "bifurcation point"
    else:
        view.point = find_bifurcation(mine, ref)
        if view.point is None:
            view.why = ("no shared state with the reference" if not found else
                        "the trajectory reaches the reference's final state: the failure is not "
                        "in the path (e.g. a wrong final answer)")
    view.rows = rows(mine, ref, agent_moves, ref_moves, view.point)
    return view

