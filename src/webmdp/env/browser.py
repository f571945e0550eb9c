"""BrowserEnv: the agent drives a real Chromium page rendered from the MDP (WebSTEP C.3)."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from webmdp.env.actions import GUIAction
from webmdp.env.axtree import SCRIPT as AXTREE_JS
from webmdp.env.axtree import render_axtree
from webmdp.env.chromium import VIEWPORT, BrowserHost
from webmdp.env.episode import DEFAULT_STEP_BUDGET, Episode
from webmdp.errors import BrowserError, InfrastructureError
from webmdp.server.runner import ServerHandle
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace, SemanticTransition, Termination

_SETTLED = "() => !!window.__webmdp && window.__webmdp.pending === 0"


@dataclass(frozen=True)
class BrowserConfig:
    """Browser-mode settings."""

    step_budget: int = DEFAULT_STEP_BUDGET
    observation: Literal["screenshot", "axtree", "both"] = "both"
    headless: bool = True
    action_timeout_s: float = 10.0
    screenshot_dir: Path | None = None


class BrowserEnv:
    """Gymnasium-shaped env over Chromium + the webmdp server.

    Observation: ``{"screenshot": png bytes, "axtree": text, "nodes": [...], "url",
    "instruction"}``. Actions: :class:`GUIAction` (or dict). Every step records the semantic
    transitions it caused. Owns a server and a browser unless given shared ones.
    """

    mode = "browser"

    def __init__(self, task: Task, *, agent: str = "agent", server: ServerHandle | None = None,
                 host: BrowserHost | None = None, config: BrowserConfig | None = None):
        self.task = task
        self.agent = agent
        self.config = config or BrowserConfig()
        self._own_server = server is None
        self.server = server or ServerHandle().start()
        self._own_host = host is None
        self.host = host or BrowserHost(headless=self.config.headless)
        self.context: Any = None
        self.page: Any = None
        self.session_id = ""
        self.episode: Episode | None = None
        self._seen = 0
        self._nodes: list[dict[str, Any]] = []
        self._last_obs: dict[str, Any] = {}
        self.close_error: str | None = None

    # -- gymnasium API -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self._close_context()
        self.episode = Episode(self.task, agent=self.agent, mode="browser",
                               step_budget=self.config.step_budget)
        created = self.server.control("POST", "/control/sessions",
                                      json={"site": self.task.site, "world": self.task.world})
        self.session_id = created["session_id"]
        self._seen = 0
        self.episode.start(created["initial_surface"], created["initial_revealed"])
        try:
            self.host.ensure()
            self.context = self.host.browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
            self.context.set_default_timeout(self.config.action_timeout_s * 1000)
            self.context.route("**/*", self._only_our_server)
            self.page = self.context.new_page()
            self.page.goto(self.server.url + created["url"], wait_until="load")
            self._settle()
            obs = self._observe()
        except Exception as exc:
            raise BrowserError(f"reset failed: {exc}", task_id=self.task.id) from exc
        return obs, {"task_id": self.task.id, "instruction": self.task.instruction}

    def step(self, action: GUIAction | dict[str, Any], *, raw_output: str | None = None,
             agent_s: float = 0.0):
        if self.episode is None or self.episode.done:
            raise RuntimeError("call reset() before step()")
        act = action if isinstance(action, GUIAction) else GUIAction.model_validate(action)
        t0 = time.perf_counter()
        if act.kind == "finish":
            self.episode.record(act.to_dict(), [], raw_output=raw_output, url=self.page.url,
                                agent_s=agent_s)
            trace = self.episode.close(self._facts(), termination="finished", answer=act.answer)
            return self._last_obs, float(trace.success), True, False, self._info()
        try:
            self._perform(act)
            self._settle()
            obs = self._observe()
        except InfrastructureError:
            raise
        except Exception as exc:
            raise BrowserError(f"{act.kind} failed: {exc}", task_id=self.task.id,
                               step=self.episode.n_steps) from exc
        transitions = self._new_transitions()
        shot = self._save_screenshot(obs)
        self.episode.record(act.to_dict(), transitions, raw_output=raw_output, url=obs["url"],
                            agent_s=agent_s, env_s=time.perf_counter() - t0, screenshot=shot)
        truncated = self.episode.over_budget()
        if truncated:
            self.episode.close(self._facts(), termination="budget")
        reward = float(self.episode.trace.success) if truncated else 0.0
        errors = [t.error for t in transitions if t.error]
        return obs, reward, False, truncated, self._info(errors[0] if errors else None)

    def close(self) -> None:
        self._close_context()
        if self._own_host:
            self.host.close()
        if self._own_server:
            self.server.stop()

    @property
    def trace(self) -> EpisodeTrace:
        assert self.episode is not None
        return self.episode.trace

    def seal(self, termination: Termination, *, infra_error: str | None = None,
             agent_error: str | None = None) -> EpisodeTrace:
        """End the episode early (infrastructure or agent failure); the run goes on."""
        assert self.episode is not None
        facts: dict[str, Any] = {}
        if self.session_id:
            with contextlib.suppress(InfrastructureError):  # the server may be the fault
                facts = self._facts()
        return self.episode.close(facts, termination=termination, infra_error=infra_error,
                                  agent_error=agent_error)

    # -- internals -----------------------------------------------------------------------------
    def _only_our_server(self, route: Any) -> None:
        if route.request.url.startswith(self.server.url + "/"):
            route.continue_()
        else:
            route.abort("blockedbyclient")

    def _point(self, act: GUIAction) -> tuple[float, float]:
        if act.element is not None:
            for n in self._nodes:
                if n.get("id") == act.element:
                    return n["x"], n["y"]
            raise BrowserError(f"no element with id {act.element}")
        assert act.x is not None and act.y is not None
        return act.x, act.y

    def _perform(self, act: GUIAction) -> None:
        mouse, kb = self.page.mouse, self.page.keyboard
        if act.kind in ("click", "double_click", "right_click"):
            x, y = self._point(act)
            if act.kind == "click":
                mouse.click(x, y)
            elif act.kind == "double_click":
                mouse.dblclick(x, y)
            else:
                mouse.click(x, y, button="right")
        elif act.kind == "drag":
            mouse.move(*self._point(act))
            mouse.down()
            mouse.move(act.x2, act.y2, steps=5)
            mouse.up()
        elif act.kind == "scroll":
            if act.element is not None or act.x is not None:
                mouse.move(*self._point(act))
            mouse.wheel(act.dx, act.dy)
        elif act.kind == "type":
            if act.element is not None:
                mouse.click(*self._point(act))
            kb.type(act.text)
        elif act.kind == "key":
            kb.press(act.key)
        elif act.kind == "wait":
            self.page.wait_for_timeout(max(0.0, min(act.seconds, 5.0)) * 1000)

    def _settle(self) -> None:
        """Wait for the page's own signal that every dispatch has rendered (no fixed sleeps)."""
        for _ in range(3):
            try:
                self.page.wait_for_function(_SETTLED, polling="raf")
                return
            except Exception as exc:
                if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                    raise
                self.page.wait_for_load_state("load")
        raise BrowserError("page never settled")

    def _observe(self) -> dict[str, Any]:
        obs: dict[str, Any] = {"url": self.page.url, "instruction": self.task.instruction}
        self._nodes = self.page.evaluate(AXTREE_JS)
        obs["nodes"] = self._nodes
        if self.config.observation in ("axtree", "both"):
            obs["axtree"] = render_axtree(self._nodes)
        if self.config.observation in ("screenshot", "both"):
            obs["screenshot"] = self.page.screenshot(type="png")
        self._last_obs = obs
        return obs

    def _new_transitions(self) -> list[SemanticTransition]:
        data = self.server.control("GET", f"/control/sessions/{self.session_id}/trace",
                                   params={"since": self._seen})
        self._seen = data["count"]
        return [SemanticTransition.model_validate(t) for t in data["transitions"]]

    def _facts(self) -> dict[str, Any]:
        snap = self.server.control("GET", f"/control/sessions/{self.session_id}/snapshot")
        return snap["facts"]

    def _save_screenshot(self, obs: dict[str, Any]) -> str | None:
        if self.config.screenshot_dir is None or "screenshot" not in obs or self.episode is None:
            return None
        d = Path(self.config.screenshot_dir)
        d.mkdir(parents=True, exist_ok=True)
        name = f"{self.task.id}_step{self.episode.n_steps:02d}.png"
        (d / name).write_bytes(obs["screenshot"])
        return f"{d.name}/{name}"

    def _close_context(self) -> None:
        if self.context is not None:
            try:
                self.context.close()
            except Exception as exc:
                self.close_error = str(exc)
            self.context = None
        if self.session_id:
            with contextlib.suppress(InfrastructureError):  # a dead server has no sessions
                self.server.control("DELETE", f"/control/sessions/{self.session_id}")
            self.session_id = ""

    def _info(self, error: str | None = None) -> dict[str, Any]:
        assert self.episode is not None
        return {"error": error, "steps": self.episode.n_steps, "done": self.episode.done}
