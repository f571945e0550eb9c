"""Food Delivery GUI views: every offered action is bound (forms carry a visible input per
agent-typed parameter), detail-only fields stay off the cards, typed text is escaped."""

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

SITE = get_site("food")
VIEWS = Path(views.__file__).parent.parent / "food" / "views"
XSS = "<script>alert(1)</script>"
_FORM = re.compile(r'<form[^>]*data-action="([A-Za-z]+)" data-params="([^"]*)"[^>]*>(.*?)</form>',
                   re.S)


def _fill(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name == "Search":
        e = rng.choice(list(world.entities.values()))
        params["query"] = rng.choice([e["name"], e["name"].split()[0], "zzz nothing"])
    elif action.name in ("AddToCart", "UpdateQuantity"):
        params["quantity"] = rng.randint(1, 4)
    elif action.name == "PlaceOrder":
        params.update(address=f"{rng.randint(1, 99)} Main St", tip=rng.choice(["15%", "20%"]))
    return Action(action.name, params)


def _walk(world: World, rng: random.Random) -> list[State]:
    return random_walk(SITE, world, rng, 120, lambda a: _fill(a, world, rng))


@cache
def _states() -> tuple[tuple[World, State], ...]:
    out: list[tuple[World, State]] = []
    for task in site_tasks("food")[::9]:
        world = World.from_dict(task.world)
        state = SITE.initial_state(world)
        out.append((world, state))
        for a in task.oracle_actions():
            state = SITE.step(state, a, world)
            out.append((world, state))
    for seed in (1, 2):
        world = World.from_dict(site_tasks("food")[seed * 40].world)
        out += [(world, s) for s in _walk(world, random.Random(seed))]
    return tuple(out)


def _html(world: World, state: State, error: str | None = None) -> str:
    return views.render_app("food", SITE.observe(state, world), error=error)


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
            typed = {p.name for p in spec.params if p.text}
            assert typed - {"address"} <= inputs, (name, inputs)
            if name == "PlaceOrder" and getattr(state, "fulfillment", "") == "delivery":
                assert "address" in inputs
            seen.add(name)
    assert {"Search", "AddToCart", "UpdateQuantity", "PlaceOrder"} <= seen


def test_detail_fields_never_on_the_list() -> None:
    for world, state in _states():
        if state.surface != "RestaurantList":
            continue
        html = _html(world, state)
        for e in SITE.observe(state, world).entities:
            r = world.entities[e.id]
            assert r["address"] not in html and r["hours"] not in html


def test_item_modal_shows_allergens_calories_and_options() -> None:
    for world, state in _states():
        if state.surface != "MenuItemDetail":
            continue
        item = world.entities[state.focus or ""]
        html = unescape(_html(world, state))
        assert f"{item['calories']} cal" in html
        assert all(a in html for a in item["allergens"])
        assert all(c in html for _, cs in item["options"] for c in cs)
        return
    pytest.fail("no item modal reached")


def test_typed_text_and_errors_are_escaped() -> None:
    world = World.from_dict(site_tasks("food")[0].world)
    s = SITE.step(SITE.initial_state(world), Action("Search", {"query": XSS}), world)
    html = _html(world, s, error=XSS)
    assert XSS not in html and "&lt;script&gt;" in html


def test_views_never_mark_data_safe() -> None:
    for path in VIEWS.glob("*.html"):
        assert "|safe" not in path.read_text(), path.name
