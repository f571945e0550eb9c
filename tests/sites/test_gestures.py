"""Gesture widgets (sites/_common/static/gestures.js) in a real Chromium: a knob dragged on a
range slider, a dish dragged onto the cart, two days clicked on a range calendar each dispatch
exactly their semantic action, the MDP state after equals the semantic replay, and the driver's
gesture plans (agents/gestures.py) work through a BrowserEnv."""

from __future__ import annotations

from typing import Any

import pytest

from support import site_tasks
from webmdp.agents.driver import needs_replan, plan_gui
from webmdp.agents.gestures import plan_date_range, plan_drop, plan_gesture, slider_scale, slider_x
from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction, click
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.semantic import SemanticEnv
from webmdp.sites import get_site
from webmdp.tasks import Task

pytestmark = pytest.mark.browser


class _Run:
    """A BrowserEnv and the semantic replay of every action its GUI steps dispatched."""

    def __init__(self, task: Task, server: Any, host: Any) -> None:
        self.env = BrowserEnv(task, agent="test", server=server, host=host,
                              config=BrowserConfig(observation="axtree"))
        self.obs, _ = self.env.reset(seed=0)
        self.sem = SemanticEnv(task)
        self.sem.reset(seed=0)

    @property
    def nodes(self) -> list[dict[str, Any]]:
        return self.obs["nodes"]

    def gui(self, steps: list[GUIAction]) -> list[tuple[str, dict[str, Any]]]:
        """Perform ``steps``; the semantic actions they dispatched, each replayed on the MDP
        (same state key after each)."""
        before = len(self.env.trace.transitions())
        for s in steps:
            self.obs, *_ = self.env.step(s)
        new = self.env.trace.transitions()[before:]
        for t in new:
            self.sem.step(Action(t.action, t.params))
            assert not t.error, t.error
            assert t.state_key == self.sem.trace.transitions()[-1].state_key
        return [(t.action, dict(t.params)) for t in new]

    def drive(self, action: Action) -> None:
        """The built-in driver's plan for ``action`` (replanned after a scroll)."""
        for _ in range(4):
            nodes = self.nodes
            steps = plan_gui(action, nodes)
            assert steps is not None, action
            got = self.gui(steps)
            if not needs_replan(steps, action, nodes):
                assert [a for a, _ in got] == [action.name]
                return
        raise AssertionError(f"no plan for {action}")

    def close(self) -> None:
        self.env.close()


def _track(nodes: list[dict[str, Any]], action: str) -> dict[str, Any]:
    return next(n for n in nodes if n.get("action") == action and slider_scale(n))


@pytest.mark.parametrize("site", ["housing", "accommodation"])
def test_slider_drag_dispatches_the_price_range(site: str, server, host) -> None:  # type: ignore[no-untyped-def]
    run = _Run(site_tasks(site)[0], server, host)
    try:
        if site == "accommodation" and not any(n.get("action") == "SetPriceRange"
                                               for n in run.nodes):
            pytest.skip("no results page at the start")
        track = _track(run.nodes, "SetPriceRange")
        lo, hi, step = slider_scale(track) or (0, 0, 0)
        top = lo + step * round((hi - lo) / step * 0.6)
        # the driver's plan: one drag of the max knob
        plan = plan_gesture(Action("SetPriceRange", {"max": top}), run.nodes)
        if plan and plan[0].kind == "scroll":
            run.gui(plan)
            plan = plan_gesture(Action("SetPriceRange", {"max": top}), run.nodes)
        assert plan and [s.kind for s in plan] == ["drag"]
        assert run.gui(plan) == [("SetPriceRange", {"max": top})]
        # then the min knob, keeping the max
        bottom = lo + step * round((hi - lo) / step * 0.2)
        plan = plan_gesture(Action("SetPriceRange", {"min": bottom, "max": top}), run.nodes)
        assert plan and [s.kind for s in plan] == ["drag"]
        assert run.gui(plan) == [("SetPriceRange", {"min": bottom, "max": top})]
        # the coordinate action space: a click on the track moves the nearest knob there
        track = _track(run.nodes, "SetPriceRange")
        mid = lo + step * round((hi - lo) / step * 0.5)
        got = run.gui([click(slider_x(track, mid, (lo, hi, step)), track["y"])])
        assert got == [("SetPriceRange", {"min": bottom, "max": mid})]
        # dragging the max knob to the end means "no max"
        track = _track(run.nodes, "SetPriceRange")
        x = slider_x(track, mid, (lo, hi, step))
        got = run.gui([GUIAction(kind="drag", x=x, y=track["y"], x2=x + 400, y2=track["y"])])
        assert got == [("SetPriceRange", {"min": bottom})]
        # a value off the grid is not the slider's: no plan, the driver types it
        assert plan_gesture(Action("SetPriceRange", {"min": bottom + step / 3}), run.nodes) is None
    finally:
        run.close()


