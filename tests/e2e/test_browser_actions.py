"""Every kind of the browser action space, in a real Chromium against the real server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from webmdp.env.actions import GUIAction
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.server.runner import ServerHandle
from webmdp.tasks import Task
from webmdp.trace import StepNotes

pytestmark = pytest.mark.browser

_SELECTION = "() => [document.activeElement.selectionStart, document.activeElement.selectionEnd]"


def _start(task: Task, server: ServerHandle, host: BrowserHost, **cfg: Any) -> BrowserEnv:
    env = BrowserEnv(task, agent="test", server=server, host=host,
                     config=BrowserConfig(observation="axtree", **cfg))
    env.reset()
    return env


@pytest.fixture
def shop(server: ServerHandle, host: BrowserHost,
         shopping_tasks: list[Task]) -> Iterator[BrowserEnv]:
    env = _start(shopping_tasks[0], server, host)
    yield env
    env.close()


def _node(env: BrowserEnv, **want: Any) -> dict[str, Any]:
    """The first element of the last observation whose keys have the wanted values."""
    nodes = env._last_obs["nodes"]
    return next(n for n in nodes if n.get("id") and all(n.get(k) == v for k, v in want.items()))


def _step(env: BrowserEnv, **action: Any) -> list[tuple[str, dict[str, Any]]]:
    """Take one action; the (action, params) of the transitions it caused."""
    env.step(GUIAction(**action))
    return [(t.action, t.params) for t in env.trace.steps[-1].transitions]


def _surfaces(env: BrowserEnv) -> tuple[str, str]:
    """(surface of the MDP state, surface the page renders)."""
    snap = env.server.control("GET", f"/control/sessions/{env.session_id}/snapshot")
    return snap["state"]["surface"], env.page.evaluate("document.body.dataset.surface")


def _search(env: BrowserEnv, query: str) -> None:
    box = _node(env, field="query")
    assert _step(env, kind="type", element=box["id"], text=query + "\n") == [
        ("Search", {"query": query})]


def test_hover_reveals_row_controls_and_a_click_dispatches(  # type: ignore[no-untyped-def]
        server, host, mail_tasks) -> None:
    env = _start(mail_tasks[0], server, host)
    try:
        row = _node(env, action="OpenThread")
        thread = json.loads(row["params"])
        assert not [n for n in env._last_obs["nodes"] if n.get("action") == "Archive"]
        assert _step(env, kind="move", x=row["x"], y=row["y"]) == []
        archive = _node(env, action="Archive", params=json.dumps(thread))
        assert archive["name"] == "Archive" and archive["in_viewport"]
        assert _step(env, kind="click", element=archive["id"]) == [("Archive", thread)]
        rec = env.trace.steps[-1].transitions[0]
        assert rec.error is None and rec.changed and rec.surface_after == "ThreadList"
    finally:
        env.close()


def test_triple_double_click_and_drag_select_text(shop: BrowserEnv) -> None:
    text = "bamboo shirt"
    box = _node(shop, field="query")
    assert _step(shop, kind="type", element=box["id"], text=text) == []
    assert shop.page.evaluate(_SELECTION) == [len(text), len(text)]
    assert _step(shop, kind="triple_click", element=box["id"]) == []
    assert shop.page.evaluate(_SELECTION) == [0, len(text)]
    left, right = box["x"] - box["w"] / 2, box["x"] + box["w"] / 2
    _step(shop, kind="key", key="End")
    _step(shop, kind="double_click", x=left + 14, y=box["y"])
    assert shop.page.evaluate(_SELECTION) == [0, len("bamboo")]
    _step(shop, kind="key", key="End")
    _step(shop, kind="drag", x=right - 4, y=box["y"], x2=left + 2, y2=box["y"])
    assert shop.page.evaluate(_SELECTION) == [0, len(text)]
    assert shop.pointer == (left + 2, box["y"])


def test_modifiers_are_held_and_replace_types_over_a_field(shop: BrowserEnv) -> None:
    text = "bamboo shirt"
    box = _node(shop, field="query")
    _step(shop, kind="type", element=box["id"], text=text)
    _step(shop, kind="key", key="Home")
    right = box["x"] + box["w"] / 2 - 4
    assert _step(shop, kind="click", x=right, y=box["y"], modifiers=["shift"]) == []
    assert shop.page.evaluate(_SELECTION) == [0, len(text)]  # shift+click extends the caret
    _step(shop, kind="click", x=right, y=box["y"])
    assert shop.page.evaluate(_SELECTION) == [len(text), len(text)]  # shift was released
    assert _step(shop, kind="type", element=box["id"], text="tent\n", replace=True) == [
        ("Search", {"query": "tent"})]
    _step(shop, kind="click", element=_node(shop, action="OpenCart")["id"], modifiers=["hyper"])
    assert shop.trace.steps[-1].error == "unknown key 'Hyper'"
    assert shop.trace.steps[-1].transitions == []


def test_key_chord_then_typing_replaces_a_fields_text(shop: BrowserEnv) -> None:
    box = _node(shop, field="query")
    _step(shop, kind="type", element=box["id"], text="old words")
    assert _step(shop, kind="key", key="ctrl+a") == []
    assert shop.page.evaluate(_SELECTION) == [0, len("old words")]
    _step(shop, kind="type", text="shirt")
    assert _node(shop, field="query")["value"] == "shirt"
    assert _step(shop, kind="key", key="enter") == [("Search", {"query": "shirt"})]
    assert _surfaces(shop) == ("SearchResults", "SearchResults")
    assert _step(shop, kind="key", key="ctrl+nosuchkey") == []
    assert shop.trace.steps[-1].error == "unknown key 'Control+Nosuchkey'"


def test_right_and_middle_click_use_their_buttons_and_do_not_click(shop: BrowserEnv) -> None:
    shop.page.evaluate("""() => { window.__buttons = [];
        for (const t of ['contextmenu', 'auxclick', 'click'])
          document.addEventListener(t, e => window.__buttons.push([t, e.button]), true); }""")
    dept = _node(shop, name="Electronics")
    assert _step(shop, kind="right_click", element=dept["id"]) == []
    assert _step(shop, kind="click", button="middle", element=dept["id"]) == []
    assert shop.page.evaluate("window.__buttons") == [["contextmenu", 2], ["auxclick", 2],
                                                      ["auxclick", 1]]
    assert _step(shop, kind="click", button="left", element=dept["id"]) == [
        ("SetDepartment", {"department": "Electronics"})]


def test_mouse_down_then_up_completes_a_click(shop: BrowserEnv) -> None:
    dept = _node(shop, name="Books")
    assert _step(shop, kind="mouse_down", element=dept["id"]) == []
    assert shop.pointer == (dept["x"], dept["y"])
    assert _step(shop, kind="mouse_up") == [("SetDepartment", {"department": "Books"})]
    assert _surfaces(shop) == ("SearchResults", "SearchResults")
    # pressed and released at different points: no click
    dept = _node(shop, name="Clothing")
    assert _step(shop, kind="mouse_down", x=dept["x"], y=dept["y"]) == []
    assert _step(shop, kind="mouse_up", x=1430, y=890) == []


def test_back_and_forward_follow_the_mdp(shop: BrowserEnv) -> None:
    start = shop.page.url
    assert _step(shop, kind="go_back") == []  # nothing before the first page: Back is disabled
    assert shop.page.url == start and shop.trace.steps[-1].error is None
    _search(shop, shop.task.params["query"])
    product = _node(shop, action="OpenProduct", tag="a")
    assert _step(shop, kind="click", element=product["id"])[0][0] == "OpenProduct"
    assert _surfaces(shop) == ("ProductDetail", "ProductDetail")
    assert _step(shop, kind="go_back") == [("BackToResults", {})]
    assert _surfaces(shop) == ("SearchResults", "SearchResults")
    assert shop.page.url.endswith("/searchresults")
    _step(shop, kind="go_forward")
    assert shop.page.url.endswith("/productdetail")
    mdp, page = _surfaces(shop)
    assert mdp == page
    assert _step(shop, kind="go_forward") == [] and shop.page.url.endswith("/productdetail")


def test_scroll_by_direction_and_at_a_point(shop: BrowserEnv) -> None:
    _step(shop, kind="click", element=_node(shop, name="Electronics")["id"])
    room = shop.page.evaluate("document.documentElement.scrollHeight - innerHeight")
    assert room > 100
    assert _step(shop, kind="scroll", direction="down", amount=1) == []
    assert shop.page.evaluate("scrollY") == 100
    _step(shop, kind="scroll", direction="up", amount=1)
    assert shop.page.evaluate("scrollY") == 0
    _step(shop, kind="scroll", x=720, y=450, dy=room)
    assert shop.page.evaluate("scrollY") == room
    # an element id that is off screen is scrolled into view before the click
    cart = _node(shop, action="OpenCart")
    assert not cart["in_viewport"]
    assert _step(shop, kind="click", element=cart["id"]) == [("OpenCart", {})]


_INJECT_SELECT = """() => {
  const s = document.createElement('select');
  s.dataset.action = 'SortBy';
  s.dataset.param = 'order';
  s.setAttribute('aria-label', 'Sort results');
  for (const [value, label] of [['featured', 'Featured'], ['price_desc', 'Price: High to Low'],
                                ['rating', 'Avg. Customer Review']])
    s.add(new Option(label, value));
  document.querySelector('.sr-bar').prepend(s);
}"""


def test_select_option_by_label_or_value_dispatches_the_bound_action(shop: BrowserEnv) -> None:
    # No site ships a native <select> (validate level 2 forbids them), so the test adds one
    # bound the way views bind actions; webmdp.js dispatches its change like any other.
    _search(shop, shop.task.params["query"])
    for option, order in (("Price: High to Low", "price_desc"), ("rating", "rating")):
        shop.page.evaluate(_INJECT_SELECT)
        _step(shop, kind="wait", seconds=0)  # observe the page with the new control
        box = _node(shop, role="combobox", name="Sort results")
        assert _step(shop, kind="select_option", element=box["id"], option=option) == [
            ("SortBy", {"order": order})]
        snap = shop.server.control("GET", f"/control/sessions/{shop.session_id}/snapshot")
        assert snap["state"]["sort"] == order
    shop.page.evaluate(_INJECT_SELECT)
    _step(shop, kind="wait", seconds=0)
    box = _node(shop, role="combobox", name="Sort results")
    assert _step(shop, kind="select_option", element=box["id"], option="Cheapest") == []
    assert "no option 'Cheapest'" in (shop.trace.steps[-1].error or "")
    link = _node(shop, action="OpenProduct", tag="a")
    assert _step(shop, kind="select_option", element=link["id"], option="Featured") == []
    assert "not a <select>" in (shop.trace.steps[-1].error or "")


def test_wait_lets_the_page_run_and_is_capped(shop: BrowserEnv,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    shop.page.evaluate("() => { window.__fired = false; "
                       "setTimeout(() => { window.__fired = true; }, 100); }")
    _step(shop, kind="wait")  # the default, half a second
    assert shop.page.evaluate("window.__fired") is True
    waited: list[float] = []
    monkeypatch.setattr(shop.page, "wait_for_timeout", waited.append)
    _step(shop, kind="wait", seconds=60)
    _step(shop, kind="wait", seconds=-1)
    assert waited == [5000.0, 0.0]


def test_invalid_steps_keep_notes_and_count_against_the_budget(  # type: ignore[no-untyped-def]
        server, host, shopping_tasks) -> None:
    env = _start(shopping_tasks[0], server, host, step_budget=3)
    try:
        before = env._last_obs
        notes = StepNotes(thought="look for shirts", node=4)
        obs, reward, term, trunc, info = env.record_invalid(
            "no action in the output", raw_output="hmm", agent_s=0.25, notes=notes)
        assert obs is before and (reward, term, trunc) == (0.0, False, False)
        step = env.trace.steps[-1]
        assert step.action == {"kind": "invalid"} and step.error == "no action in the output"
        assert step.raw_output == "hmm" and step.notes == notes and step.transitions == []
        _, _, _, trunc, info = env.step(GUIAction(kind="click", element=999),
                                        notes=StepNotes(intent={"kind": "click", "element": 9}))
        assert not trunc and info["error"] == "no element with id 999 in the observation"
        assert env.trace.steps[-1].action == {"kind": "click", "element": 999}
        assert env.trace.steps[-1].notes.intent == {"kind": "click", "element": 9}
        _, _, term, trunc, info = env.step({"kind": "click"}, raw_output="click()")
        assert "malformed action" in info["error"] and (term, trunc) == (False, True)
        assert env.trace.steps[-1].action == {"kind": "invalid"}
        assert env.trace.termination == "budget" and env.trace.truncated
    finally:
        env.close()


@pytest.mark.parametrize("ending", ["unparseable", "repeated_action"])
def test_stop_rules_are_agent_endings(shop: BrowserEnv, ending: str) -> None:
    trace = shop.seal(ending)  # type: ignore[arg-type]
    assert trace.termination == ending and trace.terminated and not trace.truncated
    assert not trace.success and trace.final_facts


def test_a_press_or_release_with_no_point_is_where_a_drag_ended(shop: BrowserEnv) -> None:
    """A drag's events go straight to the page; the pointer is then where the drag ended, for
    a later press, release or scroll that names no point."""
    books = _node(shop, name="Books")
    assert _step(shop, kind="drag", x=1430, y=890, x2=books["x"], y2=books["y"]) == []
    assert shop.pointer == (books["x"], books["y"])
    assert _step(shop, kind="mouse_down") == []
    assert _step(shop, kind="mouse_up") == [("SetDepartment", {"department": "Books"})]


def test_a_drag_holds_its_modifiers(shop: BrowserEnv) -> None:
    shop.page.evaluate("""() => { window.__mods = [];
        for (const t of ['pointerdown', 'pointermove', 'pointerup'])
          document.addEventListener(t, e => window.__mods.push([t, e.shiftKey, e.buttons]),
                                    true); }""")
    _step(shop, kind="drag", x=1430, y=890, x2=1400, y2=880, modifiers=["shift"])
    assert shop.page.evaluate("window.__mods") == [
        ["pointermove", True, 0], ["pointerdown", True, 1], ["pointermove", True, 1],
        ["pointerup", True, 0]]
