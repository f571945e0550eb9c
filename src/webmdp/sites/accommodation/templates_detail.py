"""Booking templates whose deciding field is a detail-only fact: a comparison of cancellation
policies, the minimum stay, bathrooms, the check-in time, and pets among all amenities."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best, entities_where
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.accommodation import catalog as C
from webmdp.sites.accommodation.tasklib import (
    EXPAND,
    article,
    booking,
    city_spec,
    for_guests,
    label,
    search_type,
    sleeps,
    where,
)
from webmdp.sites.accommodation.templates_book import BookingTemplate, _spec
from webmdp.tasks.template import Draft

_FLEX = {p: i for i, p in enumerate(C.CANCELLATION_POLICIES)}


def _baths(x: float) -> str:
    return f"{x:g} bathroom{'s' if x != 1 else ''}"


class CompareCancellation(BookingTemplate):
    """Comparison: open every listing of the group, book the most flexible policy."""

    name = "compare_cancellation"
    description = "Compare the cancellation policies of a group and book the most flexible"
    all_negatives = True

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city, ptype = where(rng)
        k = rng.randint(1, 3)
        p = {**booking(rng, rng.randint(1, 2 * k)), "city": city, "property_type": ptype,
             "beds": k}
        base = {"city": city, "property_type": ptype, "min_nights": 1, "beds": k + 1,
                "max_guests": 2 * k + 2}
        negs = [{"cancellation_policy": c}
                for c in others(rng, C.CANCELLATION_POLICIES, "Flexible", hard_negatives)]
        smaller = ({**base, "role": "filler", "cancellation_policy": "Flexible", "beds": k - 1,
                    "max_guests": 2 * k - 2},) if k > 1 else ()
        pinned = (*pin_group(rng, base, {"cancellation_policy": "Flexible"}, negs), *smaller)
        return Draft(
            instruction=f"Compare the {label(ptype)}s in {city} with at least {k} bed"
                        f"{'s' if k > 1 else ''} and book the one with the most flexible "
                        f"cancellation policy, {for_guests(p)}.",
            params=p, spec=city_spec(rng, pinned, city, ptype),
            card_fields=("city", "property_type", "beds"),
            detail_fields=("cancellation_policy",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        group = [{**e, "flex": -_FLEX[e["cancellation_policy"]]}
                 for e in entities_where(world, city=p["city"], property_type=p["property_type"])
                 if e["beds"] >= p["beds"]]
        return best(group, "flex", highest=True)

    def reach(self, p: dict[str, Any]) -> list[Action]:
        return [*search_type(p["city"], p["property_type"]),
                  Action("SetMinBeds", {"beds": str(p["beds"])})]


class MinimumStayBook(BookingTemplate):
    """A short stay: only one listing of the group accepts it (minimum nights is detail-only)."""

    name = "minimum_stay_book"
    description = "Find the listing whose minimum stay allows a 2-night booking"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city, ptype = where(rng)
        guests = rng.randint(4, 6)
        p = {**booking(rng, guests, n=2), "city": city, "property_type": ptype}
        base = {"city": city, "property_type": ptype, **sleeps(rng, guests)}
        negs = [{"min_nights": rng.randint(3, 5)} for _ in range(hard_negatives)]
        pinned = (*pin_group(rng, base, {"min_nights": rng.randint(1, 2)}, negs),
                  {**base, "role": "filler", "min_nights": 1, "beds": 1, "max_guests": 2})
        return Draft(
            instruction=f"Book {article(ptype)} {label(ptype)} in {city} that sleeps at least "
                        f"{guests} guests and accepts a 2-night stay, {for_guests(p)}.",
            params=p, spec=city_spec(rng, pinned, city, ptype),
            card_fields=("city", "property_type", "max_guests"), detail_fields=("min_nights",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [e["id"] for e in entities_where(world, city=p["city"],
                                                 property_type=p["property_type"])
                if e["max_guests"] >= p["guests"] and e["min_nights"] <= 2]

    def reach(self, p: dict[str, Any]) -> list[Action]:
        return search_type(p["city"], p["property_type"])


class BathroomsBook(BookingTemplate):
    """Beds on the card, bathrooms on the detail page."""

    name = "bathrooms_book"
    description = "Filter by minimum beds and find the listing with a number of bathrooms"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city, ptype = where(rng)
        k = rng.randint(2, 4)
        baths = rng.choice(C.BATHROOMS[1:])
        p = {**booking(rng, rng.randint(2, 2 * k)), "city": city, "property_type": ptype,
             "beds": k, "bathrooms": baths}
        base = {"city": city, "property_type": ptype, "min_nights": 1, "beds": k,
                "max_guests": 2 * k}
        negs = [{"bathrooms": b} for b in others(rng, C.BATHROOMS, baths, hard_negatives)]
        pinned = (*pin_group(rng, base, {"bathrooms": baths}, negs),
                  {**base, "role": "filler", "bathrooms": baths, "beds": k - 1,
                   "max_guests": 2 * k - 2})
        return Draft(
            instruction=f"Book the {k}-bed {label(ptype)} in {city} that has {_baths(baths)}, "
                        f"{for_guests(p)}.",
            params=p, spec=city_spec(rng, pinned, city, ptype),
            card_fields=("city", "property_type", "beds"), detail_fields=("bathrooms",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [e["id"] for e in entities_where(world, city=p["city"],
                                                 property_type=p["property_type"],
                                                 beds=p["beds"], bathrooms=p["bathrooms"])]

    def reach(self, p: dict[str, Any]) -> list[Action]:
        return [*search_type(p["city"], p["property_type"]),
                  Action("SetMinBeds", {"beds": str(p["beds"])})]


class EarlyCheckInBook(BookingTemplate):
    """Under a budget, the one listing whose check-in starts early."""

    name = "early_check_in_book"
    description = "Filter type and price, find the listing with an early check-in time"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city, ptype = where(rng)
        budget = rng.choice((150, 180, 200, 250, 300))
        time = rng.choice(C.CHECK_IN_TIMES[:2])
        p = {**booking(rng, rng.randint(1, 4)), "city": city, "property_type": ptype,
             "budget": budget, "time": time}
        base = {"city": city, "property_type": ptype, "min_nights": 1,
                "price_per_night": rng.randint(budget - 80, budget), **sleeps(rng, p["guests"])}
        negs = [{"check_in_time": t} for t in rng.sample(C.CHECK_IN_TIMES[2:], hard_negatives)]
        target = {"check_in_time": time}
        pinned = (*pin_group(rng, base, target, negs),
                  {**base, "role": "filler", "check_in_time": time,
                   "price_per_night": budget + rng.randint(20, 100)})
        return Draft(
            instruction=f"My flight lands early: book the {label(ptype)} in {city} under "
                        f"${budget} a night where check-in starts at {time}, {for_guests(p)}.",
            params=p, spec=city_spec(rng, pinned, city, ptype),
            card_fields=("city", "property_type", "price_per_night"),
            detail_fields=("check_in_time",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [e["id"] for e in entities_where(world, city=p["city"],
                                                 property_type=p["property_type"],
                                                 check_in_time=p["time"])
                if e["price_per_night"] <= p["budget"]]

    def reach(self, p: dict[str, Any]) -> list[Action]:
        return [*search_type(p["city"], p["property_type"]),
                  Action("SetPriceRange", {"max": p["budget"]})]


class PetsForGroupBook(BookingTemplate):
    """Cheapest place in a city that sleeps a group and allows pets (an unfiltered amenity)."""

    name = "pets_for_group_book"
    description = "Sort a city by price, skip small places, expand amenities to find pets"
    inspect = (EXPAND,)

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city = rng.choice(list(C.CITIES))
        guests = rng.randint(5, 7)
        p = {**booking(rng, guests), "city": city}
        price = rng.randint(190, 320)
        base = {"city": city, "min_nights": 1, "beds": 4, "max_guests": 8, "price_per_night": price}
        negs = [{"lack": ("Pets allowed",)} for _ in range(hard_negatives)]
        pinned = (*pin_group(rng, base, {"need": ("Pets allowed",)}, negs),
                  {**base, "role": "filler", "need": ("Pets allowed",), "beds": 2,
                   "max_guests": 4, "price_per_night": price - rng.randint(20, 90)},
                  {**base, "role": "filler", "need": ("Pets allowed",),
                   "price_per_night": price + rng.randint(10, 90)})
        return Draft(
            instruction=f"Book the cheapest place in {city} that sleeps at least {guests} "
                        f"guests and allows pets, {for_guests(p)}.",
            params=p, spec=_spec(pinned, {"city": city}),
            card_fields=("city", "max_guests", "price_per_night"), detail_fields=("amenities",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        group = [e for e in entities_where(world, city=p["city"])
                 if e["max_guests"] >= p["guests"] and "Pets allowed" in e["amenities"]]
        return best(group, "price_per_night", highest=False)

    def reach(self, p: dict[str, Any]) -> list[Action]:
        return [Action("Search", {"query": p["city"]}),
                  Action("SortBy", {"order": "price_asc"})]
