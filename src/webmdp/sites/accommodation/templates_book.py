"""Booking templates (WebSTEP H.1 style; Table 20 is ``search_filter_book``): each reaches a
group of listings that agree on the instruction's card fields, finds the one whose detail field
fits, and books it with dates and guests."""

from __future__ import annotations

import random
from abc import abstractmethod
from typing import Any

from webmdp.core.model import World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best, entities_where
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.accommodation import catalog as C
from webmdp.sites.accommodation.tasklib import (
    EXPAND,
    article,
    book,
    booking,
    booking_verifier,
    city_spec,
    explore,
    for_guests,
    label,
    search_type,
    sleeps,
    where,
)
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate

N = C.N_LISTINGS


def _spec(pinned: tuple, *avoid: dict) -> WorldSpec:
    return WorldSpec(pinned, N - len(pinned), avoid=avoid)


class BookingTemplate(TaskTemplate):
    """A template whose commit is a confirmed booking checked parameter by parameter. Its
    oracle (E.3) reaches the group with :meth:`reach`, opens the hard negatives ranked above
    the target (all of them for a comparison), opens the target and books it."""

    commit_action = "ConfirmBooking"
    inspect: tuple[Action, ...] = ()
    all_negatives = False

    @abstractmethod
    def reach(self, p: dict[str, Any]) -> list[Action]:
        """Stage 1: the searches, filters and sort that bring the group on screen."""

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*explore(d, world, site, self.reach(d.params), inspect=list(self.inspect),
                         all_negatives=self.all_negatives), *book(d.params)]

    def verifier(self, draft: Draft, world: World) -> list[Condition]:
        return booking_verifier(draft)


