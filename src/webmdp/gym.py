"""Gymnasium adapter (``pip install 'webmdp[gym]'``): webmdp's environments under Gymnasium's API.

``import webmdp.gym`` registers every webmdp id under the ``webmdp`` namespace:
``webmdp/<site>-v1`` (any task of the site) and ``webmdp/<site>-<template>-v1``::

    import gymnasium as gym
    import webmdp.gym  # or gym.make("webmdp.gym:webmdp/shopping-v1")

    env = gym.make("webmdp/shopping-v1", mode="semantic")
    obs, info = env.reset(seed=0)             # the seed picks the task; info["instruction"]
    obs, reward, terminated, truncated, info = env.step(
        '{"name": "Search", "params": {"query": "lamp"}}')

The env is a thin adapter over :class:`~webmdp.env.semantic.SemanticEnv` and
:class:`~webmdp.env.browser.BrowserEnv`: the action is a :class:`~gymnasium.spaces.Text`
holding the JSON of a semantic action (``{"name", "params"}``) or of a browser action (a
:class:`~webmdp.env.actions.GUIAction`: ``{"kind": "click", "element": 3}``). A string in the
space that is no valid action is an invalid step (recorded, counted against the step budget),
as in the wrapped envs; a value outside the space raises
:class:`gymnasium.error.InvalidAction` and leaves the episode as it was. ``terminated``: the
agent sent ``Finish`` / ``finish``; ``truncated``: the step budget ran out; the reward is 1.0
when the task's verifier accepts the final state, else 0.0.
"""

from __future__ import annotations

import html
import inspect
import io
import json
import re
import string
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # gymnasium is an optional extra
    raise ImportError("webmdp.gym needs Gymnasium >= 1.0: pip install 'webmdp[gym]'") from exc

from webmdp.core.registry import usable_sites
from webmdp.env.chromium import VIEWPORT
from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.env.registry import env_ids as webmdp_env_ids
from webmdp.env.registry import resolve_task
from webmdp.env.semantic import SemanticEnv
from webmdp.errors import ConfigError, unknown_choice
from webmdp.sites import get_site
from webmdp.tasks.generate import plan
from webmdp.tasks.model import Task

__all__ = ["OBSERVATIONS", "WebMDPEnv", "charset", "env_ids", "gym_id", "make", "register"]

NAMESPACE = "webmdp"
OBSERVATIONS: dict[str, tuple[str, ...]] = {
    "semantic": ("text",),
    "browser": ("axtree", "screenshot", "both"),
}
"""The observation kinds of each mode; the first is the default."""
OBS_MAX_LENGTH = 65_536
"""Longest text observation (characters); a longer one is cut (``info["clipped"]``)."""
ACTION_MAX_LENGTH = 16_384
"""Longest JSON action (characters)."""
REPLACEMENT = "\ufffd"
"""Stands in for a character outside :func:`charset` (``info["clipped"]``)."""
_SOURCE_SUFFIXES = (".py", ".html", ".js", ".css")
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})|\\N\{([^}]+)\}")


def _unescape(m: re.Match[str]) -> str:
    """A Python / JS ``\\uXXXX``, ``\\UXXXXXXXX`` or ``\\N{NAME}`` escape as its character."""
    try:
        code = m[1] or m[2]
        return chr(int(code, 16)) if code else unicodedata.lookup(m[3])
    except (KeyError, ValueError):
        return ""


@cache
def charset() -> str:
    """Every character a text observation (or a typed text) holds: ``string.printable`` plus
    each non-ASCII character in the sources of the registered sites (their worlds,
    generators, views, static files), the task generators and the observation code, written
    literally, as a Python / JS escape or as an HTML entity; plus :data:`REPLACEMENT`."""
    pkg = Path(__file__).parent
    roots = {pkg / "sites", pkg / "tasks", pkg / "core", pkg / "env"}
    roots |= {Path(inspect.getfile(type(site))).parent for site in usable_sites()}
    files = {p.resolve() for root in roots for p in root.rglob("*")
             if p.suffix in _SOURCE_SUFFIXES}
    found = set(string.printable) | {REPLACEMENT}
    for path in sorted(files):
        text = _ESCAPE.sub(_unescape, html.unescape(path.read_text("utf-8", errors="replace")))
        found.update(c for c in text if not c.isascii() and unicodedata.category(c) != "Cs")
    return "".join(sorted(found))


def _text_space(max_length: int, min_length: int = 0) -> spaces.Text:
    return spaces.Text(max_length, min_length=min_length, charset=charset())


def _fit(text: str) -> tuple[str, bool]:
    """``text`` inside the observation space: foreign characters replaced, cut at the maximum
    length; and whether anything was changed."""
    chars = frozenset(charset())
    fitted = "".join(c if c in chars else REPLACEMENT for c in text)[:OBS_MAX_LENGTH]
    return fitted, fitted != text


