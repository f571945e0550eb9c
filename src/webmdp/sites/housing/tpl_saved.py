"""Housing templates on the saved-homes list (WebSTEP H.1, saved-list management): homes saved
before the episode are reviewed, compared, unsaved or toured."""

from __future__ import annotations

import random

from webmdp.core.model import World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.housing import tasklib as L
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate

SAVED = Action("OpenSavedHomes")


def _saved_draft(rng: random.Random, group: dict, target: dict, negs: list[dict],
                 instruction: str, params: dict, field: str) -> Draft:
    group = {**group, "presaved": True}
    pinned = (*pin_group(rng, group, target, negs), *L.companions(rng, group))
    return Draft(instruction=instruction, params=L.group_params(group, **params),
                 spec=L.spec(pinned, group), card_fields=L.GROUP_FIELDS,
                 detail_fields=(field,))


class UnsaveByHoa(TaskTemplate):
    """Review saved homes, open them, unsave the one with a given HOA fee from its page."""

    name = "unsave_by_hoa"
    description = "Open saved homes and unsave the one with a given HOA fee"
    commit_action = "UnsaveHome"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        group = L.pick_group(rng, ("Townhouse", "Condo"), "for_sale")
        fees = [v * 10 for v in rng.sample(range(8, 70), hard_negatives + 1)]
        return _saved_draft(
            rng, group, {"hoa_fee": fees[0]}, [{"hoa_fee": f} for f in fees[1:]],
            f"One of your saved homes, a {L.describe(group)}, has an HOA fee of "
            f"${fees[0]}/month. Remove that home from your saved homes.",
            {"hoa_fee": fees[0]}, "hoa_fee")

    def matches(self, d: Draft, world: World) -> list[str]:
        return [e["id"] for e in L.in_group(world, d, saved_only=True)
                if e["hoa_fee"] == d.params["hoa_fee"]]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*L.explore(d, world, site, [SAVED], saved=True),
                Action("UnsaveHome", {"property_id": d.target})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return L.unsaved_verifier(d)


class UnsaveOldest(TaskTemplate):
    """Saved-homes review with a detail-only threshold; unsave from the saved list itself."""

    name = "unsave_older_home"
    description = "Review saved homes and unsave the one built before a year"
    commit_action = "UnsaveHome"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        group = L.pick_group(rng, ("House", "Townhouse"))
        cutoff = rng.choice((1970, 1980, 1990))
        old = rng.randint(1940, cutoff - 1)
        negs = [{"year_built": rng.randint(cutoff, 2023)} for _ in range(hard_negatives)]
        return _saved_draft(
            rng, group, {"year_built": old}, negs,
            f"Review your saved homes and unsave the {L.describe(group)} that was built "
            f"before {cutoff}.", {"cutoff": cutoff}, "year_built")

    def matches(self, d: Draft, world: World) -> list[str]:
        return [e["id"] for e in L.in_group(world, d, saved_only=True)
                if e["year_built"] < d.params["cutoff"]]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*L.explore(d, world, site, [SAVED], saved=True), SAVED,
                Action("UnsaveHome", {"property_id": d.target})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return L.unsaved_verifier(d)


class SavedLowestHoaTour(TaskTemplate):
    """Compare saved homes' HOA fees (detail pages), tour the cheapest to own."""

    name = "saved_lowest_hoa_tour"
    description = "Compare HOA fees of saved homes and request a tour of the lowest"
    commit_action = "SubmitTourRequest"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        group = L.pick_group(rng, ("Townhouse", "Condo"), "for_sale")
        fees = [v * 10 for v in L.distinct(rng, range(8, 70), hard_negatives + 1,
                                           highest=False)]
        details = L.tour_details(rng)
        return _saved_draft(
            rng, group, {"hoa_fee": fees[0]}, [{"hoa_fee": f} for f in fees[1:]],
            f"Compare the HOA fees of the {L.describe(group, plural=True)} in your saved "
            f"homes and request a tour of the one with the lowest fee "
            f"{L.tour_wording(details)}.", details, "hoa_fee")

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(L.in_group(world, d, saved_only=True), "hoa_fee", highest=False)

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = [SAVED, Action("CompareHomes")]
        found = L.explore(d, world, site, prefix, saved=True, all_negatives=True)
        return [*found, *L.tour_commit(d)]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return L.tour_verifier(d)
