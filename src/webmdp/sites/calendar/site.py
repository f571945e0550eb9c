"""The Calendar site: a Google Calendar-like scheduling app (WebSTEP Tables 4, 5, 7)."""

from __future__ import annotations

from webmdp.core.spec import ActionSpec, ParamSpec, declare_action
from webmdp.sites._common.site import CO, FI, INS, NAV, SE, ModularSite, SiteLogic
from webmdp.sites._common.tasklib import shown
from webmdp.sites.calendar import mdp, observe
from webmdp.sites.calendar import vocab as V
from webmdp.sites.calendar.bound import calendar_bound, calendar_informed
from webmdp.sites.calendar.state import CalendarState
from webmdp.sites.calendar.world import CARD_FIELDS, DETAIL_FIELDS, generate_world

DATE = ParamSpec("date", "str")
_a = declare_action

ACTIONS: tuple[ActionSpec, ...] = (
    _a("PrevPeriod", "temporal_navigation", NAV, doc="the < arrow: previous day, week or month"),
    _a("NextPeriod", "temporal_navigation", NAV, doc="the > arrow: next day, week or month"),
    _a("GoToToday", "temporal_navigation", NAV, doc="the Today button"),
    _a("GoToDate", "temporal_navigation", NAV, DATE, doc="a day of the mini calendar"),
    _a("SwitchView", "view_switching", NAV, ParamSpec("view", "choice", V.VIEWS)),
    _a("OpenDay", "view_switching", NAV, DATE, doc="a day header or month-cell number"),
    _a("CloseEvent", "backtrack_navigation", NAV, doc="close the event card or the editor"),
    _a("SearchEvents", "search_query", SE, ParamSpec("query", "str", text=True)),
    _a("ClearSearch", "search_query", SE, doc="leave the search results"),
    _a("ToggleCalendar", "calendar_filtering", FI,
       ParamSpec("calendar", "choice", V.CALENDARS), doc="show / hide one of My calendars"),
    _a("OpenEvent", "event_inspection", INS, ParamSpec("event_id", "entity")),
    _a("CreateEvent", "event_creation", CO, changes_state=False, doc="the Create button"),
    _a("PickSlot", "commit_timing", CO, DATE, ParamSpec("start", "str"), changes_state=False,
       doc="click an empty hour of the grid: a new event at that time"),
    _a("EditEvent", "event_editing", CO, changes_state=False, doc="the pencil on the card"),
    _a("SaveEvent", "field_entry", CO,
       ParamSpec("title", "str", text=True), ParamSpec("date", "str", text=True),
       ParamSpec("start", "str", text=True), ParamSpec("end", "str", text=True),
       ParamSpec("attendees", "str", text=True, optional=True),
       doc="the editor's form: title, date, times, guests"),
    _a("MoveEvent", "event_editing", CO, ParamSpec("event_id", "entity"), DATE,
       ParamSpec("start", "str"),
       doc="drag an event chip onto another hour of the day or week grid (keeps its length)"),
    _a("RespondToEvent", "event_editing", CO, ParamSpec("response", "choice", V.RESPONSES),
       doc="Going? Yes / No / Maybe"),
)


class CalendarSite(ModularSite[CalendarState]):
    name = "calendar"
    title = "Calendar"
    entity_prefix = "EVT"
    example_params = {"query": "review", "title": "Project sync", "date": "2026-03-10",
                      "start": "10:00", "end": "11:00", "attendees": "Priya Patel"}
    surfaces = observe.SURFACES
    actions = ACTIONS
    entity_fields = {  # kind (id prefix) -> field -> type: webmdp.core.entities
        "EVT": {"attendees": "list", "calendar": "str", "conference": "str", "conflicts": "list",
            "date": "str", "description": "str", "duration": "int", "end": "str", "id": "str",
            "location": "str", "organizer": "str", "reminder": "str", "rsvp": "str",
            "start": "str", "title": "str", "topic": "str"},
    }
    # evidence_gap (tasks.informed): an event's detail fields show only in its own dialog, which
    # closes before another opens.
    # (3: only a screen showing or naming an entity leads to its unread detail fields.)
    evidence_gap = {"EVT": 3}
    visibility = shown(CARD_FIELDS, DETAIL_FIELDS, **observe.SURFACE_FIELDS)

    state_class = CalendarState
    start_surface = "WeekView"
    back_actions = {"EventDetail": "CloseEvent", "EventEditor": "CloseEvent",
                    "SearchResults": "ClearSearch"}
    logic = SiteLogic(generate_world, mdp.transition, observe.observe, observe.facts,
                      observe.available)
    distance_bound = staticmethod(calendar_bound)
    informed_bound = staticmethod(calendar_informed)
