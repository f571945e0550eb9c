"""Calendar MDP: counts from WebSTEP Tables 4/5/7, the seeded "today", views and temporal
navigation, search, calendar filtering, replies, edits, new events and their conflict check,
facts and invalid actions."""

from __future__ import annotations

import collections

import pytest

from support import play, site_tasks
from webmdp.core import Action, SurfaceKind, World
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.sites.calendar import clock
from webmdp.sites.calendar.state import CalendarState
from webmdp.tasks import Task

SITE = get_site("calendar")


def _world(task: Task) -> World:
    return World.from_dict(task.world)


def _run(world: World, *actions: Action) -> CalendarState:
    s = play(SITE, world, *actions)
    assert isinstance(s, CalendarState)
    return s


def _ids(world: World, s: CalendarState) -> list[str]:
    return [e.id for e in SITE.observe(s, world).entities]


def test_declared_counts_match_the_paper() -> None:
    kinds = {s.name: s.kind for s in SITE.surfaces}
    assert len(kinds) == 6
    assert kinds["WeekView"] == kinds["DayView"] == kinds["MonthView"] == SurfaceKind.CARD
    assert kinds["EventDetail"] == SurfaceKind.DETAIL
    assert kinds["EventEditor"] == SurfaceKind.COMMIT
    assert len(SITE.actions) >= 14
    assert len(SITE.templates) >= 6
    assert len(SITE.visibility.card_fields) == 8
    assert len(SITE.visibility.detail_fields) == 6
    skills = {a.skill for a in SITE.actions}
    for s in ("temporal_navigation", "view_switching", "backtrack_navigation", "search_query",
              "calendar_filtering", "event_inspection", "event_creation", "event_editing",
              "field_entry", "commit_timing"):
        assert s in skills


def test_today_comes_from_the_seed_and_tasks_spread_over_the_year() -> None:
    tasks = site_tasks("calendar")
    todays = {t.world["meta"]["today"] for t in tasks}
    assert len(todays) > 60
    for t in tasks:
        assert t.world["meta"]["today"] == t.params["today"]


def test_hard_negative_counts_are_spread_evenly_per_template() -> None:
    counts: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
    for t in site_tasks("calendar"):
        counts[t.template][len(t.hard_negatives)] += 1
    assert len(counts) == 6 and sum(sum(c.values()) for c in counts.values()) == 180
    for c in counts.values():
        assert set(c) == {0, 1, 2, 3} and max(c.values()) - min(c.values()) <= 1


def test_fillers_never_overlap_each_other() -> None:
    w = _world(site_tasks("calendar")[0])
    pinned = {site_tasks("calendar")[0].target, *site_tasks("calendar")[0].hard_negatives}
    for e in w.entities.values():
        if e["id"] not in pinned:
            assert not e["conflicts"], e


def test_week_day_and_month_views_and_temporal_navigation() -> None:
    w = _world(site_tasks("calendar")[10])
    today = w.meta["today"]
    s = _run(w)
    week = clock.week_days(today)
    assert all(e.fields["date"] in week for e in SITE.observe(s, w).entities)
    s = _run(w, Action("NextPeriod"))
    assert s.anchor == clock.shift(today, 7)
    s = _run(w, Action("NextPeriod"), Action("GoToToday"))
    assert s.anchor == today
    s = _run(w, Action("SwitchView", {"view": "day"}), Action("PrevPeriod"))
    assert s.surface == "DayView" and s.anchor == clock.shift(today, -1)
    assert all(e.fields["date"] == s.anchor for e in SITE.observe(s, w).entities)
    s = _run(w, Action("SwitchView", {"view": "month"}), Action("NextPeriod"))
    assert s.surface == "MonthView" and s.anchor == clock.add_months(today, 1)
    s = _run(w, Action("OpenDay", {"date": week[3]}))
    assert (s.surface, s.view, s.anchor) == ("DayView", "day", week[3])


def test_month_cells_show_three_events_then_more() -> None:
    for t in site_tasks("calendar")[::15]:
        w = _world(t)
        s = _run(w, Action("SwitchView", {"view": "month"}))
        obs = SITE.observe(s, w)
        per_day = collections.Counter(str(e.fields["date"]) for e in obs.entities)
        openable = [a.params["event_id"] for a in obs.available if a.name == "OpenEvent"]
        assert len(openable) == sum(min(3, n) for n in per_day.values())


def test_calendar_toggles_hide_and_show_events() -> None:
    w = _world(site_tasks("calendar")[70])
    s = _run(w, Action("ToggleCalendar", {"calendar": "Work"}))
    assert s.hidden == ("Work",)
    assert all(e.fields["calendar"] != "Work" for e in SITE.observe(s, w).entities)
    s = SITE.step(s, Action("ToggleCalendar", {"calendar": "Work"}), w)
    assert isinstance(s, CalendarState)
    assert s.hidden == () and _ids(w, s) == _ids(w, _run(w))


def test_search_lists_matching_events_in_date_order() -> None:
    task = site_tasks("calendar")[1]
    w = _world(task)
    s = _run(w, Action("SearchEvents", {"query": task.params["title"]}))
    obs = SITE.observe(s, w)
    assert obs.surface == "SearchResults"
    ids = [e.id for e in obs.entities]
    assert task.target in ids and set(task.hard_negatives) <= set(ids)
    keys = [(e.fields["date"], e.fields["start"]) for e in obs.entities]
    assert keys == sorted(keys)
    back = SITE.step(s, Action("ClearSearch"), w)
    assert back.surface == "WeekView"


