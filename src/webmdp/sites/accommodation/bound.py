"""Accommodation's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on accommodation tasks."""

from __future__ import annotations

import math
from typing import Any

from webmdp.core.model import State
from webmdp.sites._common.catalog import offscreen as catalog_offscreen
from webmdp.sites.accommodation.catalog import CATALOG
from webmdp.sites.accommodation.state import AccommodationState
from webmdp.tasks.distance import Bound, Facts, Problem, unmet
from webmdp.tasks.model import Condition

_STAY = ("listing", "check_in", "check_out", "guests")
_PREFIXES = ("booking", "abandoned")
"""Facts of the last confirmed booking (ConfirmBooking) and the last abandoned checkout
(CancelCheckout)."""


def accommodation_bound(p: Problem) -> Bound:
    """Accommodation. Facts used (``mdp.transition``):

    * ``made`` (so ``booking.*`` and ``booked.listings``) grows only by ConfirmBooking and
      ``abandoned`` (``abandoned.*``, ``checkout.abandoned``) only by CancelCheckout; both act
      on the Checkout draft, which only BookListing sets (all four fields at once, from
      ListingDetail, for the open listing); the only ways out of Checkout are those two.
    * ListingDetail of a listing is reached only by ViewListing, from SearchResults showing it
      or from Reservations listing it (every reservation's listing, cancelled ones too);
      CancelReservation changes neither list, and ListingDetail offers no CancelReservation.
    * A reservation's status turns cancelled only by CancelReservation (one reservation, on
      Reservations) and never back; ``abandoned`` never shrinks; so a hard negative in
      ``checkout.abandoned`` or ``cancelled.listings`` is final (no goal is reachable).
    * ConfirmBooking lands on Reservations.

    A stay goal (the last booking / abandoned checkout has these fields) costs its commit,
    after BookListing unless the open draft is right, after ViewListing unless the target is
    open, after one action bringing it on screen unless it is; from a wrong draft on Checkout
    the way out is CancelCheckout or ConfirmBooking (then at best ViewListing from trips).
    Each confirmed booking that must go needs its own CancelReservation, an action no stay
    chain counts: they add up."""
    world, conds = p.world, p.task.verifier
    stays: list[tuple[list[Condition], dict[str, Any]]] = []
    used: list[Condition] = []
    for prefix in _PREFIXES:
        group = [c for c in conds if c.fact.startswith(prefix + ".")]
        want = _stay_goal(prefix, group)
        if want is not None:
            stays.append((group, want))
            used += group
    final = [c for c in conds if c.op == "not_contains"
             and c.fact in ("checkout.abandoned", "cancelled.listings")]
    unbook = [c for c in conds if c.op == "not_contains" and c.fact == "booked.listings"]
    cancel = [c for c in conds if c.op == "contains" and c.fact == "cancelled.listings"]
    rest = [c for c in conds if c not in used and c not in final and c not in unbook
            and c not in cancel]
    unbook_ids = {str(c.value) for c in unbook}

    offscreen = catalog_offscreen(CATALOG, world)

    def reach(s: AccommodationState, lid: str, look: bool) -> int:
        """Actions before ViewListing can open ``lid``: 0 where it is listed, else to Trips
        if it has a reservation (1), else to a results page showing it (see
        :func:`webmdp.sites._common.catalog.offscreen`)."""
        trip = any(r[1] == lid for r in s.reservations)
        if s.surface == "Reservations" and trip:
            return 0
        if s.surface == "SearchResults":
            off = offscreen(s, lid, look)
            return min(off, 1) if trip else off
        return 1 if trip else 1 + offscreen(s, lid, look, query=False)

    def stay_cost(s: AccommodationState, want: dict[str, Any], look: bool) -> int:
        lid = want.get("listing")
        if s.surface == "Checkout":
            draft = dict(zip(_STAY, s.draft or ("", "", "", 0), strict=True))
            if all(draft[k] == v for k, v in want.items()):
                return 1
            return 3 if lid is None or draft["listing"] == lid else 4
        if s.surface == "ListingDetail" and (lid is None or s.focus == lid):
            return 2
        return 3 if lid is None else 3 + reach(s, lid, look)

    def bound(state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, AccommodationState)
        s = state
        for c in final:
            if c.value in (facts.get(c.fact) or ()):
                return math.inf
        h = 0
        for group, want in stays:
            if unmet(group, facts):
                h = max(h, stay_cost(s, want, look))
        # confirmed bookings of listings that must not stay booked: one CancelReservation each
        by_id = {r[0]: r for r in s.reservations}
        h += sum(by_id[i][1] in unbook_ids and by_id[i][5] == "confirmed" for i in s.made)
        for c in cancel:
            if unmet([c], facts):
                h = max(h, 1 if s.surface == "Reservations" else 2)
        return float(max(h, unmet(rest, facts)))

    return bound


def _stay_goal(prefix: str, group: list[Condition]) -> dict[str, Any] | None:
    """The draft fields of 'the last booking / abandoned checkout has these fields' (a
    booking also confirmed), or None when the conditions have another shape."""
    fields: dict[str, Any] = {}
    for c in group:
        key = c.fact.removeprefix(prefix + ".")
        if c.op != "eq":
            return None
        if key == "status" and prefix == "booking" and c.value == "confirmed":
            continue
        if key not in _STAY:
            return None
        fields[key] = c.value
    return fields if group else None
