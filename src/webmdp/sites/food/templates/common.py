"""Building blocks shared by the Food Delivery templates: pinned restaurants and menu items,
the E.3 oracle prefixes and the cart / order verifiers."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.food import vocab as V
from webmdp.sites.food.world import N_RESTAURANTS
from webmdp.tasks.model import Condition
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import membership

OPEN_R, BACK_R = Action("OpenRestaurant"), Action("BackToRestaurants")
OPEN_I, CLOSE_I = Action("OpenItem"), Action("CloseItem")


def restaurant_name(rng: random.Random, cuisine: str) -> str:
    return f"{rng.choice(V.NAME_HEADS[cuisine])} {rng.choice(V.NAME_TAILS[cuisine])}"


def sections_with(cuisine: str, n: int) -> list[str]:
    """Sections of a cuisine's menu offering at least ``n`` dishes."""
    return [s for s, dishes in V.MENUS[cuisine].items() if len(dishes) >= n]


def dish_names(cuisine: str, section: str) -> list[str]:
    return [d[0] for d in V.MENUS[cuisine][section]]


def spec(pinned: tuple[Entity, ...], avoid: tuple[Entity, ...] = ()) -> WorldSpec:
    restaurants = sum(1 for p in pinned if p.get("kind") != "item")
    return WorldSpec(pinned, N_RESTAURANTS - restaurants, avoid)


def item_pins(rng: random.Random, section: str, names: list[str], target_extra: Entity,
              negatives: list[Entity]) -> tuple[Entity, ...]:
    """A target dish and its hard negatives on the host's menu, one dish name each."""
    base = {"kind": "item", "restaurant_key": "host", "section": section}
    group = pin_group(rng, base, target_extra, negatives)
    return tuple({**e, "name": n} for e, n in zip(group, names, strict=True))


def host(name: str, cuisine: str) -> Entity:
    return {"key": "host", "role": "companion", "name": name, "cuisine": cuisine}


def host_avoid(name: str, section: str) -> tuple[Entity, ...]:
    """No other restaurant has the host's name; no filler dish shares the target's section."""
    return ({"name": name}, {"kind": "item", "restaurant_key": "host", "section": section})


def restaurant_id(world: World, name: str) -> str:
    return next(e["id"] for e in world.entities.values()
                if e["id"].startswith("RST") and e["name"] == name)


def item_of(world: World, rid: str, dish: str) -> str:
    return next(e["id"] for e in world.entities.values()
                if e.get("restaurant_id") == rid and e["name"] == dish)


def host_items(world: World, name: str, section: str) -> list[Entity]:
    rid = restaurant_id(world, name)
    return [e for e in world.entities.values()
            if e.get("restaurant_id") == rid and e["section"] == section]


def explore_restaurants(site: Site, world: World, d: Draft, prefix: list[Action],
                        **kw: Any) -> list[Action]:
    return reach_and_explore(site, world, d, prefix, open_action=OPEN_R, back=BACK_R,
                             entity_param="restaurant_id", **kw)


def explore_menu(site: Site, world: World, d: Draft, *, before: tuple[Action, ...] = (),
                 **kw: Any) -> list[Action]:
    """Search the host by name, open it, open higher-listed hard negatives, then the target."""
    name = d.params["restaurant"]
    prefix = [Action("Search", {"query": name}), *before,
              Action("OpenRestaurant", {"restaurant_id": restaurant_id(world, name)})]
    return reach_and_explore(site, world, d, prefix, open_action=OPEN_I, back=CLOSE_I,
                             entity_param="item_id", **kw)


def checkout(address: str | None, tip: str, *, pickup_at: str = "") -> list[Action]:
    steps = [Action("OpenCart"), Action("ProceedToCheckout")]
    if pickup_at:
        steps += [Action("SetFulfillment", {"mode": "pickup"}),
                  Action("SetDeliveryTime", {"slot": pickup_at})]
    params = {"tip": tip} if address is None else {"address": address, "tip": tip}
    return [*steps, Action("PlaceOrder", params)]


def in_cart(d: Draft) -> list[Condition]:
    return membership(d, "cart.items", "in the cart")


def ordered(d: Draft) -> list[Condition]:
    return membership(d, "order.items", "in the placed order")
