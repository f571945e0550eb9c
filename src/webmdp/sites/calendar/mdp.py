"""Calendar transition function (pure): the three calendar views, search, the event card, the
editor, replies, edits and new events."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.spec import Action
from webmdp.errors import require
from webmdp.sites._common.catalog import words
from webmdp.sites._common.handlers import Handler, Params, dispatch
from webmdp.sites.calendar import clock
from webmdp.sites.calendar import vocab as V
from webmdp.sites.calendar.catalog import CATALOG
from webmdp.sites.calendar.state import CalendarState, EventData

VIEW_SURFACES = ("DayView", "WeekView", "MonthView")
HEADER_SURFACES = (*VIEW_SURFACES, "SearchResults")
NEW_CALENDAR = "Work"
"""New events go to the primary (work) calendar."""


def today(world: World) -> str:
    return str(world.meta["today"])


def anchor(s: CalendarState, world: World) -> str:
    return s.anchor or today(world)


def event(world: World, s: CalendarState, eid: str) -> Entity:
    """An event as it stands in ``s``: the world's, with this episode's edit and reply."""
    e = dict(world.entities[eid])
    for ed in s.edits:
        if ed[0] == eid:
            e.update(_fields(ed))
    for rid, resp in s.replies:
        if rid == eid:
            e["rsvp"] = resp
    return e


def created_event(data: EventData) -> Entity:
    return {"id": data[0], "calendar": NEW_CALENDAR, "location": "", "rsvp": "yes",
            **_fields(data)}


def _fields(d: EventData) -> dict[str, Any]:
    dur = clock.minutes(d[4]) - clock.minutes(d[3])
    return {"title": d[1], "date": d[2], "start": d[3], "end": d[4], "duration": dur,
            "attendees": list(d[5])}


def all_events(world: World, s: CalendarState) -> list[Entity]:
    """Every event (world and new), edits applied, in date / time order."""
    return list(_all_events(world, s.edits, s.replies, s.created))


@lru_cache(maxsize=256)
def _all_events(world: World, edits: tuple[EventData, ...], replies: tuple[tuple[str, str], ...],
                created: tuple[EventData, ...]) -> tuple[Entity, ...]:
    """:func:`all_events` of a state with these edits, replies and new events (the only parts
    it reads). Cached (a few per task: about 64 events each): the events are shared between
    callers, who only read them."""
    s = CalendarState(surface="WeekView", edits=edits, replies=replies, created=created)
    out = [event(world, s, eid) for eid in world.entities]
    out += [created_event(c) for c in created]
    out.sort(key=lambda e: (e["date"], e["start"], e["id"]))
    return tuple(out)


def view_days(s: CalendarState, world: World) -> list[str]:
    return list(_view_days(s.surface, anchor(s, world)))


@lru_cache(maxsize=4096)
def _view_days(surface: str, a: str) -> tuple[str, ...]:
    if surface == "DayView":
        return (a,)
    if surface == "WeekView":
        return tuple(clock.week_days(a))
    return tuple(d for row in clock.month_grid(a) for d in row)


def shown(s: CalendarState, world: World) -> list[Entity]:
    """Events the current calendar view draws: its days, calendars not hidden."""
    return list(_shown(world, s.surface, anchor(s, world), s.hidden, s.edits, s.replies,
                       s.created))


@lru_cache(maxsize=1024)
def _shown(world: World, surface: str, a: str, hidden: tuple[str, ...],
           edits: tuple[EventData, ...], replies: tuple[tuple[str, str], ...],
           created: tuple[EventData, ...]) -> tuple[Entity, ...]:
    days = set(_view_days(surface, a))
    return tuple(e for e in _all_events(world, edits, replies, created) if e["date"] in days
                 and e["calendar"] not in hidden)


@lru_cache(maxsize=4096)
def _spans(world: World, surface: str, a: str, hidden: tuple[str, ...],
           edits: tuple[EventData, ...], created: tuple[EventData, ...]
           ) -> tuple[tuple[str, str, str, str], ...]:
    return tuple((e["id"], e["date"], e["start"], e["end"])
                 for e in _shown(world, surface, a, hidden, edits, (), created))


def busy(s: CalendarState, world: World) -> dict[str, tuple[tuple[int, int], ...]]:
    """Per date, the (start, end) minutes of the events :func:`shown` lists (cached: read
    it, never change it)."""
    return _busy(world, s.surface, anchor(s, world), s.hidden, s.edits, s.created)


@lru_cache(maxsize=4096)
def _busy(world: World, surface: str, a: str, hidden: tuple[str, ...],
          edits: tuple[EventData, ...], created: tuple[EventData, ...]
          ) -> dict[str, tuple[tuple[int, int], ...]]:
    out: dict[str, list[tuple[int, int]]] = {}
    for _, date, start, end in _spans(world, surface, a, hidden, edits, created):
        out.setdefault(date, []).append((clock.minutes(start), clock.minutes(end)))
    return {d: tuple(spans) for d, spans in out.items()}


MONTH_CHIPS = 3
"""A month cell lists this many events, then "N more" (which opens the day)."""


def clickable(s: CalendarState, world: World) -> list[str]:
    """Ids of the world events a calendar view draws as chips one can open."""
    return list(_clickable(world, s.surface, anchor(s, world), s.hidden, s.edits, s.created))


@lru_cache(maxsize=4096)
def _clickable(world: World, surface: str, a: str, hidden: tuple[str, ...],
               edits: tuple[EventData, ...], created: tuple[EventData, ...]
               ) -> tuple[str, ...]:
    out: list[str] = []
    per_day: dict[str, int] = {}
    for eid, date, _, _ in _spans(world, surface, a, hidden, edits, created):
        per_day[date] = per_day.get(date, 0) + 1
        if eid in world.entities and (surface != "MonthView" or per_day[date] <= MONTH_CHIPS):
            out.append(eid)
    return tuple(out)


def results(s: CalendarState, world: World) -> tuple[str, ...]:
    return _results(world, s.query, s.edits)


@lru_cache(maxsize=1024)
def _results(world: World, query: str, edits: tuple[EventData, ...]) -> tuple[str, ...]:
    if not edits:
        return CATALOG.results(world, CalendarState(surface="SearchResults", query=query))
    s = CalendarState(surface="SearchResults", query=query, edits=edits)
    want = words(query)
    out = [e for e in all_events(world, s) if e["id"] in world.entities
           and all(w in words(" ".join(str(e[f]) for f in CATALOG.search_fields))
                   for w in want)]
    return tuple(e["id"] for e in out)


def transition(s: CalendarState, a: Action, world: World) -> CalendarState:
    name, surf = a.name, s.surface
    if name == CATALOG.search:
        require(surf in HEADER_SURFACES, "SearchEvents: no search box here")
        return CATALOG.transition(s.replace(surface="SearchResults", focus=None), a, world)
    if name == CATALOG.clear_search:
        require(surf == "SearchResults", "ClearSearch: no search results open")
        return s.replace(surface=V.VIEW_SURFACE[s.view], query="", focus=None)
    if name in _VIEW_ACTIONS:
        require(surf in VIEW_SURFACES, f"{name}: only on a calendar view")
    return dispatch(_HANDLERS, s, a, world)


def _step_period(s: CalendarState, world: World, sign: int) -> CalendarState:
    a = anchor(s, world)
    if s.surface == "DayView":
        return s.replace(anchor=clock.shift(a, sign))
    if s.surface == "WeekView":
        return s.replace(anchor=clock.shift(a, 7 * sign))
    return s.replace(anchor=clock.add_months(a, sign))


def _go_to_date(s: CalendarState, p: Params, world: World) -> CalendarState:
    d = clock.parse_date(p["date"])
    require(d is not None, f"GoToDate: {p['date']!r} is not a date (YYYY-MM-DD)")
    return s.replace(anchor=d)


def _switch_view(s: CalendarState, p: Params, world: World) -> CalendarState:
    require(p["view"] in V.VIEWS, f"SwitchView: unknown view {p['view']!r}")
    return s.replace(surface=V.VIEW_SURFACE[p["view"]], view=p["view"])


def _open_day(s: CalendarState, p: Params, world: World) -> CalendarState:
    require(s.surface in ("WeekView", "MonthView"), "OpenDay: no day headers here")
    require(p["date"] in view_days(s, world), f"OpenDay: {p['date']} is not on screen")
    return s.replace(surface="DayView", view="day", anchor=p["date"])


def _toggle_calendar(s: CalendarState, p: Params, world: World) -> CalendarState:
    cal = p["calendar"]
    require(cal in V.CALENDARS, f"ToggleCalendar: unknown calendar {cal!r}")
    hidden = set(s.hidden) ^ {cal}
    return s.replace(hidden=tuple(c for c in V.CALENDARS if c in hidden))


def _pick_slot(s: CalendarState, p: Params, world: World) -> CalendarState:
    require(s.surface in ("DayView", "WeekView"), "PickSlot: no time grid here")
    require(p["date"] in view_days(s, world), f"PickSlot: {p['date']} is not on screen")
    t = clock.parse_time(p["start"])
    require(t is not None, f"PickSlot: {p['start']!r} is not a time")
    span = (clock.minutes(t or "00:00"), clock.minutes(t or "00:00") + 60)
    require(not any(clock.overlaps(span, b) for b in busy(s, world).get(p["date"], ())),
            "PickSlot: that hour is not empty")
    return s.replace(surface="EventEditor", origin=s.surface, editing="", focus=None,
                     slot=(p["date"], t or ""))


_VIEW_ACTIONS: dict[str, Handler[CalendarState]] = {
    "NextPeriod": lambda s, p, world: _step_period(s, world, 1),
    "PrevPeriod": lambda s, p, world: _step_period(s, world, -1),
    "GoToToday": lambda s, p, world: s.replace(anchor=today(world)), "GoToDate": _go_to_date,
    "SwitchView": _switch_view, "OpenDay": _open_day, "ToggleCalendar": _toggle_calendar,
    "PickSlot": _pick_slot,
}


def _open_event(s: CalendarState, p: Params, world: World) -> CalendarState:
    eid = p["event_id"]
    require(s.surface in HEADER_SURFACES, "OpenEvent: no events listed here")
    on_screen = results(s, world) if s.surface == "SearchResults" else clickable(s, world)
    require(eid in on_screen, f"OpenEvent: {eid} is not on screen")
    return s.replace(surface="EventDetail", focus=eid, origin=s.surface)


def _close(s: CalendarState, p: Params, world: World) -> CalendarState:
    require(s.surface in ("EventDetail", "EventEditor"), "CloseEvent: nothing open")
    if s.surface == "EventEditor" and s.origin == "EventDetail":
        return s.replace(surface="EventDetail", focus=s.editing, editing="",
                         origin=_origin_of_detail(s), slot=("", ""))
    return s.replace(surface=s.origin or V.VIEW_SURFACE[s.view], focus=None, editing="",
                     origin="", slot=("", ""))


def _origin_of_detail(s: CalendarState) -> str:
    return "SearchResults" if s.query else V.VIEW_SURFACE[s.view]


def _respond(s: CalendarState, p: Params, world: World) -> CalendarState:
    require(s.surface == "EventDetail", "RespondToEvent: no event open")
    require(p["response"] in V.RESPONSES, f"RespondToEvent: {p['response']!r}")
    return s.replace(replies=(*s.replies, (s.focus or "", p["response"])))


def _edit(s: CalendarState, p: Params, world: World) -> CalendarState:
    require(s.surface == "EventDetail", "EditEvent: no event open")
    return s.replace(surface="EventEditor", editing=s.focus or "", origin="EventDetail",
                     slot=("", ""))


def _create(s: CalendarState, p: Params, world: World) -> CalendarState:
    require(s.surface in HEADER_SURFACES, "CreateEvent: no Create button here")
    return s.replace(surface="EventEditor", editing="", focus=None, origin=s.surface,
                     slot=("", ""))


def parse_guests(text: str) -> tuple[str, ...]:
    """Names typed into the guests box (comma, semicolon or "and" separated), matched to the
    directory ignoring case, without repeats, sorted."""
    return _parse_guests(str(text))


@lru_cache(maxsize=4096)
def _parse_guests(text: str) -> tuple[str, ...]:
    known = {p.lower(): p for p in V.PEOPLE}
    out = {known.get(n.strip().lower(), n.strip())
           for n in re.split(r",|;|\band\b", text) if n.strip()}
    return tuple(sorted(out))


def _save(s: CalendarState, p: Params, world: World) -> CalendarState:
    require(s.surface == "EventEditor", "SaveEvent: the editor is not open")
    title = str(p["title"]).strip()
    require(bool(title), "SaveEvent: add a title")
    d, start, end = clock.parse_date(p["date"]), clock.parse_time(p["start"]), \
        clock.parse_time(p["end"])
    require(d is not None, f"SaveEvent: {p['date']!r} is not a date (YYYY-MM-DD)")
    require(start is not None and end is not None, "SaveEvent: times look like 14:30 or 2:30 PM")
    require(clock.minutes(end or "") > clock.minutes(start or ""),
            "SaveEvent: the event must end after it starts")
    guests = parse_guests(p.get("attendees") or "")
    back = V.VIEW_SURFACE[s.view]
    base = s.replace(surface=back, focus=None, editing="", origin="", slot=("", ""),
                     anchor=d or "", query="")
    eid = s.editing or f"NEW-{len(s.created) + 1:03d}"
    data: EventData = (eid, title, d or "", start or "", end or "", guests)
    clash = _clashes(world, s, data)
    clashes = (*(c for c in s.clashes if c != eid), *((eid,) if clash else ()))
    if s.editing:
        return base.replace(edits=(*(e for e in s.edits if e[0] != eid), data), clashes=clashes)
    return base.replace(created=(*s.created, data), clashes=clashes)


@lru_cache(maxsize=256)
def _by_date(world: World) -> dict[str, tuple[str, ...]]:
    """The world's event ids per date (an edit may move one; see :func:`_clashes`)."""
    out: dict[str, list[str]] = {}
    for eid, e in world.entities.items():
        out.setdefault(e["date"], []).append(eid)
    return {d: tuple(ids) for d, ids in out.items()}


