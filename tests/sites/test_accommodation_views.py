"""Accommodation GUI views: every offered action is bound (and every binding is live), commit
forms expose each parameter as a visible input, no native <select>, agent text is escaped, and
detail-only fields never reach the results page."""

from __future__ import annotations

import html as htmllib
import random
import re
from functools import cache
from typing import Any

import pytest

from support import action_key, bindings, oracle_states, random_walk, site_tasks
from webmdp.core.model import State, World
from webmdp.core.spec import Action
from webmdp.sites import get_site
from webmdp.sites._common import views
from webmdp.tasks import Task

SITE = get_site("accommodation")
XSS = "<script>alert(1)</script>"


@cache
def _sample() -> tuple[Task, ...]:
    tasks = site_tasks("accommodation")
    return tuple(tasks[i] for i in range(0, len(tasks), 9))


def _states(task: Task) -> list[State]:
    world = World.from_dict(task.world)
    rng = random.Random(task.index)

    def fill(a: Action) -> Action:
        extra: dict[str, dict[str, Any]] = {
            "Search": {"query": rng.choice(["Denver", "cabin", "zzz", XSS])},
            "BookListing": {"check_in": "2026-05-04", "check_out": "2026-05-11", "guests": 2},
            "SetPriceRange": {"max": 220.0}}
        return Action(a.name, {**a.params, **extra.get(a.name, {})})

    return oracle_states(SITE, task) + random_walk(SITE, world, rng, 60, fill)


@pytest.mark.parametrize("index", range(20))
def test_every_offered_action_is_bound_and_every_binding_is_live(index: int) -> None:
    task = _sample()[index]
    world = World.from_dict(task.world)
    for state in _states(task):
        obs = SITE.observe(state, world)
        html = views.render_app("accommodation", obs, error=None)
        assert "<select" not in html
        bound = bindings(html)
        keys = {action_key(n, p) for n, p in bound}
        for a in obs.available:
            assert action_key(a.name, a.params) in keys, f"{obs.surface}: {a} is not bound"
        offered = {action_key(a.name, a.params) for a in obs.available}
        for name, params in bound:
            assert action_key(name, params) in offered, \
                f"{obs.surface}: dead control {name}{params}"


def _form(html: str, action: str) -> str:
    m = re.search(rf'<form[^>]*data-action="{action}"[^>]*>(.*?)</form>', html, re.S)
    assert m, f"no form bound to {action}"
    return m.group(1)


def test_commit_form_has_a_visible_input_per_parameter_and_escapes_agent_text() -> None:
    task = _sample()[0]
    world = World.from_dict(task.world)
    state = SITE.step(SITE.initial_state(world), Action("Search", {"query": XSS}), world)
    html = views.render_app("accommodation", SITE.observe(state, world), error=XSS)
    assert XSS not in html and "&lt;script&gt;" in html
    first = SITE.observe(SITE.initial_state(world), world).entities[0].id
    detail = SITE.step(SITE.initial_state(world), Action("ViewListing", {"listing_id": first}),
                       world)
    form = _form(views.render_app("accommodation", SITE.observe(detail, world), error=None),
                 "BookListing")
    for p in SITE.action_spec("BookListing").params:
        tag = re.search(rf'<input[^>]*name="{p.name}"[^>]*>', form)
        assert tag and 'type="hidden"' not in tag.group(0), p.name


def test_detail_only_values_stay_off_the_results_page() -> None:
    for task in _sample():
        world = World.from_dict(task.world)
        state = SITE.initial_state(world)
        obs = SITE.observe(state, world)
        text = htmllib.unescape(views.render_app("accommodation", obs, error=None))
        for e in obs.entities:
            listing = world.entities[e.id]
            assert f"Hosted by {listing['host_name']}" not in text
            assert f"{listing['cancellation_policy']} cancellation" not in text
            assert "Show all" not in text and "Check-in after" not in text


def test_amenities_beyond_the_preview_appear_only_after_show_all() -> None:
    task = next(t for t in site_tasks("accommodation") if t.template == "hidden_amenity_book")
    world = World.from_dict(task.world)
    found = SITE.step(SITE.initial_state(world), Action("Search", {"query": task.params["city"]}),
                      world)
    state = SITE.step(found, Action("ViewListing", {"listing_id": task.target}), world)
    closed = views.render_app("accommodation", SITE.observe(state, world), error=None)
    amenity = task.params["amenity"]
    assert amenity not in closed and "Show all" in closed
    opened = SITE.step(state, Action("ShowAllAmenities"), world)
    assert amenity in views.render_app("accommodation", SITE.observe(opened, world), error=None)