def _png_to_rgb(png: bytes) -> np.ndarray:
    """A PNG as an ``(height, width, 3)`` uint8 array (a new one each call)."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as img:
        return np.array(img.convert("RGB"), dtype=np.uint8)


def gym_id(webmdp_id: str) -> str:
    """A webmdp id's Gymnasium id: ``shopping/review_extract-v1`` →
    ``webmdp/shopping-review_extract-v1``."""
    return f"{NAMESPACE}/{webmdp_id.replace('/', '-')}"


def env_ids() -> list[str]:
    """Every Gymnasium id this module registers."""
    return [gym_id(i) for i in webmdp_env_ids()]


def register() -> None:
    """Register every webmdp id with Gymnasium (ids already registered are left alone)."""
    for wid in webmdp_env_ids():
        gid = gym_id(wid)
        if gid not in gymnasium.registry:
            gymnasium.register(gid, entry_point=f"{__name__}:WebMDPEnv", kwargs={"env_id": wid})


def make(env_id: str, **kwargs: Any) -> gymnasium.Env:
    """:func:`gymnasium.make`; for an unknown id, Gymnasium's own error (same class) with the
    valid webmdp ids appended to its message."""
    try:
        return gymnasium.make(env_id, **kwargs)
    except gymnasium.error.UnregisteredEnv as exc:
        raise type(exc)(f"{exc} Valid webmdp ids: {', '.join(env_ids())}") from exc


def _task_count(env_id: str) -> int:
    """How many tasks a webmdp id (``<site>-v1`` or ``<site>/<template>-v1``) covers."""
    site, _, template = env_id.rsplit("-v", 1)[0].partition("/")
    return sum(1 for e in plan(get_site(site)) if template in ("", e[1]))


class WebMDPEnv(gymnasium.Env[Any, str]):
    """One webmdp site (or template) as a Gymnasium env; a new task each :meth:`reset`.

    ``env_id``: a webmdp id (``shopping-v1``, ``shopping/review_extract-v1``). ``mode``:
    ``semantic`` (typed actions on the MDP) or ``browser`` (Chromium on a webmdp server, both
    started at the first reset and freed by :meth:`close`; pass ``server`` / ``host`` to share
    running ones). ``observation``: one of :data:`OBSERVATIONS` for the mode: ``text`` (the
    semantic observation), ``axtree`` (the page's accessibility text, ``[id]`` per element),
    ``screenshot`` (an RGB ``Box``) or ``both`` (a ``Dict`` of the two). ``task_id`` or
    ``index`` fixes the task; otherwise ``reset(seed=...)`` draws the task index from the seed,
    deterministically (``reset(options={"task_id": ...})`` or ``{"index": ...}`` picks one for
    that episode). ``render_mode="rgb_array"`` (browser mode) renders the page.

    ``info`` carries ``task_id`` and, at reset, ``instruction`` (the goal in words); each step's
    ``info["error"]`` says why an invalid step was invalid.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 1}

    def __init__(self, env_id: str = "shopping-v1", *, mode: str = "semantic",
                 observation: str | None = None, task_id: str | None = None,
                 index: int | None = None, render_mode: str | None = None,
                 step_budget: int = DEFAULT_STEP_BUDGET, agent: str = "gym",
                 headless: bool = True, server: Any = None, host: Any = None):
        if mode not in OBSERVATIONS:
            raise unknown_choice("mode", mode, list(OBSERVATIONS))
        observation = observation or OBSERVATIONS[mode][0]
        if observation not in OBSERVATIONS[mode]:
            raise unknown_choice(f"observation for mode {mode}", observation,
                                 list(OBSERVATIONS[mode]))
        if render_mode not in (None, "rgb_array"):
            raise unknown_choice("render_mode", str(render_mode), ["rgb_array"])
        if render_mode is not None and mode != "browser":
            raise ConfigError("render_mode='rgb_array' needs mode='browser': semantic mode "
                              "has no pixels")
        if mode == "semantic":  # nothing to render: check_env tries no render mode
            self.metadata = {"render_modes": [], "render_fps": 1}
        self.env_id = env_id
        self.mode = mode
        self.observation = observation
        self.render_mode = render_mode
        self.step_budget = step_budget
        self.agent = agent
        self.headless = headless
        resolve_task(env_id)  # an unknown id, site or template: ConfigError naming valid ones
        self.n_tasks = _task_count(env_id)
        self._fixed = (self._resolve(index=index, task_id=task_id)
                       if task_id is not None or index is not None else None)
        self.observation_space = self._observation_space()
        self._actions = _text_space(ACTION_MAX_LENGTH, min_length=1)
        self.action_space = self._actions
        self._server, self._own_server = server, server is None
        self._host, self._own_host = host, host is None
        self._env: Any = None
        self._png: bytes | None = None

    # -- Gymnasium API -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start an episode on the fixed task, the one ``options`` names, or one drawn from
        the seed."""
        super().reset(seed=seed)
        task = self._pick(options or {})
        self._close_env()
        self._env = self._make_env(task)
        obs, info = self._env.reset()
        return self._convert(obs, info)

    def step(self, action: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """One action: a JSON string in :attr:`action_space`."""
        if self._env is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if not self.action_space.contains(action):
            raise gymnasium.error.InvalidAction(self._outside(action))
        try:
            data = json.loads(action)
        except json.JSONDecodeError as exc:
            result = self._env.record_invalid(f"action is not JSON: {exc}", raw_output=action)
        else:
            result = (self._env.step(data, raw_output=action) if isinstance(data, dict) else
                      self._env.record_invalid(f"action is not a JSON object: {action!r}",
                                               raw_output=action))
        obs, reward, terminated, truncated, info = result
        obs, info = self._convert(obs, info)
        return obs, float(reward), bool(terminated), bool(truncated), info

    def render(self) -> np.ndarray | None:
        """The page as an RGB array (``render_mode="rgb_array"``); ``None`` without a render
        mode."""
        if self.render_mode is None:
            return None
        if self._env is None or self._env.page is None:
            raise gymnasium.error.ResetNeeded("call reset() before render()")
        png = self._png if self._png is not None else self._env.page.screenshot(type="png")
        return _png_to_rgb(png)

    def close(self) -> None:
        """End the episode and free what this env started (Chromium, the server); safe to call
        twice."""
        self._close_env()
        if self._host is not None and self._own_host:
            self._host.close()
            self._host = None
        if self._server is not None and self._own_server:
            self._server.stop()
            self._server = None

    # -- what the wrapped env knows ------------------------------------------------------------
    @property
    def task(self) -> Task | None:
        """The current episode's task (``None`` before the first reset)."""
        return self._env.task if self._env is not None else None

    @property
    def inner(self) -> Any:
        """The wrapped :class:`SemanticEnv` / :class:`BrowserEnv` (its ``trace``, ``snapshot``
        and ``restore``); ``None`` before the first reset."""
        return self._env

    # -- internals -----------------------------------------------------------------------------
    def _resolve(self, *, index: int | None = None, task_id: str | None = None) -> Task:
        return resolve_task(self.env_id, index=index or 0, task_id=task_id)

    def _pick(self, options: dict[str, Any]) -> Task:
        unknown = set(options) - {"task_id", "index"}
        if unknown:
            raise unknown_choice("reset option", sorted(unknown)[0], ["index", "task_id"])
        if options:
            return self._resolve(index=options.get("index"), task_id=options.get("task_id"))
        if self._fixed is not None:
            return self._fixed
        return self._resolve(index=int(self.np_random.integers(self.n_tasks)))

    def _observation_space(self) -> spaces.Space[Any]:
        text = _text_space(OBS_MAX_LENGTH)
        shot = spaces.Box(0, 255, (VIEWPORT["height"], VIEWPORT["width"], 3), np.uint8)
        return {"text": text, "axtree": text, "screenshot": shot,
                "both": spaces.Dict({"axtree": text, "screenshot": shot})}[self.observation]

    def _make_env(self, task: Task) -> Any:
        if self.mode == "semantic":
            return SemanticEnv(task, agent=self.agent, step_budget=self.step_budget)
        from webmdp.env.browser import BrowserConfig, BrowserEnv
        from webmdp.env.chromium import BrowserHost
        from webmdp.server.runner import ServerHandle

        if self._server is None:
            self._server = ServerHandle().start()
        if self._host is None:
            self._host = BrowserHost(headless=self.headless)
        config = BrowserConfig(step_budget=self.step_budget, headless=self.headless,
                               observation=self.observation)  # type: ignore[arg-type]
        return BrowserEnv(task, agent=self.agent, server=self._server, host=self._host,
                          config=config)

    def _convert(self, obs: dict[str, Any], info: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """The wrapped env's observation in :attr:`observation_space`; its info with the task
        id."""
        info = {**info, "task_id": self._env.task.id}
        if "observation" in obs and "nodes" not in obs:  # semantic: what step accepts now
            info["valid_actions"] = [json.dumps(a.to_dict(), sort_keys=True)
                                     for a in obs["observation"].available]
        self._png = obs.get("screenshot")
        out: dict[str, Any] = {}
        for key in ("text", "axtree"):
            if key in obs:
                out[key], clipped = _fit(obs[key])
                if clipped:
                    info["clipped"] = True
        if self._png is not None:
            out["screenshot"] = _png_to_rgb(self._png)
        return (out if self.observation == "both" else out[self.observation]), info

    def _outside(self, action: Any) -> str:
        """Why ``action`` is not in the action space, and what it should be."""
        space = self._actions
        example = ('{"name": "Search", "params": {"query": "lamp"}}' if self.mode == "semantic"
                   else '{"kind": "click", "element": 3}')
        if not isinstance(action, str):
            why = f"got {type(action).__name__} {action!r:.200}"
            if isinstance(action, dict):
                why += " (pass json.dumps(action))"
        elif not space.min_length <= len(action) <= space.max_length:
            why = f"got {len(action)} characters"
        else:
            bad = sorted({c for c in action if c not in space.character_set})
            why = f"characters outside the action space's charset: {bad[:20]!r}"
        return (f"action outside the action space: expected a JSON string of "
                f"{space.min_length}..{space.max_length} characters such as {example}; {why}. "
                "The episode goes on as before.")

    def _close_env(self) -> None:
        if self._env is not None:
            self._env.close()  # semantic: nothing; browser: the context and the session
            self._env = None
            self._png = None


register()
