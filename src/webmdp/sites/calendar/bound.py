"""Calendar's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on calendar tasks."""

from __future__ import annotations

import math
from collections import defaultdict

from webmdp.core.model import State
from webmdp.sites.calendar import clock
from webmdp.sites.calendar.mdp import HEADER_SURFACES, clickable, event, results, view_days
from webmdp.sites.calendar.state import CalendarState
from webmdp.tasks.distance import (
    Bound,
    Facts,
    InformedBound,
    Problem,
    Unseen,
    unmet,
    visits,
)
from webmdp.tasks.model import Condition
from webmdp.tasks.verifier import check_condition

GRID_SURFACES = ("DayView", "WeekView")
"""Where MoveEvent is offered (``observe.available``)."""
_EVENT_FIELDS = frozenset({"title", "date", "start", "end", "attendees", "conflict"})


def calendar_bound(p: Problem) -> Bound:
    """Calendar. Facts used (``mdp.transition``): a reply is made only by RespondToEvent, on
    the card (EventDetail) of the event it answers; it changes no surface, focus, view, date,
    hidden calendar or search, and which events a view or a search lists does not depend on
    replies. EventDetail of an event is reached only by OpenEvent, from a header surface (a
    calendar view or the search results) that lists it, or by closing the editor of that event
    (the editor's Close returns to the card it was opened from); the card's way out is
    CloseEvent (EditEvent opens the editor, replies stay). An edit or a new event is saved
    only by SaveEvent (every field at once) in the editor, which EditEvent opens on the open
    event's card and CreateEvent / PickSlot open blank on a header surface; SaveEvent and
    CloseEvent are the editor's only ways out. An edit of the date and start (length, title
    and guests kept) is also saved by MoveEvent, one drag on a day or week grid that lists
    the event. ``edits`` never loses an event, so a hard negative in ``edited`` is final.

    The bound: one reply per event still answered wrong (the last reply per event counts;
    replies to distinct events are distinct actions, which do not move) plus the way to the
    nearest card that needs one, or the farthest card's way and its reply; for an edit or a
    new event, the SaveEvent after the editor is opened (and the card, for an edit, reached
    first) or the edit's MoveEvent, after moving away every event in the way when it must
    not clash (one edit each, the farthest one reached first)."""
    conds = p.task.verifier
    world = p.world
    final = [c for c in conds if c.fact == "edited" and c.op == "not_contains"]
    replies: list[tuple[Condition, str]] = []
    edits: dict[str, list[Condition]] = defaultdict(list)
    created: list[Condition] = []
    rest: list[Condition] = []
    for c in conds:
        parts = c.fact.split(".")
        if c in final:
            continue
        if parts[0] == "rsvp" and len(parts) == 2 and c.op in ("contains", "not_contains"):
            replies.append((c, str(c.value)))
        elif parts[0] == "event" and len(parts) == 3 and parts[2] in _EVENT_FIELDS \
                and parts[1] in world.entities:
            edits[parts[1]].append(c)
        elif parts[0] == "created" and len(parts) == 2 and parts[1] in _EVENT_FIELDS:
            created.append(c)
        else:
            rest.append(c)

    frozen = {str(c.value) for c in final}
    on_date: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
    for eid, e in world.entities.items():
        on_date[e["date"]].append((eid, clock.minutes(e["start"]), clock.minutes(e["end"])))
    edit_slots = {eid: _slot(group) for eid, group in edits.items()}
    move_dates = tuple(d for d in map(clock.parse_date, p.candidates.get(("MoveEvent", "date"),
                                                                         ())) if d)
    move_weeks = {clock.week_start(d) for d in move_dates}
    new_slot = _slot(created)

    def card(s: CalendarState, eid: str, look: bool) -> int:
        """Actions before ``eid``'s card is open: OpenEvent where it is listed, after one
        action that lists it (or leaves a card or the editor) when it is not."""
        if s.surface == "EventDetail":
            return 0 if s.focus == eid else 2
        if s.surface == "EventEditor":
            return 1 if s.editing == eid else 2
        if not look:
            return 1
        listed = results(s, world) if s.surface == "SearchResults" else clickable(s, world)
        return 1 if eid in listed else 2

    def movable(s: CalendarState, eid: str) -> bool:
        """Whether a MoveEvent of the search's action space can move ``eid`` at all: to a
        candidate date in the week the event is in (a grid lists only its own week or day)."""
        week = clock.week_start(event(world, s, eid)["date"]) if eid in world.entities else ""
        return week in move_weeks

    def edit(s: CalendarState, eid: str, look: bool) -> int:
        """Actions until an edit of ``eid`` is saved: the editor's save (card, EditEvent,
        SaveEvent), or its MoveEvent where a day or week grid lists it and a candidate date
        (else one action first)."""
        if s.surface == "EventEditor" and s.editing == eid:
            return 1
        if not movable(s, eid):
            return card(s, eid, look) + 2
        here = s.surface in GRID_SURFACES and (not look or eid in clickable(s, world)) \
            and any(d in view_days(s, world) for d in move_dates)
        return min(1 if here else 2, card(s, eid, look) + 2)

    def moves(s: CalendarState, slot: Slot | None, own: str) -> float:
        """Actions to clear ``slot`` (date, start, end) for event ``own`` so that its save
        does not clash: each other event overlapping it must be edited away first (one edit
        each, :func:`edit` for the farthest); a new event overlapping it is there for good
        (new events never open), as is a hard negative (editing it is final)."""
        if slot is None:
            return 0.0
        date, span = slot[0], (clock.minutes(slot[1]), clock.minutes(slot[2]))
        if any(c[2] == date and clock.overlaps(span, (clock.minutes(c[3]),
                                                      clock.minutes(c[4])))
               for c in s.created):
            return math.inf
        edited = {e[0]: e for e in s.edits}
        blocking = [e[0] for e in s.edits if e[0] != own and e[2] == date
                    and clock.overlaps(span, (clock.minutes(e[3]), clock.minutes(e[4])))]
        blocking += [eid for eid, start, end in on_date.get(date, ())
                     if eid != own and eid not in edited and clock.overlaps(span, (start, end))]
        if not blocking:
            return 0.0
        if any(eid in frozen for eid in blocking):
            return math.inf
        further = [1 if movable(s, eid) else 2 for eid in blocking]
        return max(edit(s, eid, True) for eid in blocking) + sum(further) - max(further)

    def bound(state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, CalendarState)
        s = state
        for c in final:
            if not check_condition(c, facts):
                return math.inf
        h = float(unmet(rest, facts))
        need: dict[str, int] = {}
        for c, eid in replies:
            if not check_condition(c, facts):
                need[eid] = 1  # the last reply counts: one reply settles an event
        if need:
            navs = {eid: card(s, eid, look) for eid in need}
            h = max(h, max(navs[e] + k for e, k in need.items()),
                    sum(need.values()) + min(navs.values()))
        for eid, group in edits.items():
            if unmet(group, facts):
                blocked = moves(s, edit_slots[eid], eid)
                if blocked:  # the moves come first, then this event's edit (or its move)
                    h = max(h, blocked + (1 if movable(s, eid) else 3))
                else:
                    h = max(h, edit(s, eid, look))
        if created and unmet(created, facts):
            blocked = moves(s, new_slot, "")
            if blocked:  # the moves, then a fresh editor and its save
                h = max(h, blocked + 2)
            elif s.surface == "EventEditor":
                h = max(h, 1 if not s.editing else 3)
            else:
                h = max(h, 2 if s.surface in HEADER_SURFACES else 3)
        return float(h)

    return bound


