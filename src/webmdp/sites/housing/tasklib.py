"""Building blocks of the Housing templates: listing groups, their wording, oracle prefixes,
the commits and their verifiers."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import entities_where
from webmdp.sites.housing import vocab as V
from webmdp.tasks.model import Condition
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions, membership

GROUP_FIELDS = ("city", "home_type", "beds", "listing_type")
"""The card fields every instruction names: "3-bed townhouse for sale in Austin"."""
OPEN = Action("OpenProperty")
AREA_CODES = ("512", "303", "503", "919", "615", "602", "206", "704")
_RENT_MESSAGES = ("Are utilities included in the rent?", "When is the earliest move-in date?",
                  "Is parking included in the rent?", "Is the lease 12 months?")
_SALE_MESSAGES = ("Is the price negotiable?", "Can I see the HOA documents?",
                  "Has the roof been replaced recently?", "Are there any pending offers?")


def pick_group(rng: random.Random, types: tuple[str, ...] = V.HOME_TYPES,
               listing: str = "") -> Entity:
    """City, home type, bedrooms and listing type shared by a target and its hard negatives."""
    home_type = rng.choice(types)
    if not listing:
        listing = "for_rent" if home_type == "Apartment" else rng.choice(V.LISTING_TYPES)
    beds = rng.randint(1, 3) if home_type in ("Condo", "Apartment") else rng.randint(2, 4)
    return {"city": rng.choice(list(V.CITIES)), "home_type": home_type, "beds": beds,
            "listing_type": listing}


def describe(group: Entity, *, plural: bool = False) -> str:
    """ "3-bed townhouse for sale in Austin" (or "3-bed townhouses ...")."""
    kind = group["home_type"].lower() + ("s" if plural else "")
    status = V.LISTING_LABELS[group["listing_type"]].lower()
    return f"{group['beds']}-bed {kind} {status} in {group['city']}"


def in_group(world: World, d: Draft, *, saved_only: bool = False) -> list[Entity]:
    out = entities_where(world, **{k: d.params[k] for k in GROUP_FIELDS})
    if saved_only:
        saved = set(world.meta.get("saved", ()))
        out = [e for e in out if e["id"] in saved]
    return out


def group_params(group: Entity, **extra: Any) -> dict[str, Any]:
    return {**{k: group[k] for k in GROUP_FIELDS}, **extra}


def spec(pinned: tuple[Entity, ...], group: Entity) -> WorldSpec:
    """The world: the pinned listings plus fillers that never fall into the group."""
    return WorldSpec(pinned, V.N_PROPERTIES - len(pinned),
                     avoid=({k: group[k] for k in GROUP_FIELDS},))


def companions(rng: random.Random, group: Entity, n: int = 2) -> tuple[Entity, ...]:
    """Other saved homes, in other cities, so the saved list is never just the group."""
    cities = [c for c in V.CITIES if c != group["city"]]
    return tuple({"role": "companion", "presaved": True, "city": c}
                 for c in rng.sample(cities, n))


def results_prefix(p: dict[str, Any], sort: str = "") -> list[Action]:
    """E.3 stage 1 on the results: search the city, then listing type, home type, bedrooms."""
    out = [Action("Search", {"query": p["city"]}),
           Action("SetListingType", {"listing_type": p["listing_type"]}),
           Action("ToggleHomeType", {"home_type": p["home_type"]}),
           Action("SetMinBeds", {"beds": str(p["beds"])})]
    if sort:
        out.append(Action("SortBy", {"order": sort}))
    return out


def explore(d: Draft, world: World, site: Site, prefix: list[Action], *, saved: bool = False,
            **kw: Any) -> list[Action]:
    back = Action("OpenSavedHomes") if saved else Action("BackToResults")
    return reach_and_explore(site, world, d, prefix, open_action=OPEN, back=back,
                             entity_param="property_id", **kw)


def save(d: Draft) -> Action:
    return Action("SaveHome", {"property_id": d.target})


def saved_verifier(d: Draft) -> list[Condition]:
    return membership(d, "saved", "saved")


def unsaved_verifier(d: Draft) -> list[Condition]:
    return [Condition(fact="saved", op="not_contains", value=d.target,
                      description=f"{d.target} was removed from saved homes")] + [
        Condition(fact="saved", op="contains", value=i, description=f"{i} is still saved")
        for i in (*d.hard_negatives, *d.companions)]


def contact_details(rng: random.Random, listing: str) -> dict[str, str]:
    pool = _RENT_MESSAGES if listing == "for_rent" else _SALE_MESSAGES
    return {"name": rng.choice(V.BUYER_NAMES), "phone": phone(rng), "message": rng.choice(pool)}


def tour_details(rng: random.Random) -> dict[str, str]:
    return {"date": rng.choice(V.TOUR_DAYS), "time": rng.choice(V.TOUR_TIMES),
            "name": rng.choice(V.BUYER_NAMES), "phone": phone(rng)}


def phone(rng: random.Random) -> str:
    return f"{rng.choice(AREA_CODES)}-555-{rng.randint(100, 199):04d}"


TOUR_KEYS = ("date", "time", "name", "phone")
CONTACT_KEYS = ("name", "phone", "message")


def tour_wording(p: dict[str, Any]) -> str:
    return f"for {p['date']} at {p['time']}, as {p['name']} (phone {p['phone']})"


def contact_wording(p: dict[str, Any]) -> str:
    return f"as {p['name']} (phone {p['phone']}) with the message '{p['message']}'"


def tour_commit(d: Draft) -> list[Action]:
    return [Action("RequestTour"),
            Action("SubmitTourRequest", {k: d.params[k] for k in TOUR_KEYS})]


def contact_commit(d: Draft) -> Action:
    return Action("ContactAgent", {k: d.params[k] for k in CONTACT_KEYS})


def tour_verifier(d: Draft) -> list[Condition]:
    want = {"property": d.target, **{k: d.params[k] for k in TOUR_KEYS}}
    return commit_conditions("tour", want, "tour")


def contact_verifier(d: Draft) -> list[Condition]:
    want = {"property": d.target, **{k: d.params[k] for k in CONTACT_KEYS}}
    return commit_conditions("contact", want, "message")


def distinct(rng: random.Random, pool: range, k: int, *, highest: bool) -> list[int]:
    """``k`` distinct values, the extreme one first (the target's)."""
    return sorted(rng.sample(pool, k), reverse=highest)