class SearchFilterBook(BookingTemplate):
    """Table 20: the cheapest listing of a type in a city with a filterable amenity."""

    name = "search_filter_book"
    description = "Search a city, filter type and amenity, sort by price, book the cheapest"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city, ptype = where(rng)
        amenity = rng.choice(("Pool", "Hot tub", "Gym", "Free parking"))
        p = {**booking(rng, rng.randint(1, 4)), "city": city, "property_type": ptype,
             "amenity": amenity}
        price = rng.randint(140, 260)
        base = {"city": city, "property_type": ptype, "min_nights": 1, "price_per_night": price,
                **sleeps(rng, p["guests"])}
        negs = [{"lack": (amenity,)} for _ in range(hard_negatives)]
        pinned = (*pin_group(rng, base, {"need": (amenity,)}, negs),
                  *({**base, "role": "filler", "need": (amenity,),
                     "price_per_night": price + rng.randint(15, 120)} for _ in range(2)))
        return Draft(
            instruction=f"Book the cheapest {label(ptype)} in {city} that has a {amenity} "
                        f"{for_guests(p)}.",
            params=p, spec=city_spec(rng, pinned, city, ptype),
            card_fields=("city", "property_type", "price_per_night"),
            detail_fields=("amenities",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        group = [e for e in entities_where(world, city=p["city"], property_type=p["property_type"])
                 if p["amenity"] in e["amenities"]]
        return best(group, "price_per_night", highest=False)

    def reach(self, p: dict[str, Any]) -> list[Action]:
        return [*search_type(p["city"], p["property_type"]),
                  Action("ToggleAmenity", {"amenity": p["amenity"]}),
                  Action("SortBy", {"order": "price_asc"})]


class TopRatedFlexible(BookingTemplate):
    """Superlative over a card field with a detail-only condition: free cancellation."""

    name = "top_rated_flexible"
    description = "The highest-rated listing of a type in a city with Flexible cancellation"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city, ptype = where(rng)
        p = {**booking(rng, rng.randint(1, 4)), "city": city, "property_type": ptype}
        rating = round(rng.uniform(4.5, 4.84), 2)
        base = {"city": city, "property_type": ptype, "min_nights": 1, "rating": rating,
                **sleeps(rng, p["guests"])}
        negs = [{"cancellation_policy": rng.choice(C.CANCELLATION_POLICIES[1:])}
                for _ in range(hard_negatives)]
        pinned = (*pin_group(rng, base, {"cancellation_policy": "Flexible"}, negs),
                  *({**base, "role": "filler", "cancellation_policy": "Flexible",
                     "rating": round(rating - rng.randint(5, 40) / 100, 2)} for _ in range(2)))
        return Draft(
            instruction=f"Book the highest-rated {label(ptype)} in {city} that offers Flexible "
                        f"(free) cancellation, {for_guests(p)}.",
            params=p, spec=city_spec(rng, pinned, city, ptype),
            card_fields=("city", "property_type", "rating"),
            detail_fields=("cancellation_policy",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        group = [e for e in entities_where(world, city=p["city"], property_type=p["property_type"])
                 if e["cancellation_policy"] == "Flexible"]
        return best(group, "rating", highest=True)

    def reach(self, p: dict[str, Any]) -> list[Action]:
        return [*search_type(p["city"], p["property_type"]),
                  Action("SortBy", {"order": "rating"})]


class LargestExperiencedHost(BookingTemplate):
    """Largest place (most beds) whose host has hosted for years: host block on the detail."""

    name = "largest_experienced_host"
    description = "The listing with the most beds whose host has hosted at least 5 years"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city, ptype = where(rng)
        beds = rng.randint(2, 4)
        p = {**booking(rng, rng.randint(2, beds * 2)), "city": city, "property_type": ptype}
        base = {"city": city, "property_type": ptype, "min_nights": 1, "beds": beds,
                "max_guests": beds * 2}
        negs = [{"host_years": rng.randint(1, 4)} for _ in range(hard_negatives)]
        target = {"host_years": rng.randint(5, 11)}
        small = beds - 1
        pinned = (*pin_group(rng, base, target, negs),
                  *({**base, "role": "filler", "beds": small, "max_guests": small * 2,
                     "host_years": rng.randint(5, 11)} for _ in range(2)))
        return Draft(
            instruction=f"Book the largest {label(ptype)} (most beds) in {city} whose host has "
                        f"at least 5 years of hosting experience, {for_guests(p)}.",
            params=p, spec=city_spec(rng, pinned, city, ptype),
            card_fields=("city", "property_type", "beds"), detail_fields=("host_years",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        group = [e for e in entities_where(world, city=p["city"], property_type=p["property_type"])
                 if e["host_years"] >= 5]
        return best(group, "beds", highest=True)

    def reach(self, p: dict[str, Any]) -> list[Action]:
        return [*search_type(p["city"], p["property_type"]),
                  Action("SortBy", {"order": "beds"})]


class HiddenAmenityBook(BookingTemplate):
    """A detail-only amenity behind "Show all N amenities", under a nightly budget."""

    name = "hidden_amenity_book"
    description = "Filter type and price, expand amenities to find the one with an extra"
    inspect = (EXPAND,)

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city, ptype = where(rng)
        amenity = rng.choice(C.EXTRA_AMENITIES)
        budget = rng.choice((150, 175, 200, 225, 250, 300))
        p = {**booking(rng, rng.randint(1, 4)), "city": city, "property_type": ptype,
             "amenity": amenity, "budget": budget}
        base = {"city": city, "property_type": ptype, "min_nights": 1,
                "price_per_night": rng.randint(budget - 80, budget), **sleeps(rng, p["guests"])}
        negs = [{"lack": (amenity,)} for _ in range(hard_negatives)]
        target = {"need": (amenity,)}
        pinned = (*pin_group(rng, base, target, negs),
                  {**base, "role": "filler", "need": (amenity,),
                   "price_per_night": budget + rng.randint(20, 120)})
        return Draft(
            instruction=f"Book {article(ptype)} {label(ptype)} in {city} under ${budget} a "
                        f"night that has a {amenity}, {for_guests(p)}.",
            params=p, spec=city_spec(rng, pinned, city, ptype),
            card_fields=("city", "property_type", "price_per_night"),
            detail_fields=("amenities",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [e["id"] for e in entities_where(world, city=p["city"],
                                                 property_type=p["property_type"])
                if e["price_per_night"] <= p["budget"] and p["amenity"] in e["amenities"]]

    def reach(self, p: dict[str, Any]) -> list[Action]:
        return [*search_type(p["city"], p["property_type"]),
                  Action("SetPriceRange", {"max": p["budget"]})]


class HostNamedBook(BookingTemplate):
    """The listing of a named host among same-type listings with enough beds."""

    name = "host_named_book"
    description = "Filter type and minimum beds, find the listing hosted by a named host"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city, ptype = where(rng)
        k = rng.randint(2, 3)
        host = rng.choice(C.HOSTS)
        p = {**booking(rng, rng.randint(2, 2 * k)), "city": city, "property_type": ptype,
             "host": host, "beds": k}
        base = {"city": city, "property_type": ptype, "min_nights": 1, "beds": k,
                "max_guests": 2 * k}
        negs = [{"host_name": h} for h in others(rng, C.HOSTS, host, hard_negatives)]
        pinned = (*pin_group(rng, base, {"host_name": host}, negs),
                  {**base, "role": "filler", "host_name": host, "beds": k - 1,
                   "max_guests": 2 * (k - 1)})
        return Draft(
            instruction=f"Book the {label(ptype)} in {city} with at least {k} beds that is "
                        f"hosted by {host}, {for_guests(p)}.",
            params=p, spec=city_spec(rng, pinned, city, ptype),
            card_fields=("city", "property_type", "beds"), detail_fields=("host_name",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [e["id"] for e in entities_where(world, city=p["city"],
                                                 property_type=p["property_type"],
                                                 host_name=p["host"]) if e["beds"] >= p["beds"]]

    def reach(self, p: dict[str, Any]) -> list[Action]:
        return [*search_type(p["city"], p["property_type"]),
                  Action("SetMinBeds", {"beds": str(p["beds"])})]
