"""What a semantic-mode agent saw before each step of a stored trace.

Traces keep actions and transitions, not observation text, so an exporter re-renders each
step's observation by driving a fresh :class:`SemanticEnv` with the recorded actions (restores
of a tree search included): the same env, the same ``observe`` and the same
:func:`webmdp.agents.llm.observe.model_view` the model agents use, so the text is what the
agent was shown, byte for byte. Each replayed step's state is checked against the recorded
transition's ``state_key``; a trace the MDP no longer reproduces gives ``None``.
"""

from __future__ import annotations

from webmdp.agents.llm.observe import ModelView, ObservationConfig, model_view
from webmdp.env.episode import INVALID_KIND
from webmdp.env.semantic import SemanticEnv
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace
from webmdp.tracking import state_key

_TEXT = ObservationConfig(screenshot=False, history_images=0)


def semantic_views(trace: EpisodeTrace, task: Task) -> list[ModelView] | None:
    """The model's view before every step of a semantic trace, or ``None`` when replaying
    the recorded actions does not reach the recorded states."""
    env = SemanticEnv(task, step_budget=len(trace.steps) + 1)
    obs, _ = env.reset()
    assert env.tracker is not None
    snapshots = {state_key(env.tracker.state): env.snapshot()}
    restores = {r.before_step: r.state_key for r in trace.restores}
    views: list[ModelView] = []
    for step in trace.steps:
        if step.index in restores:
            snap = snapshots.get(restores[step.index] or "")
            if snap is None:
                return None
            obs = env.restore(snap)
        views.append(model_view(obs, _TEXT))
        if step.action.get("kind") == INVALID_KIND:
            obs, *_ = env.record_invalid(step.error or "invalid")
            continue
        obs, *_ = env.step(step.action)
        recorded = [t.state_key for t in step.transitions if t.state_key]
        now = state_key(env.tracker.state)
        if recorded and recorded[-1] != now:
            return None
        if restores and env.episode is not None and not env.episode.done:
            snapshots.setdefault(now, env.snapshot())
    return views
