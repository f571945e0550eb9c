"""The concrete actions an Accommodation surface offers; views bind exactly these."""

from __future__ import annotations

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.sites.accommodation import catalog as C
from webmdp.sites.accommodation.state import AccommodationState as S


def available_actions(s: S, world: World) -> tuple[Action, ...]:
    surf = s.surface
    if surf == "Checkout":
        return (Action("ConfirmBooking"), Action("CancelCheckout"))
    out: list[Action] = [Action("Search")]
    if surf != "Reservations":
        out.append(Action("OpenTrips"))
    if surf == "SearchResults":
        out += C.CATALOG.available(s, world)
        out += [Action("ViewListing", {"listing_id": i}) for i in C.CATALOG.visible(world, s)]
    elif surf == "ListingDetail" and s.focus:
        out.append(Action("CloseListing"))
        if not s.amenities_open and len(world.entities[s.focus]["amenities"]) > C.PREVIEW:
            out.append(Action("ShowAllAmenities"))
        out.append(Action("BookListing"))
    elif surf == "Reservations":
        out.append(Action("BackToSearch"))
        seen: list[str] = []
        for rid, lid, *_rest, status in s.reservations:
            if lid not in seen:
                seen.append(lid)
                out.append(Action("ViewListing", {"listing_id": lid}))
            if status in ("upcoming", "confirmed"):
                out.append(Action("CancelReservation", {"reservation_id": rid}))
    return tuple(out)