def _clashes(world: World, s: CalendarState, data: EventData) -> bool:
    """Whether a saved event overlaps another event of any calendar (the conflict check).
    Only the events on the saved date are looked at: the world's, those an edit moved there,
    and the new ones."""
    eid, date = data[0], data[2]
    span = (clock.minutes(data[3]), clock.minutes(data[4]))

    def hits(start: str, end: str) -> bool:
        return clock.overlaps(span, (clock.minutes(start), clock.minutes(end)))

    edited = {ed[0] for ed in s.edits}
    for oid in (*_by_date(world).get(date, ()), *sorted(edited)):
        e = event(world, s, oid) if oid in edited else world.entities[oid]
        if oid != eid and e["date"] == date and hits(e["start"], e["end"]):
            return True
    return any(c[0] != eid and c[2] == date and hits(c[3], c[4]) for c in s.created)


def _move(s: CalendarState, p: Params, world: World) -> CalendarState:
    """Drag an event chip onto another hour of the time grid: it starts there and keeps its
    duration, title and guests. Recorded as an edit, exactly as the editor would save it."""
    require(s.surface in ("DayView", "WeekView"), "MoveEvent: no time grid here")
    eid = p["event_id"]
    require(eid in clickable(s, world), f"MoveEvent: {eid} is not on screen")
    d, start = clock.parse_date(p["date"]), clock.parse_time(p["start"])
    require(d is not None and d in view_days(s, world),
            f"MoveEvent: {p['date']!r} is not a day on screen")
    require(start is not None, f"MoveEvent: {p['start']!r} is not a time")
    e = event(world, s, eid)
    end = clock.minutes(start or "") + clock.minutes(e["end"]) - clock.minutes(e["start"])
    require(end <= 24 * 60, "MoveEvent: the event would end after midnight")
    guests = parse_guests(", ".join(e["attendees"]))  # as the editor would save them
    data: EventData = (eid, e["title"], d or "", start or "", clock.hhmm(end), guests)
    clashes = (*(c for c in s.clashes if c != eid), *((eid,) if _clashes(world, s, data) else ()))
    return s.replace(edits=(*(x for x in s.edits if x[0] != eid), data), clashes=clashes)


_HANDLERS: dict[str, Handler[CalendarState]] = {
    **_VIEW_ACTIONS, "OpenEvent": _open_event, "CloseEvent": _close, "RespondToEvent": _respond,
    "EditEvent": _edit, "CreateEvent": _create, "SaveEvent": _save, "MoveEvent": _move,
}
