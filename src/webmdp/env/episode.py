"""Episode bookkeeping shared by both environments: budget, trace, verdict."""

from __future__ import annotations

import time
from typing import Any

from webmdp.tasks.answers import matches
from webmdp.tasks.model import Task
from webmdp.tasks.rubric_eval import evaluate
from webmdp.tasks.verifier import verify
from webmdp.trace import (
    EpisodeTrace,
    GUIStep,
    Mode,
    Restore,
    SemanticTransition,
    StepNotes,
    Termination,
)

DEFAULT_STEP_BUDGET = 50
INVALID_KIND = "invalid"
ANSWER_CHECK = "the final answer states the expected value"
"""The verifier entry of a direct or mixed task's answer (compared after normalisation)."""
"""``{"kind": "invalid"}`` is the action recorded for a step whose model output gave no action
(the envs' ``record_invalid``)."""
AGENT_ENDINGS: tuple[Termination, ...] = ("finished", "agent_error", "unparseable",
                                          "repeated_action")
"""Terminations that are the agent's own ending (``terminated``), not an outside limit."""


class Episode:
    """Builds the :class:`EpisodeTrace` of one episode as steps arrive."""

    def __init__(self, task: Task, *, agent: str, mode: Mode, step_budget: int):
        self.task = task
        self.step_budget = step_budget * max(1, len(task.sites or ()))
        """The budget is per site: a cross-site episode over k sites gets k times as many."""
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
               env_s: float = 0.0, screenshot: str | None = None, error: str | None = None,
               notes: StepNotes | None = None, noise: str | None = None) -> GUIStep:
        """Append a step; ``error`` (else the first rejected transition's) marks it invalid;
        ``noise`` names the real-web noise the step's input landed on."""
        errors = [t.error for t in transitions if t.error]
        step = GUIStep(index=self.n_steps, raw_output=raw_output, action=action, url=url,
                       agent_s=agent_s, env_s=env_s, transitions=transitions,
                       screenshot=screenshot, error=error or (errors[0] if errors else None),
                       notes=notes, noise=noise)
        self.trace.steps.append(step)
        return step

    def record_restore(self, snapshot: str, *, node: int | None, state_key: str) -> Restore:
        """Note a backtrack to ``snapshot`` before the next step."""
        rec = Restore(before_step=self.n_steps, snapshot=snapshot, node=node, state_key=state_key)
        self.trace.restores.append(rec)
        return rec

    def over_budget(self) -> bool:
        return self.n_steps >= self.step_budget

    def close(self, facts: dict[str, Any], *, termination: Termination, answer: str | None = None,
              infra_error: str | None = None, agent_error: str | None = None) -> EpisodeTrace:
        """Judge the final facts and seal the trace."""
        tr = self.trace
        tr.final_facts = facts
        tr.verifier = verify(self.task.verifier, facts)
        if self.task.answer is not None:  # a direct or mixed task: the answer is judged too
            tr.verifier[ANSWER_CHECK] = matches(self.task.answer, answer)
        tr.success = termination != "infra_error" and bool(tr.verifier) and all(
            tr.verifier.values())
        if self.task.cross is not None:  # a cross-site task: its rubric tree, leaf by leaf
            tr.rubric = evaluate(self.task.cross.rubric, tr.transitions(),
                                 tr.initial_revealed, facts, answer)
        tr.termination = termination
        tr.terminated = termination in AGENT_ENDINGS
        tr.truncated = termination == "budget"
        tr.final_answer = answer
        tr.infra_error = infra_error
        tr.agent_error = agent_error
        tr.duration_s = round(time.perf_counter() - self.started, 4)
        self.done = True
        return tr
