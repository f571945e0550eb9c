"""What each Calendar surface shows and offers, the time-grid layout, and the verifier's
facts."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from webmdp.core.model import Entity, EntityView, Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.sites._common.handlers import observation, record, surfaces
from webmdp.sites.calendar import clock
from webmdp.sites.calendar import vocab as V
from webmdp.sites.calendar.mdp import (
    HEADER_SURFACES,
    NEW_CALENDAR,
    VIEW_SURFACES,
    anchor,
    busy,
    clickable,
    event,
    results,
    shown,
    today,
    view_days,
)
from webmdp.sites.calendar.state import CalendarState, EventData
from webmdp.sites.calendar.world import CARD_FIELDS, DETAIL_FIELDS

SURFACES = surfaces(
    WeekView=(SurfaceKind.CARD, "seven-day time grid with event chips"),
    DayView=(SurfaceKind.CARD, "one day's time grid"),
    MonthView=(SurfaceKind.CARD, "month grid with event chips per day"),
    SearchResults=(SurfaceKind.CARD, "matching events by date"),
    EventDetail=(SurfaceKind.DETAIL, "time, place, guests, agenda, reply"),
    EventEditor=(SurfaceKind.COMMIT, "title, date, time, guests, Save"),
)
CHIP = ("title", "date", "start", "end", "calendar", "location", "rsvp")
MONTH_CHIP = ("title", "date", "start", "calendar", "rsvp")
ROW = CARD_FIELDS
EDITOR = ("title", "date", "start", "end", "calendar", "attendees")
SURFACE_FIELDS: dict[str, tuple[str, ...]] = {
    "WeekView": CHIP, "DayView": (*CHIP, "duration"), "MonthView": MONTH_CHIP,
    "SearchResults": ROW, "EventDetail": CARD_FIELDS + DETAIL_FIELDS, "EventEditor": EDITOR,
}
HOUR_PX = 56


def available(s: CalendarState, world: World) -> tuple[Action, ...]:
    surf = s.surface
    out: list[Action] = []
    if surf in HEADER_SURFACES:
        out += [Action("SearchEvents"), Action("CreateEvent")]
    if surf in VIEW_SURFACES:
        out += [Action("PrevPeriod"), Action("NextPeriod"), Action("GoToToday")]
        out += [Action("SwitchView", {"view": v}) for v in V.VIEWS if V.VIEW_SURFACE[v] != surf]
        out += [Action("GoToDate", {"date": d}) for row in clock.month_grid(anchor(s, world))
                for d in row]
        out += [Action("ToggleCalendar", {"calendar": c}) for c in V.CALENDARS]
        if surf != "DayView":
            out += [Action("OpenDay", {"date": d}) for d in view_days(s, world)
                    if surf == "WeekView" or _in_month(d, s, world)]
        out += [Action("OpenEvent", {"event_id": e}) for e in clickable(s, world)]
        if surf != "MonthView":
            out += [Action("MoveEvent", {"event_id": e}) for e in clickable(s, world)]
            out += [Action("PickSlot", {"date": d, "start": t}) for d, t in free_hours(s, world)]
    elif surf == "SearchResults":
        out.append(Action("ClearSearch"))
        out += [Action("OpenEvent", {"event_id": e}) for e in results(s, world)]
    elif surf == "EventDetail":
        out += [Action("CloseEvent"), Action("EditEvent")]
        out += [Action("RespondToEvent", {"response": r}) for r in V.RESPONSES]
    elif surf == "EventEditor":
        out += [Action("CloseEvent"), Action("SaveEvent")]
    return tuple(out)


def free_hours(s: CalendarState, world: World) -> list[tuple[str, str]]:
    """(date, HH:00) of the grid's hours no drawn event touches: the empty cells one can
    click to start a new event there (a cell under an event chip is not clickable)."""
    return list(_free_hours(world, s.surface, anchor(s, world), s.hidden, s.edits, s.created))


@lru_cache(maxsize=4096)
def _free_hours(world: World, surface: str, a: str, hidden: tuple[str, ...],
                edits: tuple[EventData, ...], created: tuple[EventData, ...]
                ) -> tuple[tuple[str, str], ...]:
    s = CalendarState(surface=surface, anchor=a, hidden=hidden, edits=edits, created=created)
    taken = busy(s, world)
    return tuple((d, clock.hhmm(h * 60)) for d in view_days(s, world)
                 for h in range(V.FIRST_HOUR, V.LAST_HOUR)
                 if not any(clock.overlaps((h * 60, h * 60 + 60), b) for b in taken.get(d, ())))


def _in_month(d: str, s: CalendarState, world: World) -> bool:
    return d[:7] == anchor(s, world)[:7]


def _view(e: Entity, fields: tuple[str, ...]) -> EntityView:
    return EntityView(e["id"], {f: e[f] for f in fields if f in e})


def layout(events: list[Entity]) -> dict[str, list[float]]:
    """Per event on the time grid: top and height in px, and its lane among overlapping
    events (left offset and width in percent), so clashes show side by side."""
    out: dict[str, list[float]] = {}
    by_day: dict[str, list[Entity]] = {}
    for e in events:
        by_day.setdefault(e["date"], []).append(e)
    for evs in by_day.values():
        lanes: list[int] = []
        cluster: list[tuple[str, int]] = []
        cluster_end = -1
        for e in evs:
            s, t = clock.minutes(e["start"]), clock.minutes(e["end"])
            if s >= cluster_end:
                _place(out, cluster)
                cluster, lanes, cluster_end = [], [], t
            lane = next((i for i, end in enumerate(lanes) if end <= s), len(lanes))
            if lane == len(lanes):
                lanes.append(t)
            else:
                lanes[lane] = t
            cluster_end = max(cluster_end, t)
            cluster.append((e["id"], lane))
            top = (s - V.FIRST_HOUR * 60) * HOUR_PX / 60
            out[e["id"]] = [round(top, 1), round(max(18.0, (t - s) * HOUR_PX / 60 - 2), 1), 0, 100]
        _place(out, cluster)
    return out


def _place(out: dict[str, list[float]], cluster: list[tuple[str, int]]) -> None:
    n = max((lane for _, lane in cluster), default=0) + 1
    for eid, lane in cluster:
        out[eid][2], out[eid][3] = round(100 * lane / n, 2), round(100 / n, 2)


def observe(s: CalendarState, world: World) -> Observation:
    surf = s.surface
    a = anchor(s, world)
    ctx: dict[str, Any] = {"today": today(world), "anchor": a, "view": s.view,
                           "hidden": list(s.hidden), "calendars": list(V.CALENDARS),
                           "colors": V.COLORS, "query": s.query,
                           "mini": clock.month_grid(a)}
    views: list[EntityView] = []
    fields = SURFACE_FIELDS[surf]
    if surf in VIEW_SURFACES:
        evs = shown(s, world)
        views = [_view(e, fields) for e in evs]
        ctx["days"] = view_days(s, world)
        ctx["hours"] = list(range(V.FIRST_HOUR, V.LAST_HOUR))
        if surf == "MonthView":
            ctx["weeks"] = clock.month_grid(a)
        else:
            ctx["layout"] = layout(evs)
            ctx["_free"] = [f"{d} {t}" for d, t in free_hours(s, world)]
    elif surf == "SearchResults":
        views = [_view(event(world, s, e), fields) for e in results(s, world)]
    elif surf == "EventDetail":
        views = [_view(event(world, s, s.focus or ""), fields)]
        ctx["event"] = s.focus
    elif surf == "EventEditor":
        ctx["form"] = editor_form(s, world)
        if s.editing:
            views = [_view(event(world, s, s.editing), fields)]
    ctx["_fmt"] = labels(s, world, ctx, views)
    return observation(s, SURFACES, views, available(s, world), ctx)


def labels(s: CalendarState, world: World, ctx: dict[str, Any],
           views: list[EntityView]) -> dict[str, Any]:
    """Display strings the views print (Jinja has no date filters): the header's title, each
    date's weekday and number, each event's time span. Hidden from text observations."""
    a = clock.day(ctx["anchor"])
    dates = {d for row in ctx["mini"] for d in row} | set(ctx.get("days", ())) | {ctx["today"]}
    dates |= {str(v.fields["date"]) for v in views if "date" in v.fields}
    month = ctx["anchor"][:7]
    days = {d: {**_day_labels(d), "in_month": d[:7] == month} for d in dates}
    title = a.strftime("%B %Y")
    if s.surface == "DayView":
        title = f"{a.strftime('%B')} {a.day}, {a.year}"
    times = {}
    for v in views:
        f = v.fields
        if "start" in f and "end" in f:
            times[v.id] = f"{clock.clock(f['start'])} \u2013 {clock.clock(f['end'])}"
        elif "start" in f:
            times[v.id] = clock.clock(f["start"])
    return {"title": title, "days": days, "times": times, "hours": dict(_HOURS),
            "mini_title": a.strftime("%B %Y")}


_HOURS = {h: clock.clock(clock.hhmm(h * 60)).replace(":00", "") for h in range(24)}
"""The time grid's hour labels ("9 AM")."""


