"""Housing task templates (WebSTEP H.1 style; Table 4: 12 templates, 180 tasks).

Every template names a group of listings by the card fields of "3-bed townhouse for sale in
Austin" and ends in a commit on the one home its detail fields pick: saving it from the search
results, a multi-field request to its agent (a tour: date, time, name, phone; a message: name,
phone, message), or, for homes saved before the episode, unsaving or touring it."""

from __future__ import annotations

import sys
from random import Random
from typing import Any, ClassVar

from webmdp.core.model import Entity, World
from webmdp.core.spec import Action
from webmdp.sites._common.tasklib import FindTemplate, Pins, distinct, filler, pin_split
from webmdp.sites._common.templates import TARGET, Params, Step, collect
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.housing import vocab as V
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions

GROUP_FIELDS = ("city", "home_type", "beds", "listing_type")
"""The card fields every instruction names: "3-bed townhouse for sale in Austin"."""
SAVED = Action("OpenSavedHomes")
AREA_CODES = ("512", "303", "503", "919", "615", "602", "206", "704")
MESSAGES = {"for_rent": ("Are utilities included in the rent?",
                         "When is the earliest move-in date?", "Is parking included in the rent?",
                         "Is the lease 12 months?"),
            "for_sale": ("Is the price negotiable?", "Can I see the HOA documents?",
                         "Has the roof been replaced recently?", "Are there any pending offers?")}
TOUR_KEYS = ("date", "time", "name", "phone")
CONTACT_KEYS = ("name", "phone", "message")


def pick_group(rng: Random, types: tuple[str, ...] = V.HOME_TYPES, listing: str = "") -> Entity:
    """City, home type, bedrooms and listing type shared by a target and its hard negatives."""
    home_type = rng.choice(types)
    if not listing:
        listing = "for_rent" if home_type == "Apartment" else rng.choice(V.LISTING_TYPES)
    beds = rng.randint(1, 3) if home_type in ("Condo", "Apartment") else rng.randint(2, 4)
    return {"city": rng.choice(list(V.CITIES)), "home_type": home_type, "beds": beds,
            "listing_type": listing}


def params(group: Entity, **extra: Any) -> Params:
    return {**{k: group[k] for k in GROUP_FIELDS}, **extra}


def describe(p: Params, *, plural: bool = False) -> str:
    """ "3-bed townhouse for sale in Austin" (or "3-bed townhouses ...")."""
    kind = p["home_type"].lower() + ("s" if plural else "")
    return f"{p['beds']}-bed {kind} {V.LISTING_LABELS[p['listing_type']].lower()} in {p['city']}"


def phone(rng: Random) -> str:
    return f"{rng.choice(AREA_CODES)}-555-{rng.randint(100, 199):04d}"


def tour_details(rng: Random) -> dict[str, str]:
    return {"date": rng.choice(V.TOUR_DAYS), "time": rng.choice(V.TOUR_TIMES),
            "name": rng.choice(V.BUYER_NAMES), "phone": phone(rng)}


class HomeTemplate(FindTemplate):
    """A group of homes on the search results; fillers never fall into the group."""

    keys, total = GROUP_FIELDS, V.N_PROPERTIES
    opener = ("OpenProperty", "BackToResults", "property_id")
    narrow: ClassVar[tuple[str, ...]] = ("city", "listing_type", "home_type", "beds")
    by = {"city": lambda p: Action("Search", {"query": p["city"]}),
          "listing_type": lambda p: Action("SetListingType", {"listing_type": p["listing_type"]}),
          "home_type": lambda p: Action("ToggleHomeType", {"home_type": p["home_type"]}),
          "beds": lambda p: Action("SetMinBeds", {"beds": str(p["beds"])}),
          "pets": lambda p: Action("TogglePetsAllowed")}

    def words(self, p: Params) -> Params:
        return {**p, "group": describe(p), "groups": describe(p, plural=True)}



