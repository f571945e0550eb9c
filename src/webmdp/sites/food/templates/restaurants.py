"""Templates whose target is a restaurant: find it on the list, then add a dish from its page
(the commit is the menu line's + button, so the restaurant is the last entity inspected)."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.food import vocab as V
from webmdp.sites.food.templates.common import (
    explore_restaurants,
    item_of,
    restaurant_name,
    spec,
)
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import membership

Group = tuple[Entity, Entity, list[Entity], tuple[Entity, ...], dict[str, Any]]


class RestaurantTemplate(TaskTemplate):
    """A restaurant group (target + hard negatives) plus the dish to add from the target."""

    commit_action = "QuickAdd"
    card: tuple[str, ...] = ()
    detail: tuple[str, ...] = ()

    def group(self, rng: random.Random, cuisine: str, k: int) -> Group:
        """(base, target extra, negatives, decoys, params) of one draft."""
        raise NotImplementedError

    def sentence(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def prefix(self, p: dict[str, Any]) -> list[Action]:
        raise NotImplementedError

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        cuisine = rng.choice(V.CUISINES)
        base, extra, negs, decoys, params = self.group(rng, cuisine, hard_negatives)
        section = rng.choice(list(V.MENUS[cuisine]))
        dish = rng.choice(V.MENUS[cuisine][section])[0]
        group = pin_group(rng, {"cuisine": cuisine, **base}, {**extra, "key": "target"}, negs)
        item = {"kind": "item", "restaurant_key": "target", "role": "companion",
                "name": dish, "section": section}
        params = {"cuisine": cuisine, "dish": dish, **params}
        avoid = ({"cuisine": cuisine, **extra},
                 *(({"name": base["name"]},) if "name" in base else ()))
        return Draft(instruction=self.sentence(params), params=params,
                     spec=spec((*group, *decoys, item), avoid),
                     card_fields=self.card, detail_fields=self.detail)

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        steps = explore_restaurants(site, world, d, self.prefix(d.params))
        return [*steps, Action("QuickAdd", {"item_id": item_of(world, d.target,
                                                                d.params["dish"])})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        dish = item_of(world, d.target, d.params["dish"])
        return [*membership(d, "cart.restaurants", "ordered from"),
                Condition(fact="cart.items", op="contains", value=dish,
                          description=f"{d.params['dish']} ({dish}) is in the cart")]

    @staticmethod
    def restaurants(world: World, **eq: Any) -> list[Entity]:
        return [e for e in world.entities.values() if e["id"].startswith("RST")
                and all(e[k] == v for k, v in eq.items())]


class OpenLate(RestaurantTemplate):
    """Card filters (cuisine, minimum rating) and a detail-only constraint (closing time)."""

    name = "open_late_rated"
    description = "Filter by cuisine and rating, check opening hours, add a dish"
    card, detail = ("cuisine", "rating"), ("hours",)

    def group(self, rng: random.Random, cuisine: str, k: int) -> Group:
        floor = rng.choice(("4.0", "4.5"))
        rating = round(rng.uniform(float(floor), 4.9), 1)
        close = rng.choice(V.CLOSING[2:])
        negs = [{"closes": c} for c in others(rng, V.CLOSING, close, k)]
        return {"rating": rating}, {"closes": close}, negs, (), {"floor": floor,
                                                                 "closes": close}

    def sentence(self, p: dict[str, Any]) -> str:
        article = "an" if p["cuisine"][0] in "AEIOU" else "a"
        return (f"Find {article} {p['cuisine']} restaurant rated {p['floor']} or higher that "
                f"is open until {p['closes']}, and add its {p['dish']} to your cart.")

    def prefix(self, p: dict[str, Any]) -> list[Action]:
        return [Action("SetCuisine", {"cuisine": p["cuisine"]}),
                Action("SetMinRating", {"rating": p["floor"]})]

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [e["id"] for e in self.restaurants(world, cuisine=p["cuisine"],
                                                  closes=p["closes"])
                if e["rating"] >= float(p["floor"])]


class FastestFreeDelivery(RestaurantTemplate):
    """Superlative over a card field (delivery time) after a flag filter; ties broken by
    a detail field (closing time)."""

    name = "fastest_free_delivery"
    description = "Free delivery, sort by delivery time, pick the fastest open late enough"
    card, detail = ("cuisine", "delivery_fee", "delivery_time"), ("hours",)

    def group(self, rng: random.Random, cuisine: str, k: int) -> Group:
        minutes = rng.randint(15, 32)
        close = rng.choice(V.CLOSING[2:])
        negs = [{"closes": c} for c in others(rng, V.CLOSING, close, k)]
        decoys = tuple({"cuisine": cuisine, "delivery_fee": 0.0, "closes": close,
                        "role": "filler", "delivery_time": minutes + rng.randint(3, 20)}
                       for _ in range(2))
        return ({"delivery_fee": 0.0, "delivery_time": minutes}, {"closes": close}, negs,
                decoys, {"closes": close})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Order the {p['dish']} from the fastest-delivering {p['cuisine']} restaurant "
                f"with a $0 delivery fee that stays open until {p['closes']}.")

    def prefix(self, p: dict[str, Any]) -> list[Action]:
        return [Action("SetCuisine", {"cuisine": p["cuisine"]}), Action("ToggleFreeDelivery"),
                Action("SortBy", {"order": "delivery_time"})]

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        cands = self.restaurants(world, cuisine=p["cuisine"], delivery_fee=0.0,
                                 closes=p["closes"])
        low = min((e["delivery_time"] for e in cands), default=None)
        return [e["id"] for e in cands if e["delivery_time"] == low]


class TopRatedOnStreet(RestaurantTemplate):
    """Price tier filter, sort by rating, and the address on the detail page."""

    name = "top_rated_on_street"
    description = "Filter cuisine and price tier, sort by rating, pick the best-rated on a street"
    card, detail = ("cuisine", "price", "rating"), ("address",)

    def group(self, rng: random.Random, cuisine: str, k: int) -> Group:
        tier = rng.choice(V.PRICE_LEVELS[:3])
        rating = round(rng.uniform(4.3, 4.9), 1)
        street = rng.choice(V.STREETS)
        negs = [{"street": s} for s in others(rng, V.STREETS, street, k)]
        decoys = tuple({"cuisine": cuisine, "price": tier, "street": street, "role": "filler",
                        "rating": round(rating - rng.choice((0.1, 0.2, 0.4, 0.6)), 1)}
                       for _ in range(2))
        return ({"price": tier, "rating": rating}, {"street": street}, negs, decoys,
                {"price": tier, "street": street})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Order the {p['dish']} from the highest-rated {p['price']} {p['cuisine']} "
                f"restaurant located on {p['street']}.")

    def prefix(self, p: dict[str, Any]) -> list[Action]:
        return [Action("SetCuisine", {"cuisine": p["cuisine"]}),
                Action("TogglePriceLevel", {"price": p["price"]}),
                Action("SortBy", {"order": "rating"})]

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        cands = self.restaurants(world, cuisine=p["cuisine"], price=p["price"],
                                 street=p["street"])
        top = max((e["rating"] for e in cands), default=None)
        return [e["id"] for e in cands if e["rating"] == top]


class ChainLocation(RestaurantTemplate):
    """A chain with several locations under one name: the address tells them apart."""

    name = "chain_location"
    description = "Search a chain by name and order from the location on a given street"
    card, detail = ("name",), ("address",)

    def group(self, rng: random.Random, cuisine: str, k: int) -> Group:
        name = restaurant_name(rng, cuisine)
        street = rng.choice(V.STREETS)
        negs = [{"street": s} for s in others(rng, V.STREETS, street, k)]
        return {"name": name}, {"street": street}, negs, (), {"restaurant": name,
                                                               "street": street}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Add the {p['dish']} from '{p['restaurant']}' to your cart: order from its "
                f"location on {p['street']}.")

    def prefix(self, p: dict[str, Any]) -> list[Action]:
        return [Action("Search", {"query": p["restaurant"]})]

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [e["id"] for e in self.restaurants(world, name=p["restaurant"],
                                                  street=p["street"])]


class LowestFeeFast(RestaurantTemplate):
    """The "Under 30 min" switch, sort by delivery fee, closing time on the detail page."""

    name = "lowest_fee_under_30"
    description = "Under 30 min, sort by delivery fee, pick the cheapest open late enough"
    card, detail = ("cuisine", "delivery_fee", "delivery_time"), ("hours",)

    def group(self, rng: random.Random, cuisine: str, k: int) -> Group:
        minutes = rng.randint(12, 29)
        fee = rng.choice(V.DELIVERY_FEES[:3])
        close = rng.choice(V.CLOSING[2:])
        negs = [{"closes": c} for c in others(rng, V.CLOSING, close, k)]
        decoys = tuple({"cuisine": cuisine, "delivery_time": rng.randint(12, 29),
                        "closes": close, "role": "filler",
                        "delivery_fee": rng.choice([f for f in V.DELIVERY_FEES if f > fee])}
                       for _ in range(2))
        return ({"delivery_fee": fee, "delivery_time": minutes}, {"closes": close}, negs,
                decoys, {"closes": close})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Among {p['cuisine']} restaurants that deliver in under 30 minutes, order the "
                f"{p['dish']} from the one with the lowest delivery fee that is open until "
                f"{p['closes']}.")

    def prefix(self, p: dict[str, Any]) -> list[Action]:
        return [Action("SetCuisine", {"cuisine": p["cuisine"]}), Action("ToggleFastDelivery"),
                Action("SortBy", {"order": "delivery_fee"})]

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        cands = [e for e in self.restaurants(world, cuisine=p["cuisine"], closes=p["closes"])
                 if e["delivery_time"] < 30]
        low = min((e["delivery_fee"] for e in cands), default=None)
        return [e["id"] for e in cands if e["delivery_fee"] == low]
