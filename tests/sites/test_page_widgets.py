"""Page-state widgets of the site kit (issue 20, CAP coverage) in a real Chromium against the
real server: the photo carousel and its preview, the pager's "Go to page" field, breadcrumbs
and the calendar grid's drop zones. A carousel or preview step sends nothing; a bound widget
sends exactly its action (``_Run.gui`` replays each on the MDP)."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from typing import Any

import pytest
from test_gestures import _Run

from support import site_tasks
from webmdp.cap.dom import parse
from webmdp.core.model import World
from webmdp.env.actions import GUIAction, click, key, type_text
from webmdp.sites import get_site
from webmdp.sites._common.views import render_app

Node = dict[str, Any]


def _named(nodes: list[Node], pattern: str) -> list[Node]:
    return [n for n in nodes if re.search(pattern, str(n.get("name", "")))]


def _text(nodes: list[Node]) -> str:
    return " ".join(str(n.get("name", "")) for n in nodes)


def _open_detail(site: str, opener: str) -> tuple[Any, Any]:
    task = next(t for t in site_tasks(site) if any(a.name == opener for a in t.oracle_actions()))
    oracle = task.oracle_actions()
    return task, oracle[:next(i for i, a in enumerate(oracle) if a.name == opener) + 1]


@pytest.mark.browser
def test_carousel_and_preview_are_page_state(server, host) -> None:  # type: ignore[no-untyped-def]
    task, path = _open_detail("accommodation", "ViewListing")
    run = _Run(task, server, host)
    try:
        for a in path:
            run.drive(a)
        assert "1 of 5" in _text(run.nodes)
        nxt = _named(run.nodes, r"^Next photo$")[0]
        prev = _named(run.nodes, r"^Previous photo$")[0]
        assert nxt["x"] - prev["x"] > 300  # the arrows flank the photo
        assert run.gui([click(nxt["x"], nxt["y"])]) == []
        assert "2 of 5" in _text(run.nodes) and "1 of 5" not in _text(run.nodes)
        dot = _named(run.nodes, r"^Show photo 5$")[0]
        assert run.gui([click(dot["x"], dot["y"])]) == []
        assert "5 of 5" in _text(run.nodes)
        nxt = _named(run.nodes, r"^Next photo$")[0]  # wraps round
        assert run.gui([click(nxt["x"], nxt["y"])]) == []
        assert "1 of 5" in _text(run.nodes)
        # the preview: the slide shown, zoomed in steps, closed by Escape; nothing is sent
        enlarge = _named(run.nodes, r"^Enlarge photo$")[0]
        assert run.gui([click(enlarge["x"], enlarge["y"])]) == []
        assert "Photo 1 of 5, zoom 100%" in _text(run.nodes)
        zoom = _named(run.nodes, r"^Zoom in$")[0]
        assert run.gui([click(zoom["x"], zoom["y"]), click(zoom["x"], zoom["y"])]) == []
        assert "Photo 1 of 5, zoom 200%" in _text(run.nodes)
        nxt = _named(run.nodes, r"^Next photo$")[-1]  # the preview's (appended to the body)
        assert run.gui([click(nxt["x"], nxt["y"])]) == []
        assert "Photo 2 of 5, zoom 200%" in _text(run.nodes)
        assert run.gui([key("Escape")]) == []
        assert not _named(run.nodes, r"^Close preview$") and "2 of 5" in _text(run.nodes)
    finally:
        run.close()


def _jump_field(run: _Run) -> Node:
    """The pager's "Go to page" field, scrolled into view."""
    field = _named(run.nodes, r"^Go to page$")[0]
    if not field.get("in_viewport"):
        run.gui([GUIAction(kind="scroll", x=720, y=450, dy=field["y"] - 450)])
        field = _named(run.nodes, r"^Go to page$")[0]
    return field


@pytest.mark.browser
def test_page_jump_and_breadcrumb_send_their_actions(server, host) -> None:  # type: ignore[no-untyped-def]
    task, path = _open_detail("food", "OpenRestaurant")
    run = _Run(task, server, host)
    try:
        field = _jump_field(run)
        # the current page has no link: nothing is sent
        assert run.gui([click(field["x"], field["y"]), type_text("1\n")]) == []
        field = _jump_field(run)
        assert run.gui([click(field["x"], field["y"]), key("Control+A"), type_text("2\n")]) == \
            [("GoToPage", {"page": 2})]
        field = _jump_field(run)
        go = next(n for n in run.nodes if n.get("name") == "Go" and abs(n["y"] - field["y"]) < 20)
        assert run.gui([click(field["x"], field["y"]), type_text("1"), click(go["x"], go["y"])]) \
            == [("GoToPage", {"page": 1})]
        opened = next(a for a in task.oracle_actions() if a.name == "OpenRestaurant")
        run.sem.reset(seed=0)  # start over: the oracle's store is on the first page
        run.obs, _ = run.env.reset(seed=0)
        for a in path:
            run.drive(a)
        crumbs = [n for n in run.nodes if n.get("action") in ("GoHome", "BackToRestaurants")
                  and n.get("name") in ("Home", "All stores")]
        assert {n["name"] for n in crumbs} == {"Home", "All stores"}, opened
        back = next(n for n in crumbs if n["name"] == "All stores")
        assert run.gui([click(back["x"], back["y"])]) == [("BackToRestaurants", {})]
    finally:
        run.close()


def test_calendar_drop_zones_state_only_numbers() -> None:
    """Each day column of the grid is MoveEvent's drop zone; it states its day as a number of
    days since 1970-01-01 (the date its own empty hours name) and the grid's scale, and no
    "HH:MM" or ISO date hides in it."""
    site = get_site("calendar")
    task = site_tasks("calendar")[0]
    world = World.from_dict(task.world)
    html = render_app("calendar", site.observe(site.initial_state(world), world), error=None)
    cols = [c for c in parse(html).iter() if c.has("data-drop-grid")]
    assert cols
    for col in cols:
        raw = col.get("data-drop-grid")
        assert not re.search(r"\d{2}:\d{2}|\d{4}-\d{2}-\d{2}", raw), raw
        grid = json.loads(raw)
        day = (date(1970, 1, 1) + timedelta(days=grid["day"])).isoformat()
        slots = [c for c in col.iter() if c.has("data-drop-slot")]
        assert len(slots) == grid["slots"] and grid["step"] == 60
        for i, s in enumerate(slots):
            if s.has("data-params"):
                p = json.loads(s.get("data-params"))
                assert p["date"] == day
                assert p["start"] == f"{(grid['first'] + i * grid['step']) // 60:02d}:00"
        assert col.get("data-drop-for") == "MoveEvent" and col.get("aria-label")