def calendar_informed(p: Problem) -> InformedBound:
    """Calendar's bound on the informed distance (:mod:`webmdp.tasks.informed`): an event's
    detail fields show on its card (EventDetail) only, which OpenEvent opens from a header
    surface (the editor of an event, opened from its card, closes back onto it). Three kinds
    of action, counted apart: one OpenEvent per event whose detail is unseen; a way off the
    card before each OpenEvent but a first one taken from a header surface or a new event's
    editor (CloseEvent, or EditEvent and the editor's way out: never an OpenEvent,
    CreateEvent, PickSlot or a new event's SaveEvent); and, on a task that only creates an
    event, the editor's opening (CreateEvent or PickSlot, on a header surface) and its
    SaveEvent, while the event is still unsaved. Other tasks count the first two, and the
    replies: one RespondToEvent per event still answered wrong (on its card, which it does
    not leave: the event is one to open too), and in a new event's editor its way out before
    any OpenEvent (CloseEvent or SaveEvent: neither leaves a card); on a header surface that
    lists none of the events to open, the action that changes what it lists."""
    conds = p.task.verifier
    only_creates = bool(conds) and all(c.fact.split(".")[0] == "created" for c in conds)
    replies = [c for c in conds if c.fact.startswith("rsvp.") and c.fact.count(".") == 1
               and c.op in ("contains", "not_contains")]

    def bound(state: State, facts: Facts, unseen: Unseen, look: bool) -> float:
        assert isinstance(state, CalendarState)
        here = state.focus if state.surface == "EventDetail" else state.editing
        answer = {str(c.value) for c in replies if not check_condition(c, facts)}
        events = ({e for _, eids, _ in unseen for e in eids} | answer) - {here}
        h = float(len(answer))
        if only_creates and unmet(conds, facts):
            h = 1 if state.surface == "EventEditor" and not state.editing else 2
        elif events and state.surface == "EventEditor" and not state.editing:
            h += 1
        elif events and look and state.surface in HEADER_SURFACES:
            # the first OpenEvent from here needs a listing that shows one of them
            listed = results(state, p.world) if state.surface == "SearchResults" else \
                clickable(state, p.world)
            h += events.isdisjoint(listed)
        away = state.surface == "EventDetail" or bool(state.editing)
        return h + visits(len(events), not away)

    return bound


Slot = tuple[str, str, str]


def _slot(group: list[Condition]) -> Slot | None:
    """(date, start, end) a saved event must not clash at, when its conditions ask for no
    conflict and fix all three; else None (no clash reasoning)."""
    eq = {c.fact.rpartition(".")[2]: c.value for c in group if c.op == "eq"}
    if eq.get("conflict") is not False or not all(k in eq for k in ("date", "start", "end")):
        return None
    return str(eq["date"]), str(eq["start"]), str(eq["end"])
