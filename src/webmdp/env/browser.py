"""BrowserEnv: the agent drives a real Chromium page rendered from the MDP (WebSTEP C.3)."""

from __future__ import annotations

import base64
import contextlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from webmdp.env.actions import GUIAction, invalid_reason
from webmdp.env.axtree import SCRIPT as AXTREE_JS
from webmdp.env.axtree import render_axtree
from webmdp.env.chromium import VIEWPORT, BrowserHost, brief
from webmdp.env.episode import DEFAULT_STEP_BUDGET, INVALID_KIND, Episode
from webmdp.env.noise import IMAGE_PATH, NoiseRuntime, check_level, schedule
from webmdp.env.noise import SCRIPT as NOISE_JS
from webmdp.errors import AgentFault, BrowserError, ConfigError, InfrastructureError
from webmdp.paths import check_name, under
from webmdp.server.runner import ServerHandle
from webmdp.tasks.codes import Coder
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace, SemanticTransition, StepNotes, Termination
from webmdp.tracking import unknown_snapshot

# Back / Forward: the page's popstate handler dispatches the site's back action; wait until
# that popstate has happened (a fresh document has no flag) and its dispatch has rendered.
# The Navigation API lists only this site's entries: none in that direction means the Back
# (Forward) button is disabled; an entry of another document loads afresh (no popstate).
_ARM_POPSTATE = """(step) => {
  const entry = navigation.entries()[navigation.currentEntry.index + step];
  if (!entry) return false;
  window.__webmdpPopped = entry.sameDocument ? false : undefined;
  if (entry.sameDocument)
    addEventListener("popstate", () => { window.__webmdpPopped = true; }, {once: true});
  return true;
}"""
# A wheel scroll may be animated: resolve once no scroll event has fired for a few frames.
_SCROLL_SETTLED = """() => new Promise(resolve => {
  let quiet = 0;
  const reset = () => { quiet = 0; };
  addEventListener("scroll", reset, {capture: true, passive: true});
  const tick = () => {
    if (++quiet >= 6) { removeEventListener("scroll", reset, {capture: true}); resolve(true); }
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""
# One round trip settles and observes. Wait, frame by frame, for the page's own signal that
# every dispatch has rendered ("render"); after Back / Forward also for the popstate armed by
# _ARM_POPSTATE ("popstate"); a page off the site has nothing to wait for ("now"). Then, with
# ``walk``, drop the last observation's element ids (they must not linger on elements this one
# leaves out) and walk. The nodes come back as one JSON string, which crosses to Python several
# times faster than Playwright's value-by-value serialisation of the same list. ``null`` when
# the page has not settled by the deadline. With ``noise`` (webmdp.env.noise), the noise due is
# shown first and the page's noise report comes back beside the nodes.
_SETTLE_OBSERVE = f"""async ([mode, timeoutMs, walk, noise]) => {{
  const n = noise && window.__webmdpNoise;
  if (n) n.sync(noise);  // first: a field the modal blurs may dispatch, waited for below
  const rendered = () => !!window.__webmdp && window.__webmdp.pending === 0;
  const ready = {{
    render: rendered,
    popstate: () => window.__webmdpPopped !== false && rendered(),
    now: () => true,
  }}[mode];
  const deadline = performance.now() + timeoutMs;
  while (!ready()) {{
    if (performance.now() > deadline) return null;
    await new Promise(requestAnimationFrame);
  }}
  if (!walk) return noise ? JSON.stringify({{nodes: [], noise: n ? n.report() : null}}) : "";
  for (const el of document.querySelectorAll("[data-webmdp-eid]"))
    el.removeAttribute("data-webmdp-eid");
  const nodes = ({AXTREE_JS.strip()}
  )();
  return JSON.stringify(noise ? {{nodes, noise: n ? n.report() : null}} : nodes);
}}"""
# Playwright's page.screenshot() hides the text caret while it captures (a blinking caret
# would make screenshots differ run to run); the env's own capture keeps it hidden instead.
_HIDE_CARET = """(() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync("input, textarea, [contenteditable] { caret-color: transparent !important; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
})();"""
_OPTIONS = "el => [...el.options].map(o => [o.label, o.value])"
_MODIFIER_BITS = {"Alt": 1, "Control": 2, "Meta": 4, "Shift": 8}  # CDP's modifier mask
_BUTTON_BITS = {"left": 1, "right": 2, "middle": 4}  # CDP's pressed-buttons mask
DEFAULT_WAIT_S = 0.5
MAX_WAIT_S = 5.0


@dataclass(frozen=True)
class BrowserConfig:
    """Browser-mode settings."""

    step_budget: int = DEFAULT_STEP_BUDGET
    observation: Literal["screenshot", "axtree", "both"] = "both"
    headless: bool = True
    action_timeout_s: float = 10.0
    screenshot_dir: Path | None = None
    noise: str = "none"
    """Real-web noise (:mod:`webmdp.env.noise`): none, light, real or real-time; seeded by
    the task's seed."""


