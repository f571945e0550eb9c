"""Accommodation task templates by name (WebSTEP H.1; Table 20 is ``search_filter_book``).

Each booking template reaches a group of listings that agree on the instruction's card fields,
finds the one whose detail field fits (a cancellation policy, the minimum stay, bathrooms, the
check-in time, an amenity behind "Show all"...) and books it with dates and guests; two more
abandon a checkout and cancel an existing trip."""

from __future__ import annotations

import sys
from random import Random
from typing import Any, ClassVar

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.spec import Action
from webmdp.sites._common.tasklib import FindTemplate, Params, Pins, filler, spec
from webmdp.sites._common.templates import Step, collect
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.accommodation import catalog as C
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions, membership

EXPAND = Action("ShowAllAmenities")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
FLEX = {p: i for i, p in enumerate(C.CANCELLATION_POLICIES)}
STAY = ("check_in", "check_out", "guests")
"""The booking form's fields, params of every booking template."""
BOOK = Step("BookListing", *STAY)


def stay(rng: Random, n: int | None = None) -> dict[str, Any]:
    """Dates of a stay in the bookable year: check-in, check-out and the instruction's words."""
    month, day = rng.randint(3, 11), rng.randint(1, 22)
    n = n or rng.randint(2, 5)
    return {"check_in": f"{C.YEAR}-{month:02d}-{day:02d}",
            "check_out": f"{C.YEAR}-{month:02d}-{day + n:02d}",
            "dates": f"{MONTHS[month - 1]} {day}-{day + n}, {C.YEAR}"}


def booking(rng: Random, guests: int, n: int | None = None, **where: Any) -> Params:
    """A template's params: the stay, the guests, then where and what (city, type...)."""
    return {**stay(rng, n), "guests": guests, **where}


def stayed(d: Draft) -> Params:
    """The stay a commit records: the target listing and the booking form's fields."""
    return {"listing": d.target, **{k: d.params[k] for k in STAY}}


