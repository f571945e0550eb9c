"""Calendar semantic state: which view and date are shown, hidden calendars, the open event,
the editor, and what this episode changed (replies, edits, new events)."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.sites._common.catalog import BrowseState

EventData = tuple[str, str, str, str, str, tuple[str, ...]]
"""(event id, title, date, start, end, attendees): an edited or a newly created event."""


@dataclass(frozen=True)
class CalendarState(BrowseState):
    view: str = "week"
    """The calendar view (day / week / month) the detail card and the editor return to."""
    anchor: str = ""
    """The date the view shows (its week or month); "today" until navigated."""
    hidden: tuple[str, ...] = ()
    """Calendars unticked under "My calendars", in declaration order."""
    origin: str = ""
    """The surface EventDetail / EventEditor was opened from, where closing returns."""
    editing: str = ""
    """The event id the editor edits; empty for a new event."""
    slot: tuple[str, str] = ("", "")
    """(date, start) a click on an empty grid cell put into a new event's form."""
    replies: tuple[tuple[str, str], ...] = ()
    """(event id, yes / no / maybe) in the order given; the last reply per event counts."""
    edits: tuple[EventData, ...] = ()
    created: tuple[EventData, ...] = ()
    clashes: tuple[str, ...] = ()
    """Ids of saved (new or edited) events that overlap another event when saved."""