def test_detail_fields_only_on_the_event_card() -> None:
    task = site_tasks("calendar")[2]
    w = _world(task)
    s = _run(w, Action("SearchEvents", {"query": task.params["title"]}))
    for e in SITE.observe(s, w).entities:
        assert not set(SITE.visibility.detail_fields) & set(e.fields)
    s = SITE.step(s, Action("OpenEvent", {"event_id": task.target}), w)
    card = SITE.observe(s, w).entities[0]
    assert set(SITE.visibility.detail_fields) <= set(card.fields)
    closed = SITE.step(s, Action("CloseEvent"), w)
    assert closed.surface == "SearchResults"


def test_reply_edit_and_create_change_the_facts() -> None:
    task = site_tasks("calendar")[3]
    w = _world(task)
    eid = task.target
    s = _run(w, Action("SearchEvents", {"query": task.params["title"]}),
             Action("OpenEvent", {"event_id": eid}),
             Action("RespondToEvent", {"response": "maybe"}),
             Action("RespondToEvent", {"response": "no"}))
    f = SITE.facts(s)
    assert f["rsvp.no"] == [eid] and f["rsvp.maybe"] == []
    s = SITE.step(s, Action("EditEvent"), w)
    assert s.surface == "EventEditor"
    day = clock.shift(w.meta["today"], 3)
    s = SITE.step(s, Action("SaveEvent", {"title": "Moved", "date": day, "start": "2:30 pm",
                                          "end": "15:15", "attendees": "priya patel, Tom Becker"}),
                  w)
    f = SITE.facts(s)
    assert f["edited"] == [eid] and f[f"event.{eid}.date"] == day
    assert (f[f"event.{eid}.start"], f[f"event.{eid}.end"]) == ("14:30", "15:15")
    assert f[f"event.{eid}.attendees"] == ["Priya Patel", "Tom Becker"]
    assert s.surface == "WeekView" and s.anchor == day
    assert eid in _ids(w, s)
    s = SITE.step(s, Action("CreateEvent"), w)
    s = SITE.step(s, Action("SaveEvent", {"title": "Clash", "date": day, "start": "14:00",
                                          "end": "15:00"}), w)
    f = SITE.facts(s)
    assert f["created.count"] == 1 and f["created.title"] == "Clash"
    assert f["created.conflict"] is True and f["created.attendees"] == []
    assert "NEW-001" in _ids(w, s)


def test_pick_slot_prefills_the_new_event() -> None:
    w = _world(site_tasks("calendar")[5])
    start = SITE.initial_state(w)
    slots = [a for a in SITE.observe(start, w).available if a.name == "PickSlot"]
    pick = next(a for a in slots if a.params["start"] == "09:00")
    day = pick.params["date"]
    s = _run(w, pick)
    form = SITE.observe(s, w).context["form"]
    assert (s.surface, form["date"], form["start"], form["end"]) == ("EventEditor", day,
                                                                     "9:00 AM", "10:00 AM")
    assert SITE.step(s, Action("CloseEvent"), w).surface == "WeekView"
    busy = next(e for e in SITE.observe(start, w).entities if e.fields["start"] >= "08:00")
    hour = str(busy.fields["start"])[:2] + ":00"
    with pytest.raises(InvalidAction):
        SITE.step(start, Action("PickSlot", {"date": busy.fields["date"], "start": hour}), w)


@pytest.mark.parametrize("params", [
    {"title": "", "date": "2026-03-10", "start": "10:00", "end": "11:00"},
    {"title": "x", "date": "March 10", "start": "10:00", "end": "11:00"},
    {"title": "x", "date": "2026-03-10", "start": "11:00", "end": "10:00"},
    {"title": "x", "date": "2026-03-10", "start": "25:00", "end": "26:00"},
])
def test_editor_rejects_bad_forms(params: dict) -> None:
    w = _world(site_tasks("calendar")[0])
    s = _run(w, Action("CreateEvent"))
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("SaveEvent", params), w)


@pytest.mark.parametrize("action", [
    Action("RespondToEvent", {"response": "yes"}),
    Action("EditEvent"),
    Action("SaveEvent", {"title": "x", "date": "2026-03-10", "start": "10:00", "end": "11:00"}),
    Action("CloseEvent"),
    Action("ClearSearch"),
    Action("OpenEvent", {"event_id": "EVT-999"}),
    Action("SwitchView", {"view": "year"}),
])
def test_invalid_actions_on_the_week_view_raise(action: Action) -> None:
    w = _world(site_tasks("calendar")[0])
    with pytest.raises(InvalidAction):
        SITE.step(SITE.initial_state(w), action, w)


def test_commits_verify_every_parameter() -> None:
    by_tpl = {t.template: t for t in site_tasks("calendar")}
    created = {c.fact for c in by_tpl["prep_before_event"].verifier}
    assert {"created.title", "created.date", "created.start", "created.end",
            "created.attendees", "created.conflict"} <= created
    moved = by_tpl["reschedule_by_guest"]
    facts = {c.fact for c in moved.verifier}
    assert {f"event.{moved.target}.{k}" for k in ("date", "start", "end", "attendees",
                                                   "conflict")} <= facts


def test_prep_moves_after_the_meeting_when_the_half_hour_before_is_taken() -> None:
    tasks = [t for t in site_tasks("calendar") if t.template == "prep_before_event"]
    assert {t.params["blocked"] for t in tasks} == {True, False}
    for t in tasks:
        w = _world(t)
        target = w.entities[t.target]
        start = t.params["start"]
        assert (start == target["end"]) == t.params["blocked"]
        assert (t.params["end"] == target["start"]) == (not t.params["blocked"])


def test_conflict_template_targets_the_only_clash_free_invitation() -> None:
    for t in site_tasks("calendar"):
        if t.template != "accept_without_conflict":
            continue
        w = _world(t)
        assert not w.entities[t.target]["conflicts"]
        assert all(w.entities[h]["conflicts"] for h in t.hard_negatives)
