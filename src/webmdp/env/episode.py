"""Episode bookkeeping shared by both environments: budget, trace, verdict."""

from __future__ import annotations

import time
from typing import Any

from webmdp.tasks.model import Task
from webmdp.tasks.verifier import verify
from webmdp.trace import EpisodeTrace, GUIStep, Mode, SemanticTransition, Termination

DEFAULT_STEP_BUDGET = 50


class Episode:
    """Builds the :class:`EpisodeTrace` of one episode as steps arrive."""

    def __init__(self, task: Task, *, agent: str, mode: Mode, step_budget: int):
        self.task = task
        self.step_budget = step_budget
        self.started = time.perf_counter()
        self.trace = EpisodeTrace(task_id=task.id, site=task.site, template=task.template,
                                  agent=agent, mode=mode, seed=task.seed)
        self.done = False

    def start(self, surface: str, revealed: list[tuple[str, str]]) -> None:
        self.trace.initial_surface = surface
        self.trace.initial_revealed = [tuple(p) for p in revealed]  # type: ignore[misc]

    @property
    def n_steps(self) -> int:
        return len(self.trace.steps)

    def record(self, action: dict[str, Any], transitions: list[SemanticTransition], *,
               raw_output: str | None = None, url: str | None = None, agent_s: float = 0.0,
               env_s: float = 0.0, screenshot: str | None = None) -> GUIStep:
        errors = [t.error for t in transitions if t.error]
        step = GUIStep(index=self.n_steps, raw_output=raw_output, action=action, url=url,
                       agent_s=agent_s, env_s=env_s, transitions=transitions,
                       screenshot=screenshot, error=errors[0] if errors else None)
        self.trace.steps.append(step)
        return step

    def over_budget(self) -> bool:
        return self.n_steps >= self.step_budget

    def close(self, facts: dict[str, Any], *, termination: Termination, answer: str | None = None,
              infra_error: str | None = None, agent_error: str | None = None) -> EpisodeTrace:
        """Judge the final facts and seal the trace."""
        tr = self.trace
        tr.final_facts = facts
        tr.verifier = verify(self.task.verifier, facts)
        tr.success = termination != "infra_error" and bool(tr.verifier) and all(
            tr.verifier.values())
        tr.termination = termination
        tr.terminated = termination in ("finished", "agent_error")
        tr.truncated = termination == "budget"
        tr.final_answer = answer
        tr.infra_error = infra_error
        tr.agent_error = agent_error
        tr.duration_s = round(time.perf_counter() - self.started, 4)
        self.done = True
        return tr
