"""BrowserEnv in a real Chromium against the real server on loopback."""

from __future__ import annotations

import io
import struct

import pytest

from support import site_tasks
from webmdp.agents import OracleAgent
from webmdp.env.actions import GUIAction
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.env.semantic import SemanticEnv
from webmdp.runner.episode import run_episode
from webmdp.runner.validate import semantic_signature
from webmdp.server.runner import ServerHandle
from webmdp.tasks import Task

pytestmark = pytest.mark.browser


def _png_size(data: bytes) -> tuple[int, int]:
    buf = io.BytesIO(data)
    assert buf.read(8) == b"\x89PNG\r\n\x1a\n"
    buf.read(8)
    return struct.unpack(">II", buf.read(8))


def _env(task: Task, server: ServerHandle, host: BrowserHost, **cfg) -> BrowserEnv:  # type: ignore[no-untyped-def]
    return BrowserEnv(task, agent="test", server=server, host=host, config=BrowserConfig(**cfg))


def test_observation_has_screenshot_axtree_and_url(server, host, shopping_tasks) -> None:  # type: ignore[no-untyped-def]
    env = _env(shopping_tasks[0], server, host)
    try:
        obs, info = env.reset()
        assert _png_size(obs["screenshot"]) == (1440, 900)
        assert obs["url"].startswith(server.url + "/s/")
        assert '[1] ' in obs["axtree"] and "Search" in obs["axtree"]
        assert info["instruction"] == shopping_tasks[0].instruction
    finally:
        env.close()


# one task per template and every hard-negative count, on both sites
@pytest.mark.parametrize("site,index", [
    *(("shopping", i) for i in (0, 33, 65, 97, 128, 161)),
    *(("mail", i) for i in (1, 34, 63, 94, 123, 155)),
    ("qa", 45), ("repo", 75),  # an answer and a comment typed in text areas, sent by the button
])
def test_oracle_gui_trace_equals_mdp_trace(server, host, site, index) -> None:  # type: ignore[no-untyped-def]
    task = site_tasks(site)[index]
    want = run_episode(SemanticEnv(task), OracleAgent())
    env = _env(task, server, host, observation="axtree")
    try:
        got = run_episode(env, OracleAgent())
    finally:
        env.close()
    assert got.success, (task.id, got.verifier, [t.action for t in got.transitions()])
    assert semantic_signature(got) == semantic_signature(want)
    assert not [t for t in got.transitions() if t.error]
    assert len(got.steps) >= len(task.oracle)
    assert all(s.url for s in got.steps)


def test_element_id_click_and_typing(server, host, shopping_tasks) -> None:  # type: ignore[no-untyped-def]
    task = shopping_tasks[0]
    env = _env(task, server, host, observation="axtree")
    try:
        obs, _ = env.reset()
        box = next(n for n in obs["nodes"] if n.get("field") == "query")
        obs, _, _, _, _ = env.step(GUIAction(kind="type", element=box["id"],
                                             text=task.params["query"] + "\n"))
        assert [t.action for t in env.trace.steps[-1].transitions] == ["Search"]
        link = next(n for n in obs["nodes"] if n.get("action") == "OpenProduct")
        env.step(GUIAction(kind="click", element=link["id"]))
        tr = env.trace.steps[-1].transitions
        assert tr[0].action == "OpenProduct" and tr[0].surface_after == "ProductDetail"
        # a click on empty space causes no semantic transition
        env.step(GUIAction(kind="click", x=1430, y=890))
        assert env.trace.steps[-1].transitions == []
        _, _, term, trunc, _ = env.step(GUIAction(kind="finish", answer="x"))
        assert term and not trunc and env.trace.final_answer == "x"
    finally:
        env.close()


def test_back_forward_reload_stay_in_sync(server, host, shopping_tasks) -> None:  # type: ignore[no-untyped-def]
    task = shopping_tasks[0]
    env = _env(task, server, host, observation="axtree")
    try:
        env.reset()
        page = env.page
        page.fill("form[data-action=Search] input[name=query]", task.params["query"])
        page.press("form[data-action=Search] input[name=query]", "Enter")
        env._settle()
        page.click(f'[data-action=OpenProduct][data-params*="{task.target}"] >> nth=0')
        env._settle()

        def mdp_surface() -> str:
            snap = server.control("GET", f"/control/sessions/{env.session_id}/snapshot")
            return snap["state"]["surface"]

        def page_surface() -> str:
            return page.evaluate("document.body.dataset.surface")

        assert mdp_surface() == page_surface() == "ProductDetail"
        page.go_back()
        page.wait_for_function("document.body.dataset.surface === 'SearchResults'")
        env._settle()
        assert mdp_surface() == page_surface() == "SearchResults"
        page.go_forward()
        env._settle()
        assert mdp_surface() == page_surface()
        page.reload()
        env._settle()
        assert mdp_surface() == page_surface()
        actions = [t["action"] for t in server.control(
            "GET", f"/control/sessions/{env.session_id}/trace")["transitions"]]
        assert actions[:3] == ["Search", "OpenProduct", "BackToResults"]
    finally:
        env.close()


def test_browser_reaches_only_our_server(server, host, shopping_tasks) -> None:  # type: ignore[no-untyped-def]
    env = _env(shopping_tasks[0], server, host, observation="axtree")
    try:
        env.reset()
        outcome = env.page.evaluate("""async () => {
            const tries = ['http://example.com/', 'http://127.0.0.1:9/x'];
            const res = [];
            for (const u of tries) {
              try { await fetch(u, {mode: 'no-cors'}); res.push('reached'); }
              catch (e) { res.push('blocked'); }
            }
            return res;
        }""")
        assert outcome == ["blocked", "blocked"]
    finally:
        env.close()
