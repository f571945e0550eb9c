"""Everything the episode page shows, assembled from the index: the trace and its task read
on demand, the replay's steps, the trajectory beside a reference and the verification panel.
"""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.eval.bifurcation import ORACLE
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace
from webmdp.viewer.index import EpisodeRef, RunIndex
from webmdp.viewer.replay import StepView, step_views
from webmdp.viewer.trajectory import TrajectoryView, compare, references
from webmdp.viewer.verification import VerificationView, verification


@dataclass
class EpisodePage:
    ep: EpisodeRef
    trace: EpisodeTrace
    task: Task
    steps: list[StepView]
    traj: TrajectoryView
    offered: list[str]
    """References the trajectory view offers: the oracle, then agents that succeeded."""
    check: VerificationView
    siblings: list[EpisodeRef]
    bif_steps: set[int]
    """GUI steps that took the failing next action at the bifurcation point."""


def episode_page(index: RunIndex, ep: EpisodeRef, reference: str = "") -> EpisodePage:
    """The page of ``ep``; ``reference`` picks the trajectory view's reference (default: the
    oracle; for a site we cannot replay, the report's reference, else the first agent that
    succeeded on the task).
    Raises ``OSError`` / ``ValueError`` when the trace or its task cannot be read."""
    trace, task = index.trace(ep), index.task(ep.task_id)
    others = []
    for other in index.siblings(ep.task_id):
        try:
            others.append((index.trace(other), task))
        except (OSError, ValueError):
            continue  # an unreadable sibling says so on its own page
    offered = references(trace, others)
    wanted = reference if reference in offered else ORACLE
    traj = compare(trace, task, others, wanted)
    if traj.error is not None and wanted == ORACLE and len(offered) > 1:
        offered = offered[1:]  # a site we do not implement: its oracle cannot be replayed
        traj = compare(trace, task, others,
                       traj.report.reference if traj.report is not None else offered[0])
    bif_steps = {r.agent.step for r in traj.rows
                 if r.bifurcation and r.agent is not None and r.agent.step is not None}
    first = trace.initial_screenshot or next((s.screenshot for s in trace.steps
                                              if s.screenshot), None)
    shot = index.screenshot(ep, first) if first else None
    return EpisodePage(ep, trace, task, step_views(trace, task, shot), traj,
                       offered, verification(trace, task, index.recorded(ep)),
                       list(index.siblings(ep.task_id)), bif_steps)
