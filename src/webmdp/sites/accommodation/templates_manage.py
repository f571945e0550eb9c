"""Reservation-management templates: abandon a checkout (checkout_cancellation) and cancel an
existing trip (booking_cancellation)."""

from __future__ import annotations

import random

from webmdp.core.model import World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best, entities_where
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.accommodation import catalog as C
from webmdp.sites.accommodation.tasklib import (
    booking,
    city_spec,
    explore,
    for_guests,
    label,
    search_type,
    sleeps,
    stay,
    where,
)
from webmdp.sites.accommodation.templates_book import _spec
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions, membership


class AbandonCheckout(TaskTemplate):
    """Start the checkout of the right listing to see the total, then leave without paying."""

    name = "abandon_checkout"
    description = "Open the checkout of the cheapest Superhost listing, then cancel it"
    commit_action = "CancelCheckout"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city, ptype = where(rng)
        p = {**booking(rng, rng.randint(1, 4)), "city": city, "property_type": ptype}
        price = rng.randint(120, 260)
        base = {"city": city, "property_type": ptype, "min_nights": 1, "price_per_night": price,
                **sleeps(rng, p["guests"])}
        negs = [{"superhost": False} for _ in range(hard_negatives)]
        pinned = (*pin_group(rng, base, {"superhost": True}, negs),
                  {**base, "role": "filler", "superhost": True,
                   "price_per_night": price + rng.randint(10, 90)})
        return Draft(
            instruction=f"Start booking the cheapest {label(ptype)} in {city} hosted by a "
                        f"Superhost {for_guests(p)}, look at the total on the Confirm and pay "
                        "page, then cancel the checkout without paying.",
            params=p, spec=city_spec(rng, pinned, city, ptype),
            card_fields=("city", "property_type", "price_per_night"),
            detail_fields=("superhost",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        group = [e for e in entities_where(world, city=p["city"], property_type=p["property_type"])
                 if e["superhost"]]
        return best(group, "price_per_night", highest=False)

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        p = d.params
        prefix = [*search_type(p["city"], p["property_type"]),
                  Action("SortBy", {"order": "price_asc"})]
        return [*explore(d, world, site, prefix),
                Action("BookListing", {"check_in": p["check_in"], "check_out": p["check_out"],
                                       "guests": p["guests"]}),
                Action("CancelCheckout")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        p = d.params
        expected = {"listing": d.target, "check_in": p["check_in"],
                    "check_out": p["check_out"], "guests": p["guests"]}
        return [*commit_conditions("abandoned", expected, "the abandoned checkout's"),
                *membership(d, "checkout.abandoned", "a checkout left")[1:],
                Condition(fact="booked.listings", op="not_contains", value=d.target,
                          description=f"{d.target} was not booked")]


def _trip(rng: random.Random, guests: int) -> dict:
    s = stay(rng)
    return {"check_in": s["check_in"], "check_out": s["check_out"], "guests": guests}


class CancelTrip(TaskTemplate):
    """Several upcoming trips in one city: cancel the one whose host the instruction names."""

    name = "cancel_trip"
    description = "On Trips, open the listings of a city's trips, cancel the named host's one"
    commit_action = "CancelReservation"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        city = rng.choice(list(C.CITIES))
        host = rng.choice(C.HOSTS)
        base = {"city": city}
        negs = [{"host_name": h, "trip": _trip(rng, 2)}
                for h in others(rng, C.HOSTS, host, hard_negatives)]
        pinned = pin_group(rng, base, {"host_name": host, "trip": _trip(rng, 2)}, negs)
        away = [c for c in C.CITIES if c != city]
        companions = tuple({"city": c, "role": "companion", "trip": _trip(rng, 2)}
                           for c in rng.sample(away, 2))
        return Draft(
            instruction=f"I have several upcoming trips. Cancel my reservation in {city} at "
                        f"the place hosted by {host}.",
            params={"city": city, "host": host},
            spec=_spec((*pinned, *companions), base),
            card_fields=("city",), detail_fields=("host_name",))

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        booked = [r["listing"] for r in world.meta["reservations"]]
        return [e["id"] for e in entities_where(world, city=p["city"], host_name=p["host"])
                if e["id"] in booked]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        rid = next(r["id"] for r in world.meta["reservations"] if r["listing"] == d.target)
        return [*explore(d, world, site, [Action("OpenTrips")]), Action("CloseListing"),
                Action("CancelReservation", {"reservation_id": rid})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return membership(d, "cancelled.listings", "cancelled")
