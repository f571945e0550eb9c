"""BrowserEnv's step path: one round trip to settle and observe, the fast walk, the env's own
screenshot and the in-process read of transitions give what the plain path gives."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image

from support import site_tasks
from webmdp.agents import OracleAgent
from webmdp.agents.builtin import RandomAgent
from webmdp.env.actions import GUIAction
from webmdp.env.browser import _SETTLE_OBSERVE, BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.errors import ServerError
from webmdp.runner.episode import run_episode
from webmdp.server.runner import ServerHandle
from webmdp.tasks import Task

pytestmark = pytest.mark.browser

# The walk as it was before it was made faster (axtree.js then), run the plain way: clear the
# last ids, walk, let Playwright serialise the list. The env's observation must equal it, ids
# included; update both together if the observation format ever changes.
_PLAIN_WALK = r"""() => {
  for (const el of document.querySelectorAll("[data-webmdp-eid]"))
    el.removeAttribute("data-webmdp-eid");
  return (() => {
    const out = [];
    const vw = window.innerWidth, vh = window.innerHeight;
    const interactive = "a, button, input, select, textarea, summary, [data-action], [role=button], [role=link]";
    let next = 1;
    function visible(el) {
      if (el.checkVisibility && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
      const closed = el.closest("details:not([open])");
      if (closed && !el.closest("summary")) return false;
      const s = getComputedStyle(el);
      if (s.visibility === "hidden" || s.display === "none" || Number(s.opacity) === 0) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    }
    function roleOf(el) {
      const r = el.getAttribute("role");
      if (r) return r;
      const t = el.tagName;
      if (t === "A") return "link";
      if (t === "BUTTON") return "button";
      if (t === "SELECT") return "combobox";
      if (t === "SUMMARY") return "button";
      if (t === "TEXTAREA") return "textbox";
      if (t === "INPUT") {
        const ty = (el.type || "text").toLowerCase();
        if (ty === "checkbox") return "checkbox";
        if (ty === "radio") return "radio";
        if (ty === "submit" || ty === "button") return "button";
        return "textbox";
      }
      if (/^H[1-6]$/.test(t)) return "heading";
      if (t === "IMG") return "img";
      return el.hasAttribute("data-action") ? "button" : "text";
    }
    function nameOf(el) {
      const aria = el.getAttribute("aria-label");
      if (aria) return aria.trim();
      if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") {
        if (el.labels && el.labels.length) return el.labels[0].innerText.trim();
        return (el.getAttribute("placeholder") || el.name || "").trim();
      }
      return (el.innerText || el.value || el.getAttribute("title") || "").replace(/\s+/g, " ").trim();
    }
    const walker = document.createTreeWalker(document.getElementById("app") || document.body,
                                             NodeFilter.SHOW_ELEMENT);
    const inside = new Set();
    let el = walker.currentNode;
    while (el) {
      if (el.nodeType === 1 && visible(el)) {
        const isInter = el.matches(interactive);
        let covered = false;
        for (let p = el.parentElement; p; p = p.parentElement) if (inside.has(p)) { covered = true; break; }
        if (isInter && !covered) {
          el.setAttribute("data-webmdp-eid", String(next));
          const r = el.getBoundingClientRect();
          const form = el.closest("form[data-action]");
          out.push({
            id: next, role: roleOf(el), tag: el.tagName.toLowerCase(), name: nameOf(el).slice(0, 160),
            value: (el.tagName === "INPUT" || el.tagName === "TEXTAREA") ? el.value : undefined,
            x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height,
            in_viewport: r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw,
            action: el.getAttribute("data-action") || (form && el.name ? form.getAttribute("data-action") : null),
            params: el.getAttribute("data-params"),
            field: (el.tagName === "INPUT" || el.tagName === "TEXTAREA") ? (el.dataset.param || el.name || null) : null,
          });
          if (form && el.matches("button:not([type]), button[type=submit], input[type=submit]"))
            out[out.length - 1].submits = form.getAttribute("data-action");
          if (el.tagName === "SUMMARY" && el.parentElement) {
            const d = el.parentElement;
            out[out.length - 1].expanded = d.open;
            out[out.length - 1].menu = [...new Set([...d.querySelectorAll("[data-action]")].map(x => x.dataset.action))];
          }
          next += 1;
          if (!el.matches("form")) inside.add(el);
        } else if (!isInter && !covered) {
          let text = "";
          for (const n of el.childNodes) if (n.nodeType === 3) text += n.textContent;
          text = text.replace(/\s+/g, " ").trim();
          if (text) {
            const r = el.getBoundingClientRect();
            out.push({ id: null, role: roleOf(el), name: text.slice(0, 300), x: r.left + r.width / 2,
                       y: r.top + r.height / 2, w: r.width, h: r.height,
                       in_viewport: r.bottom > 0 && r.top < vh });
          }
        }
      }
      el = walker.nextNode();
    }
    return out;
  })();
}"""  # noqa: E501 (the walk as it was, verbatim)
# Both walks in one task of the page, so nothing (a hover state the pointer brings about a
# moment after a re-render, say) can change between them.
_BOTH = f"""async () => {{
  const ids = () => [...document.querySelectorAll("[data-webmdp-eid]")]
    .map(e => [e.dataset.webmdpEid, e.tagName, e.dataset.testid || null]);
  const plain = ({_PLAIN_WALK})();
  const plainIds = ids();
  const fast = await ({_SETTLE_OBSERVE})(["now", 0, true]);
  return [plain, plainIds, fast, ids()];
}}"""


class _Comparing:
    """Wraps an agent: on each page it acts on, the env's observation script (the wait, the
    walk, the JSON transfer) must give what the plain walk gives, and leave the same ids."""

    def __init__(self, agent: Any, env: BrowserEnv) -> None:
        self.agent, self.env, self.pages = agent, env, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)

    def act(self, obs: dict[str, Any]) -> Any:
        # (not compared with ``obs`` itself: a hover the pointer brings about a moment after
        # a re-render may have changed the page since)
        plain, plain_ids, fast, fast_ids = self.env.page.evaluate(_BOTH)
        assert json.loads(fast) == plain, self.env.page.url
        assert fast_ids == plain_ids and len(plain_ids) == sum(1 for n in plain if n["id"])
        self.pages += 1
        return self.agent.act(obs)


def _env(task: Task, server: ServerHandle, host: BrowserHost, **cfg: Any) -> BrowserEnv:
    return BrowserEnv(task, agent="test", server=server, host=host, config=BrowserConfig(**cfg))


@pytest.mark.parametrize("site,index,agent", [
    ("shopping", 0, "oracle"), ("shopping", 97, "oracle"), ("mail", 34, "oracle"),
    ("mail", 123, "random"), ("food", 5, "oracle"), ("housing", 40, "random"),
])
def test_observation_equals_the_plain_walk(server, host, site, index, agent) -> None:  # type: ignore[no-untyped-def]
    task = site_tasks(site)[index]
    env = _env(task, server, host, observation="axtree", step_budget=20)
    checker = _Comparing(OracleAgent() if agent == "oracle" else RandomAgent(seed=3), env)
    try:
        tr = run_episode(env, checker)
    finally:
        env.close()
    assert tr.termination != "infra_error", tr.infra_error
    assert tr.termination != "agent_error", tr.agent_error  # a failed comparison lands here
    assert checker.pages >= 3


def _pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    img = Image.open(io.BytesIO(png)).convert("RGBA")
    return img.size, img.tobytes()


def test_screenshot_has_the_pixels_of_playwrights(server, host, shopping_tasks) -> None:  # type: ignore[no-untyped-def]
    task = shopping_tasks[0]
    env = _env(task, server, host, observation="both")
    try:
        obs, _ = env.reset()
        assert _pixels(obs["screenshot"]) == _pixels(env.page.screenshot(type="png"))
        # a focused field with text in it: the caret must not show (Playwright hides it)
        box = next(n for n in obs["nodes"] if n.get("field") == "query")
        obs = env.step(GUIAction(kind="type", element=box["id"], text=task.params["query"]))[0]
        assert env.page.evaluate("document.activeElement.name") == "query"
        size, pixels = _pixels(obs["screenshot"])
        assert size == (1440, 900)
        assert (size, pixels) == _pixels(env.page.screenshot(type="png"))
        # a long category page, scrolled down
        category = next(n for n in obs["nodes"] if n.get("id") and n["name"] == "Electronics")
        env.step(GUIAction(kind="click", element=category["id"]))
        obs = env.step(GUIAction(kind="scroll", x=720, y=450, dy=600))[0]
        assert env.page.evaluate("scrollY") > 0
        assert _pixels(obs["screenshot"]) == _pixels(env.page.screenshot(type="png"))
    finally:
        env.close()


def test_axtree_observation_takes_no_screenshot(server, host, shopping_tasks) -> None:  # type: ignore[no-untyped-def]
    env = _env(shopping_tasks[0], server, host, observation="axtree")
    try:
        obs, _ = env.reset()
        assert "screenshot" not in obs and env._cdp is None
        obs = env.step(GUIAction(kind="click", x=5, y=5))[0]
        assert "screenshot" not in obs and obs["axtree"]
    finally:
        env.close()


def test_in_process_transitions_equal_the_control_apis(server, host, shopping_tasks) -> None:  # type: ignore[no-untyped-def]
    env = _env(shopping_tasks[0], server, host, observation="axtree")
    try:
        tr = run_episode(env, OracleAgent())
        assert tr.success
        sid = env.session_id
        for since in (0, 1, 3):
            http = server.control("GET", f"/control/sessions/{sid}/trace",
                                  params={"since": since})
            assert server.transitions_since(sid, since) == (http["transitions"], http["count"])
        assert len(server.transitions_since(sid, 0)[0]) == len(tr.transitions()) >= 3
    finally:
        env.close()
    with pytest.raises(ServerError):
        server.transitions_since("no-such-session", 0)


class _OverHTTP:
    """The server reached only through its control API, as a server in another process is."""

    def __init__(self, server: ServerHandle) -> None:
        self.url, self.token, self.control = server.url, server.token, server.control


@pytest.mark.parametrize("index", [0, 128])
def test_remote_server_gives_the_same_trace(server, host, shopping_tasks, index) -> None:  # type: ignore[no-untyped-def]
    traces = []
    for srv in (server, _OverHTTP(server)):
        env = BrowserEnv(shopping_tasks[index], agent="test", server=srv, host=host,  # type: ignore[arg-type]
                         config=BrowserConfig(observation="axtree"))
        try:
            traces.append(run_episode(env, OracleAgent()))
        finally:
            env.close()
    direct, remote = traces
    assert direct.success and remote.success
    assert ([t.model_dump() for t in direct.transitions()]
            == [t.model_dump() for t in remote.transitions()])


def test_a_navigation_while_settling_is_waited_out(server, host, shopping_tasks) -> None:  # type: ignore[no-untyped-def]
    env = _env(shopping_tasks[0], server, host, observation="axtree")
    try:
        env.reset()
        # the page cannot settle until the reload replaces its document
        env.page.evaluate("""() => {
            window.__old = true;
            window.__webmdp.pending = 1;
            setTimeout(() => location.reload(), 300);
        }""")
        obs = env.step(GUIAction(kind="wait", seconds=0))[0]
        assert env.trace.steps[-1].error is None
        assert env.page.evaluate("window.__old === undefined && window.__webmdp.pending === 0")
        assert obs["nodes"] and obs["url"].startswith(server.url + "/s/")
    finally:
        env.close()
