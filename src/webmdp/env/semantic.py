"""SemanticEnv: agents act with typed semantic actions directly on the MDP."""

from __future__ import annotations

import time
from typing import Any

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.env.episode import DEFAULT_STEP_BUDGET, Episode
from webmdp.sites import get_site
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace, Termination
from webmdp.tracking import Tracker

FINISH = "Finish"


def as_action(action: Action | dict[str, Any]) -> Action:
    if isinstance(action, Action):
        return action
    return Action.from_dict(action)


class SemanticEnv:
    """Gymnasium-shaped env over a task's semantic MDP.

    Observation: ``{"text", "observation", "instruction"}``. Actions: :class:`Action` (or its
    dict form); ``Action("Finish", {"answer": ...})`` ends the episode. An invalid action is
    recorded as an invalid step and the episode goes on. ``terminated``: the agent finished;
    ``truncated``: the step budget ran out.
    """

    mode = "semantic"

    def __init__(self, task: Task, *, agent: str = "agent", step_budget: int = DEFAULT_STEP_BUDGET):
        self.task = task
        self.site = get_site(task.site)
        self.world = World.from_dict(task.world)
        self.agent = agent
        self.step_budget = step_budget
        self.episode: Episode | None = None
        self.tracker: Tracker | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.tracker = Tracker(self.site, self.world)
        self.episode = Episode(self.task, agent=self.agent, mode="semantic",
                               step_budget=self.step_budget)
        self.episode.start(self.tracker.state.surface, self.tracker.initial_revealed)
        return self._obs(), {"task_id": self.task.id, "instruction": self.task.instruction}

    def _obs(self) -> dict[str, Any]:
        assert self.tracker is not None
        obs = self.site.observe(self.tracker.state, self.world)
        return {"text": obs.to_text(), "observation": obs, "instruction": self.task.instruction}

    def step(self, action: Action | dict[str, Any], *, raw_output: str | None = None,
             agent_s: float = 0.0):
        if self.episode is None or self.tracker is None or self.episode.done:
            raise RuntimeError("call reset() before step()")
        act = as_action(action)
        t0 = time.perf_counter()
        if act.name == FINISH:
            self.episode.record(act.to_dict(), [], raw_output=raw_output, agent_s=agent_s)
            trace = self.episode.close(self.site.facts(self.tracker.state), termination="finished",
                                       answer=act.params.get("answer"))
            return self._obs(), float(trace.success), True, False, self._info()
        rec = self.tracker.apply(act)
        self.episode.record(act.to_dict(), [rec], raw_output=raw_output, agent_s=agent_s,
                            env_s=time.perf_counter() - t0)
        truncated = self.episode.over_budget()
        if truncated:
            self.episode.close(self.site.facts(self.tracker.state), termination="budget")
        reward = float(self.episode.trace.success) if truncated else 0.0
        return self._obs(), reward, False, truncated, self._info(rec.error)

    def seal(self, termination: Termination, *, infra_error: str | None = None,
             agent_error: str | None = None) -> EpisodeTrace:
        """End the episode early (agent failure); the run goes on."""
        assert self.episode is not None
        facts = self.site.facts(self.tracker.state) if self.tracker is not None else {}
        return self.episode.close(facts, termination=termination, infra_error=infra_error,
                                  agent_error=agent_error)

    def _info(self, error: str | None = None) -> dict[str, Any]:
        assert self.episode is not None
        return {"error": error, "steps": self.episode.n_steps, "done": self.episode.done}

    @property
    def trace(self) -> EpisodeTrace:
        assert self.episode is not None
        return self.episode.trace

    def close(self) -> None:
        """Nothing to release; present for the gymnasium shape."""