def test_drag_a_dish_onto_the_cart_adds_it(server, host) -> None:  # type: ignore[no-untyped-def]
    task = site_tasks("food")[0]
    run = _Run(task, server, host)
    try:
        first = next(n for n in run.nodes if n.get("action") == "OpenRestaurant")
        run.drive(Action("OpenRestaurant", dict(_params(first))))
        item = next(n for n in run.nodes if n.get("action") == "QuickAdd")
        want = Action("QuickAdd", _params(item))
        plan = plan_drop(want, run.nodes)
        for _ in range(3):
            if plan and plan[0].kind == "scroll":
                run.gui(plan)
                plan = plan_drop(want, run.nodes)
        assert plan and [s.kind for s in plan] == ["drag"]
        assert run.gui(plan) == [("QuickAdd", dict(want.params))]
        # a press and release without moving stays a click: it opens the dish
        def card() -> dict[str, Any]:
            return next(n for n in run.nodes if n.get("action") == "OpenItem"
                        and _params(n) == dict(want.params))
        run.gui([GUIAction(kind="scroll", x=720, y=450, dy=round(card()["y"] - 450))])
        x, y = card()["x"], card()["y"]
        got = run.gui([GUIAction(kind="drag", x=x, y=y, x2=x + 1, y2=y)])
        assert got == [("OpenItem", dict(want.params))]
    finally:
        run.close()


def test_date_range_calendar_fills_both_dates(server, host) -> None:  # type: ignore[no-untyped-def]
    task = next(t for t in site_tasks("accommodation")
                if any(a.name == "BookListing" for a in t.oracle_actions()))
    run = _Run(task, server, host)
    try:
        for a in task.oracle_actions():
            if a.name == "BookListing":
                break
            run.drive(a)
        book = next(a for a in task.oracle_actions() if a.name == "BookListing")
        opener = next(n for n in run.nodes if str(n.get("name", "")).startswith(
            "Choose check-in and checkout dates"))
        if not (0 <= opener["y"] < 900):
            run.gui([GUIAction(kind="scroll", x=720, y=450, dy=round(opener["y"] - 300))])
            opener = next(n for n in run.nodes if str(n.get("name", "")).startswith(
                "Choose check-in and checkout dates"))
        run.gui([click(opener["x"], opener["y"])])
        month = int(str(book.params["check_in"])[5:7])
        for _ in range(month - 1):  # the calendar opens on January
            nxt = next(n for n in run.nodes if n.get("name") == "Next month")
            run.gui([click(nxt["x"], nxt["y"])])
        days = plan_date_range(book, run.nodes)
        if days is None:
            pytest.skip("the stay spans two months")
        assert run.gui(days) == []  # picking dates is typing, not a semantic action
        values = run.env.page.evaluate(
            "() => [document.getElementById('f-check_in').value,"
            " document.getElementById('f-check_out').value]")
        assert values == [book.params["check_in"], book.params["check_out"]]
        guests = next(n for n in run.nodes if n.get("field") == "guests")
        submit = next(n for n in run.nodes if n.get("submits") == "BookListing")
        got = run.gui([click(guests["x"], guests["y"]), GUIAction(kind="key", key="Control+a"),
                       GUIAction(kind="type", text=str(book.params["guests"])),
                       click(submit["x"], submit["y"])])
        assert got == [("BookListing", dict(book.params))]
    finally:
        run.close()


def test_gesture_pages_keep_conformance() -> None:
    from webmdp.conformance import check_site

    for site in ("housing", "accommodation", "food"):
        rep = check_site(get_site(site), tasks_per_template=1, max_states=150)
        assert rep.ok, (site, rep.problems[:5])


def _params(node: dict[str, Any]) -> dict[str, Any]:
    import json

    return dict(json.loads(node.get("params") or "{}"))
