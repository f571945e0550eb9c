"""One trainer episode, in semantic mode (:class:`~webmdp.env.semantic.SemanticEnv`) or browser
mode (:class:`~webmdp.env.browser.BrowserEnv` on a session's own Chromium): the reward a trainer
asks for (terminal, dense shaping, rubric) around the env's own loop. The OpenEnv environment
and the TRL classes both drive this, so neither holds a second copy of the episode or the
reward.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from webmdp.core.model import State
from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.env.semantic import SemanticEnv
from webmdp.rl.rewards import (
    REWARD_MODES,
    SHAPED_MODES,
    SHAPING_REFUSED,
    RewardMode,
    check_shaping,
    final_reward,
    potential,
)
from webmdp.rl.splits import unknown
from webmdp.tasks.model import Task
from webmdp.tasks.sources import CROSS

if TYPE_CHECKING:  # browser mode's seat; its module loads Playwright and the server
    from webmdp.rl.browser import BrowserSeat

T = TypeVar("T")
MODES = ("semantic", "browser")
"""Semantic: typed actions on the MDP, text observations. Browser: the coordinate / keyboard
action space (:class:`~webmdp.env.actions.GUIAction`) in Chromium, the accessibility tree as
text and a screenshot."""


def check_options(mode: str, reward: str, site: str | list[str] | None = None) -> None:
    """Refuse an unknown mode or reward mode, or a shaped reward over the cross-site suite
    alone (ValueError, the project's one-line message)."""
    if mode not in MODES:
        raise unknown("mode", mode, MODES)
    if reward not in REWARD_MODES:
        raise unknown("reward", reward, REWARD_MODES)
    if reward in SHAPED_MODES and site == CROSS:
        raise ValueError(SHAPING_REFUSED)


@dataclass
class StepResult:
    """One step as a trainer sees it: the observation, this step's reward and whether the
    episode ended (``truncated``: by the step budget); ``error`` is the site's own message
    for an invalid action (reward 0, the episode goes on); ``shaping`` is the part of the
    reward that is Φ(s') - Φ(s) (0.0 under an unshaped reward), for a trainer to log."""

    obs: dict[str, Any]
    reward: float
    done: bool
    truncated: bool
    error: str | None
    steps: int
    shaping: float = 0.0


class RLEpisode:
    """A task's episode with its reward mode. ``dense`` and ``dense-state``: r = terminal +
    Φ(s') - Φ(s), Φ = 0 at the end, so an episode's rewards sum to terminal - Φ(s₀)
    (:mod:`webmdp.rl.rewards`: ``dense`` counts what the screens have shown). In browser mode
    ``seat`` (a :class:`~webmdp.rl.browser.BrowserSeat`) gives the Chromium, and every call
    that touches it (start, step, close) runs on the seat's thread, whichever thread calls;
    Φ reads the server session's semantic state and seen set, which no page shows."""

    def __init__(self, task: Task, reward: RewardMode, *, mode: str = "semantic",
                 agent: str = "rl", step_budget: int = DEFAULT_STEP_BUDGET,
                 max_expansions: int | None = None,
                 seat: BrowserSeat | None = None, step_timeout: float | None = None) -> None:
        check_shaping(task, reward)
        self.task, self.reward_mode, self.max_expansions = task, reward, max_expansions
        self.mode, self.step_timeout = mode, step_timeout
        if mode == "browser" and seat is None:
            raise ValueError("browser mode needs a BrowserSeat")
        self.seat = seat if mode == "browser" else None
        self.env: Any = None
        self.obs = self._on_seat(self._start, agent, step_budget)
        self.phi = self._potential() if reward in SHAPED_MODES else 0.0
        self.total = 0.0
        self.success: bool | None = None
        """The exact terminal verdict once the episode ended (whatever the reward mode)."""
        self.timed_out = False
        self.steps = 0

    def _start(self, agent: str, step_budget: int) -> dict[str, Any]:
        if self.mode == "browser":
            from webmdp.env.browser import BrowserConfig, BrowserEnv
            from webmdp.rl.browser import shared_server

            assert self.seat is not None
            self.env = BrowserEnv(self.task, agent=agent, server=shared_server(),
                                  host=self.seat.host(),
                                  config=BrowserConfig(step_budget=step_budget,
                                                       observation="both"))
        else:
            self.env = SemanticEnv(self.task, agent=agent, step_budget=step_budget)
        obs, _ = self.env.reset()
        return dict(obs)

    def _on_seat(self, fn: Callable[..., T], *args: Any) -> T:
        """Browser mode: on the seat's thread; semantic mode: here."""
        return fn(*args) if self.seat is None else self.seat.run(fn, *args)

    def step(self, action: dict[str, Any]) -> StepResult:
        """``action``: ``{"name", "params"}``, a semantic action or (browser mode) a GUI action
        kind and its fields. In browser mode a step past ``step_timeout`` seconds ends the
        episode (a failure, with an error) and recycles the seat's browser."""
        if self.seat is None:
            return self._step(action)
        from webmdp.rl.browser import StepTimeout

        try:
            return self.seat.run(self._step, action, timeout=self.step_timeout)
        except StepTimeout as exc:
            self.timed_out = True
            reward = -self.phi if self.reward_mode in SHAPED_MODES else 0.0
            self.phi, self.success = 0.0, False
            self.total += reward
            self.steps += 1
            return StepResult(self.obs, reward, True, False, str(exc), self.steps, reward)

    def _step(self, action: dict[str, Any]) -> StepResult:
        if self.mode == "browser":
            action = {"kind": action["name"], **action.get("params", {})}
        obs, terminal, terminated, truncated, info = self.env.step(action)
        done = terminated or truncated
        reward = final_reward(self.reward_mode, terminal, self.env.trace) if done else 0.0
        shaping = 0.0
        if self.reward_mode in SHAPED_MODES:
            phi = 0.0 if done else self._potential()
            shaping = phi - self.phi
            reward = terminal + shaping
            self.phi = phi
        self.obs = obs
        self.total += reward
        if done:
            self.success = bool(self.env.trace.success)
        self.steps = int(info["steps"])
        return StepResult(obs, reward, done, truncated, info["error"] or self._rejected(),
                          self.steps, shaping)

    def invalid(self, error: str, raw_output: str | None = None) -> StepResult:
        """A reply that carried no action (a model that answered without a tool call): one
        invalid step with ``error``, counted against the step budget like any other."""
        def record() -> tuple[Any, ...]:
            return tuple(self.env.record_invalid(error, raw_output=raw_output))

        obs, _, terminated, truncated, info = self._on_seat(record)
        done = terminated or truncated
        reward = 0.0
        if done:
            reward = final_reward(self.reward_mode, 0.0, self.env.trace) \
                if self.reward_mode not in SHAPED_MODES else -self.phi
            self.phi, self.success = 0.0, bool(self.env.trace.success)
        self.obs, self.steps = obs, int(info["steps"])
        self.total += reward
        return StepResult(obs, reward, done, truncated, error, self.steps)

    @property
    def done(self) -> bool:
        return self.timed_out or (self.env.episode is not None and self.env.episode.done)

    def close(self) -> None:
        """Let go of the episode's page (the seat's Chromium stays for the next one; after a
        time-out it is already gone)."""
        if not self.timed_out:
            self._on_seat(self.env.close)

    def _rejected(self) -> str | None:
        """In browser mode, the site's own error when the step's input reached an action the
        site refused (the page shows it too)."""
        if self.mode != "browser" or not self.env.trace.steps:
            return None
        errors = [t.error for t in self.env.trace.steps[-1].transitions if t.error]
        return errors[-1] if errors else None

    def _state(self) -> State:
        if self.mode == "browser":
            return self.env.server.session_state(self.env.session_id)
        assert self.env.tracker is not None
        return self.env.tracker.state

    def _seen(self) -> frozenset[tuple[str, str]]:
        """The (entity, field) pairs the episode's screens have shown (the informed potential
        counts them): the semantic tracker's, or the server session's in browser mode."""
        if self.mode == "browser":
            return self.env.server.session_seen(self.env.session_id)
        assert self.env.tracker is not None
        return frozenset(self.env.tracker.seen)

    def _potential(self) -> float:
        return potential(self.task, self._state(), self._seen(), mode=self.reward_mode,
                         max_expansions=self.max_expansions)


def observation_text(obs: dict[str, Any], site: str | None = None) -> str:
    """What a model agent reads of an observation: the semantic text, or in browser mode the
    URL and the accessibility tree (the model agents' own view, :func:`model_view`). The URL
    is given from the site's root, without the server's origin and session prefix, so the
    same task starts from the same text in every session (a GRPO group's shared prompt).

    With ``site``, the semantic text's action list names each parameter the agent fills, with
    its type (``Search(query: str)``), read from the site's declarations; ``webmdp run``'s
    agents keep their own prompts."""
    if "nodes" not in obs:
        text = str(obs["text"])
        seen = obs.get("observation")
        if site is None or seen is None or _ACTIONS not in text:
            return text
        from webmdp.core.registry import get_site
        from webmdp.errors import InvalidAction
        from webmdp.rl.actions import signature

        declared = get_site(site)
        lines = []
        for a in seen.available:
            try:
                spec = declared.action_spec(a.name)
            except InvalidAction:
                spec = None
            lines.append(f"  {signature(a, spec)}")
        return text[:text.index(_ACTIONS) + len(_ACTIONS)] + "\n" + "\n".join(lines)
    from webmdp.agents.llm.observe import ObservationConfig, model_view

    url = _SESSION_PREFIX.sub("/", obs.get("url") or "", count=1)
    return model_view({**obs, "url": url},
                      ObservationConfig(screenshot=False, axtree=True)).text


_ACTIONS = "Available actions:"
_SESSION_PREFIX = re.compile(r"^https?://[^/]+/s/[^/]+/")
