"""Accommodation's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on accommodation tasks."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from webmdp.core.model import State, World
from webmdp.sites._common.catalog import offscreen as catalog_offscreen
from webmdp.sites.accommodation.catalog import CATALOG, PREVIEW
from webmdp.sites.accommodation.mdp import CHECKOUT_FIELDS, STAY_FIELDS
from webmdp.sites.accommodation.state import AccommodationState
from webmdp.sites.accommodation.world import CARD_FIELDS
from webmdp.tasks.distance import Bound, Facts, InformedBound, Problem, Unseen, unmet
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
    world = p.world
    g = _Goals(p.task.verifier)
    stays, final, cancel, rest = g.stays, g.final, g.cancel, g.rest
    reach = _reach(world)

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
        for _, group, want in stays:
            if unmet(group, facts):
                h = max(h, stay_cost(s, want, look))
        h += g.to_unbook(s)  # one CancelReservation each
        for c in cancel:
            if unmet([c], facts):
                h = max(h, 1 if s.surface == "Reservations" else 2)
        return float(max(h, unmet(rest, facts)))

    return bound


class _Goals:
    """A task's verifier, sorted by the actions each kind of condition needs."""

    def __init__(self, conds: Sequence[Condition]) -> None:
        self.stays: list[tuple[str, list[Condition], dict[str, Any]]] = []
        used: list[Condition] = []
        for prefix in _PREFIXES:
            group = [c for c in conds if c.fact.startswith(prefix + ".")]
            want = _stay_goal(prefix, group)
            if want is not None:
                self.stays.append((prefix, group, want))
                used += group
        self.final = [c for c in conds if c.op == "not_contains"
                      and c.fact in ("checkout.abandoned", "cancelled.listings")]
        unbook = [c for c in conds if c.op == "not_contains" and c.fact == "booked.listings"]
        self.cancel = [c for c in conds if c.op == "contains" and c.fact == "cancelled.listings"]
        self.rest = [c for c in conds if c not in used and c not in self.final
                     and c not in unbook and c not in self.cancel]
        self.unbook_ids = {str(c.value) for c in unbook}

    def to_unbook(self, s: AccommodationState) -> int:
        """Confirmed bookings of listings that must not stay booked: a CancelReservation each."""
        by_id = {r[0]: r for r in s.reservations}
        return sum(by_id[i][1] in self.unbook_ids and by_id[i][5] == "confirmed" for i in s.made)


def _reach(world: World) -> Callable[[AccommodationState, str, bool], int]:
    offscreen = catalog_offscreen(CATALOG, world)

    def reach(s: AccommodationState, lid: str, look: bool) -> int:
        """Actions before ViewListing can open ``lid``: 0 where it is listed, else to Trips
        if it has a reservation (1), else to a results page showing it (see
        :func:`webmdp.sites._common.catalog.offscreen`). Not from Checkout, where
        ConfirmBooking makes the draft's listing a trip."""
        trip = any(r[1] == lid for r in s.reservations)
        if s.surface == "Reservations" and trip:
            return 0
        if s.surface == "SearchResults":
            off = offscreen(s, lid, look)
            return min(off, 1) if trip else off
        return 1 if trip else 1 + offscreen(s, lid, look, query=False)

    return reach


def accommodation_informed(p: Problem) -> InformedBound:
    """Accommodation's bound on the informed distance (:mod:`webmdp.tasks.informed`): a sum
    over kinds of action, each kind counted at least as often as the path needs it, so the
    counts add up (:func:`accommodation_bound` says what each action does).

    * ViewListing: once per listing with detail evidence unseen (its page is the only screen
      with all its detail fields; Checkout shows only the cancellation policy, of the draft's
      listing, whose page BookListing left) and per stay still to make whose listing is not
      open, except the open listing and, on Checkout, the draft's (CancelCheckout returns to
      its page).
    * ShowAllAmenities: once per listing whose amenities are unseen and longer than the
      preview (they show nowhere else, and only expanded).
    * BookListing: once per stay still to make, less one where the open draft is right;
      ConfirmBooking once for a booking, CancelCheckout once for an abandoned checkout.
    * CancelReservation: as many as confirmed bookings that must go, at least one when a
      trip must be cancelled.
    * The rest (the way there: CloseListing, Search, OpenTrips, BackToSearch, the filters and
      pages) together with ConfirmBooking: ViewListing lands on a listing's page, which offers
      none, so each later ViewListing needs one of them first (ConfirmBooking lands on Trips),
      the first one the way to a screen listing one of them (:func:`accommodation_bound`'s
      reach; one action from Checkout); and at least the ConfirmBooking counted above.

    The bound is the larger of that sum and a count in order: the actions before the first
    listing to open (at least the reach), then the ones that can only follow it."""
    world = p.world
    g = _Goals(p.task.verifier)
    reach = _reach(world)
    hidden = frozenset(lid for lid, e in world.entities.items()
                       if lid.startswith("LST-") and len(e.get("amenities", ())) > PREVIEW)
    elsewhere = "amenities" in (*CARD_FIELDS, *CHECKOUT_FIELDS, *STAY_FIELDS)

    def bound(state: State, facts: Facts, unseen: Unseen, look: bool) -> float:
        assert isinstance(state, AccommodationState)
        s = state
        open_ = s.focus if s.surface == "ListingDetail" else None
        on_draft = s.surface == "Checkout" and s.draft is not None
        draft = dict(zip(_STAY, s.draft or (), strict=True)) if on_draft else None
        back = draft["listing"] if draft is not None else None
        views: set[str] = set()
        shows = later_shows = 0
        for _, ids, fields in unseen:
            for lid, names in zip(ids, fields, strict=True):
                show = "amenities" in names and lid in hidden and not elsewhere
                shows += show
                if lid not in (open_, back):
                    views.add(lid)
                    later_shows += show
        stays = [(prefix, want) for prefix, group, want in g.stays if unmet(group, facts)]
        ready = draft is not None and any(all(draft[k] == v for k, v in want.items())
                                          for _, want in stays)
        books = max(0, len(stays) - ready)
        later = []  # stays on a listing to be opened: booked and ended after it is
        for prefix, want in stays:
            target = want.get("listing")
            if target is not None and target not in (open_, back):
                views.add(str(target))
                later.append(prefix)
        confirm = int(any(prefix == "booking" for prefix, _ in stays))
        abandon = int(any(prefix == "abandoned" for prefix, _ in stays))
        cancels = g.to_unbook(s)
        if any(unmet([c], facts) for c in g.cancel):
            cancels = max(cancels, 1)
        if not views:
            return float(shows + books + abandon + cancels + confirm)
        v = len(views)
        first = 1 if s.surface == "Checkout" else min(reach(s, lid, look) for lid in views)
        by_kind = v + shows + books + abandon + cancels + max(confirm, first + v - 1)
        # in order: the way to the first listing to open, then what only its or a later
        # listing's page allows (each one's ViewListing and ShowAllAmenities, the stays on
        # them, booked and ended, and a way off each page but the last: ConfirmBooking is
        # one)
        confirms = later.count("booking")
        in_order = first + v + later_shows + 2 * len(later) + max(0, v - 1 - confirms)
        return float(max(by_kind, in_order))

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
