"""Accommodation semantic state: listing position (BrowseState), the open listing, the checkout
draft and the guest's reservations."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.sites._common.catalog import BrowseState

Reservation = tuple[str, str, str, str, int, str]
"""(reservation id, listing id, check-in, check-out, guests, status: upcoming / confirmed /
cancelled)."""
Stay = tuple[str, str, str, int]
"""(listing id, check-in, check-out, guests): a checkout draft or an abandoned one."""


@dataclass(frozen=True)
class AccommodationState(BrowseState):
    origin: str = "SearchResults"
    """The surface ViewListing was taken from, where CloseListing returns."""
    amenities_open: bool = False
    draft: Stay | None = None
    reservations: tuple[Reservation, ...] = ()
    made: tuple[str, ...] = ()
    """Reservation ids created in this episode, in order."""
    abandoned: tuple[Stay, ...] = ()
    notice: str = ""
