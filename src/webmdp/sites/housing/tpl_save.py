"""Housing templates that end in saving a home found on the search results (WebSTEP H.1):
superlatives with a detail-only condition, best-of comparisons and an attribute filter."""

from __future__ import annotations

import random

from webmdp.core.model import World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.housing import tasklib as L
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate


class _SaveTemplate(TaskTemplate):
    commit_action = "SaveHome"
    sort = ""
    compare_all = False
    inspect: tuple[Action, ...] = ()

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = L.results_prefix(d.params, self.sort)
        return [*L.explore(d, world, site, prefix, all_negatives=self.compare_all,
                           inspect=self.inspect), L.save(d)]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return L.saved_verifier(d)


class CheapestUnderHoa(_SaveTemplate):
    """Superlative on a card field under a detail-only cap: the cheapest with HOA under $X."""

    name = "cheapest_under_hoa"
    description = "Save the cheapest home of a kind whose HOA fee is under a cap"
    sort = "price_asc"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        group = L.pick_group(rng, ("Townhouse", "Condo"), "for_sale")
        cap = rng.choice((200, 250, 300, 350))
        group["price"] = rng.randint(180, 520) * 1000
        negs = [{"hoa_fee": rng.randint(cap // 10, cap // 10 + 25) * 10}
                for _ in range(hard_negatives)]
        pinned = pin_group(rng, group, {"hoa_fee": rng.randint(4, cap // 10 - 1) * 10}, negs)
        pricier = tuple({**group, "role": "filler", "price": group["price"] + rng.randint(5, 90)
                         * 1000} for _ in range(2))
        return Draft(
            instruction=f"Find the cheapest {L.describe(group)} with an HOA fee under "
                        f"${cap}/month and save it.",
            params=L.group_params(group, cap=cap), spec=L.spec((*pinned, *pricier), group),
            card_fields=(*L.GROUP_FIELDS, "price"), detail_fields=("hoa_fee",))

    def matches(self, d: Draft, world: World) -> list[str]:
        ok = [e for e in L.in_group(world, d) if e["hoa_fee"] < d.params["cap"]]
        return best(ok, "price", highest=False)


class LargestWithGoodSchools(_SaveTemplate):
    """Superlative on square feet with a detail-only school rating threshold."""

    name = "largest_with_good_schools"
    description = "Save the largest home of a kind whose schools are rated at least N/10"
    sort = "sqft"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        group = L.pick_group(rng, ("House", "Townhouse"))
        floor = rng.choice((7, 8, 9))
        group["sqft"] = rng.randint(180, 360) * 10
        negs = [{"school_rating": rng.randint(2, floor - 1)} for _ in range(hard_negatives)]
        pinned = pin_group(rng, group, {"school_rating": rng.randint(floor, 10)}, negs)
        smaller = tuple({**group, "role": "filler", "sqft": group["sqft"] - rng.randint(5, 60)
                         * 10} for _ in range(2))
        return Draft(
            instruction=f"Save the largest {L.describe(group)} whose assigned schools are "
                        f"rated {floor}/10 or higher.",
            params=L.group_params(group, floor=floor), spec=L.spec((*pinned, *smaller), group),
            card_fields=(*L.GROUP_FIELDS, "sqft"), detail_fields=("school_rating",))

    def matches(self, d: Draft, world: World) -> list[str]:
        ok = [e for e in L.in_group(world, d) if e["school_rating"] >= d.params["floor"]]
        return best(ok, "sqft", highest=True)


class _BestOf(_SaveTemplate):
    """Comparison across detail pages: the extreme of a detail-only field within a group."""

    compare_all = True
    field = ""
    pool = range(0)
    highest = True
    types: tuple[str, ...] = ()
    listing = ""
    phrase = ""

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        group = L.pick_group(rng, self.types, self.listing)
        values = L.distinct(rng, self.pool, hard_negatives + 1, highest=self.highest)
        pinned = pin_group(rng, group, {self.field: values[0]},
                           [{self.field: v} for v in values[1:]])
        return Draft(
            instruction=f"Among the {L.describe(group, plural=True)}, save the one "
                        f"{self.phrase}.",
            params=L.group_params(group), spec=L.spec(pinned, group),
            card_fields=L.GROUP_FIELDS, detail_fields=(self.field,))

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(L.in_group(world, d), self.field, highest=self.highest)


class BestRatedSchools(_BestOf):
    name = "best_rated_schools"
    description = "Compare school ratings across a group and save the best-rated"
    field, pool, phrase = "school_rating", range(3, 11), "with the best-rated assigned schools"
    types = ("House", "Townhouse", "Condo")


class LargestLot(_BestOf):
    name = "largest_lot"
    description = "Compare lot sizes across a group of houses and save the largest"
    field, pool, phrase = "lot_size", range(1500, 20000, 100), "with the largest lot"
    types, listing = ("House",), "for_sale"


class PetFriendlyRental(_SaveTemplate):
    """Attribute filter (pets allowed) narrows the list; the exact policy is detail-only."""

    name = "pet_friendly_rental"
    description = "Filter rentals that allow pets, save the one allowing cats and dogs"
    policy = "Cats and dogs"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        group = L.pick_group(rng, ("Apartment", "Townhouse", "Condo"), "for_rent")
        pool = ("Cats only", "Dogs only", "Small pets only")
        negs = [{"pet_policy": v} for v in others(rng, pool, self.policy, hard_negatives)]
        pinned = pin_group(rng, group, {"pet_policy": self.policy}, negs)
        return Draft(
            instruction=f"Save the {L.describe(group)} whose pet policy allows both cats "
                        "and dogs.",
            params=L.group_params(group), spec=L.spec(pinned, group),
            card_fields=L.GROUP_FIELDS, detail_fields=("pet_policy",))

    def matches(self, d: Draft, world: World) -> list[str]:
        return [e["id"] for e in L.in_group(world, d) if e["pet_policy"] == self.policy]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = [*L.results_prefix(d.params), Action("TogglePetsAllowed")]
        return [*L.explore(d, world, site, prefix), L.save(d)]