def sleeps(rng: Random, guests: int) -> Entity:
    """Beds and capacity for a listing that hosts ``guests``."""
    beds = max(1, -(-guests // 2)) + rng.randint(0, 1)
    return {"beds": beds, "max_guests": max(guests, beds * 2)}


def where(rng: Random) -> tuple[str, str]:
    return rng.choice(list(C.CITIES)), rng.choice(C.PROPERTY_TYPES)


def base(p: Params, **extra: Any) -> Entity:
    """What a group's listings share: the city, the type and a one-night minimum stay."""
    return {"city": p["city"], "property_type": p["property_type"], "min_nights": 1, **extra}


class ListingTemplate(FindTemplate):
    """A group of listings of one type in one city. The world keeps fillers out of the city,
    except three listings of other types there (the property-type filter's work)."""

    keys: ClassVar[tuple[str, ...]] = ("city", "property_type")
    opener = ("ViewListing", "CloseListing", "listing_id")
    narrow: ClassVar[tuple[str, ...]] = ("city", "type")
    by = {"city": lambda p: Action("Search", {"query": p["city"]}),
          "type": lambda p: Action("SetPropertyType", {"property_type": p["property_type"]}),
          "amenity": lambda p: Action("ToggleAmenity", {"amenity": p["amenity"]}),
          "budget": lambda p: Action("SetPriceRange", {"max": p["budget"]}),
          "beds": lambda p: Action("SetMinBeds", {"beds": str(p["beds"])})}

    def words(self, p: Params) -> Params:
        """The type's label and article, and "for 2 guests, May 4-7, 2026"."""
        ptype, n = p.get("property_type", "?"), p.get("guests", 0)
        return {**p, "label": ptype.lower(), "article": "an" if ptype[0] in "AEIOU" else "a",
                "for_guests": f"for {n} guest{'s' if n != 1 else ''}, {p.get('dates')}",
                "plural": "s" if p.get("beds", 0) > 1 else ""}

    def world(self, rng: Random, pinned: tuple[Entity, ...], p: Params) -> WorldSpec:
        """A group of one type has three listings of other types in its city."""
        types = [t for t in C.PROPERTY_TYPES if t != p.get("property_type")]
        decoys = tuple({"city": p["city"], "property_type": t, "role": "filler"}
                       for t in rng.sample(types, 3)) if "property_type" in self.keys else ()
        return spec((*pinned, *decoys), C.N_LISTINGS, {"city": p["city"]})


class BookingTemplate(ListingTemplate):
    """A template whose commit is a confirmed booking checked parameter by parameter."""

    commit_action = "ConfirmBooking"
    steps = (BOOK, Action("ConfirmBooking"))

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        """Every parameter of the booking commit, and no hard negative booked."""
        expected = {**stayed(d), "status": "confirmed"}
        return [*commit_conditions("booking", expected, "the booking's"),
                *membership(d, "booked.listings", "booked")[1:]]


class SearchFilterBook(BookingTemplate):
    """Table 20: the cheapest listing of a type in a city with a filterable amenity."""

    name = "search_filter_book"
    description = "Search a city, filter type and amenity, sort by price, book the cheapest"
    narrow, order = ("city", "type", "amenity"), "price_asc"
    card, detail, best_by = ("price_per_night",), ("amenities",), "price_per_night"
    inspect = (EXPAND,)  # the listing shows its amenities only expanded: see it before booking
    sentence = "Book the cheapest {label} in {city} that has a {amenity} {for_guests}."
    wants = {"amenities": "amenity"}

    def pins(self, rng: Random, k: int) -> Pins:
        city, ptype = where(rng)
        amenity = rng.choice(("Pool", "Hot tub", "Gym", "Free parking"))
        p = booking(rng, rng.randint(1, 4), city=city, property_type=ptype, amenity=amenity)
        price = rng.randint(140, 260)
        group = base(p, price_per_night=price, **sleeps(rng, p["guests"]))
        return (*pin_group(rng, group, {"need": (amenity,)}, [{"lack": (amenity,)}] * k),
                *(filler(group, need=(amenity,), price_per_night=price + rng.randint(15, 120))
                  for _ in range(2))), p


class TopRatedFlexible(BookingTemplate):
    """Superlative over a card field with a detail-only condition: free cancellation."""

    name = "top_rated_flexible"
    description = "The highest-rated listing of a type in a city with Flexible cancellation"
    order = "rating"
    card, detail = ("rating",), ("cancellation_policy",)
    best_by, highest = "rating", True
    sentence = ("Book the highest-rated {label} in {city} that offers Flexible (free) "
                "cancellation, {for_guests}.")
    fixed = {"cancellation_policy": "Flexible"}

    def pins(self, rng: Random, k: int) -> Pins:
        city, ptype = where(rng)
        p = booking(rng, rng.randint(1, 4), city=city, property_type=ptype)
        rating = round(rng.uniform(4.5, 4.84), 2)
        group = base(p, rating=rating, **sleeps(rng, p["guests"]))
        negs = [{"cancellation_policy": rng.choice(C.CANCELLATION_POLICIES[1:])}
                for _ in range(k)]
        return (*pin_group(rng, group, {"cancellation_policy": "Flexible"}, negs),
                *(filler(group, cancellation_policy="Flexible",
                         rating=round(rating - rng.randint(5, 40) / 100, 2)) for _ in range(2))), p


class LargestExperiencedHost(BookingTemplate):
    """Largest place (most beds) whose host has hosted for years: host block on the detail."""

    name = "largest_experienced_host"
    description = "The listing with the most beds whose host has hosted at least 5 years"
    order = "beds"
    card, detail, best_by, highest = ("beds",), ("host_years",), "beds", True
    sentence = ("Book the largest {label} (most beds) in {city} whose host has at least 5 years "
                "of hosting experience, {for_guests}.")

    def pins(self, rng: Random, k: int) -> Pins:
        city, ptype = where(rng)
        beds = rng.randint(2, 4)
        p = booking(rng, rng.randint(2, beds * 2), city=city, property_type=ptype)
        group = base(p, beds=beds, max_guests=beds * 2)
        negs = [{"host_years": rng.randint(1, 4)} for _ in range(k)]
        target = {"host_years": rng.randint(5, 11)}
        return (*pin_group(rng, group, target, negs),
                *(filler(group, beds=beds - 1, max_guests=(beds - 1) * 2,
                         host_years=rng.randint(5, 11)) for _ in range(2))), p

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["host_years"] >= 5)


class HiddenAmenityBook(BookingTemplate):
    """A detail-only amenity behind "Show all N amenities", under a nightly budget."""

    name = "hidden_amenity_book"
    description = "Filter type and price, expand amenities to find the one with an extra"
    narrow = ("city", "type", "budget")
    card, detail, inspect = ("price_per_night",), ("amenities",), (EXPAND,)
    sentence = ("Book {article} {label} in {city} under ${budget} a night that has a {amenity}, "
                "{for_guests}.")

    def pins(self, rng: Random, k: int) -> Pins:
        city, ptype = where(rng)
        amenity = rng.choice(C.EXTRA_AMENITIES)
        budget = rng.choice((150, 175, 200, 225, 250, 300))
        p = booking(rng, rng.randint(1, 4), city=city, property_type=ptype, amenity=amenity,
                    budget=budget)
        group = base(p, price_per_night=rng.randint(budget - 80, budget),
                     **sleeps(rng, p["guests"]))
        return (*pin_group(rng, group, {"need": (amenity,)}, [{"lack": (amenity,)}] * k),
                filler(group, need=(amenity,), price_per_night=budget + rng.randint(20, 120))), p

    def fits(self, e: Entity, p: Params) -> bool:
        return e["price_per_night"] <= p["budget"] and p["amenity"] in e["amenities"]


class HostNamedBook(BookingTemplate):
    """The listing of a named host among same-type listings with enough beds."""

    name = "host_named_book"
    description = "Filter type and minimum beds, find the listing hosted by a named host"
    narrow = ("city", "type", "beds")
    card, detail = ("beds",), ("host_name",)
    sentence = ("Book the {label} in {city} with at least {beds} beds that is hosted by {host}, "
                "{for_guests}.")

    def pins(self, rng: Random, k: int) -> Pins:
        city, ptype = where(rng)
        beds = rng.randint(2, 3)
        host = rng.choice(C.HOSTS)
        p = booking(rng, rng.randint(2, 2 * beds), city=city, property_type=ptype, host=host,
                    beds=beds)
        group = base(p, beds=beds, max_guests=2 * beds)
        negs = [{"host_name": h} for h in others(rng, C.HOSTS, host, k)]
        return (*pin_group(rng, group, {"host_name": host}, negs),
                filler(group, host_name=host, beds=beds - 1, max_guests=2 * (beds - 1))), p

    def fits(self, e: Entity, p: Params) -> bool:
        return e["host_name"] == p["host"] and e["beds"] >= p["beds"]


class CompareCancellation(BookingTemplate):
    """Comparison: open every listing of the group, book the most flexible policy."""

    name = "compare_cancellation"
    description = "Compare the cancellation policies of a group and book the most flexible"
    narrow = ("city", "type", "beds")
    card, detail, compare = ("beds",), ("cancellation_policy",), True
    best_by, highest = "flex", True
    sentence = ("Compare the {label}s in {city} with at least {beds} bed{plural} and book the one "
                "with the most flexible cancellation policy, {for_guests}.")

    def pins(self, rng: Random, k: int) -> Pins:
        city, ptype = where(rng)
        beds = rng.randint(1, 3)
        p = booking(rng, rng.randint(1, 2 * beds), city=city, property_type=ptype, beds=beds)
        group = base(p, beds=beds + 1, max_guests=2 * beds + 2)
        negs = [{"cancellation_policy": c}
                for c in others(rng, C.CANCELLATION_POLICIES, "Flexible", k)]
        smaller = (filler(group, cancellation_policy="Flexible", beds=beds - 1,
                          max_guests=2 * beds - 2),) if beds > 1 else ()
        return (*pin_group(rng, group, {"cancellation_policy": "Flexible"}, negs), *smaller), p

    def group(self, d: Draft, world: World) -> list[Entity]:
        return [{**e, "flex": -FLEX[e["cancellation_policy"]]} for e in super().group(d, world)]

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["beds"] >= p["beds"])


