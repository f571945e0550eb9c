"""Housing transition, observation and facts (pure)."""

from __future__ import annotations

import re
from typing import Any

from webmdp.core.model import EntityView, Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.errors import InvalidAction, require
from webmdp.sites._common.tasklib import browse, record, view, views
from webmdp.sites.housing import vocab as V
from webmdp.sites.housing.state import HousingState as S
from webmdp.sites.housing.world import AGENT_FIELDS, CARD_FIELDS, DETAIL_FIELDS

SURFACE_KINDS = {"SearchResults": SurfaceKind.CARD, "PropertyDetail": SurfaceKind.DETAIL,
                 "SavedHomes": SurfaceKind.COMMIT, "TourRequest": SurfaceKind.COMMIT}
_ANYWHERE = ("Search", "SetListingType")
"""Header controls (search box, Buy / Rent) that lead back to the results from any page."""
_PHONE = re.compile(r"^\(?\d{3}\)?[-. ]?\d{3}[-. ]\d{4}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _leave(s: S, surface: str) -> S:
    return s.replace(surface=surface, focus=None, agent_open=False, comparing=False)


def transition(s: S, a: Action, world: World) -> S:
    name, surf = a.name, s.surface
    require(surf != "TourRequest" or name in ("SubmitTourRequest", "CancelTour"),
          f"{name}: finish or cancel the tour request first")
    if V.CATALOG.handles(name):
        require(surf == "SearchResults" or name in _ANYWHERE, f"{name}: only on search results")
        return _leave(browse(V.CATALOG, s, a, world), "SearchResults")
    handler = _HANDLERS.get(name)
    if handler is None:
        raise InvalidAction(f"unknown action {name!r}")
    return handler(s, a.params, world)


def _open_property(s: S, p: dict[str, Any], world: World) -> S:
    pid = p["property_id"]
    listed = s.saved if s.surface == "SavedHomes" else (
        V.CATALOG.visible(world, s) if s.surface == "SearchResults" else ())
    require(pid in listed, f"OpenProperty: {pid} is not on this page")
    return s.replace(surface="PropertyDetail", focus=pid, origin=s.surface, agent_open=False,
                     comparing=False)


def _back(s: S, p: dict[str, Any], world: World) -> S:
    require(s.surface == "SavedHomes" or (s.surface == "PropertyDetail"
                                        and s.origin == "SearchResults"),
          "BackToResults: nothing to go back from")
    return _leave(s, "SearchResults")


def _show_agent(s: S, p: dict[str, Any], world: World) -> S:
    require(s.surface == "PropertyDetail" and not s.agent_open, "ShowListingAgent: not available")
    return s.replace(agent_open=True)


def _listed_here(s: S, pid: str, world: World) -> bool:
    if s.surface == "PropertyDetail":
        return pid == s.focus
    if s.surface == "SavedHomes":
        return pid in s.saved
    return s.surface == "SearchResults" and pid in V.CATALOG.visible(world, s)


def _save(s: S, p: dict[str, Any], world: World) -> S:
    pid = p["property_id"]
    require(_listed_here(s, pid, world), f"SaveHome: {pid} is not on this page")
    require(pid not in s.saved, f"SaveHome: {pid} is already saved")
    return s.replace(saved=(*s.saved, pid))


def _unsave(s: S, p: dict[str, Any], world: World) -> S:
    pid = p["property_id"]
    require(_listed_here(s, pid, world), f"UnsaveHome: {pid} is not on this page")
    require(pid in s.saved, f"UnsaveHome: {pid} is not saved")
    saved = tuple(i for i in s.saved if i != pid)
    return s.replace(saved=saved, comparing=s.comparing and len(saved) > 1)


def _open_saved(s: S, p: dict[str, Any], world: World) -> S:
    require(s.surface != "SavedHomes", "OpenSavedHomes: already open")
    return _leave(s, "SavedHomes")


def _compare(s: S, p: dict[str, Any], world: World) -> S:
    require(s.surface == "SavedHomes" and len(s.saved) > 1, "CompareHomes: save two homes first")
    return s.replace(comparing=not s.comparing)


def _request_tour(s: S, p: dict[str, Any], world: World) -> S:
    require(s.surface == "PropertyDetail", "RequestTour: no property open")
    return s.replace(surface="TourRequest", agent_open=False)


def _cancel_tour(s: S, p: dict[str, Any], world: World) -> S:
    require(s.surface == "TourRequest", "CancelTour: no tour request open")
    return s.replace(surface="PropertyDetail")


def _text(p: dict[str, Any], key: str) -> str:
    value = str(p[key]).strip()
    require(bool(value), f"{key} is required")
    return value


def _phone(p: dict[str, Any]) -> str:
    phone = _text(p, "phone")
    require(bool(_PHONE.match(phone)), f"not a phone number: {phone!r}")
    return phone


def _submit_tour(s: S, p: dict[str, Any], world: World) -> S:
    require(s.surface == "TourRequest" and s.focus is not None, "SubmitTourRequest: no form open")
    date, time = _text(p, "date"), _text(p, "time").upper()
    require(bool(_DATE.match(date)) and date in V.TOUR_DAYS,
          f"tours can be booked {V.TOUR_FIRST_DAY} to {V.TOUR_LAST_DAY} (YYYY-MM-DD)")
    require(time in V.TOUR_TIMES, f"no tour slot at {time!r}")
    tour = (s.focus or "", date, time, _text(p, "name"), _phone(p))
    return s.replace(surface="PropertyDetail", tours=(*s.tours, tour))


def _contact(s: S, p: dict[str, Any], world: World) -> S:
    require(s.surface == "PropertyDetail" and s.focus is not None, "ContactAgent: no property open")
    msg = (s.focus or "", _text(p, "name"), _phone(p), _text(p, "message"))
    return s.replace(messages=(*s.messages, msg))


_HANDLERS = {
    "OpenProperty": _open_property, "BackToResults": _back, "ShowListingAgent": _show_agent,
    "SaveHome": _save, "UnsaveHome": _unsave, "OpenSavedHomes": _open_saved,
    "CompareHomes": _compare, "RequestTour": _request_tour, "CancelTour": _cancel_tour,
    "SubmitTourRequest": _submit_tour, "ContactAgent": _contact,
}


_DETAIL_CLOSED = tuple(f for f in DETAIL_FIELDS if f not in AGENT_FIELDS)


def observe(s: S, world: World) -> Observation:
    """Project the state onto what the page shows."""
    ctx: dict[str, Any] = {"query": s.query, "saved": list(s.saved), "states": V.CITIES,
                           "listing": s.filter("listing") or ""}
    entities: tuple[EntityView, ...] = ()
    if s.surface == "SearchResults":
        entities = views(world, V.CATALOG.visible(world, s), CARD_FIELDS)
        ctx.update(V.CATALOG.context(s, world))
    elif s.surface in ("PropertyDetail", "TourRequest") and s.focus:
        fields = CARD_FIELDS + (DETAIL_FIELDS if s.agent_open else _DETAIL_CLOSED)
        if s.surface == "TourRequest":
            fields = CARD_FIELDS
        entities = (view(world, s.focus, fields),)
        ctx.update(agent_open=s.agent_open, origin=s.origin,
                   tour=next((list(t) for t in reversed(s.tours) if t[0] == s.focus), None),
                   message=next((list(m) for m in reversed(s.messages) if m[0] == s.focus),
                                None),
                   tour_times=list(V.TOUR_TIMES), tour_first=V.TOUR_FIRST_DAY,
                   tour_last=V.TOUR_LAST_DAY)
    elif s.surface == "SavedHomes":
        entities = views(world, s.saved, CARD_FIELDS)
        ctx["comparing"] = s.comparing
    return Observation(s.surface, SURFACE_KINDS[s.surface], entities,
                       available_actions(s, world), ctx)


def _heart(s: S, pid: str) -> Action:
    return Action("UnsaveHome" if pid in s.saved else "SaveHome", {"property_id": pid})


def available_actions(s: S, world: World) -> tuple[Action, ...]:
    if s.surface == "TourRequest":
        return (Action("SubmitTourRequest"), Action("CancelTour"))
    out = [Action("Search")]
    if s.surface != "SearchResults":
        out += [Action("SetListingType", {"listing_type": t}) for t in V.LISTING_TYPES]
    if s.surface != "SavedHomes":
        out.append(Action("OpenSavedHomes"))
    if s.surface == "SearchResults":
        out += V.CATALOG.available(s, world)
        for pid in V.CATALOG.visible(world, s):
            out += [Action("OpenProperty", {"property_id": pid}), _heart(s, pid)]
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
        for pid in s.saved:
            out += [Action("OpenProperty", {"property_id": pid}), _heart(s, pid)]
    return tuple(out)


def facts(s: S) -> dict[str, Any]:
    """Verifier facts: saved homes, the last tour request and the last message to an agent."""
    out: dict[str, Any] = {"surface": s.surface, "saved": list(s.saved),
                           "toured": [t[0] for t in s.tours],
                           "contacted": [m[0] for m in s.messages]}
    if s.tours:
        out.update(record("tour", ("property", "date", "time", "name", "phone"), s.tours[-1]))
    if s.messages:
        out.update(record("contact", ("property", "name", "phone", "message"), s.messages[-1]))
    return out
