"""Food Delivery MDP: counts from WebSTEP Tables 4/5/7, the two-level world, transitions,
facts and invalid actions."""

from __future__ import annotations

import collections

import pytest

from support import play, site_tasks
from webmdp.core import Action, SurfaceKind, World
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.sites.food.state import FoodState
from webmdp.tasks import Task

SITE = get_site("food")


def _world(task: Task) -> World:
    return World.from_dict(task.world)


def _run(world: World, *actions: Action) -> FoodState:
    s = play(SITE, world, *actions)
    assert isinstance(s, FoodState)
    return s


def test_declared_counts_match_the_paper() -> None:
    kinds = {s.name: s.kind for s in SITE.surfaces}
    assert len(kinds) == 6
    assert kinds["RestaurantList"] == SurfaceKind.CARD
    assert kinds["RestaurantDetail"] == kinds["MenuItemDetail"] == SurfaceKind.DETAIL
    assert kinds["Checkout"] == kinds["OrderStatus"] == SurfaceKind.COMMIT
    assert len(SITE.actions) >= 24
    assert len(SITE.templates) >= 15
    assert len(SITE.visibility.card_fields) == 8
    assert len(SITE.visibility.detail_fields) == 7
    skills = {a.skill for a in SITE.actions}
    for s in ("pagination", "query_formulation", "cuisine_filtering", "price_filtering",
              "dietary_filtering", "attribute_filtering", "sort_usage", "restaurant_inspection",
              "menu_item_inspection", "customization_selection", "cart_management",
              "checkout_flow", "commit_timing"):
        assert s in skills


def test_world_has_two_linked_levels() -> None:
    w = _world(site_tasks("food")[0])
    rests = [e for e in w.entities.values() if e["id"].startswith("RST-")]
    items = [e for e in w.entities.values() if e["id"].startswith("ITM-")]
    assert rests and items and len(rests) + len(items) == len(w.entities)
    for it in items:
        r = w.entities[it["restaurant_id"]]
        assert it["name"] in r["dishes"]
        for d in it["dietary"]:
            assert d in r["diets"]
        assert ("gluten-free" in it["dietary"]) == ("gluten" not in it["allergens"])
        if "vegan" in it["dietary"]:
            assert not {"dairy", "egg", "fish", "shellfish"} & set(it["allergens"])
    names = collections.Counter(r["name"] for r in rests)
    assert len(names) >= len(rests) - 3  # only a chain's locations share a name


def test_task_targets_cover_both_levels() -> None:
    prefixes = {t.target[:3] for t in site_tasks("food")}
    assert prefixes == {"RST", "ITM"}


def test_filters_sorts_and_pages() -> None:
    w = _world(site_tasks("food")[5])
    s = _run(w, Action("SetCuisine", {"cuisine": "Thai"}))
    obs = SITE.observe(s, w)
    assert all(e.fields["cuisine"] == "Thai" for e in obs.entities)
    s = _run(w, Action("ToggleFastDelivery"), Action("SortBy", {"order": "delivery_fee"}))
    fees = [e.fields["delivery_fee"] for e in SITE.observe(s, w).entities]
    assert fees == sorted(fees)
    assert all(e.fields["delivery_time"] < 30 for e in SITE.observe(s, w).entities)
    s = _run(w, Action("SetMinRating", {"rating": "4.5"}), Action("ToggleFreeDelivery"))
    assert all(e.fields["rating"] >= 4.5 and e.fields["delivery_fee"] == 0
               for e in SITE.observe(s, w).entities)
    s = _run(w, Action("ToggleDietary", {"diet": "vegan"}))
    for e in SITE.observe(s, w).entities:
        assert "vegan" in w.entities[e.id]["diets"]
    first = SITE.observe(_run(w), w)
    assert first.context["pages"] == 2
    nxt = SITE.observe(_run(w, Action("NextPage")), w)
    assert {e.id for e in nxt.entities}.isdisjoint({e.id for e in first.entities})
    assert all(e.id.startswith("RST-") for e in first.entities + nxt.entities)


def test_search_finds_restaurants_by_dish() -> None:
    w = _world(site_tasks("food")[7])
    dish = next(e for e in w.entities.values() if e["id"].startswith("ITM-"))
    s = _run(w, Action("Search", {"query": dish["name"]}))
    ids = [e.id for e in SITE.observe(s, w).entities]
    assert dish["restaurant_id"] in ids


