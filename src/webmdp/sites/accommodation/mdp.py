"""Accommodation transition and observation functions (pure), and the price breakdown of a
stay ("Confirm and pay"): nights x nightly price, cleaning and service fees. Dates are fixed ISO
strings; nothing reads a clock."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from webmdp.core.model import Entity, EntityView, Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.errors import InvalidAction, require
from webmdp.sites._common import handlers as H
from webmdp.sites.accommodation import catalog as C
from webmdp.sites.accommodation.state import AccommodationState as S
from webmdp.sites.accommodation.state import Reservation
from webmdp.sites.accommodation.world import CARD_FIELDS, DETAIL_FIELDS, PIXEL_FIELDS

SURFACES = H.surfaces(
    SearchResults=(SurfaceKind.CARD, "listing cards with filters"),
    ListingDetail=(SurfaceKind.DETAIL, "photos, host, amenities, booking card"),
    Checkout=(SurfaceKind.COMMIT, '"Confirm and pay" price breakdown'),
    Reservations=(SurfaceKind.COMMIT, "trips with cancellation"))
STAY_FIELDS = ("title", "city", "property_type", "price_per_night", "rating", "review_count",
               "photo")
CHECKOUT_FIELDS = (*STAY_FIELDS, "cancellation_policy")
_DETAIL_COLLAPSED = tuple(f for f in DETAIL_FIELDS if f != "amenities")
_ACTIVE = ("upcoming", "confirmed")


def initial_state(world: World) -> S:
    trips = tuple((r["id"], r["listing"], r["check_in"], r["check_out"], r["guests"],
                   r["status"]) for r in world.meta.get("reservations", ()))
    return S(surface="SearchResults", reservations=trips)


def transition(s: S, a: Action, world: World) -> S:
    name, p, surf = a.name, a.params, s.surface
    s = s.replace(notice="")
    if surf == "Checkout":
        require(name in ("ConfirmBooking", "CancelCheckout"),
                f"{name}: confirm and pay, or cancel the checkout first")
    listed = H.catalog_action(C.CATALOG, s, a, world, "search results", amenities_open=False)
    if listed is not None:
        return listed
    if name == "ViewListing":
        lid = p["listing_id"]
        require(lid in _listable(s, world), f"ViewListing: {lid} is not on this page")
        return s.replace(surface="ListingDetail", focus=lid, origin=surf, amenities_open=False)
    if name == "CloseListing":
        require(surf == "ListingDetail", "CloseListing: no listing is open")
        return s.replace(surface=s.origin, focus=None, amenities_open=False)
    if name == "ShowAllAmenities":
        require(surf == "ListingDetail" and not s.amenities_open, "ShowAllAmenities: not here")
        return s.replace(amenities_open=True)
    if name == "BookListing":
        require(surf == "ListingDetail" and s.focus is not None, "BookListing: no listing open")
        return s.replace(surface="Checkout", draft=_stay(world, s.focus or "", p))
    if name == "ConfirmBooking":
        require(surf == "Checkout" and s.draft is not None, "ConfirmBooking: no checkout")
        lid, cin, cout, guests = s.draft or ("", "", "", 0)
        rid = f"HM{len(s.made) + 1:02d}{lid[-3:]}{cin[5:7]}{cin[8:]}"
        res: Reservation = (rid, lid, cin, cout, guests, "confirmed")
        return s.replace(surface="Reservations", focus=None, draft=None, origin="Reservations",
                         reservations=(res, *s.reservations), made=(*s.made, rid),
                         notice="Your reservation is confirmed.")
    if name == "CancelCheckout":
        require(surf == "Checkout" and s.draft is not None, "CancelCheckout: no checkout")
        return s.replace(surface="ListingDetail", draft=None,
                         abandoned=(*s.abandoned, s.draft or ("", "", "", 0)))
    if name == "OpenTrips":
        return s.replace(surface="Reservations", focus=None, amenities_open=False)
    if name == "BackToSearch":
        require(surf == "Reservations", "BackToSearch: not on trips")
        return s.replace(surface="SearchResults", focus=None)
    if name == "CancelReservation":
        require(surf == "Reservations", "CancelReservation: not on trips")
        rid = p["reservation_id"]
        require(any(r[0] == rid and r[5] in _ACTIVE for r in s.reservations),
                f"CancelReservation: no active reservation {rid}")
        trips = tuple((*r[:5], "cancelled") if r[0] == rid else r for r in s.reservations)
        return s.replace(reservations=trips, notice="Your reservation was cancelled.")
    raise InvalidAction(f"unknown action {name!r}")


def _stay(world: World, lid: str, p: dict[str, Any]) -> tuple[str, str, str, int]:
    cin, cout, guests = str(p["check_in"]).strip(), str(p["check_out"]).strip(), int(p["guests"])
    listing = world.entities[lid]
    for end, day in (("check-in", cin), ("check-out", cout)):
        require(parse_day(day) is not None,
                f"BookListing: {end} {day!r} is not a {C.YEAR} date (YYYY-MM-DD)")
    n = nights(cin, cout)
    require(n >= 1, "BookListing: check-out must be after check-in")
    require(n >= listing["min_nights"],
            f"BookListing: this place has a {listing['min_nights']}-night minimum stay")
    require(1 <= guests <= listing["max_guests"],
            f"BookListing: this place hosts 1-{listing['max_guests']} guests")
    return (lid, cin, cout, guests)


def _listable(s: S, world: World) -> tuple[str, ...]:
    if s.surface == "SearchResults":
        return C.CATALOG.visible(world, s)
    if s.surface == "Reservations":
        return tuple(dict.fromkeys(r[1] for r in s.reservations))
    return ()


def observe(s: S, world: World) -> Observation:
    """Project the state onto what the page shows."""
    ctx: dict[str, Any] = {"query": s.query, "notice": s.notice,
                           "trips_count": sum(r[5] in _ACTIVE for r in s.reservations)}
    entities: tuple[EntityView, ...] = ()
    if s.surface == "SearchResults":
        entities = H.views(world, C.CATALOG.visible(world, s), CARD_FIELDS)
        ctx.update(C.CATALOG.context(s, world))
    elif s.surface == "ListingDetail" and s.focus:
        listing = world.entities[s.focus]
        fields = CARD_FIELDS + (DETAIL_FIELDS if s.amenities_open else _DETAIL_COLLAPSED)
        fields += tuple(f for f in PIXEL_FIELDS if f in listing)
        entities = (H.view(world, s.focus, fields),)
        ctx.update(amenities_open=s.amenities_open, amenity_count=len(listing["amenities"]),
                   amenity_preview=listing["amenities"][: C.PREVIEW], origin=s.origin,
                   policy_text=C.POLICY_TEXT[listing["cancellation_policy"]],
                   state_name=C.STATES[listing["city"]])
    elif s.surface == "Checkout" and s.draft:
        lid, cin, cout, guests = s.draft
        entities = (H.view(world, lid, CHECKOUT_FIELDS),)
        ctx.update(check_in=cin, check_out=cout, guests=guests, dates=short_range(cin, cout),
                   policy_text=C.POLICY_TEXT[world.entities[lid]["cancellation_policy"]],
                   **quote(world.entities[lid], cin, cout))
    elif s.surface == "Reservations":
        entities = H.views(world, _listable(s, world), STAY_FIELDS)
        ctx["trips"] = [_trip(r, world) for r in s.reservations]
    return H.observation(s, SURFACES, entities, available_actions(s, world), ctx)


def _trip(r: Reservation, world: World) -> dict[str, Any]:
    rid, lid, cin, cout, guests, status = r
    return {"id": rid, "listing": lid, "check_in": cin, "check_out": cout, "guests": guests,
            "status": status, "dates": short_range(cin, cout),
            "total": quote(world.entities[lid], cin, cout)["total"]}


def available_actions(s: S, world: World) -> tuple[Action, ...]:
    surf = s.surface
    if surf == "Checkout":
        return (Action("ConfirmBooking"), Action("CancelCheckout"))
    out: list[Action] = [Action("Search")]
    if surf != "Reservations":
        out.append(Action("OpenTrips"))
    if surf == "SearchResults":
        out += C.CATALOG.available(s, world)
        out += H.offer("ViewListing", "listing_id", C.CATALOG.visible(world, s))
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
            if status in _ACTIVE:
                out.append(Action("CancelReservation", {"reservation_id": rid}))
    return tuple(out)


def facts(s: S) -> dict[str, Any]:
    """Verifier facts: reservations made and cancelled in the episode, the last booking's
    fields, and abandoned checkouts."""
    by_id = {r[0]: r for r in s.reservations}
    made = [by_id[i] for i in s.made]
    out: dict[str, Any] = {
        "surface": s.surface,
        "booked.listings": [r[1] for r in made if r[5] == "confirmed"],
        "cancelled.reservations": [r[0] for r in s.reservations if r[5] == "cancelled"],
        "cancelled.listings": [r[1] for r in s.reservations if r[5] == "cancelled"],
        "checkout.abandoned": [a[0] for a in s.abandoned],
    }
    if made:
        out.update(H.record("booking", ("id", "listing", "check_in", "check_out", "guests",
                                      "status"), made[-1]))
    if s.abandoned:
        out.update(H.record("abandoned", ("listing", "check_in", "check_out", "guests"),
                          s.abandoned[-1]))
    return out


_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def parse_day(text: str) -> date | None:
    """A YYYY-MM-DD date in the bookable year, else None."""
    if not _ISO.match(text):
        return None
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return None
    return day if day.year == C.YEAR else None


def nights(check_in: str, check_out: str) -> int:
    a, b = parse_day(check_in), parse_day(check_out)
    return (b - a).days if a and b else 0


def quote(listing: Entity, check_in: str, check_out: str) -> dict[str, Any]:
    n = nights(check_in, check_out)
    stay = listing["price_per_night"] * n
    clean = max(25, 5 * round(listing["price_per_night"] * 0.3 / 5))
    service = round((stay + clean) * C.SERVICE_RATE)
    return {"nights": n, "nightly": listing["price_per_night"], "stay": stay,
            "cleaning_fee": clean, "service_fee": service, "total": stay + clean + service}


def short_range(check_in: str, check_out: str) -> str:
    """'Apr 15 - 19' or 'Apr 29 - May 2' (how a trip card names its dates)."""
    a, b = parse_day(check_in), parse_day(check_out)
    if not (a and b):
        return f"{check_in} - {check_out}"
    end = str(b.day) if a.month == b.month else f"{_MONTHS[b.month - 1]} {b.day}"
    return f"{_MONTHS[a.month - 1]} {a.day} \u2013 {end}"
