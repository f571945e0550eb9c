"""Housing transition, observation and facts (pure)."""

from __future__ import annotations

import re
from typing import Any

from webmdp.core.model import Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.errors import require
from webmdp.sites._common import handlers as H
from webmdp.sites.housing import vocab as V
from webmdp.sites.housing.state import HousingState as S
from webmdp.sites.housing.world import AGENT_FIELDS, CARD_FIELDS, DETAIL_FIELDS, PIXEL_FIELDS

SURFACES = H.surfaces(
    SearchResults=(SurfaceKind.CARD, "listing cards with the filter bar"),
    PropertyDetail=(SurfaceKind.DETAIL, "facts and features, schools, listing agent, contact form"),
    SavedHomes=(SurfaceKind.COMMIT, "saved homes: review, unsave, compare"),
    TourRequest=(SurfaceKind.COMMIT, "tour date, time and contact details"))
_ANYWHERE = ("Search", "SetListingType")
"""Header controls (search box, Buy / Rent) that lead back to the results from any page."""
_PHONE = re.compile(r"^\(?\d{3}\)?[-. ]?\d{3}[-. ]\d{4}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_LEFT = {"focus": None, "agent_open": False, "comparing": False}
"""What a property page leaves behind when another page opens."""


def _leave(s: S, surface: str) -> S:
    return s.replace(surface=surface, **_LEFT)


def transition(s: S, a: Action, world: World) -> S:
    require(s.surface != "TourRequest" or a.name in ("SubmitTourRequest", "CancelTour"),
            f"{a.name}: finish or cancel the tour request first")
    if V.CATALOG.handles(a.name):
        require(s.surface == "SearchResults" or a.name in _ANYWHERE,
                f"{a.name}: only on search results")
        return _leave(V.CATALOG.transition(s, a, world), "SearchResults")
    return H.dispatch(_HANDLERS, s, a, world)


def _cards(s: S, world: World) -> tuple[str, ...]:
    """The homes a list surface shows."""
    if s.surface == "SavedHomes":
        return s.saved
    return V.CATALOG.visible(world, s) if s.surface == "SearchResults" else ()


def _open_property(s: S, p: H.Params, world: World) -> S:
    pid = H.listed("OpenProperty", p["property_id"], _cards(s, world))
    return s.replace(surface="PropertyDetail", focus=pid, origin=s.surface, agent_open=False,
                     comparing=False)


def _here(s: S, name: str, p: H.Params, world: World) -> str:
    """The home a heart acts on: the open one, or one of the list's cards."""
    return H.listed(name, p["property_id"], (s.focus or "",) if s.surface == "PropertyDetail"
                  else _cards(s, world))


def _save(s: S, p: H.Params, world: World) -> S:
    pid = _here(s, "SaveHome", p, world)
    require(pid not in s.saved, f"SaveHome: {pid} is already saved")
    return s.replace(saved=(*s.saved, pid))


def _unsave(s: S, p: H.Params, world: World) -> S:
    pid = _here(s, "UnsaveHome", p, world)
    require(pid in s.saved, f"UnsaveHome: {pid} is not saved")
    saved = tuple(i for i in s.saved if i != pid)
    return s.replace(saved=saved, comparing=s.comparing and len(saved) > 1)


def _text(p: H.Params, key: str) -> str:
    value = str(p[key]).strip()
    require(bool(value), f"{key} is required")
    return value


def _phone(p: H.Params) -> str:
    phone = _text(p, "phone")
    require(bool(_PHONE.match(phone)), f"not a phone number: {phone!r}")
    return phone


def _submit_tour(s: S, p: H.Params, world: World) -> S:
    require(s.surface == "TourRequest" and s.focus is not None, "SubmitTourRequest: no form open")
    date, time = _text(p, "date"), _text(p, "time").upper()
    require(bool(_DATE.match(date)) and date in V.TOUR_DAYS,
            f"tours can be booked {V.TOUR_FIRST_DAY} to {V.TOUR_LAST_DAY} (YYYY-MM-DD)")
    require(time in V.TOUR_TIMES, f"no tour slot at {time!r}")
    tour = (s.focus or "", date, time, _text(p, "name"), _phone(p))
    return s.replace(surface="PropertyDetail", tours=(*s.tours, tour))


def _contact(s: S, p: H.Params, world: World) -> S:
    require(s.surface == "PropertyDetail" and s.focus is not None, "ContactAgent: no property open")
    msg = (s.focus or "", _text(p, "name"), _phone(p), _text(p, "message"))
    return s.replace(messages=(*s.messages, msg))


_HANDLERS: dict[str, H.Handler[S]] = {
    "OpenProperty": _open_property, "SaveHome": _save, "UnsaveHome": _unsave,
    "SubmitTourRequest": _submit_tour, "ContactAgent": _contact,
    "BackToResults": H.step(lambda s: s.surface == "SavedHomes" or (
        s.surface == "PropertyDetail" and s.origin == "SearchResults"),
        "BackToResults: nothing to go back from", surface="SearchResults", **_LEFT),
    "ShowListingAgent": H.step(lambda s: s.surface == "PropertyDetail" and not s.agent_open,
                             "ShowListingAgent: not available", agent_open=True),
    "OpenSavedHomes": H.step(lambda s: s.surface != "SavedHomes", "OpenSavedHomes: already open",
                           surface="SavedHomes", **_LEFT),
    "CompareHomes": H.step(lambda s: s.surface == "SavedHomes" and len(s.saved) > 1,
                         "CompareHomes: save two homes first",
                         comparing=lambda s, p: not s.comparing),
    "RequestTour": H.step("PropertyDetail", "RequestTour: no property open",
                        surface="TourRequest", agent_open=False),
    "CancelTour": H.step("TourRequest", "CancelTour: no tour request open",
                       surface="PropertyDetail"),
}


_DETAIL_CLOSED = tuple(f for f in DETAIL_FIELDS if f not in AGENT_FIELDS)


def observe(s: S, world: World) -> Observation:
    """Project the state onto what the page shows."""
    ctx: dict[str, Any] = {"query": s.query, "saved": list(s.saved), "states": V.CITIES,
                           "listing": s.filter("listing") or ""}
    entities = H.views(world, _cards(s, world), CARD_FIELDS)
    if s.surface == "SearchResults":
        ctx.update(V.CATALOG.context(s, world))
    elif s.surface in ("PropertyDetail", "TourRequest") and s.focus:
        shown = () if s.surface == "TourRequest" else DETAIL_FIELDS if s.agent_open \
            else _DETAIL_CLOSED
        if s.surface == "PropertyDetail":
            shown += tuple(f for f in PIXEL_FIELDS if f in world.entities[s.focus])
        entities = (H.view(world, s.focus, CARD_FIELDS + shown),)
        ctx.update(agent_open=s.agent_open, origin=s.origin, tour=_last(s.tours, s.focus),
                   message=_last(s.messages, s.focus), tour_times=list(V.TOUR_TIMES),
                   tour_first=V.TOUR_FIRST_DAY, tour_last=V.TOUR_LAST_DAY)
    elif s.surface == "SavedHomes":
        ctx["comparing"] = s.comparing
    return H.observation(s, SURFACES, entities, available_actions(s, world), ctx)


def _last(rows: tuple[tuple[str, ...], ...], pid: str) -> list[str] | None:
    """The last request sent about ``pid``."""
    return next((list(r) for r in reversed(rows) if r[0] == pid), None)


def _heart(s: S, pid: str) -> Action:
    return Action("UnsaveHome" if pid in s.saved else "SaveHome", {"property_id": pid})


def available_actions(s: S, world: World) -> tuple[Action, ...]:
    if s.surface == "TourRequest":
        return (Action("SubmitTourRequest"), Action("CancelTour"))
    out = [Action("Search")]
    if s.surface != "SearchResults":
        out += H.offer("SetListingType", "listing_type", V.LISTING_TYPES)
    if s.surface != "SavedHomes":
        out.append(Action("OpenSavedHomes"))
    if s.surface == "SearchResults":
        out += V.CATALOG.available(s, world)
    elif s.surface == "PropertyDetail" and s.focus:
        if s.origin == "SearchResults":
            out.append(Action("BackToResults"))
        if not s.agent_open:
            out.append(Action("ShowListingAgent"))
        out += [_heart(s, s.focus), Action("RequestTour"), Action("ContactAgent")]
    elif s.surface == "SavedHomes":
        out.append(Action("BackToResults"))
        if len(s.saved) > 1:
            out.append(Action("CompareHomes"))
    for pid in _cards(s, world):
        out += [Action("OpenProperty", {"property_id": pid}), _heart(s, pid)]
    return tuple(out)


def facts(s: S) -> dict[str, Any]:
    """Verifier facts: saved homes, the last tour request and the last message to an agent."""
    out: dict[str, Any] = {"surface": s.surface, "saved": list(s.saved),
                           "toured": [t[0] for t in s.tours],
                           "contacted": [m[0] for m in s.messages]}
    if s.tours:
        out.update(H.record("tour", ("property", "date", "time", "name", "phone"), s.tours[-1]))
    if s.messages:
        out.update(H.record("contact", ("property", "name", "phone", "message"), s.messages[-1]))
    return out