class MinimumStayBook(BookingTemplate):
    """A short stay: only one listing of the group accepts it (minimum nights is detail-only)."""

    name = "minimum_stay_book"
    description = "Find the listing whose minimum stay allows a 2-night booking"
    card, detail = ("max_guests",), ("min_nights",)
    sentence = ("Book {article} {label} in {city} that sleeps at least {guests} guests and "
                "accepts a 2-night stay, {for_guests}.")

    def pins(self, rng: Random, k: int) -> Pins:
        city, ptype = where(rng)
        guests = rng.randint(4, 6)
        p = booking(rng, guests, n=2, city=city, property_type=ptype)
        group = base(p, **sleeps(rng, guests))
        negs = [{"min_nights": rng.randint(3, 5)} for _ in range(k)]
        return (*pin_group(rng, group, {"min_nights": rng.randint(1, 2)}, negs),
                filler(group, min_nights=1, beds=1, max_guests=2)), p

    def fits(self, e: Entity, p: Params) -> bool:
        return e["max_guests"] >= p["guests"] and e["min_nights"] <= 2


class BathroomsBook(BookingTemplate):
    """Beds on the card, bathrooms on the detail page."""

    name = "bathrooms_book"
    description = "Filter by minimum beds and find the listing with a number of bathrooms"
    narrow = ("city", "type", "beds")
    card, detail = ("beds",), ("bathrooms",)
    sentence = ("Book the {beds}-bed {label} in {city} that has {bathrooms:g} bathrooms, "
                "{for_guests}.")
    wants = {"beds": "beds", "bathrooms": "bathrooms"}

    def pins(self, rng: Random, k: int) -> Pins:
        city, ptype = where(rng)
        beds = rng.randint(2, 4)
        baths = rng.choice(C.BATHROOMS[1:])
        p = booking(rng, rng.randint(2, 2 * beds), city=city, property_type=ptype, beds=beds,
                    bathrooms=baths)
        group = base(p, beds=beds, max_guests=2 * beds)
        negs = [{"bathrooms": b} for b in others(rng, C.BATHROOMS, baths, k)]
        return (*pin_group(rng, group, {"bathrooms": baths}, negs),
                filler(group, bathrooms=baths, beds=beds - 1, max_guests=2 * beds - 2)), p


