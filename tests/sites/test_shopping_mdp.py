"""Shopping MDP: counts from WebSTEP Tables 4/5/7, transitions, visibility, invalid actions."""

from __future__ import annotations

import pytest

from support import play
from webmdp.core import Action, SurfaceKind, World
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.sites.shopping.state import ShoppingState
from webmdp.tasks import Task

SITE = get_site("shopping")


def test_declared_counts_match_the_paper() -> None:
    kinds = {s.name: s.kind for s in SITE.surfaces}
    assert len(kinds) >= 6
    assert kinds["SearchResults"] == SurfaceKind.CARD
    assert kinds["ProductDetail"] == SurfaceKind.DETAIL
    assert kinds["Checkout"] == kinds["OrderConfirmation"] == SurfaceKind.COMMIT
    assert len(SITE.actions) >= 23
    assert len(SITE.visibility.card_fields) == 12
    assert len(SITE.visibility.detail_fields) == 12
    skills = {a.skill for a in SITE.actions}
    for s in ("pagination", "query_formulation", "department_filtering", "category_filtering",
              "brand_filtering", "price_filtering", "attribute_filtering", "sort_usage",
              "product_inspection", "review_inspection", "option_selection",
              "cart_management", "checkout_flow"):
        assert s in skills


def _world(task: Task) -> World:
    return World.from_dict(task.world)


def _run(world: World, *actions: Action) -> ShoppingState:
    s = play(SITE, world, *actions)
    assert isinstance(s, ShoppingState)
    return s


def test_search_filter_sort_and_pages(shopping_tasks: list[Task]) -> None:
    w = _world(shopping_tasks[0])
    s = _run(w, Action("SetDepartment", {"department": "Electronics"}))
    obs = SITE.observe(s, w)
    assert obs.surface == "SearchResults"
    assert all(e.fields["department"] == "Electronics" for e in obs.entities)
    s2 = SITE.step(s, Action("SortBy", {"order": "price_asc"}), w)
    prices = [e.fields["price"] for e in SITE.observe(s2, w).entities]
    assert prices == sorted(prices)
    s3 = SITE.step(s2, Action("SetPriceRange", {"min": 50.0, "max": 100.0}), w)
    assert all(50 <= e.fields["price"] <= 100 for e in SITE.observe(s3, w).entities)
    total = SITE.observe(s, w).context["total_results"]
    if total > 12:
        nxt = SITE.step(s, Action("NextPage"), w)
        assert {e.id for e in SITE.observe(nxt, w).entities}.isdisjoint(
            {e.id for e in obs.entities})


def test_detail_fields_only_on_detail_surface(shopping_tasks: list[Task]) -> None:
    t = shopping_tasks[0]
    w = _world(t)
    s = _run(w, Action("Search", {"query": t.params["query"]}))
    listed = SITE.observe(s, w)
    assert t.target in [e.id for e in listed.entities]
    assert all("material" not in e.fields and "seller" not in e.fields for e in listed.entities)
    d = SITE.step(s, Action("OpenProduct", {"product_id": t.target}), w)
    detail = SITE.observe(d, w).entities[0]
    assert detail.fields["material"] == t.params["value"]
    assert "reviews" not in detail.fields
    r = SITE.step(d, Action("ShowReviews"), w)
    assert "reviews" in SITE.observe(r, w).entities[0].fields


def test_cart_and_checkout_flow(shopping_tasks: list[Task]) -> None:
    t = shopping_tasks[0]
    w = _world(t)
    s = _run(w, Action("Search", {"query": t.params["query"]}),
             Action("OpenProduct", {"product_id": t.target}), Action("AddToCart"),
             Action("AddToCart"), Action("OpenCart"))
    assert s.cart[0][:2] == (t.target, 2)
    s = SITE.step(s, Action("UpdateQuantity", {"product_id": t.target, "quantity": 3}), w)
    assert SITE.facts(s)["cart.qty." + t.target] == 3
    s = _run_from(s, w, Action("ProceedToCheckout"),
                  Action("SetShippingSpeed", {"speed": "express"}), Action("PlaceOrder"))
    f = SITE.facts(s)
    assert f["order.placed"] and f["order.products"] == [t.target]
    assert f["order.shipping"] == "express" and f["cart.products"] == []


def _run_from(s, w, *actions):  # type: ignore[no-untyped-def]
    for a in actions:
        s = SITE.step(s, a, w)
    return s


@pytest.mark.parametrize("actions,match", [
    ([Action("AddToCart")], "no product open"),
    ([Action("OpenProduct", {"product_id": "PRD-999"})], "not on search results"),
    ([Action("Search", {"query": "zzzz"}), Action("NextPage")], "last page"),
    ([Action("OpenCart"), Action("ProceedToCheckout")], "cart is empty"),
    ([Action("Search", {"query": "  "})], "empty query"),
])
def test_invalid_actions_raise(shopping_tasks: list[Task], actions, match) -> None:  # type: ignore[no-untyped-def]
    w = _world(shopping_tasks[0])
    with pytest.raises(InvalidAction, match=match):
        _run(w, *actions)


def test_open_product_must_be_on_the_current_page(shopping_tasks: list[Task]) -> None:
    t = shopping_tasks[0]
    w = _world(t)
    s = _run(w, Action("Search", {"query": "zzzz"}))
    with pytest.raises(InvalidAction, match="not on this page"):
        SITE.step(s, Action("OpenProduct", {"product_id": t.target}), w)


def test_transition_is_pure(shopping_tasks: list[Task]) -> None:
    w = _world(shopping_tasks[0])
    s0 = SITE.initial_state(w)
    s1 = SITE.step(s0, Action("Search", {"query": "x"}), w)
    assert s0.surface == "Home" and s1.surface == "SearchResults"
    assert SITE.step(s0, Action("Search", {"query": "x"}), w) == s1
