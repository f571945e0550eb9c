"""Cart management and checkout templates: a dish found as in ``items``, then the cart or the
checkout form; multi-field commits are verified one parameter at a time."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites.food import vocab as V
from webmdp.sites.food.templates.common import checkout, item_of, ordered, restaurant_id
from webmdp.sites.food.templates.items import (
    ADD_ONE,
    Customize,
    GlutenFree,
    LowestCalorie,
    WithoutAllergen,
)
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions


def delivery(rng: random.Random) -> dict[str, str]:
    """A delivery address and a tip for a checkout instruction."""
    return {"address": rng.choice(V.ADDRESSES), "tip": rng.choice(V.TIPS[1:])}


class AddTwoRemoveOne(WithoutAllergen):
    """Two dishes into the cart, then the second one out again."""

    name = "cart_add_two_remove_one"
    description = "Add a dish without an allergen and a named side, then remove the side"
    commit_action = "RemoveFromCart"

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        pinned, params = super().pins(rng, cuisine, section, names, k)
        other = rng.choice([s for s in V.MENUS[cuisine] if s != section])
        extra = rng.choice(V.MENUS[cuisine][other])[0]
        side = {"kind": "item", "restaurant_key": "host", "role": "companion",
                "section": other, "name": extra}
        return (*pinned, side), {**params, "extra": extra}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"From '{p['restaurant']}', add a {p['what']} that contains no "
                f"{p['allergen']} and the {p['extra']} to your cart, then remove the "
                f"{p['extra']} from the cart.")

    def extra(self, d: Draft, world: World) -> str:
        return item_of(world, restaurant_id(world, d.params["restaurant"]), d.params["extra"])

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        extra = self.extra(d, world)
        return [*self.reach(d, world, site), ADD_ONE, Action("QuickAdd", {"item_id": extra}),
                Action("OpenCart"), Action("RemoveFromCart", {"item_id": extra})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        extra = self.extra(d, world)
        return [*super().verifier(d, world),
                Condition(fact="cart.items", op="not_contains", value=extra,
                          description=f"{d.params['extra']} ({extra}) was removed")]


class ChangeQuantity(GlutenFree):
    """Add a dish, then change its quantity on the cart page."""

    name = "cart_change_quantity"
    description = "Add the gluten-free dish, then set its quantity in the cart"
    commit_action = "UpdateQuantity"

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        pinned, params = super().pins(rng, cuisine, section, names, k)
        return pinned, {**params, "quantity": rng.randint(2, 5)}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"From '{p['restaurant']}', add the gluten-free {p['what']} to your cart, then "
                f"change its quantity to {p['quantity']} in the cart.")

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*self.reach(d, world, site), ADD_ONE, Action("OpenCart"),
                Action("UpdateQuantity", {"item_id": d.target,
                                          "quantity": d.params["quantity"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*super().verifier(d, world),
                *commit_conditions("cart", {f"qty.{d.target}": d.params["quantity"]})]


class DeliverWithTip(WithoutAllergen):
    """Checkout with a typed delivery address and a tip."""

    name = "checkout_delivery_tip"
    description = "Order a dish without an allergen for delivery to an address with a tip"
    commit_action = "PlaceOrder"

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        pinned, params = super().pins(rng, cuisine, section, names, k)
        return pinned, {**params, **delivery(rng)}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"From '{p['restaurant']}', order a {p['what']} that contains no "
                f"{p['allergen']} for delivery to {p['address']}, with a {p['tip']} tip.")

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*self.reach(d, world, site), ADD_ONE,
                *checkout(d.params["address"], d.params["tip"])]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        p = d.params
        return [*ordered(d), *commit_conditions(
            "order", {"placed": True, "fulfillment": "delivery", "address": p["address"],
                      "tip": p["tip"], f"qty.{d.target}": 1})]


class ScheduledPickup(LowestCalorie):
    """Checkout for pickup at a scheduled time (commit timing)."""

    name = "scheduled_pickup"
    description = "Order the lightest dish of a section for pickup at a given time"
    commit_action = "PlaceOrder"

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        pinned, params = super().pins(rng, cuisine, section, names, k)
        return pinned, {**params, "time": rng.choice(V.DELIVERY_TIMES[1:]),
                        "tip": rng.choice(V.TIPS[1:])}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"From '{p['restaurant']}', order the {p['what']} with the fewest calories "
                f"for pickup at {p['time']}, leaving a {p['tip']} tip.")

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*self.reach(d, world, site), ADD_ONE,
                *checkout(None, d.params["tip"], pickup_at=d.params["time"])]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        p = d.params
        return [*ordered(d), *commit_conditions(
            "order", {"placed": True, "fulfillment": "pickup", "time": p["time"],
                      "tip": p["tip"]})]


class CustomizeAndCheckout(Customize):
    """The full multi-field order: options, quantity, address and tip."""

    name = "customize_and_checkout"
    description = "Customise a dish, set the quantity, check out with address and tip"
    commit_action = "PlaceOrder"

    def pins(self, rng: random.Random, cuisine: str, section: str, names: list[str],
             k: int) -> tuple[tuple[Entity, ...], dict[str, Any]]:
        pinned, params = super().pins(rng, cuisine, section, names, k)
        return pinned, {**params, **delivery(rng)}

    def sentence(self, p: dict[str, Any]) -> str:
        return (super().sentence(p)[:-1] + f". Deliver it to {p['address']} with a "
                f"{p['tip']} tip.")

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*super().oracle(d, world, site),
                *checkout(d.params["address"], d.params["tip"])]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        p = d.params
        return [*ordered(d), *commit_conditions(
            "order", {**self.expected(d), "placed": True, "address": p["address"],
                      "tip": p["tip"]})]
