"""Food Delivery GUI views, what is Food's own: detail-only fields stay off the cards, the item
modal shows allergens, calories and options, a delivery checkout asks for the address.
The checks every site shares are in test_views_common.py."""

from __future__ import annotations

import re
from html import unescape

import pytest

from view_cases import FORM, render, view_states
from webmdp.core.model import State, World
from webmdp.sites import get_site

SITE = get_site("food")


def _states() -> tuple[tuple[World, State], ...]:
    return view_states("food")


def _html(world: World, state: State, error: str | None = None) -> str:
    return render("food", world, state, error)


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


def test_delivery_checkout_asks_for_the_address() -> None:
    """The generic forms test lets PlaceOrder leave out the address (pickup needs none)."""
    seen = False
    for world, state in _states():
        if state.surface != "Checkout" or getattr(state, "fulfillment", "") != "delivery":
            continue
        for name, _, body in FORM.findall(_html(world, state)):
            if name == "PlaceOrder":
                assert "address" in set(re.findall(r'<input[^>]*name="([a-z_]+)"', body))
                seen = True
    assert seen