def _open_first_item(w: World) -> tuple[FoodState, str, str]:
    rid = SITE.observe(SITE.initial_state(w), w).entities[0].id
    s = _run(w, Action("OpenRestaurant", {"restaurant_id": rid}))
    iid = next(e.id for e in SITE.observe(s, w).entities if e.id.startswith("ITM-"))
    s = SITE.step(s, Action("OpenItem", {"item_id": iid}), w)
    assert isinstance(s, FoodState)
    return s, rid, iid


def test_item_modal_options_quantity_and_cart() -> None:
    w = _world(site_tasks("food")[3])
    s, rid, iid = _open_first_item(w)
    obs = SITE.observe(s, w)
    assert obs.surface == "MenuItemDetail" and s.focus == iid
    full = next(e for e in obs.entities if e.id == iid)
    assert {"allergens", "calories", "options", "dietary", "description"} <= set(full.fields)
    group, choices = w.entities[iid]["options"][0]
    s = SITE.step(s, Action("SelectOption", {"group": group, "choice": choices[-1]}), w)
    s = SITE.step(s, Action("AddToCart", {"quantity": 3}), w)
    assert s.surface == "RestaurantDetail"
    facts = SITE.facts(s)
    assert facts["cart.items"] == [iid] and facts["cart.qty." + iid] == 3
    assert facts[f"cart.option.{iid}.{group}"] == choices[-1]
    assert facts["cart.restaurants"] == [rid]
    s = SITE.step(s, Action("OpenCart"), w)
    s = SITE.step(s, Action("UpdateQuantity", {"item_id": iid, "quantity": 5}), w)
    assert SITE.facts(s)["cart.qty." + iid] == 5
    s = SITE.step(s, Action("RemoveFromCart", {"item_id": iid}), w)
    assert SITE.facts(s)["cart.items"] == []


def test_checkout_places_the_order() -> None:
    w = _world(site_tasks("food")[3])
    s, _, iid = _open_first_item(w)
    s = SITE.step(s, Action("AddToCart", {"quantity": 1}), w)
    s = SITE.step(s, Action("OpenCart"), w)
    s = SITE.step(s, Action("ProceedToCheckout"), w)
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("PlaceOrder", {"tip": "18%"}), w)  # delivery needs an address
    s = SITE.step(s, Action("SetDeliveryTime", {"slot": "7:00 PM"}), w)
    s = SITE.step(s, Action("PlaceOrder", {"address": "1 Main St", "tip": "20%"}), w)
    f = SITE.facts(s)
    assert s.surface == "OrderStatus" and f["order.placed"] and f["cart.items"] == []
    assert (f["order.address"], f["order.tip"], f["order.time"]) == ("1 Main St", "20%",
                                                                     "7:00 PM")
    assert f["order.items"] == [iid] and f["order.fulfillment"] == "delivery"


@pytest.mark.parametrize("action", [
    Action("OpenItem", {"item_id": "ITM-001"}),
    Action("AddToCart", {"quantity": 1}),
    Action("ProceedToCheckout"),
    Action("UpdateQuantity", {"item_id": "ITM-001", "quantity": 2}),
    Action("PlaceOrder", {"address": "x", "tip": "18%"}),
    Action("OpenRestaurant", {"restaurant_id": "ITM-001"}),
])
def test_invalid_actions_on_the_list_raise(action: Action) -> None:
    w = _world(site_tasks("food")[0])
    with pytest.raises(InvalidAction):
        SITE.step(SITE.initial_state(w), action, w)


def test_item_of_another_restaurant_cannot_be_opened() -> None:
    w = _world(site_tasks("food")[0])
    rid = SITE.observe(SITE.initial_state(w), w).entities[0].id
    s = _run(w, Action("OpenRestaurant", {"restaurant_id": rid}))
    foreign = next(e["id"] for e in w.entities.values()
                   if e["id"].startswith("ITM-") and e["restaurant_id"] != rid)
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("OpenItem", {"item_id": foreign}), w)
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("QuickAdd", {"item_id": foreign}), w)


def test_multi_field_commits_verify_every_parameter() -> None:
    by_tpl = {t.template: t for t in site_tasks("food")}
    full = by_tpl["customize_and_checkout"]
    facts = {c.fact for c in full.verifier}
    t = full.target
    assert {f"order.qty.{t}", f"order.option.{t}.Protein", "order.address", "order.tip",
            "order.placed"} <= facts
    assert len([f for f in facts if f.startswith(f"order.option.{t}.")]) == 2
    pickup = {c.fact: c.value for c in by_tpl["scheduled_pickup"].verifier}
    assert pickup["order.fulfillment"] == "pickup" and pickup["order.time"] != "ASAP"