class SaveTemplate(HomeTemplate):
    commit_action, commit_with = "SaveHome", {"property_id": TARGET}
    marked = ("saved", "saved")


class TourTemplate(HomeTemplate):
    commit_action = "SubmitTourRequest"
    steps = (Action("RequestTour"), Step("SubmitTourRequest", *TOUR_KEYS))

    def words(self, p: Params) -> Params:
        return {**super().words(p), "tour": f"for {p['date']} at {p['time']}, as {p['name']} "
                                            f"(phone {p['phone']})"}

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        want = {"property": d.target, **{k: d.params[k] for k in TOUR_KEYS}}
        return commit_conditions("tour", want, "tour")


class ContactTemplate(HomeTemplate):
    commit_action = "ContactAgent"
    steps = (Step("ContactAgent", *CONTACT_KEYS),)

    def words(self, p: Params) -> Params:
        return {**super().words(p), "contact": f"as {p['name']} (phone {p['phone']}) with the "
                                               f"message '{p['message']}'"}

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng)
        pinned, extra = self.group_pins(rng, group, k)
        pool = MESSAGES[group["listing_type"]]
        details = {"name": rng.choice(V.BUYER_NAMES), "phone": phone(rng),
                   "message": rng.choice(pool)}
        return pinned, params(group, **extra, **details)

    def group_pins(self, rng: Random, group: Entity, k: int) -> Pins:
        raise NotImplementedError

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        want = {"property": d.target, **{k: d.params[k] for k in CONTACT_KEYS}}
        return commit_conditions("contact", want, "message")


class CheapestUnderHoa(SaveTemplate):
    """Superlative on a card field under a detail-only cap: the cheapest with HOA under $X."""

    name = "cheapest_under_hoa"
    description = "Save the cheapest home of a kind whose HOA fee is under a cap"
    card, detail, best_by, order = ("price",), ("hoa_fee",), "price", "price_asc"
    sentence = "Find the cheapest {group} with an HOA fee under ${cap}/month and save it."

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng, ("Townhouse", "Condo"), "for_sale")
        cap = rng.choice((200, 250, 300, 350))
        group["price"] = rng.randint(180, 520) * 1000
        negs = [{"hoa_fee": rng.randint(cap // 10, cap // 10 + 25) * 10} for _ in range(k)]
        pinned = pin_group(rng, group, {"hoa_fee": rng.randint(4, cap // 10 - 1) * 10}, negs)
        return (*pinned, *(filler(group, price=group["price"] + rng.randint(5, 90) * 1000)
                           for _ in range(2))), params(group, cap=cap)

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["hoa_fee"] < p["cap"])


class LargestWithGoodSchools(SaveTemplate):
    """Superlative on square feet with a detail-only school rating threshold."""

    name = "largest_with_good_schools"
    description = "Save the largest home of a kind whose schools are rated at least N/10"
    card, detail, best_by, highest, order = ("sqft",), ("school_rating",), "sqft", True, "sqft"
    sentence = "Save the largest {group} whose assigned schools are rated {floor}/10 or higher."

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng, ("House", "Townhouse"))
        floor = rng.choice((7, 8, 9))
        group["sqft"] = rng.randint(180, 360) * 10
        negs = [{"school_rating": rng.randint(2, floor - 1)} for _ in range(k)]
        pinned = pin_group(rng, group, {"school_rating": rng.randint(floor, 10)}, negs)
        return (*pinned, *(filler(group, sqft=group["sqft"] - rng.randint(5, 60) * 10)
                           for _ in range(2))), params(group, floor=floor)

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["school_rating"] >= p["floor"])


class BestOf(SaveTemplate):
    """Comparison across detail pages: the extreme of a detail-only field within a group."""

    compare, highest = True, True
    pool = range(0)
    types: tuple[str, ...] = ()
    listing = ""

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng, self.types, self.listing)
        values = distinct(rng, self.pool, k + 1, highest=self.highest)
        return pin_split(rng, group, self.best_by, values), params(group)

class BestRatedSchools(BestOf):
    name = "best_rated_schools"
    description = "Compare school ratings across a group and save the best-rated"
    best_by = "school_rating"
    detail, pool = (best_by,), range(3, 11)
    sentence = "Among the {groups}, save the one with the best-rated assigned schools."
    types = ("House", "Townhouse", "Condo")


class LargestLot(BestOf):
    name = "largest_lot"
    description = "Compare lot sizes across a group of houses and save the largest"
    best_by = "lot_size"
    detail, pool = (best_by,), range(1500, 20000, 100)
    sentence = "Among the {groups}, save the one with the largest lot."
    types, listing = ("House",), "for_sale"


class PetFriendlyRental(SaveTemplate):
    """Attribute filter (pets allowed) narrows the list; the exact policy is detail-only."""

    name = "pet_friendly_rental"
    description = "Filter rentals that allow pets, save the one allowing cats and dogs"
    detail, narrow = ("pet_policy",), (*HomeTemplate.narrow, "pets")
    policy = "Cats and dogs"
    fixed = {"pet_policy": policy}
    sentence = "Save the {group} whose pet policy allows both cats and dogs."

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng, ("Apartment", "Townhouse", "Condo"), "for_rent")
        pool = ("Cats only", "Dogs only", "Small pets only")
        negs = [{"pet_policy": v} for v in others(rng, pool, self.policy, k)]
        return pin_group(rng, group, {"pet_policy": self.policy}, negs), params(group)


class TourByDetail(TourTemplate):
    """A detail-only field identifies the home, then a tour request."""

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng)
        values = self.values(rng, k)
        pinned = pin_split(rng, group, self.detail[0], values)
        return pinned, params(group, value=values[0], **tour_details(rng))

    def values(self, rng: Random, k: int) -> list[object]:
        """The target's value of the detail field, then one per hard negative."""
        raise NotImplementedError

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e[self.detail[0]] == p["value"])


