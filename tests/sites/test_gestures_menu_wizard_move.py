"""The complex-interaction widgets (issue 19 part 4) in a real Chromium against the real server:
a calendar chip dragged onto an hour (MoveEvent), Easy Apply as a three-step wizard
(SubmitApplication) and Shopwise's nested "Departments" menu. Each end result dispatches exactly
one semantic action, the MDP state after it equals the semantic replay (``_Run.gui``), and the
built-in driver's plans (agents/gestures.py, agents/driver.py) operate each widget."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_gestures import _Run

from support import site_tasks
from webmdp.agents.driver import needs_replan, plan_gui
from webmdp.agents.gestures import menu_level, plan_grid_move, plan_wizard
from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction, click, key, type_text

pytestmark = pytest.mark.browser

Node = dict[str, Any]


def _params(node: Node) -> dict[str, Any]:
    return dict(json.loads(node.get("params") or "{}"))


def _bound(nodes: list[Node], action: str) -> list[Node]:
    return [n for n in nodes if n.get("id") is not None and n.get("action") == action]


def _drive_until(run: _Run, action: Action, limit: int = 10) -> list[tuple[str, dict]]:
    """The driver's plans for ``action``, replanned after each preparing step, until one sends
    something; what that one sent."""
    for _ in range(limit):
        nodes = run.nodes
        steps = plan_gui(action, nodes)
        assert steps is not None, action
        got = run.gui(steps)
        if not needs_replan(steps, action, nodes):
            return got
        assert got == [], got  # preparing the page is page state only
    raise AssertionError(f"no plan for {action}")


def test_drag_a_calendar_chip_onto_an_hour_moves_it(server, host) -> None:  # type: ignore[no-untyped-def]
    run = _Run(site_tasks("calendar")[0], server, host)
    try:
        grips = [n for n in _bound(run.nodes, "MoveEvent") if n.get("in_viewport")]
        assert grips, "the week view offers no move handle"
        eid = _params(grips[0])["event_id"]
        cells = [_params(n) for n in _bound(run.nodes, "PickSlot")]
        date, start = next((c["date"], c["start"]) for c in cells if c["start"] >= "09:00")
        want = Action("MoveEvent", {"event_id": eid, "date": date, "start": start})
        # the driver: one drag of the grip onto the hour (after a scroll, if need be)
        plan = plan_grid_move(want, run.nodes)
        assert plan is not None and plan[-1].kind == "drag"
        assert _drive_until(run, want) == [("MoveEvent", dict(want.params))]
        # a click on the grip is the gesture's: it sends nothing
        grip = next(n for n in _bound(run.nodes, "MoveEvent") if _params(n)["event_id"] == eid)
        assert run.gui([click(grip["x"], grip["y"])]) == []
        # the coordinate action space: the chip itself dragged onto another empty hour
        chip = next(n for n in _bound(run.nodes, "OpenEvent") if _params(n)["event_id"] == eid
                    and n.get("in_viewport"))
        cell = next(n for n in _bound(run.nodes, "PickSlot")
                    if n.get("in_viewport") and 0 < n["y"] < 880 and _params(n)["date"] != date)
        got = run.gui([GUIAction(kind="drag", x=chip["x"], y=chip["y"], x2=cell["x"],
                                 y2=cell["y"])])
        assert got == [("MoveEvent", {"event_id": eid, **_params(cell)})]
        # a press without moving stays a click: it opens the event
        chip = next(n for n in _bound(run.nodes, "OpenEvent") if _params(n)["event_id"] == eid)
        got = run.gui([GUIAction(kind="drag", x=chip["x"], y=chip["y"], x2=chip["x"] + 1,
                                 y2=chip["y"])])
        assert got == [("OpenEvent", {"event_id": eid})]
    finally:
        run.close()


def test_easy_apply_wizard_sends_one_application(server, host) -> None:  # type: ignore[no-untyped-def]
    task = next(t for t in site_tasks("jobs")
                if any(a.name == "SubmitApplication" for a in t.oracle_actions()))
    run = _Run(task, server, host)
    try:
        oracle = task.oracle_actions()
        submit = next(a for a in oracle if a.name == "SubmitApplication")
        for a in oracle[:oracle.index(submit)]:
            run.drive(a)
        fields = {n["field"] for n in _bound(run.nodes, "SubmitApplication") if n.get("field")}
        assert fields == {"phone"}, fields  # later steps are hidden
        assert not any(n.get("submits") for n in run.nodes)
        # Enter before the last step means Next: nothing is sent, the resume step shows
        phone = next(n for n in run.nodes if n.get("field") == "phone")
        got = run.gui([click(phone["x"], phone["y"]), type_text(f"{submit.params['phone']}\n")])
        assert got == []
        assert {n["field"] for n in run.nodes if n.get("field")} >= {"resume"}
        assert not any(n.get("field") == "phone" for n in run.nodes)
        # Back returns to the typed phone number, kept
        back = next(n for n in run.nodes if str(n.get("name", "")).startswith("Back to step 1"))
        run.gui([click(back["x"], back["y"])])
        assert next(n for n in run.nodes if n.get("field") == "phone")["value"] == \
            submit.params["phone"]
        # the driver: each step's fields, then Next, then the last step's fill sends it all
        plan = plan_wizard(submit, run.nodes)
        assert plan is not None and plan[-1].kind == "click"
        assert _drive_until(run, submit) == [("SubmitApplication", dict(submit.params))]
    finally:
        run.close()


def test_departments_menu_opens_level_by_level(server, host) -> None:  # type: ignore[no-untyped-def]
    run = _Run(site_tasks("shopping")[0], server, host)
    try:
        run.drive(Action("SetDepartment", {"department": "Electronics"}))
        category = next(_params(n)["category"] for n in _bound(run.nodes, "SetCategory"))
        want = Action("SetCategory", {"category": category})

        def leaves() -> list[Node]:
            return [n for n in _bound(run.nodes, want.name) if _params(n) == dict(want.params)]

        hidden = len(leaves())  # the sidebar's; the menu's leaf is hidden until opened
        top = menu_level(want, run.nodes)
        assert top is not None and top["name"] == "Departments menu"
        assert run.gui([click(top["x"], top["y"])]) == []
        assert len(leaves()) == hidden
        level = menu_level(want, run.nodes)
        assert level is not None and level["name"] == "Electronics submenu"
        assert run.gui([click(level["x"], level["y"])]) == []
        assert len(leaves()) == hidden + 1
        # a level named after the parameter is opened first; hovering opens one too
        books = Action("SetDepartment", {"department": "Books"})
        level = menu_level(books, run.nodes)
        assert level is not None and level["name"] == "Books submenu"
        run.gui([GUIAction(kind="move", x=level["x"], y=level["y"])])
        leaf = next(n for n in _bound(run.nodes, "SetDepartment")
                    if n["name"] == "All Books")
        # the leaf the hover revealed sends its action
        assert run.gui([click(leaf["x"], leaf["y"])]) == [("SetDepartment", dict(books.params))]
        # Escape closes the whole menu again
        top = next(n for n in run.nodes if n.get("name") == "Departments menu")
        run.gui([click(top["x"], top["y"])])
        assert any(n.get("name") == "Books submenu" for n in run.nodes)
        run.gui([key("Escape")])
        assert not any(n.get("name") == "Books submenu" for n in run.nodes)
    finally:
        run.close()