class EarlyCheckInBook(BookingTemplate):
    """Under a budget, the one listing whose check-in starts early."""

    name = "early_check_in_book"
    description = "Filter type and price, find the listing with an early check-in time"
    narrow = ("city", "type", "budget")
    card, detail = ("price_per_night",), ("check_in_time",)
    sentence = ("My flight lands early: book the {label} in {city} under ${budget} a night where "
                "check-in starts at {time}, {for_guests}.")

    def pins(self, rng: Random, k: int) -> Pins:
        city, ptype = where(rng)
        budget = rng.choice((150, 180, 200, 250, 300))
        time = rng.choice(C.CHECK_IN_TIMES[:2])
        p = booking(rng, rng.randint(1, 4), city=city, property_type=ptype, budget=budget,
                    time=time)
        group = base(p, price_per_night=rng.randint(budget - 80, budget),
                     **sleeps(rng, p["guests"]))
        negs = [{"check_in_time": t} for t in rng.sample(C.CHECK_IN_TIMES[2:], k)]
        return (*pin_group(rng, group, {"check_in_time": time}, negs),
                filler(group, check_in_time=time,
                       price_per_night=budget + rng.randint(20, 100))), p

    def fits(self, e: Entity, p: Params) -> bool:
        return e["check_in_time"] == p["time"] and e["price_per_night"] <= p["budget"]


