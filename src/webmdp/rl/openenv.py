"""OpenEnv adapter (``pip install 'webmdp[openenv]'``): webmdp's semantic MDP as an OpenEnv
``Environment``, so one server reaches TRL, Unsloth, verifiers / prime-rl and SkyRL.

A thin layer over :class:`~webmdp.rl.episode.RLEpisode`, so over the envs themselves (the
episode loop, the budget, the verdict all stay there): it picks the task deterministically from
``reset``'s arguments, turns the 5-tuple into one observation, and adds the shaping or rubric
reward a trainer asks for. Semantic mode steps the MDP; browser mode drives a Chromium of the
session's own (:mod:`webmdp.rl.browser`), launched on its first ``reset``. The goal
(verifier, target, distance) never reaches an observation.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from webmdp.rl import lean  # noqa: F401  (first: OpenEnv loads without its web UI)

# isort: split
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import Action, EnvironmentMetadata, Observation, State
from pydantic import Field

from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.rl.browser import BrowserCap, BrowserSeat, screenshot_b64
from webmdp.rl.episode import MODES, RLEpisode, StepResult, check_options, observation_text
from webmdp.rl.rewards import RewardMode
from webmdp.rl.splits import ALL, Catalog, Holdout, default_split, resolve_path, task_spec
from webmdp.tasks.model import Task

__all__ = ["ENV_NAME", "MODES", "WebMDPAction", "WebMDPEnvironment", "WebMDPObservation",
           "WebMDPState"]

ENV_NAME = "webmdp"
README = f"""# webmdp

Every action, with its description and its parameters as JSON Schema (types, the choices of a
finite parameter, the length bound): `GET /{ENV_NAME}/actions`.

