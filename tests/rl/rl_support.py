"""Drive an environment with a task's oracle (its actions, then Finish with its answer)."""

from __future__ import annotations

from webmdp.rl.openenv import WebMDPAction, WebMDPObservation
from webmdp.tasks.model import Task


def oracle_actions(task: Task) -> list[WebMDPAction]:
    acts = [WebMDPAction(name=a.name, params=dict(a.params)) for a in task.oracle_actions()]
    return [*acts, WebMDPAction(name="Finish", params={"answer": task.answer or "done"})]


def run(env: object, task: Task, actions: list[WebMDPAction]) -> list[WebMDPObservation]:
    """Reset ``env`` to ``task`` and step through ``actions``; the observations, reset first."""
    out = [env.reset(task_id=task.id)]  # type: ignore[attr-defined]
    for a in actions:
        out.append(env.step(a))  # type: ignore[attr-defined]
        if out[-1].done:
            break
    return out