class TourByYearBuilt(TourByDetail):
    """Detail-only identification (year built), then a tour request."""

    name = "tour_by_year_built"
    description = "Identify a home by the year it was built and request a tour"
    detail = ("year_built",)
    sentence = "Request a tour of the {group} built in {value} {tour}."

    def values(self, rng: Random, k: int) -> list[object]:
        return list(rng.sample(range(1955, 2024), k + 1))


class TourWithGarage(TourByDetail):
    """Detail-only parking description (the garage filter alone does not decide it)."""

    name = "tour_with_garage"
    description = "Find the home with a 2-car garage and request a tour"
    detail = ("parking",)
    sentence = "Request a tour of the {group} that comes with a {value} {tour}."

    def values(self, rng: Random, k: int) -> list[object]:
        return ["2-car garage", *others(rng, V.PARKING, "2-car garage", k)]


class ContactNewestListing(ContactTemplate):
    """Comparison of days on market across detail pages, then a message to the agent."""

    name = "contact_newest_listing"
    description = "Compare days on market, message the agent of the newest listing"
    detail, best_by, compare = ("days_on_market",), "days_on_market", True
    sentence = ("Among the {groups}, contact the agent of the one that has been on the market for "
                "the fewest days, {contact}.")

    def group_pins(self, rng: Random, group: Entity, k: int) -> Pins:
        days = distinct(rng, range(1, 95), k + 1, highest=False)
        return pin_split(rng, group, "days_on_market", days), {}


class ContactByBrokerage(ContactTemplate):
    """Agent inspection: the brokerage shows only in the expanded 'Listed by' section."""

    name = "contact_by_brokerage"
    description = "Find the listing of a brokerage (agent inspection), message its agent"
    detail, inspect = ("brokerage",), (Action("ShowListingAgent"),)
    sentence = "Contact the agent of the {group} listed by {brokerage} {contact}."
    wants = {"brokerage": "brokerage"}

    def group_pins(self, rng: Random, group: Entity, k: int) -> Pins:
        firm = rng.choice(V.BROKERAGES)
        negs = [{"brokerage": b} for b in others(rng, V.BROKERAGES, firm, k)]
        return pin_group(rng, group, {"brokerage": firm}, negs), {"brokerage": firm}