Tasks: `reset(split="train", level=1)` (or `task_id=...`, or `index=...`); the task API answers
POST (OpenEnv's) and GET with query parameters: `GET /{ENV_NAME}/num_tasks?split=train&level=1`,
`GET /{ENV_NAME}/task?split=train&index=0`.

The last observation of an episode carries `metadata["success"]`, the exact verdict, and the
state carries `success` once the episode is done: the success rate is the figure to report.
"""


NO_EPISODE = ("no episode in progress in this session: call reset() first (a step on a new "
              "session: the connection was reopened, e.g. after the worker that held the "
              "episode stopped, and that episode is lost)")


class WebMDPAction(Action):
    """Semantic mode: a semantic action, as the observation's ``Available actions`` list
    names it; ``Finish`` (``{"answer": ...}``) ends the episode. Browser mode: a GUI action
    kind (``click``, ``type``, ``key``, ``scroll``, ..., ``finish``) and its fields
    (``{"x": 640, "y": 200}``, ``{"element": 12}``, ``{"text": "..."}``)."""

    name: str = Field(description="Action name, e.g. Search or Finish (semantic mode), "
                                  "click or finish (browser mode)")
    params: dict[str, Any] = Field(default_factory=dict, description="The action's parameters")


class WebMDPObservation(Observation):
    """What a model agent reads: the page as text (``model_view(obs).text``), the task's
    instruction, and the site's own error text when the last action was invalid."""

    text: str = Field(default="", description="The current page as text: its actions "
                                              "(semantic mode), or its URL and "
                                              "accessibility tree (browser mode)")
    instruction: str = Field(default="", description="The task, in words")
    error: str | None = Field(default=None, description="Why the last action was refused")
    screenshot: str | None = Field(default=None,
                                   description="Browser mode: the viewport, PNG, base64")


class WebMDPState(State):
    """Where the episode is: its id, its step count, the task it runs and, once it is done,
    its exact verdict."""

    task_id: str | None = Field(default=None, description="The task of the episode")
    success: bool | None = Field(default=None, description="The exact terminal verdict, once "
                                                           "the episode is done (else null)")


class WebMDPEnvironment(Environment[WebMDPAction, WebMDPObservation, WebMDPState]):
    """One episode at a time over a site (or ``all``, or ``cross-site``), in semantic or
    browser mode.

    Construction is cheap (no task is built, no browser started): the server makes one per
    HTTP call and one per WebSocket session. In browser mode the session's Chromium starts on
    its first ``reset`` and holds a slot of ``browsers`` until :meth:`close`.

    ``reset`` chooses the task from ``task_id`` (a task file's first); else from ``split``
    (``train`` or ``test`` under the server's ``holdout``, or the sources ``cross-site`` and
    ``file``; none given: ``file`` when the server has a task file, else ``train``), narrowed
    by ``level`` (1-3 or ``none``), and ``index``; else
    ``index = seed % num_tasks(split, level)``; the same arguments always give the same start
    state. ``reward``: ``terminal`` (1/0 from the exact verifier at the end), ``dense``
    (terminal plus potential-based shaping) or ``rubric`` (a cross-site task's rubric root at
    the end). Each observation's ``metadata["shaping"]`` is the part of its reward that is
    shaping, Φ(s') - Φ(s) (0.0 under ``terminal`` and ``rubric``, and at reset).
    Whatever the reward, the last observation's ``metadata["success"]`` and the
    state's ``success`` carry the exact verdict: the success rate is the figure to report.
    In browser mode a step past ``step_timeout`` seconds ends the episode with an error and
    recycles the session's browser.
    """

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, site: str = ALL, *, mode: str = "semantic",
                 reward: RewardMode = "terminal", step_budget: int = DEFAULT_STEP_BUDGET,
                 tasks_file: str | None = None, holdout: str = "task", suite: str = "builtin",
                 max_expansions: int | None = None,
                 browsers: BrowserCap | None = None, step_timeout: float | None = None,
                 on_episode: Callable[[str, int, float, bool], None] | None = None) -> None:
        super().__init__()
        check_options(mode, reward, site)
        if step_budget < 1:
            raise ValueError(f"step_budget must be at least 1, got {step_budget}")
        self.catalog = Catalog(site, resolve_path(tasks_file), Holdout.parse(holdout), suite)
        self.step_timeout = step_timeout
        self.on_episode = on_episode
        self.mode = mode
        self.reward_mode: RewardMode = reward
        self.step_budget = step_budget
        self.max_expansions = max_expansions
        self._episode: RLEpisode | None = None
        self._seat = BrowserSeat(browsers) if mode == "browser" else None
        self._state = WebMDPState()

    # -- the task API (OpenEnv's TaskProvider) -------------------------------------------------
    def list_splits(self) -> list[str]:
        return self.catalog.splits()

    def num_tasks(self, split: str, level: int | str | None = None) -> int:
        return len(self.catalog.tasks(split, level))

    def get_task(self, split: str, index: int, level: int | str | None = None
                 ) -> dict[str, Any]:
        """The task spec at ``index`` of the split (narrowed to ``level``); IndexError past
        either end."""
        return task_spec(self._task_at(split, index, level), split, index)

    def list_tasks(self, split: str, level: int | str | None = None) -> list[dict[str, Any]]:
        return [task_spec(t, split, i)
                for i, t in enumerate(self.catalog.tasks(split, level))]

    def get_task_range(self, split: str, start: int | None = None,
                       stop: int | None = None) -> list[dict[str, Any]]:
        tasks = self.catalog.tasks(split)
        lo, hi, _ = slice(start, stop).indices(len(tasks))
        return [task_spec(tasks[i], split, i) for i in range(lo, hi)]

    def _task_at(self, split: str, index: int, level: int | str | None = None) -> Task:
        tasks = self.catalog.tasks(split, level)
        if not 0 <= index < len(tasks):
            raise IndexError(f"task index {index} out of range for split {split!r} "
                             f"({len(tasks)} tasks)")
        return tasks[index]

    def choose(self, *, seed: int | None = None, task_id: str | None = None,
               split: str | None = None, index: int | None = None,
               level: int | str | None = None) -> Task:
        """The task ``reset`` runs for these arguments (see the class docstring)."""
        if task_id is not None:
            return self.catalog.task(task_id)
        split = default_split(split, self.catalog.tasks_file)  # a task file: what it serves
        if index is None:
            count = self.num_tasks(split, level)
            if count == 0:
                raise ValueError(f"split {split!r}"
                                 + ("" if level is None else f" at level {level}")
                                 + " holds no tasks")
            index = (seed or 0) % count
        return self._task_at(split, index, level)

    # -- the episode ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, episode_id: str | None = None,
              task_id: str | None = None, split: str | None = None, index: int | None = None,
              level: int | str | None = None, **kwargs: Any) -> WebMDPObservation:
        task = self.choose(seed=seed, task_id=task_id, split=split, index=index, level=level)
        self._end_episode()
        self._episode = RLEpisode(task, self.reward_mode, mode=self.mode, agent="openenv",
                                  step_budget=self.step_budget,
                                  max_expansions=self.max_expansions, seat=self._seat,
                                  step_timeout=self.step_timeout)
        self._state = WebMDPState(episode_id=episode_id or uuid.uuid4().hex, step_count=0,
                                  task_id=task.id)
        return self._observation(StepResult(self._episode.obs, 0.0, False, False, None, 0),
                                 reward=None)

    def step(self, action: WebMDPAction, timeout_s: float | None = None,
             **kwargs: Any) -> WebMDPObservation:
        if self._episode is None:
            raise RuntimeError(NO_EPISODE)
        if self._episode.done:
            raise RuntimeError("the episode is over: call reset() for the next one")
        r = self._episode.step({"name": action.name, "params": dict(action.params)})
        self._state.step_count = r.steps
        if r.done:
            self._state.success = bool(self._episode.success)
            if self.on_episode is not None:
                self.on_episode(self._episode.task.id, r.steps, self._episode.total,
                                self._state.success)
        return self._observation(r, reward=r.reward)

    def _observation(self, r: StepResult, *, reward: float | None) -> WebMDPObservation:
        meta: dict[str, Any] = {"task_id": self._state.task_id,
                                "step": self._state.step_count, "truncated": r.truncated,
                                "shaping": r.shaping}
        if r.done:
            meta["success"] = self._state.success
        return WebMDPObservation(
            text=observation_text(r.obs, self._site()), instruction=r.obs["instruction"],
            error=r.error, screenshot=screenshot_b64(r.obs), done=r.done, reward=reward,
            metadata=meta)

    def _site(self) -> str | None:
        return None if self._episode is None else self._episode.task.site

    @property
    def state(self) -> WebMDPState:
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name=ENV_NAME, version=_version(),
            description=("Deterministic semantic-MDP websites (webmdp): "
                         + ("typed semantic actions, text observations"
                            if self.mode == "semantic" else
                            "GUI actions in Chromium, screenshot and accessibility tree")
                         + f"; site={self.catalog.site}, reward={self.reward_mode}."),
            readme_content=README)

    def _end_episode(self) -> None:
        if self._episode is not None:
            episode, self._episode = self._episode, None
            episode.close()

    def close(self) -> None:
        try:
            self._end_episode()
        finally:
            if self._seat is not None:
                self._seat.close()


def _version() -> str | None:
    """webmdp's installed version (read from the distribution: the ``webmdp`` facade stands
    above every layer, so this room may not import it)."""
    try:
        return version("webmdp")
    except PackageNotFoundError:
        return None
