"""The semantic state before and after every GUI step of a stored trace, by replaying its
recorded transitions on the task's MDP (checked against each transition's ``state_key``)."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.core.model import State, World
from webmdp.core.registry import get_site
from webmdp.core.spec import Action
from webmdp.errors import InvalidAction
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace, GUIStep
from webmdp.tracking import state_key

FINISH_NAMES = frozenset({"Finish", "finish"})


@dataclass(frozen=True)
class StepStates:
    """One GUI step seen semantically. ``before`` / ``after`` are None once the replay has
    diverged from the recorded state keys (the step cannot be graded exactly)."""

    index: int
    before: State | None
    after: State | None
    changed: bool
    """Some transition of the step changed the semantic state."""
    finish: bool
    """The step ends the episode (a ``Finish`` action, or the browser's ``finish``)."""
    error: bool
    """The step was rejected (an invalid GUI or semantic action)."""
    informs: bool = False
    """The step revealed evidence the task requires (an info constraint, WebSTEP C.4) that no
    earlier step had revealed."""


def is_finish(step: GUIStep) -> bool:
    a = step.action
    return a.get("kind") == "finish" or a.get("name") in FINISH_NAMES


def replay(trace: EpisodeTrace, task: Task) -> list[StepStates]:
    """States around every step. Restores (tree search) jump to the recorded state."""
    site = get_site(task.site)
    world = World.from_dict(task.world)
    state: State | None = site.initial_state(world)
    seen: dict[str, State] = {state_key(state): state} if state is not None else {}
    restores = {r.before_step: r.state_key for r in trace.restores}
    required = {(c.entity, c.field) for c in task.info_constraints}
    revealed = {(e, f) for e, f in trace.initial_revealed}
    out: list[StepStates] = []
    for step in trace.steps:
        if step.index in restores:
            state = seen.get(restores[step.index])
        before, changed = state, False
        new = {(e, f) for t in step.transitions for e, f in t.revealed} - revealed
        revealed |= new
        for t in step.transitions:
            if t.error is not None or state is None:
                continue
            try:
                after = site.step(state, Action(t.action, t.params), world)
            except InvalidAction:
                state = None  # the MDP disagrees with the recorded trace
                continue
            if t.state_key and state_key(after) != t.state_key:
                state = None
                continue
            changed = changed or after != state
            state = after
            seen[t.state_key or state_key(after)] = after
        out.append(StepStates(step.index, before, state, changed, is_finish(step),
                              step.error is not None, bool(new & required)))
    return out