class BrowserEnv:
    """Gymnasium-shaped env over Chromium + the webmdp server.

    Observation: ``{"screenshot": png bytes, "axtree": text, "nodes": [...], "url",
    "instruction"}``. Actions: :class:`GUIAction` (or dict). Every step records the semantic
    transitions it caused; an action the page cannot take (an element id not on the page, an
    option the ``<select>`` lacks, an unknown key) is an invalid step. Owns a server and a
    browser unless given shared ones. :meth:`snapshot` / :meth:`restore` backtrack the session.
    ``config.noise`` adds real-web noise to the page (:mod:`webmdp.env.noise`); a step whose
    input landed on it is recorded with ``GUIStep.noise``.
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
        self._cdp: Any = None  # the page's CDP session, for screenshots
        self._drag_cdp: tuple[Any, Any] | None = None  # (page, CDP session), for drags
        self.session_id = ""
        self.episode: Episode | None = None
        self._seen = 0
        self._nodes: list[dict[str, Any]] = []
        self._last_obs: dict[str, Any] = {}
        self._pointer = (0.0, 0.0)
        self._mouse_moved_aside = False  # a drag moved the pointer past Playwright's mouse
        self._snapshots: set[str] = set()
        self.close_error: str | None = None
        check_level(self.config.noise)
        self.noise: NoiseRuntime | None = None
        self._noise_hit: str | None = None  # the noise the last observed step's input hit

    # -- gymnasium API -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self._close_context()
        self.episode = Episode(self.task, agent=self.agent, mode="browser",
                               step_budget=self.config.step_budget)
        plan = schedule(self.config.noise, self.task.seed)
        self.noise = NoiseRuntime(plan) if plan.active else None
        self.episode.trace.noise = plan.level if plan.active else None
        created = self.server.control("POST", "/control/sessions",
                                      json={"site": self.task.site, "world": self.task.world,
                                            "codes": Coder.of(self.task).to_json()})
        self.session_id = created["session_id"]
        self._seen = 0
        self._pointer = (0.0, 0.0)
        self._mouse_moved_aside = False
        self._snapshots = set()
        self.episode.start(created["initial_surface"], created["initial_revealed"])
        try:
            self.host.ensure()
            self.context = self.host.browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
            self.context.set_default_timeout(self.config.action_timeout_s * 1000)
            self.context.route("**/*", self._only_our_server)
            if self._screenshots():
                self.context.add_init_script(_HIDE_CARET)
            if self.noise is not None:
                self.context.add_init_script(NOISE_JS)
            self.page = self.context.new_page()
            self._cdp = self.context.new_cdp_session(self.page) if self._screenshots() else None
            self.page.goto(self.server.url + created["url"], wait_until="load")
            obs = self._observe()
        except Exception as exc:
            raise BrowserError(f"reset failed: {brief(exc)}", task_id=self.task.id) from exc
        self.episode.trace.initial_screenshot = self._save_screenshot(obs, "reset")
        return obs, {"task_id": self.task.id, "instruction": self.task.instruction}

    def step(self, action: GUIAction | dict[str, Any], *, raw_output: str | None = None,
             agent_s: float = 0.0, notes: StepNotes | None = None):
        episode = self._live()
        try:
            act = action if isinstance(action, GUIAction) else GUIAction.model_validate(action)
        except ValidationError as exc:
            kind = action.get("kind") if isinstance(action, dict) else None
            return self.record_invalid(f"malformed action: {invalid_reason(exc, kind)}",
                                       raw_output=raw_output, agent_s=agent_s, notes=notes)
        t0 = time.perf_counter()
        if act.kind == "finish":
            episode.record(act.to_dict(), [], raw_output=raw_output, url=self.page.url,
                           agent_s=agent_s, notes=notes)
            trace = episode.close(self._facts(), termination="finished", answer=act.answer)
            return self._last_obs, float(trace.success), True, False, self._info()
        fault: str | None = None
        try:
            try:
                self._perform(act)
            except AgentFault as exc:  # the agent's mistake: an invalid step, the page as it is
                fault = str(exc)
            obs = self._observe("popstate" if act.kind in ("go_back", "go_forward") else "render",
                                steps_taken=episode.n_steps + 1)
        except InfrastructureError:
            raise
        except Exception as exc:
            raise BrowserError(f"{act.kind} failed: {brief(exc)}", task_id=self.task.id,
                               step=episode.n_steps) from exc
        transitions = self._new_transitions()
        shot = self._save_screenshot(obs)
        step = episode.record(act.to_dict(), transitions, raw_output=raw_output, url=obs["url"],
                              agent_s=agent_s, env_s=time.perf_counter() - t0,
                              screenshot=shot, error=fault, notes=notes, noise=self._noise_hit)
        return self._after_step(obs, step.error)

    def record_invalid(self, error: str, *, raw_output: str | None = None, agent_s: float = 0.0,
                       notes: StepNotes | None = None):
        """A step whose model output gave no action: recorded with ``error``, no transition;
        it counts against the step budget. Returns the step 5-tuple (the last observation)."""
        episode = self._live()
        episode.record({"kind": INVALID_KIND}, [], raw_output=raw_output, url=self._last_obs.get(
            "url"), agent_s=agent_s, error=error, notes=notes)
        return self._after_step(self._last_obs, error)

    def snapshot(self) -> str:
        """Keep the session's current semantic state on the server; returns its id."""
        self._live()
        data = self.server.control("POST", f"/control/sessions/{self.session_id}/snapshots")
        self._snapshots.add(data["snapshot_id"])
        return data["snapshot_id"]

    def restore(self, snapshot_id: str, *, node: int | None = None) -> dict[str, Any]:
        """Backtrack the session to a snapshot and re-render it in the page (reload, settle,
        observe), so page and MDP agree; recorded in ``trace.restores``. Returns the new
        observation. Raises :class:`ConfigError` for an id this episode never made."""
        episode = self._live()
        if snapshot_id not in self._snapshots:
            raise ConfigError(unknown_snapshot(snapshot_id, len(self._snapshots)),
                              task_id=self.task.id)
        data = self.server.control("POST", f"/control/sessions/{self.session_id}/restore",
                                   json={"snapshot_id": snapshot_id})
        try:
            self.page.goto(self.server.url + data["url"], wait_until="load")
            obs = self._observe(steps_taken=episode.n_steps)
        except Exception as exc:
            raise BrowserError(f"restore failed: {brief(exc)}", task_id=self.task.id,
                               step=episode.n_steps) from exc
        episode.record_restore(snapshot_id, node=node, state_key=data["state_key"])
        return obs

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

    @property
    def pointer(self) -> tuple[float, float]:
        """Where the mouse is: the last point a pointer action went to (viewport pixels)."""
        return self._pointer

    def seal(self, termination: Termination, *, infra_error: str | None = None,
             agent_error: str | None = None) -> EpisodeTrace:
        """End the episode early (infrastructure or agent failure, a stop rule); the run goes
        on."""
        assert self.episode is not None
        facts: dict[str, Any] = {}
        if self.session_id:
            with contextlib.suppress(InfrastructureError):  # the server may be the fault
                facts = self._facts()
        return self.episode.close(facts, termination=termination, infra_error=infra_error,
                                  agent_error=agent_error)

    # -- actions -------------------------------------------------------------------------------
    def _perform(self, act: GUIAction) -> None:
        """Carry out one action as a user would; :class:`AgentFault` when the page cannot.
        ``modifiers`` are held down around a pointer or scroll action."""
        if not act.modifiers or act.kind in ("type", "key", "select_option", "go_back",
                                             "go_forward", "wait"):
            self._act(act)
            return
        held: list[str] = []
        try:
            for mod in act.modifiers:
                self._keyboard(self.page.keyboard.down, mod)
                held.append(mod)
            self._act(act)
        finally:
            for mod in reversed(held):
                self.page.keyboard.up(mod)

    def _act(self, act: GUIAction) -> None:
        mouse = self.page.mouse
        kind = act.kind
        if kind in ("click", "right_click", "double_click", "triple_click"):
            x, y = self._target(act)
            button = "right" if kind == "right_click" else act.button
            if kind == "double_click":
                mouse.dblclick(x, y, button=button)
            else:
                mouse.click(x, y, button=button, click_count=3 if kind == "triple_click" else 1)
        elif kind == "move":
            mouse.move(*self._target(act))
        elif kind in ("mouse_down", "mouse_up"):
            if self._has_point(act) or self._mouse_moved_aside:
                mouse.move(*self._target(act))
            (mouse.down if kind == "mouse_down" else mouse.up)(button=act.button)
        elif kind == "drag":
            assert act.x2 is not None and act.y2 is not None
            self._drag(act)
        elif kind == "scroll":
            if self._has_point(act) or self._mouse_moved_aside:
                mouse.move(*self._target(act))
            mouse.wheel(act.dx, act.dy)
            self.page.evaluate(_SCROLL_SETTLED)
        elif kind == "type":
            if act.element is not None:
                mouse.click(*self._target(act))
            if act.replace:  # the typed text replaces the field's content
                self._keyboard(self.page.keyboard.press, "Control+a")
                self._keyboard(self.page.keyboard.press, "Delete")
            self.page.keyboard.type(act.text)
        elif kind == "key":
            self._keyboard(self.page.keyboard.press, act.key)
        elif kind == "select_option":
            self._select(act)
        elif kind in ("go_back", "go_forward"):
            back = kind == "go_back"
            if self.page.evaluate(_ARM_POPSTATE, -1 if back else 1):
                (self.page.go_back if back else self.page.go_forward)()
        elif kind == "wait":
            seconds = DEFAULT_WAIT_S if act.seconds is None else act.seconds
            self.page.wait_for_timeout(max(0.0, min(seconds, MAX_WAIT_S)) * 1000)

    def _drag(self, act: GUIAction) -> None:
        """Press at the start, one move with the button held, release at the end: four input
        events sent straight to the page's input domain. Playwright's own mouse, with a
        button held, first checks every frame for an HTML5 drag (several round trips a move);
        the sites' gestures are pointer events (they cancel native drags), and a drag with
        the same four events through the page's CDP session costs what a click does. The
        pointer is where the drag ended, for the next action that names no point."""
        assert act.x2 is not None and act.y2 is not None
        session = self._input_session()
        x, y = self._target(act)
        mods = sum(_MODIFIER_BITS.get(m, 0) for m in act.modifiers)
        button = act.button if act.button in _BUTTON_BITS else "left"
        held = _BUTTON_BITS[button]
        for kind, px, py, buttons in (("mouseMoved", x, y, 0), ("mousePressed", x, y, held),
                                      ("mouseMoved", act.x2, act.y2, held),
                                      ("mouseReleased", act.x2, act.y2, 0)):
            event: dict[str, Any] = {"type": kind, "x": px, "y": py, "modifiers": mods,
                                     "buttons": buttons,
                                     "button": "none" if kind == "mouseMoved" and not buttons
                                     else button}
            if kind != "mouseMoved":
                event["clickCount"] = 1
            session.send("Input.dispatchMouseEvent", event)
        self._pointer = (act.x2, act.y2)
        self._mouse_moved_aside = True

    def _input_session(self) -> Any:
        """The page's CDP session for input, made once per page. DevTools' overlay is enabled
        on it: Chromium aligns mouse moves to animation frames, so a move on its own would be
        acknowledged at the next frame (~17 ms), where a click's move is flushed at once by
        the press sent right behind it; with the overlay enabled Chromium delivers input
        unbuffered (the events, their order and their positions are the same, and the overlay
        draws nothing unless asked to highlight)."""
        if self._drag_cdp is None or self._drag_cdp[0] is not self.page:
            session = self.context.new_cdp_session(self.page)
            session.send("DOM.enable")  # the overlay needs it
            session.send("Overlay.enable")
            self._drag_cdp = (self.page, session)
        return self._drag_cdp[1]

    @staticmethod
    def _has_point(act: GUIAction) -> bool:
        return act.element is not None or (act.x is not None and act.y is not None)

    def _target(self, act: GUIAction) -> tuple[float, float]:
        """Where a pointer action lands (the element's centre, scrolled into view first when
        it is off screen); remembered as the pointer position."""
        self._mouse_moved_aside = False
        if not self._has_point(act):  # where the pointer is (Playwright's mouse, after a drag,
            return self._pointer      # still thinks it is where it was before)
        if act.element is None:
            assert act.x is not None and act.y is not None
            point = (act.x, act.y)
        else:
            node = self._node(act.element)
            point = (node["x"], node["y"])
            if not node.get("in_viewport", True):
                loc = self._element(act.element)
                loc.scroll_into_view_if_needed()
                box = loc.bounding_box()
                if box is None:
                    raise AgentFault(f"element {act.element} is no longer on the page")
                point = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self._pointer = point
        return point

    def _node(self, element: int) -> dict[str, Any]:
        for n in self._nodes:
            if n.get("id") == element:
                return n
        raise AgentFault(f"no element with id {element} in the observation")

    def _element(self, element: int) -> Any:
        return self.page.locator(f'[data-webmdp-eid="{element}"]').first

    @staticmethod
    def _keyboard(press: Any, key: str) -> None:
        """``press(key)``; a key name Playwright does not know is the agent's mistake."""
        try:
            press(key)
        except Exception as exc:
            if "Unknown key" in str(exc):
                raise AgentFault(f"unknown key {key!r}") from exc
            raise

    def _select(self, act: GUIAction) -> None:
        """Choose an option of a ``<select>`` by its label, else by its value."""
        assert act.element is not None and act.option is not None
        node = self._node(act.element)
        if node.get("tag") != "select":
            raise AgentFault(f"element {act.element} is a <{node.get('tag')}>, not a <select>")
        loc = self._element(act.element)
        options: list[list[str]] = loc.evaluate(_OPTIONS)
        wanted = act.option.strip()
        for by, i in (("label", 0), ("value", 1)):
            if any(o[i] == act.option for o in options):
                loc.select_option(**{by: act.option})
                return
        for label, _ in options:  # a near miss in case or spacing still names one option
            if label.strip().casefold() == wanted.casefold():
                loc.select_option(label=label)
                return
        raise AgentFault(f"element {act.element} has no option {act.option!r}; options: "
                         f"{[o[0] for o in options]}")

    # -- internals -----------------------------------------------------------------------------
    def _live(self) -> Episode:
        if self.episode is None or self.episode.done:
            raise RuntimeError("no episode in progress: call reset() first")
        return self.episode

    def _after_step(self, obs: dict[str, Any], error: str | None):
        episode = self._live()
        truncated = episode.over_budget()
        if truncated:
            episode.close(self._facts(), termination="budget")
        reward = float(episode.trace.success) if truncated else 0.0
        return obs, reward, False, truncated, self._info(error)

    def _only_our_server(self, route: Any) -> None:
        request = route.request
        if not request.url.startswith(self.server.url + "/"):
            route.abort("blockedbyclient")
            return
        if self.noise is not None:
            path = request.url[len(self.server.url):]
            if path == IMAGE_PATH:  # the slow image never reaches the server
                self.noise.hold_image(route)
                return
            if self.noise.is_dispatch(request.method, path):
                self.noise.delay_dispatch()
        route.continue_()

    def _settle(self, mode: str = "render", *, walk: bool = False,
                steps_taken: int = 0) -> list[dict[str, Any]]:
        """Wait for the page's own signal that every dispatch has rendered (no fixed sleeps);
        with ``walk``, observe in the same round trip and return the nodes. A page off the
        site (Back past the first page) has nothing to wait for; a document replaced while
        waiting (a navigation) is waited for and the wait begins again."""
        timeout_ms = self.config.action_timeout_s * 1000
        noise = None
        if self.noise is not None:
            self.noise.release_due()
            noise = self.noise.sync_arg(steps_taken)
        for _ in range(3):
            on_site = self.page.url.startswith(self.server.url + "/")
            try:
                raw = self.page.evaluate(_SETTLE_OBSERVE,
                                         [mode if on_site else "now", timeout_ms, walk, noise])
            except Exception as exc:
                if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                    raise
                self.page.wait_for_load_state("load")
                continue
            if raw is None:
                raise TimeoutError(f"Timeout {timeout_ms:.0f}ms exceeded waiting for the page "
                                   "to render")
            if self.noise is None:
                return json.loads(raw) if walk else []
            data = json.loads(raw)
            self._noise_hit = self.noise.read_report(data["noise"])
            return data["nodes"]
        raise BrowserError("page never settled")

    def _observe(self, mode: str = "render", *, steps_taken: int = 0) -> dict[str, Any]:
        """Settle, then the observation: the nodes always, the axtree text and the screenshot
        when the configured observation has them. ``steps_taken`` (agent steps so far, the
        one being observed included) is the clock step-anchored noise is due on."""
        self._nodes = self._settle(mode, walk=True, steps_taken=steps_taken)
        obs: dict[str, Any] = {"url": self.page.url, "instruction": self.task.instruction,
                               "nodes": self._nodes}
        if self.config.observation in ("axtree", "both"):
            obs["axtree"] = render_axtree(self._nodes)
        if self._screenshots():
            obs["screenshot"] = self._screenshot()
        self._last_obs = obs
        return obs

    def _screenshots(self) -> bool:
        return self.config.observation in ("screenshot", "both")

    def _screenshot(self) -> bytes:
        """The viewport as PNG: the same pixels as ``page.screenshot()`` (the caret hidden by
        _HIDE_CARET), in one CDP call instead of Playwright's several, and with Chromium's
        fast PNG encoding (about half the time; the file is somewhat larger)."""
        shot = self._cdp.send("Page.captureScreenshot",
                              {"format": "png", "optimizeForSpeed": True})
        return base64.b64decode(shot["data"])

    def _new_transitions(self) -> list[SemanticTransition]:
        if isinstance(self.server, ServerHandle):  # in this process: read the session directly
            records, self._seen = self.server.transitions_since(self.session_id, self._seen)
        else:
            data = self.server.control("GET", f"/control/sessions/{self.session_id}/trace",
                                       params={"since": self._seen})
            records, self._seen = data["transitions"], data["count"]
        return [SemanticTransition.model_validate(t) for t in records]

    def _facts(self) -> dict[str, Any]:
        snap = self.server.control("GET", f"/control/sessions/{self.session_id}/snapshot")
        return snap["facts"]

    def _save_screenshot(self, obs: dict[str, Any], label: str | None = None) -> str | None:
        """Store the observation's screenshot (named after the step it follows, or ``label``);
        its path relative to the trace."""
        if self.config.screenshot_dir is None or "screenshot" not in obs or self.episode is None:
            return None
        d = Path(self.config.screenshot_dir)
        d.mkdir(parents=True, exist_ok=True)
        step = label or f"step{self.episode.n_steps:02d}"
        name = f"{check_name(self.task.id, 'task id')}_{step}.png"
        under(d, name).write_bytes(obs["screenshot"])
        return f"{d.name}/{name}"

    def _close_context(self) -> None:
        if self.context is not None:
            try:
                if self.noise is not None:
                    self.noise.release_due(all_now=True)
                self.context.close()
            except Exception as exc:
                self.close_error = str(exc)
            self.context = None
            self._cdp = None
        if self.session_id:
            with contextlib.suppress(InfrastructureError):  # a dead server has no sessions
                self.server.control("DELETE", f"/control/sessions/{self.session_id}")
            self.session_id = ""

    def _info(self, error: str | None = None) -> dict[str, Any]:
        assert self.episode is not None
        return {"error": error, "steps": self.episode.n_steps, "done": self.episode.done}
