"""Housing templates that end in a multi-field request to the listing agent (WebSTEP H.1):
tour requests (date, time, name, phone) and agent messages (name, phone, message), each
parameter checked by its own verifier condition."""

from __future__ import annotations

import random

from webmdp.core.model import World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.housing import tasklib as L
from webmdp.sites.housing import vocab as V
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate


class _TourTemplate(TaskTemplate):
    commit_action = "SubmitTourRequest"
    field = ""

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        group = L.pick_group(rng)
        value, negs, phrase = self.values(rng, hard_negatives)
        pinned = pin_group(rng, group, {self.field: value}, [{self.field: v} for v in negs])
        details = L.tour_details(rng)
        return Draft(
            instruction=f"Request a tour of the {L.describe(group)} {phrase} "
                        f"{L.tour_wording(details)}.",
            params=L.group_params(group, value=value, **details), spec=L.spec(pinned, group),
            card_fields=L.GROUP_FIELDS, detail_fields=(self.field,))

    def values(self, rng: random.Random, k: int) -> tuple[object, list[object], str]:
        raise NotImplementedError

    def matches(self, d: Draft, world: World) -> list[str]:
        return [e["id"] for e in L.in_group(world, d) if e[self.field] == d.params["value"]]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*L.explore(d, world, site, L.results_prefix(d.params)), *L.tour_commit(d)]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return L.tour_verifier(d)


class TourByYearBuilt(_TourTemplate):
    """Detail-only identification (year built), then a tour request."""

    name = "tour_by_year_built"
    description = "Identify a home by the year it was built and request a tour"
    field = "year_built"

    def values(self, rng: random.Random, k: int) -> tuple[object, list[object], str]:
        years = rng.sample(range(1955, 2024), k + 1)
        return years[0], list(years[1:]), f"built in {years[0]}"


class TourWithGarage(_TourTemplate):
    """Detail-only parking description (the garage filter alone does not decide it)."""

    name = "tour_with_garage"
    description = "Find the home with a 2-car garage and request a tour"
    field = "parking"

    def values(self, rng: random.Random, k: int) -> tuple[object, list[object], str]:
        want = "2-car garage"
        return want, list(others(rng, V.PARKING, want, k)), f"that comes with a {want}"


class _ContactTemplate(TaskTemplate):
    commit_action = "ContactAgent"

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return L.contact_verifier(d)


class ContactNewestListing(_ContactTemplate):
    """Comparison of days on market across detail pages, then a message to the agent."""

    name = "contact_newest_listing"
    description = "Compare days on market, message the agent of the newest listing"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        group = L.pick_group(rng)
        days = L.distinct(rng, range(1, 95), hard_negatives + 1, highest=False)
        pinned = pin_group(rng, group, {"days_on_market": days[0]},
                           [{"days_on_market": v} for v in days[1:]])
        details = L.contact_details(rng, group["listing_type"])
        return Draft(
            instruction=f"Among the {L.describe(group, plural=True)}, contact the agent of "
                        f"the one that has been on the market for the fewest days, "
                        f"{L.contact_wording(details)}.",
            params=L.group_params(group, **details), spec=L.spec(pinned, group),
            card_fields=L.GROUP_FIELDS, detail_fields=("days_on_market",))

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(L.in_group(world, d), "days_on_market", highest=False)

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        found = L.explore(d, world, site, L.results_prefix(d.params), all_negatives=True)
        return [*found, L.contact_commit(d)]


class ContactByBrokerage(_ContactTemplate):
    """Agent inspection: the brokerage shows only in the expanded 'Listed by' section."""

    name = "contact_by_brokerage"
    description = "Find the listing of a brokerage (agent inspection), message its agent"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        group = L.pick_group(rng)
        firm = rng.choice(V.BROKERAGES)
        negs = [{"brokerage": b} for b in others(rng, V.BROKERAGES, firm, hard_negatives)]
        pinned = pin_group(rng, group, {"brokerage": firm}, negs)
        details = L.contact_details(rng, group["listing_type"])
        return Draft(
            instruction=f"Contact the agent of the {L.describe(group)} listed by {firm} "
                        f"{L.contact_wording(details)}.",
            params=L.group_params(group, brokerage=firm, **details),
            spec=L.spec(pinned, group), card_fields=L.GROUP_FIELDS,
            detail_fields=("brokerage",))

    def matches(self, d: Draft, world: World) -> list[str]:
        return [e["id"] for e in L.in_group(world, d)
                if e["brokerage"] == d.params["brokerage"]]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        found = L.explore(d, world, site, L.results_prefix(d.params),
                          inspect=[Action("ShowListingAgent")])
        return [*found, L.contact_commit(d)]
