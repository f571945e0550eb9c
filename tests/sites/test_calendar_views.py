"""Calendar GUI views: every offered action is bound and nothing else is, forms carry a
visible input per typed parameter, detail-only fields stay off the grid and the results,
empty hours are clickable only where no event is drawn, typed text is escaped."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from html import unescape
from pathlib import Path

import pytest

from support import random_walk, site_tasks
from webmdp.core.check import bound_pairs
from webmdp.core.model import State, World
from webmdp.core.spec import Action
from webmdp.sites import get_site
from webmdp.sites._common import views
from webmdp.sites.calendar import clock

SITE = get_site("calendar")
VIEWS = Path(views.__file__).parent.parent / "calendar" / "views"
XSS = "<script>alert(1)</script>"
_FORM = re.compile(r'<form[^>]*data-action="([A-Za-z]+)" data-params="([^"]*)"[^>]*>(.*?)</form>',
                   re.S)


def _fill(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name == "SearchEvents":
        e = rng.choice(list(world.entities.values()))
        params["query"] = rng.choice([e["title"], e["location"], "zzz nothing"])
    elif action.name == "SaveEvent":
        d = clock.shift(world.meta["today"], rng.randint(-3, 10))
        h = rng.randint(8, 17)
        params.update(title=rng.choice(["Lunch", "Focus time"]), date=d, start=f"{h}:00",
                      end=f"{h + 1}:30", attendees=rng.choice(["", "Priya Patel, Tom Becker"]))
    return Action(action.name, params)


@cache
def _states() -> tuple[tuple[World, State], ...]:
    out: list[tuple[World, State]] = []
    for task in site_tasks("calendar")[::9]:
        world = World.from_dict(task.world)
        state = SITE.initial_state(world)
        out.append((world, state))
        for a in task.oracle_actions():
            state = SITE.step(state, a, world)
            out.append((world, state))
    for seed in (1, 2, 3):
        world = World.from_dict(site_tasks("calendar")[seed * 40].world)
        rng = random.Random(seed)
        out += [(world, s) for s in random_walk(SITE, world, rng, 150,
                                                lambda a, w=world, r=rng: _fill(a, w, r))]
    return tuple(out)


def _html(world: World, state: State, error: str | None = None) -> str:
    return views.render_app("calendar", SITE.observe(state, world), error=error)


def test_every_surface_is_reached() -> None:
    assert {s.surface for _, s in _states()} == {x.name for x in SITE.surfaces}


def test_every_available_action_is_bound() -> None:
    for world, state in _states():
        obs = SITE.observe(state, world)
        bound = bound_pairs(_html(world, state))
        for a in obs.available:
            assert (a.name, json.dumps(a.params, sort_keys=True)) in bound, (obs.surface, a)
        assert {n for n, _ in bound} <= {a.name for a in obs.available}, obs.surface


def test_forms_have_a_visible_input_per_typed_parameter() -> None:
    seen = set()
    for world, state in _states():
        html = _html(world, state)
        assert "<select" not in html
        for name, _, body in _FORM.findall(html):
            spec = SITE.action_spec(name)
            inputs = set(re.findall(r'<input[^>]*name="([a-z_]+)"', body))
            assert {p.name for p in spec.params if p.text} <= inputs, (name, inputs)
            seen.add(name)
    assert {"SearchEvents", "SaveEvent"} <= seen


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


def test_typed_text_and_errors_are_escaped() -> None:
    world = World.from_dict(site_tasks("calendar")[0].world)
    s = SITE.step(SITE.initial_state(world), Action("SearchEvents", {"query": XSS}), world)
    html = _html(world, s, error=XSS)
    assert XSS not in html and "&lt;script&gt;" in html


def test_same_state_renders_the_same_bytes() -> None:
    world, state = _states()[5]
    assert _html(world, state) == _html(world, state)


@pytest.mark.parametrize("name", ["WeekView", "DayView", "MonthView", "SearchResults",
                                  "EventDetail", "EventEditor"])
def test_each_surface_has_a_view(name: str) -> None:
    assert (VIEWS / f"{name}.html").exists()


def test_views_never_mark_data_safe() -> None:
    for path in VIEWS.glob("*.html"):
        assert "|safe" not in path.read_text(), path.name