class PetsForGroupBook(BookingTemplate):
    """Cheapest place in a city that sleeps a group and allows pets (an unfiltered amenity)."""

    name = "pets_for_group_book"
    description = "Sort a city by price, skip small places, expand amenities to find pets"
    narrow, order = ("city",), "price_asc"
    keys, card, detail = ("city",), ("max_guests", "price_per_night"), ("amenities",)
    inspect, best_by = (EXPAND,), "price_per_night"
    sentence = ("Book the cheapest place in {city} that sleeps at least {guests} guests and "
                "allows pets, {for_guests}.")

    def pins(self, rng: Random, k: int) -> Pins:
        city = rng.choice(list(C.CITIES))
        guests = rng.randint(5, 7)
        p = booking(rng, guests, city=city)
        price = rng.randint(190, 320)
        group = {"city": city, "min_nights": 1, "beds": 4, "max_guests": 8,
                 "price_per_night": price}
        pets = ("Pets allowed",)
        return (*pin_group(rng, group, {"need": pets}, [{"lack": pets}] * k),
                filler(group, need=pets, beds=2, max_guests=4,
                       price_per_night=price - rng.randint(20, 90)),
                filler(group, need=pets, price_per_night=price + rng.randint(10, 90))), p

    def fits(self, e: Entity, p: Params) -> bool:
        return e["max_guests"] >= p["guests"] and "Pets allowed" in e["amenities"]


class AbandonCheckout(ListingTemplate):
    """Start the checkout of the right listing to see the total, then leave without paying."""

    name = "abandon_checkout"
    description = "Open the checkout of the cheapest Superhost listing, then cancel it"
    order = "price_asc"
    commit_action, steps = "CancelCheckout", (BOOK, Action("CancelCheckout"))
    card, detail, best_by = ("price_per_night",), ("superhost",), "price_per_night"
    sentence = ("Start booking the cheapest {label} in {city} hosted by a Superhost {for_guests}, "
                "look at the total on the Confirm and pay page, then cancel the checkout without "
                "paying.")
    fixed = {"superhost": True}

    def pins(self, rng: Random, k: int) -> Pins:
        city, ptype = where(rng)
        p = booking(rng, rng.randint(1, 4), city=city, property_type=ptype)
        price = rng.randint(120, 260)
        group = base(p, price_per_night=price, **sleeps(rng, p["guests"]))
        return (*pin_group(rng, group, {"superhost": True}, [{"superhost": False}] * k),
                filler(group, superhost=True, price_per_night=price + rng.randint(10, 90))), p

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*commit_conditions("abandoned", stayed(d), "the abandoned checkout's"),
                *membership(d, "checkout.abandoned", "a checkout left")[1:],
                Condition(fact="booked.listings", op="not_contains", value=d.target,
                          description=f"{d.target} was not booked")]


def _trip(rng: Random) -> dict[str, Any]:
    s = stay(rng)
    return {"check_in": s["check_in"], "check_out": s["check_out"], "guests": 2}


class CancelTrip(ListingTemplate):
    """Several upcoming trips in one city: cancel the one whose host the instruction names."""

    name = "cancel_trip"
    description = "On Trips, open the listings of a city's trips, cancel the named host's one"
    commit_action, marked = "CancelReservation", ("cancelled.listings", "cancelled")
    keys, detail = ("city",), ("host_name",)
    sentence = ("I have several upcoming trips. Cancel my reservation in {city} at the place "
                "hosted by {host}.")
    wants = {"host_name": "host"}

    def pins(self, rng: Random, k: int) -> Pins:
        city = rng.choice(list(C.CITIES))
        host = rng.choice(C.HOSTS)
        group = {"city": city}
        negs = [{"host_name": h, "trip": _trip(rng)} for h in others(rng, C.HOSTS, host, k)]
        pinned = pin_group(rng, group, {"host_name": host, "trip": _trip(rng)}, negs)
        away = [c for c in C.CITIES if c != city]
        return (*pinned, *({"city": c, "role": "companion", "trip": _trip(rng)}
                           for c in rng.sample(away, 2))), {"city": city, "host": host}

    def group(self, d: Draft, world: World) -> list[Entity]:
        booked = [r["listing"] for r in world.meta["reservations"]]
        return [e for e in super().group(d, world) if e["id"] in booked]

    def prefix(self, p: Params, world: World) -> list[Action]:
        return [Action("OpenTrips")]

    def commit(self, d: Draft, world: World) -> list[Action]:
        rid = next(r["id"] for r in world.meta["reservations"] if r["listing"] == d.target)
        return [Action("CloseListing"), Action("CancelReservation", {"reservation_id": rid})]


TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
