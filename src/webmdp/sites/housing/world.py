"""Housing world generation: property listings completed from partial specs (WebSTEP E.2)."""

from __future__ import annotations

import random

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.sites._common.visualtask import carried
from webmdp.sites._common.worldgen import assemble
from webmdp.sites.housing import vocab as V

CARD_FIELDS = ("address", "city", "price", "beds", "baths", "sqft", "home_type", "listing_type")
DETAIL_FIELDS = ("hoa_fee", "school_rating", "year_built", "lot_size", "parking", "heating",
                 "days_on_market", "pet_policy", "agent_name", "brokerage")
PIXEL_FIELDS = ("facade_color", "value_history")
"""Shown only as pixels on a property page (its front photo, its value-history bar chart);
only the homes a dial template pins have them (:mod:`webmdp.sites.housing.dial`)."""
AGENT_FIELDS = ("agent_name", "brokerage")
"""Detail fields shown only once the "Listed by" section is expanded (agent inspection)."""

_SQFT = {"House": (1400, 4200), "Townhouse": (1100, 2400), "Condo": (550, 1700),
         "Apartment": (450, 1500)}
_HOA = {"House": (0, 120), "Townhouse": (90, 480), "Condo": (180, 720), "Apartment": (0, 0)}
_PRESAVED_FILLERS = 2


def address(rng: random.Random, home_type: str) -> str:
    street = f"{rng.randint(100, 9899)} {rng.choice(V.STREETS)} {rng.choice(V.SUFFIXES)}"
    if home_type in ("Condo", "Apartment"):
        return f"{street} Unit {rng.randint(1, 24)}{rng.choice('ABCD')}"
    return street


def _price(rng: random.Random, listing: str, sqft: int) -> int:
    if listing == "for_rent":
        return int(round(sqft * rng.uniform(1.3, 2.6), -1))
    return int(round(sqft * rng.uniform(190, 420), -3))


def complete_property(p: Entity, rng: random.Random) -> Entity:
    """Fill every attribute a listing lacks; given attributes are kept as they are."""
    home_type = p.get("home_type") or rng.choice(V.HOME_TYPES)
    listing = p.get("listing_type") or ("for_rent" if home_type == "Apartment"
                                        else rng.choice(V.LISTING_TYPES))
    beds = p.get("beds") or rng.randint(1, 3 if home_type in ("Condo", "Apartment") else 5)
    sqft = p.get("sqft") or int(round(rng.randint(*_SQFT[home_type]) + beds * 120, -1))
    lo, hi = _HOA[home_type]
    parking = p.get("parking") or rng.choice(V.PARKING)
    pets = p.get("pet_policy") or rng.choice(V.PET_POLICIES)
    city = p.get("city") or rng.choice(list(V.CITIES))
    lot = 0 if home_type in ("Condo", "Apartment") else rng.randint(12, 110) * 100
    out: Entity = {
        "role": p.get("role", ""),
        "address": p.get("address") or address(rng, home_type),
        "city": city,
        "price": p.get("price") or _price(rng, listing, sqft),
        "beds": beds,
        "baths": p.get("baths") or min(beds, rng.choice((1, 1.5, 2, 2, 2.5, 3, 3.5))) or 1,
        "sqft": sqft,
        "home_type": home_type,
        "listing_type": listing,
        "hoa_fee": p.get("hoa_fee", int(round(rng.randint(lo, hi), -1))),
        "school_rating": p.get("school_rating") or rng.randint(2, 10),
        "year_built": p.get("year_built") or rng.randint(1952, 2023),
        "lot_size": p.get("lot_size", lot),
        "parking": parking,
        "heating": rng.choice(V.HEATING),
        "days_on_market": p.get("days_on_market") or rng.randint(1, 120),
        "pet_policy": pets,
        "agent_name": f"{rng.choice(V.AGENT_FIRST)} {rng.choice(V.AGENT_LAST)}",
        "brokerage": p.get("brokerage") or rng.choice(V.BROKERAGES),
        "has_garage": "garage" in parking,
        "pets_ok": pets != "No pets",
        "popularity": p.get("popularity") or rng.randint(10, 990),
        "presaved": bool(p.get("presaved")),
        **carried(p, PIXEL_FIELDS),
    }
    return out


def generate_world(spec: WorldSpec, rng: random.Random) -> World:
    """Assemble the listings; homes pinned as ``presaved`` (and two fillers) start saved."""
    world = assemble("housing", spec, rng, prefix="HOM", complete=complete_property)
    fillers = [i for i, e in world.entities.items() if e["role"] == "filler"]
    extra = set(rng.sample(fillers, min(_PRESAVED_FILLERS, len(fillers))))
    saved = [i for i, e in world.entities.items() if e["presaved"] or i in extra]
    ents = {i: {k: v for k, v in e.items() if k != "presaved"}
            for i, e in world.entities.items()}
    return World(site="housing", entities=ents, meta={"saved": saved})