def saved_pins(rng: Random, group: Entity, field: str, values: list[Any], **extra: Any) -> Pins:
    """The group saved before the episode (``values`` of ``field``, the target's first), with
    two saved homes in other cities, so the saved list is never just the group."""
    group = {**group, "presaved": True}
    cities = [c for c in V.CITIES if c != group["city"]]
    return (*pin_split(rng, group, field, values),
            *({"role": "companion", "presaved": True, "city": c}
              for c in rng.sample(cities, 2))), params(group, **extra)


class SavedTemplate(HomeTemplate):
    """Homes saved before the episode, reviewed from the saved-homes list."""

    opener = ("OpenProperty", "OpenSavedHomes", "property_id")

    def group(self, d: Draft, world: World) -> list[Entity]:
        saved = set(world.meta.get("saved", ()))
        return [e for e in super().group(d, world) if e["id"] in saved]

    def prefix(self, p: Params, world: World) -> list[Action]:
        return [SAVED]


class UnsaveByHoa(SavedTemplate):
    """Review saved homes, open them, unsave the one with a given HOA fee from its page."""

    name = "unsave_by_hoa"
    description = "Open saved homes and unsave the one with a given HOA fee"
    commit_action, commit_with = "UnsaveHome", {"property_id": TARGET}
    detail = ("hoa_fee",)
    sentence = ("One of your saved homes, a {group}, has an HOA fee of ${hoa_fee}/month. Remove "
                "that home from your saved homes.")
    wants = {"hoa_fee": "hoa_fee"}

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng, ("Townhouse", "Condo"), "for_sale")
        fees = [v * 10 for v in rng.sample(range(8, 70), k + 1)]
        return saved_pins(rng, group, "hoa_fee", fees, hoa_fee=fees[0])

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [Condition(fact="saved", op="not_contains", value=d.target,
                          description=f"{d.target} was removed from saved homes")] + [
            Condition(fact="saved", op="contains", value=i, description=f"{i} is still saved")
            for i in (*d.hard_negatives, *d.companions)]


class UnsaveOldest(UnsaveByHoa):
    """Saved-homes review with a detail-only threshold; unsave from the saved list itself."""

    name = "unsave_older_home"
    description = "Review saved homes and unsave the one built before a year"
    detail, commit_after = ("year_built",), ("OpenSavedHomes",)
    sentence = "Review your saved homes and unsave the {group} that was built before {cutoff}."

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng, ("House", "Townhouse"))
        cutoff = rng.choice((1970, 1980, 1990))
        years = [rng.randint(1940, cutoff - 1), *(rng.randint(cutoff, 2023) for _ in range(k))]
        return saved_pins(rng, group, "year_built", years, cutoff=cutoff)

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["year_built"] < p["cutoff"])


class SavedLowestHoaTour(SavedTemplate, TourTemplate):
    """Compare saved homes' HOA fees (detail pages), tour the cheapest to own."""

    name = "saved_lowest_hoa_tour"
    description = "Compare HOA fees of saved homes and request a tour of the lowest"
    detail, best_by, compare = ("hoa_fee",), "hoa_fee", True
    sentence = ("Compare the HOA fees of the {groups} in your saved homes and request a tour of "
                "the one with the lowest fee {tour}.")

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng, ("Townhouse", "Condo"), "for_sale")
        fees = [v * 10 for v in distinct(rng, range(8, 70), k + 1, highest=False)]
        return saved_pins(rng, group, "hoa_fee", fees, **tour_details(rng))

    def prefix(self, p: Params, world: World) -> list[Action]:
        return [SAVED, Action("CompareHomes")]


TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