@lru_cache(maxsize=4096)
def _day_labels(d: str) -> dict[str, Any]:
    """A date's weekday, number, long and short names (cached: copied by the caller)."""
    day = clock.day(d)
    return {"dow": clock.WEEKDAYS[(day.weekday() + 1) % 7][:3].upper(), "num": day.day,
            "long": clock.long_day(d), "short": day.strftime("%b")}


def editor_form(s: CalendarState, world: World) -> dict[str, str]:
    """The editor's initial values: the edited event's, a picked slot's hour, or blank."""
    if s.editing:
        e = event(world, s, s.editing)
        return {"title": e["title"], "date": e["date"], "start": clock.clock(e["start"]),
                "end": clock.clock(e["end"]), "attendees": ", ".join(e["attendees"]),
                "calendar": e["calendar"]}
    d, t = s.slot
    if not t:
        return {"title": "", "date": "", "start": "", "end": "", "attendees": "",
                "calendar": NEW_CALENDAR}
    return {"title": "", "date": d, "start": clock.clock(t),
            "end": clock.clock(clock.hhmm(clock.minutes(t) + 60)), "attendees": "",
            "calendar": NEW_CALENDAR}


def facts(s: CalendarState) -> dict[str, Any]:
    """Replies (last per event), edited events' fields, the last new event's fields, and
    whether a saved event clashes with another."""
    last = dict(s.replies)
    out: dict[str, Any] = {"surface": s.surface, "replied": list(last),
                           "edited": [e[0] for e in s.edits],
                           "created.count": len(s.created)}
    for r in V.RESPONSES:
        out[f"rsvp.{r}"] = [eid for eid, resp in last.items() if resp == r]
    for data in s.edits:
        out.update(_event_facts(f"event.{data[0]}", data, s.clashes))
    if s.created:
        out.update(_event_facts("created", s.created[-1], s.clashes))
    return out


def _event_facts(prefix: str, data: EventData, clashes: tuple[str, ...]) -> dict[str, Any]:
    eid, *fields, guests = data
    return {**record(prefix, ("title", "date", "start", "end"), fields),
            f"{prefix}.attendees": list(guests), f"{prefix}.conflict": eid in clashes}
