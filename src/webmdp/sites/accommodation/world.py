"""Accommodation world generation: listings completed from partial specs, plus the guest's
upcoming trips (``world.meta["reservations"]``) that cancellation tasks start from."""

from __future__ import annotations

import random
import string
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.sites._common.visualtask import carried
from webmdp.sites._common.worldgen import assemble
from webmdp.sites.accommodation import catalog as C

CARD_FIELDS = ("title", "city", "property_type", "price_per_night", "rating", "review_count",
               "beds", "max_guests", "photo")
DETAIL_FIELDS = ("amenities", "host_name", "host_years", "superhost", "cancellation_policy",
                 "check_in_time", "min_nights", "bathrooms")
PIXEL_FIELDS = ("exterior_color", "occupancy")
"""Shown only as pixels on a listing page (its main photo, its occupancy bar chart); only the
listings a dial template pins have them (:mod:`webmdp.sites.accommodation.dial`)."""
_TRIP_MONTHS = (6, 7, 8, 9)


def make_title(rng: random.Random, city: str, ptype: str) -> str:
    return f"{rng.choice(C.ADJECTIVES)} {ptype} in {rng.choice(C.CITIES[city])}"


def make_amenities(rng: random.Random, need: tuple[str, ...] = (),
                   lack: tuple[str, ...] = ()) -> list[str]:
    """Core amenities first (at least the preview's worth), then features and extras, in the
    catalogue's order; ``need`` are added and ``lack`` removed."""
    core = ["Wifi", *rng.sample(C.CORE_AMENITIES[1:], rng.randint(C.PREVIEW, 10))]
    more = rng.sample(C.FEATURE_AMENITIES, rng.randint(0, 2)) + \
        rng.sample(C.EXTRA_AMENITIES, rng.randint(0, 3))
    have = (set(core) | set(more) | set(need)) - set(lack)
    return [a for a in C.AMENITY_ORDER if a in have]


def complete_listing(p: Entity, rng: random.Random) -> Entity:
    """Fill every attribute a listing lacks; given attributes are kept as they are."""
    city = p.get("city") or rng.choice(list(C.CITIES))
    ptype = p.get("property_type") or rng.choice(C.PROPERTY_TYPES)
    beds = p.get("beds") or rng.randint(1, 5)
    base = C.BASE_PRICE[ptype] + 20 * beds
    out: Entity = {
        "role": p.get("role", ""),
        "title": p.get("title") or make_title(rng, city, ptype),
        "city": city,
        "property_type": ptype,
        "price_per_night": p.get("price_per_night") or rng.randint(base - 60, base + 140),
        "rating": p.get("rating") or round(rng.uniform(4.2, 4.99), 2),
        "review_count": p.get("review_count") or rng.randint(3, 480),
        "beds": beds,
        "max_guests": p.get("max_guests") or min(12, beds * 2 + rng.randint(0, 1)),
        "photo": rng.choice(C.PALETTE),
        "amenities": p.get("amenities") or make_amenities(rng, p.get("need", ()),
                                                          p.get("lack", ())),
        "host_name": p.get("host_name") or rng.choice(C.HOSTS),
        "host_years": p.get("host_years") or rng.randint(1, 11),
        "superhost": p.get("superhost", rng.random() < 0.45),
        "cancellation_policy": p.get("cancellation_policy")
        or rng.choice(C.CANCELLATION_POLICIES),
        "check_in_time": p.get("check_in_time") or rng.choice(C.CHECK_IN_TIMES[2:]),
        "min_nights": p.get("min_nights") or rng.randint(1, 3),
        "bathrooms": p.get("bathrooms") or rng.choice(C.BATHROOMS[: max(2, beds)]),
        "popularity": p.get("popularity") or rng.randint(10, 990),
        **carried(p, PIXEL_FIELDS),
    }
    if "trip" in p:
        out["trip"] = p["trip"]
    return out


def _code(rng: random.Random) -> str:
    return "HM" + "".join(rng.choices(string.ascii_uppercase + string.digits, k=8))


def _random_trips(rng: random.Random, world: World) -> list[tuple[str, dict[str, Any]]]:
    ids = rng.sample(sorted(world.entities), 2)
    out = []
    for eid in ids:
        month, day, n = rng.choice(_TRIP_MONTHS), rng.randint(1, 20), rng.randint(2, 6)
        guests = rng.randint(1, world.entities[eid]["max_guests"])
        out.append((eid, {"check_in": f"{C.YEAR}-{month:02d}-{day:02d}",
                          "check_out": f"{C.YEAR}-{month:02d}-{day + n:02d}", "guests": guests}))
    return out


def generate_world(spec: WorldSpec, rng: random.Random) -> World:
    raw = assemble("accommodation", spec, rng, prefix="LST", complete=complete_listing)
    pinned = [(eid, e["trip"]) for eid, e in raw.entities.items() if "trip" in e]
    trips = pinned or _random_trips(rng, raw)
    trips.sort(key=lambda t: (t[1]["check_in"], t[0]))
    reservations = [{"id": _code(rng), "listing": eid, "check_in": t["check_in"],
                     "check_out": t["check_out"], "guests": t["guests"], "status": "upcoming"}
                    for eid, t in trips]
    entities = {eid: {k: v for k, v in e.items() if k != "trip"}
                for eid, e in raw.entities.items()}
    return World(site="accommodation", entities=entities, meta={"reservations": reservations})
