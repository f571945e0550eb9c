"""Building blocks shared by the Accommodation task templates: stays, listing groups, oracle
stages and booking verifiers."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites.accommodation import catalog as C
from webmdp.tasks.model import Condition
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions, membership

OPEN = Action("ViewListing")
BACK = Action("CloseListing")
EXPAND = Action("ShowAllAmenities")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def stay(rng: random.Random, n: int | None = None) -> dict[str, Any]:
    """Dates of a stay in the bookable year: check-in, check-out and the instruction's words."""
    month, day = rng.randint(3, 11), rng.randint(1, 22)
    n = n or rng.randint(2, 5)
    return {"check_in": f"{C.YEAR}-{month:02d}-{day:02d}",
            "check_out": f"{C.YEAR}-{month:02d}-{day + n:02d}",
            "dates": f"{MONTHS[month - 1]} {day}-{day + n}, {C.YEAR}"}


def booking(rng: random.Random, guests: int, n: int | None = None) -> dict[str, Any]:
    return {**stay(rng, n), "guests": guests}


def sleeps(rng: random.Random, guests: int) -> Entity:
    """Beds and capacity for a listing that hosts ``guests``."""
    beds = max(1, -(-guests // 2)) + rng.randint(0, 1)
    return {"beds": beds, "max_guests": max(guests, beds * 2)}


def where(rng: random.Random) -> tuple[str, str]:
    return rng.choice(list(C.CITIES)), rng.choice(C.PROPERTY_TYPES)


def label(ptype: str) -> str:
    return ptype.lower()


def explore(d: Draft, world: World, site: Site, prefix: list[Action],
            **kw: Any) -> list[Action]:
    """E.3 stages 1-2 (hard negatives the prefix's filters already removed are not visited)."""
    return reach_and_explore(site, world, d, prefix, open_action=OPEN, back=BACK,
                             entity_param="listing_id", **kw)


def search_type(city: str, ptype: str) -> list[Action]:
    return [Action("Search", {"query": city}),
            Action("SetPropertyType", {"property_type": ptype})]


def book(p: dict[str, Any]) -> list[Action]:
    return [Action("BookListing", {"check_in": p["check_in"], "check_out": p["check_out"],
                                   "guests": p["guests"]}),
            Action("ConfirmBooking")]


def booking_verifier(d: Draft) -> list[Condition]:
    """Every parameter of the booking commit, and no hard negative booked."""
    p = d.params
    expected = {"listing": d.target, "check_in": p["check_in"], "check_out": p["check_out"],
                "guests": p["guests"], "status": "confirmed"}
    return [*commit_conditions("booking", expected, "the booking's"),
            *membership(d, "booked.listings", "booked")[1:]]


def for_guests(p: dict[str, Any]) -> str:
    n = p["guests"]
    return f"for {n} guest{'s' if n != 1 else ''}, {p['dates']}"


def article(ptype: str) -> str:
    return "an" if ptype[0] in "AEIOU" else "a"


def city_spec(rng: random.Random, pinned: tuple[Entity, ...], city: str,
              ptype: str) -> WorldSpec:
    """The world of a city-and-type task: fillers stay out of the city, except three
    listings of other types there (the property-type filter's work)."""
    decoys = tuple({"city": city, "property_type": t, "role": "filler"}
                   for t in rng.sample([t for t in C.PROPERTY_TYPES if t != ptype], 3))
    both = (*pinned, *decoys)
    return WorldSpec(both, C.N_LISTINGS - len(both), avoid=({"city": city},))
