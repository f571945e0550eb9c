"""One trainer episode over :class:`~webmdp.env.semantic.SemanticEnv`: the reward a trainer asks
for (terminal, dense shaping, rubric) around the env's own loop. The OpenEnv environment and
the TRL classes both drive this, so neither holds a second copy of the episode or the reward.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.env.semantic import SemanticEnv
from webmdp.rl.rewards import RewardMode, final_reward, potential
from webmdp.tasks.distance import DEFAULT_MAX_EXPANSIONS
from webmdp.tasks.model import Task


@dataclass
class StepResult:
    """One step as a trainer sees it: the observation, this step's reward and whether the
    episode ended (``truncated``: by the step budget); ``error`` is the site's own message
    for an invalid action (reward 0, the episode goes on)."""

    obs: dict[str, Any]
    reward: float
    done: bool
    truncated: bool
    error: str | None
    steps: int


class RLEpisode:
    """A task's episode with its reward mode. ``dense``: r = terminal + Φ(s') - Φ(s), Φ = 0 at
    the end, so an episode's rewards sum to terminal - Φ(s₀)."""

    def __init__(self, task: Task, reward: RewardMode, *, agent: str = "rl",
                 step_budget: int = DEFAULT_STEP_BUDGET,
                 max_expansions: int = DEFAULT_MAX_EXPANSIONS) -> None:
        self.task, self.reward_mode, self.max_expansions = task, reward, max_expansions
        self.env = SemanticEnv(task, agent=agent, step_budget=step_budget)
        self.obs, _ = self.env.reset()
        self.phi = self._potential() if reward == "dense" else 0.0
        self.total = 0.0

    def step(self, action: dict[str, Any]) -> StepResult:
        obs, terminal, terminated, truncated, info = self.env.step(action)
        done = terminated or truncated
        reward = final_reward(self.reward_mode, terminal, self.env.trace) if done else 0.0
        if self.reward_mode == "dense":
            phi = 0.0 if done else self._potential()
            reward = terminal + phi - self.phi
            self.phi = phi
        self.obs = obs
        self.total += reward
        return StepResult(obs, reward, done, truncated, info["error"], int(info["steps"]))

    @property
    def done(self) -> bool:
        return self.env.episode is not None and self.env.episode.done

    def _potential(self) -> float:
        assert self.env.tracker is not None
        return potential(self.task, self.env.tracker.state,
                         max_expansions=self.max_expansions)
