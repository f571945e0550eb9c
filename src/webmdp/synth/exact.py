"""Exact step grades (WebSTAR's 0-10 scale, with no judge): the goal distance before and after
every GUI step decides its grade. The mapping is fixed so that agreement figures compare
across builds:

=====================================================================  =====
step                                                                   grade
=====================================================================  =====
d goes down (a shortest-path step, or undoing an earlier mistake)        10
the step reveals evidence the task requires, first time, goal reachable  10
the step follows the task's verified oracle (to a later oracle state)     10
d unchanged (no progress)                                                 5
d goes up, the goal stays reachable (a detour that can be undone)         2
the goal becomes unreachable (an irreversible error)                      0
finish: the verifier passes / fails                                   10 / 0
no semantic change, part of the next semantic action's GUI sequence
(typing, opening a dropdown, scrolling to its target)           that action's
any other step with no semantic change                                    5
=====================================================================  =====

The second row is ours, not the issue's table: the instruction picks one entity among
look-alikes, so an agent must look at the hard negatives' deciding fields (the task's info
constraints, WebSTEP C.4) before it can commit knowingly. Opening a hard negative moves away from
the goal in distance, yet the oracle does it; a grade that called it a detour would teach a
model to commit blind. Seeing required evidence for the first time is progress, as long as the
goal stays reachable. The third row is the same argument for narrowing: the oracle's search and
filters bring the group on screen (WebSTEP E.3 stage 1) though the target may already be one
click away; the oracle is a verified witness path, so a step from one of its states to a later
one is progress.

A distance the search cannot settle within its budget is *unknown*: the step is ungraded
(``grade`` None, ``why`` says so), counted and reported, never graded 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from webmdp.core.model import State, World
from webmdp.core.registry import get_site
from webmdp.errors import InvalidAction
from webmdp.synth.replay import StepStates, replay
from webmdp.synth.sidefile import Row
from webmdp.tasks.distance import DEFAULT_MAX_EXPANSIONS, Reach, reach, state_key_fn
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace, GUIStep

CLOSER, SAME, DETOUR, DEAD = 10, 5, 2, 0
PASS, FAIL = 10, 0
OracleIndex = tuple[dict[Hashable, tuple[int, int]], Callable[[State], Hashable]]
PREP_KINDS = frozenset({"click", "double_click", "triple_click", "move", "type", "key",
                        "scroll", "select_option", "hover"})
"""GUI kinds that can prepare a semantic action without changing the state themselves."""


@dataclass(frozen=True)
class Graded:
    grade: int | None
    why: str
    d_before: int | None = None
    d_after: int | None = None


def step_grade(before: Reach, after: Reach, informs: bool = False) -> Graded:
    """The table's rule for a step that changed the semantic state and left the oracle's
    path (a step along it is progress without a search)."""
    d0, d1 = before.distance, after.distance
    if informs and after.distance is not None:
        return Graded(CLOSER, "informs", d0, d1)
    if after.unreachable:
        if before.unreachable:
            return Graded(SAME, "still_unreachable", d0, d1)
        if before.distance is None:
            return Graded(None, "unknown_distance", d0, d1)
        return Graded(DEAD, "irreversible", d0, d1)
    if after.distance is None:
        return Graded(None, "unknown_distance", d0, d1)
    if before.unreachable:
        return Graded(CLOSER, "closer", d0, d1)
    if before.distance is None:
        return Graded(None, "unknown_distance", d0, d1)
    if after.distance < before.distance:
        return Graded(CLOSER, "closer", d0, d1)
    if after.distance == before.distance:
        return Graded(SAME, "no_progress", d0, d1)
    return Graded(DETOUR, "detour", d0, d1)





class ExactGrader:
    """Grades the steps of stored traces; distances are cached per task across rollouts."""

    source = "exact"

    def __init__(self, budget: int = DEFAULT_MAX_EXPANSIONS):
        self.budget = budget
        self._oracle: dict[str, OracleIndex] = {}

    def oracle_index(self, task: Task) -> OracleIndex:
        """Each state of the task's oracle trajectory with its first and last position on it
        (the list it returns to after each inspection recurs), and the state key it uses."""
        if task.id not in self._oracle:
            site, world = get_site(task.site), World.from_dict(task.world)
            state = site.initial_state(world)
            key = state_key_fn(state)
            index: dict[Hashable, tuple[int, int]] = {key(state): (0, 0)}
            for i, action in enumerate(task.oracle_actions(), 1):
                try:
                    state = site.step(state, action, world)
                except InvalidAction:
                    break
                k = key(state)
                index[k] = (index[k][0] if k in index else i, i)
            self._oracle[task.id] = (index, key)
        return self._oracle[task.id]

    def follows_oracle(self, task: Task, before: State, after: State) -> bool:
        """The oracle goes from ``before`` to ``after`` at some point, with no step back."""
        index, key = self.oracle_index(task)
        i, j = index.get(key(before)), index.get(key(after))
        return i is not None and j is not None and i[0] < j[1]

    def reach(self, task: Task, state: State) -> Reach:
        return reach(task, state, max_expansions=self.budget, focused=True)

    def grades(self, trace: EpisodeTrace, task: Task) -> list[Graded]:
        states = replay(trace, task)
        out: list[Graded | None] = []
        for s in states:
            out.append(self._direct(trace, task, s))
        return _fill_preparation(trace.steps, states, out)

    def _direct(self, trace: EpisodeTrace, task: Task, s: StepStates) -> Graded | None:
        if s.finish:
            return Graded(PASS if trace.success else FAIL,
                          "finish_pass" if trace.success else "finish_fail")
        if s.before is None or s.after is None:
            return Graded(None, "replay_diverged")
        if not s.changed:
            return None  # decided by the pass over GUI sequences
        if self.follows_oracle(task, s.before, s.after):
            return Graded(CLOSER, "follows_oracle")
        return step_grade(self.reach(task, s.before), self.reach(task, s.after), s.informs)

    def rows(self, label: str, mode: str, trace: EpisodeTrace, task: Task) -> list[Row]:
        return [grade_row(label, mode, trace, i, g, self.source)
                for i, g in enumerate(self.grades(trace, task))]


def _fill_preparation(steps: list[GUIStep], states: list[StepStates],
                      graded: list[Graded | None]) -> list[Graded]:
    """Steps with no semantic change take the grade of the semantic action whose GUI sequence
    they belong to: the run of unchanged, accepted, non-repeated preparatory steps right before
    a changing step. Any other unchanged step is graded 5."""
    out: list[Graded] = []
    for i, g in enumerate(graded):
        if g is not None:
            out.append(g)
            continue
        nxt = _prepared(steps, states, graded, i)
        out.append(Graded(nxt.grade, "prepares" if nxt.grade is not None else nxt.why,
                          nxt.d_before, nxt.d_after) if nxt is not None
                   else Graded(SAME, "no_change"))
    return out


def _prepared(steps: list[GUIStep], states: list[StepStates], graded: list[Graded | None],
              i: int) -> Graded | None:
    seen: set[str] = set()
    for j in range(i, len(steps)):
        if graded[j] is not None:
            finish = states[j].finish
            return None if finish or not states[j].changed else graded[j]
        step, kind = steps[j], steps[j].action.get("kind")
        sig = repr(sorted(step.action.items()))
        if step.error is not None or kind not in PREP_KINDS or sig in seen:
            return None
        seen.add(sig)
    return None


def grade_row(label: str, mode: str, trace: EpisodeTrace, step: int, g: Graded,
              source: str) -> Row:
    row: dict[str, Any] = {"task_id": trace.task_id, "agent": label, "mode": mode,
                           "seed": trace.seed, "step": step, "grade": g.grade, "source": source,
                           "why": g.why, "site": trace.site, "template": trace.template,
                           "success": trace.success}
    if g.d_before is not None or g.d_after is not None:
        row["d_before"], row["d_after"] = g.d_before, g.d_after
    return row


def counts(rows: Iterable[Row]) -> dict[str, int]:
    """How many steps were graded, ungraded, and why not (``ungraded_<why>``)."""
    rows = list(rows)
    why = Counter(f"ungraded_{r.get('why', 'unknown')}" for r in rows if r.get("grade") is None)
    ungraded = sum(why.values())
    return {"steps": len(rows), "graded": len(rows) - ungraded, "ungraded": ungraded, **why}
