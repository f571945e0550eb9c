"""Calendar GUI views, what is Calendar's own: detail-only fields stay off the grid and the
results, the event card shows guests and agenda, empty hours are clickable only where no event
is drawn. The checks every site shares are in test_views_common.py."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import pytest

from view_cases import render, view_states
from webmdp.core.model import State, World
from webmdp.sites import get_site
from webmdp.sites._common import views
from webmdp.sites.calendar import clock

SITE = get_site("calendar")
VIEWS = Path(views.__file__).parent.parent / "calendar" / "views"


def _states() -> tuple[tuple[World, State], ...]:
    return view_states("calendar")


def _html(world: World, state: State, error: str | None = None) -> str:
    return render("calendar", world, state, error)


def test_detail_fields_never_on_the_grid_or_results() -> None:
    for world, state in _states():
        if state.surface in ("EventDetail", "EventEditor"):
            continue
        html = unescape(_html(world, state))
        for e in SITE.observe(state, world).entities:
            ev = world.entities.get(e.id)
            if ev is None:
                continue
            assert ev["description"] not in html and ev["conference"] not in html
            assert f"{ev['organizer']}<br>" not in html


def test_event_card_shows_guests_agenda_and_conflicts() -> None:
    found = False
    for world, state in _states():
        if state.surface != "EventDetail":
            continue
        ev = SITE.observe(state, world).entities[0].fields
        html = unescape(_html(world, state))
        assert ev["organizer"] in html and ev["description"] in html
        assert all(g in html for g in ev["attendees"])
        assert ("Conflicts with" in html) == bool(ev["conflicts"])
        found = True
    assert found


def test_empty_hours_are_clickable_only_where_no_event_is_drawn() -> None:
    checked = 0
    for world, state in _states():
        if state.surface not in ("WeekView", "DayView"):
            continue
        obs = SITE.observe(state, world)
        for a in obs.available:
            if a.name != "PickSlot":
                continue
            h = clock.minutes(a.params["start"])
            for e in obs.entities:
                if e.fields["date"] == a.params["date"]:
                    span = (clock.minutes(e.fields["start"]), clock.minutes(e.fields["end"]))
                    assert not clock.overlaps((h, h + 60), span)
            checked += 1
    assert checked > 100


def test_same_state_renders_the_same_bytes() -> None:
    world, state = _states()[5]
    assert _html(world, state) == _html(world, state)


@pytest.mark.parametrize("name", ["WeekView", "DayView", "MonthView", "SearchResults",
                                  "EventDetail", "EventEditor"])
def test_each_surface_has_a_view(name: str) -> None:
    assert (VIEWS / f"{name}.html").exists()
