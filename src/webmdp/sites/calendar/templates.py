"""Calendar task templates (WebSTEP H.1 style), 6 families as in Table 4.

Building blocks shared by the Calendar templates: "today", event groups placed on distinct
days, reserved free slots, the E.3 oracle prefix (search the title, open hard negatives listed
above the target, then the target) and the editor's form values."""

from __future__ import annotations

import random
import sys
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.templates import PinnedTemplate, collect, untouched
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.calendar import clock
from webmdp.sites.calendar import vocab as V
from webmdp.sites.calendar.world import N_EVENTS, WINDOW, draw_today
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions, membership

Pins = tuple[tuple[Entity, ...], dict[str, Any]]
"""The pinned events (and reserved free slots), and the instruction's parameters."""


def spec(pinned: tuple[Entity, ...], avoid: tuple[Entity, ...] = ()) -> WorldSpec:
    events = sum(1 for p in pinned if p.get("kind") != "free")
    return WorldSpec(pinned, N_EVENTS - events, avoid)


def pick_title(rng: random.Random, calendars: tuple[str, ...] = ("Work", "Team")) -> tuple[str,
                                                                                           str]:
    cal = rng.choice(calendars)
    return cal, rng.choice(V.TITLES[cal])


def group(rng: random.Random, today: str, base: Entity, extra: Entity,
          negatives: list[Entity], days: list[str] | None = None) -> list[Entity]:
    """Target (carrying ``today``) and hard negatives sharing ``base``, each on its own day
    (from ``days``, else the five-week window) at a working-hours time."""
    pool = days or [d for d in (clock.shift(today, n) for n in range(WINDOW[0] + 1, WINDOW[1]))
                    if workday(d)]
    dates = rng.sample(pool, len(negatives) + 1)
    out = []
    for ent, d in zip(pin_group(rng, base, extra, negatives), dates, strict=True):
        start = rng.randrange(10 * 60, 16 * 60, 30)
        out.append({**ent, "date": d, "start": clock.hhmm(start),
                    "duration": ent.get("duration") or rng.choice((30, 45, 60))})
    out[0]["today"] = today
    return out


def workday(iso: str) -> bool:
    return clock.day(iso).weekday() < 5


def free(d: str, start: int, end: int) -> Entity:
    """A slot the world keeps empty (where the instruction schedules something)."""
    return {"kind": "free", "date": d, "start": clock.hhmm(start), "end": clock.hhmm(end)}


def new_slot(rng: random.Random, today: str, duration: int,
             taken: list[Entity]) -> tuple[str, int, int]:
    """A date and time ahead of today for a new or moved event, on a day none of the
    ``taken`` (pinned) events is on, so nothing pinned can clash with it."""
    busy = {e["date"] for e in taken}
    d = rng.choice([x for x in (clock.shift(today, n) for n in range(1, 21))
                    if x not in busy and workday(x)])
    s = rng.randrange(9 * 60, 17 * 60 - duration + 1, 30)
    return d, s, s + duration


def save(event: dict[str, Any], guests: list[str]) -> Action:
    """The editor's Save with every field the form submits (a blank guests box sends none)."""
    params = {k: event[k] for k in ("title", "date", "start", "end")}
    return Action("SaveEvent", {**params, "attendees": ", ".join(guests)} if guests else params)


class EventTemplate(PinnedTemplate):
    """Same-titled events (and calendar) told apart by a detail field: search the title, open
    the hard negatives listed above the target, then the target."""

    card: tuple[str, ...] = ("title",)
    opener = ("OpenEvent", "CloseEvent", "event_id")

    def pins(self, rng: random.Random, today: str, title: str, cal: str, k: int) -> Pins:
        raise NotImplementedError

    def titles(self, rng: random.Random) -> tuple[str, str]:
        return pick_title(rng)

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        today = draw_today(rng)
        cal, title = self.titles(rng)
        pinned, params = self.pins(rng, today, title, cal, hard_negatives)
        params = {"title": title, "calendar": cal, "today": today, **params}
        return self.compose(params, spec(pinned, ({"title": title},)))

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        raise NotImplementedError

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return e["title"] == p["title"] and self.accept(e, p)

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("SearchEvents", {"query": p["title"]})]


def people(rng: random.Random, k: int, exclude: tuple[str, ...] = ()) -> list[str]:
    return rng.sample([p for p in V.PEOPLE if p not in exclude], k)


# Templates whose commit is a reply to an invitation (Going? Yes / No / Maybe): find the one
# event among same-titled ones by a detail-only field, then answer it.
class ReplyTemplate(EventTemplate):
    """Target and hard negatives share the title (and calendar); the reply is the commit."""

    commit_action, commit_with = "RespondToEvent", {"response": "response"}

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        r = d.params["response"]
        return membership(d, f"rsvp.{r}", f"answered {V.RSVP_LABELS[r]!r}")


class ReplyByOrganizer(ReplyTemplate):
    """Detail-only target: the organiser is only on the event card."""

    name = "reply_by_organizer"
    description = "Search same-titled invitations, check organisers, reply to one"
    detail = ("organizer",)
    sentence = ("Several invitations on your calendar are titled '{title}'. Reply '{response}' "
                "to the one organised by {organizer}.")

    def pins(self, rng: random.Random, today: str, title: str, cal: str, k: int) -> Pins:
        orgs = people(rng, k + 1)
        pinned = group(rng, today, {"title": title, "calendar": cal, "rsvp": "pending"},
                       {"organizer": orgs[0]}, [{"organizer": o} for o in orgs[1:]])
        return tuple(pinned), {"organizer": orgs[0], "response": rng.choice(V.RESPONSES)}

    def words(self, p: dict[str, Any]) -> dict[str, Any]:
        return {**p, "response": V.RSVP_LABELS[p["response"]]}

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["organizer"] == p["organizer"])


class AcceptWithoutConflict(ReplyTemplate):
    """Conflict detection: each hard negative overlaps another event (a companion pinned on
    its day); the detail card warns of the clash and the grid draws them side by side."""

    name = "accept_without_conflict"
    description = "Among same-titled invitations, accept the one that clashes with nothing"
    detail = ("conflicts",)
    sentence = ("You were invited to '{title}' more than once. Accept (reply 'Yes' to) the "
                "'{title}' that does not clash with any other event on your calendar.")

    def pins(self, rng: random.Random, today: str, title: str, cal: str, k: int) -> Pins:
        pinned = group(rng, today, {"title": title, "calendar": cal, "rsvp": "pending"},
                       {}, [{} for _ in range(k)])
        blockers = []
        for hn in pinned[1:]:
            bcal = rng.choice(V.CALENDARS)
            start = clock.minutes(hn["start"]) + rng.choice((-30, -15, 0, 15))
            blockers.append({"role": "companion", "calendar": bcal, "date": hn["date"],
                             "start": clock.hhmm(start), "duration": 60, "rsvp": "yes",
                             "title": rng.choice([t for t in V.TITLES[bcal] if t != title])})
        return (*pinned, *blockers), {"response": "yes"}

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return not e["conflicts"]


class DeclineNextWeek(ReplyTemplate):
    """Temporal navigation and calendar filtering: next week, only one calendar; the agenda
    (description) tells the same-titled events apart; a same-titled event about the same topic
    sits in another calendar."""

    name = "decline_next_week_in_calendar"
    description = "Go to next week, show one calendar, decline the event about a topic"
    card = ("title", "calendar")
    detail = ("description",)
    sentence = ("Next week your {calendar} calendar has '{title}' on it. Decline (reply 'No' to) "
                "the {calendar} calendar's '{title}' whose description is about {topic}.")

    def titles(self, rng: random.Random) -> tuple[str, str]:
        return pick_title(rng, V.CALENDARS)

    def pins(self, rng: random.Random, today: str, title: str, cal: str, k: int) -> Pins:
        week = clock.week_days(clock.shift(today, 7))
        topics = rng.sample(V.TOPICS, k + 1)
        pinned = group(rng, today, {"title": title, "calendar": cal, "rsvp": "yes"},
                       {"topic": topics[0]}, [{"topic": t} for t in topics[1:]],
                       days=[d for d in week if workday(d)])
        taken = {p["date"] for p in pinned}
        decoys = tuple({"role": "filler", "title": title, "topic": topics[0], "rsvp": "yes",
                        "calendar": rng.choice([c for c in V.CALENDARS if c != cal]),
                        "date": d, "start": clock.hhmm(rng.randrange(8 * 60, 10 * 60, 30)),
                        "duration": 30}
                       for d in rng.sample([d for d in week if d not in taken], 1))
        return (*pinned, *decoys), {"topic": topics[0], "response": "no"}

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("NextPeriod"), *(Action("ToggleCalendar", {"calendar": c})
                                        for c in V.CALENDARS if c != p["calendar"])]

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        week = clock.week_days(clock.shift(p["today"], 7))
        return e["calendar"] == p["calendar"] and e["topic"] == p["topic"] and e["date"] in week


# Templates whose commit is the editor's Save: move an event, or create one from what an
# event's card says (its guests, its time). Every saved field is verified on its own
# (``commit_conditions``), and so is the conflict check.
class SaveTemplate(EventTemplate):
    """Same-titled events told apart by a detail field; the editor's Save commits."""

    commit_action = "SaveEvent"
    opens: tuple[Action, ...] = (Action("CloseEvent"), Action("CreateEvent"))
    """How the editor is opened from the target's card."""

    def expected(self, d: Draft, world: World) -> dict[str, Any]:
        """The saved event's fields: title, date, start, end, guests (sorted)."""
        raise NotImplementedError

    def words(self, p: dict[str, Any]) -> dict[str, Any]:
        """``{span}``: the new event's day and times."""
        span = f"{clock.clock(p['start'])} to {clock.clock(p['end'])}"
        return {**p, "span": f"{clock.long_day(p['date'])}, {span}"}

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [*self.opens, save(self.expected(d, world), self.form_guests(d, world))]

    def form_guests(self, d: Draft, world: World) -> list[str]:
        """The guests typed into the form, in the order typed."""
        return list(self.expected(d, world)["attendees"])

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return commit_conditions("created", {**self.expected(d, world), "conflict": False},
                                 "new event's")


class RescheduleByGuest(SaveTemplate):
    """Edit: the guest list (detail-only) picks the event; date and times change, title and
    guests stay; the hard negatives stay untouched."""

    name = "reschedule_by_guest"
    description = "Find the same-titled meeting a person is invited to and move it"
    detail, opens = ("attendees",), (Action("EditEvent"),)
    sentence = ("Move the '{title}' meeting that {guest} is invited to, so that it takes place "
                "on {span}.")

    def pins(self, rng: random.Random, today: str, title: str, cal: str, k: int) -> Pins:
        who = people(rng, 1)[0]
        others = [x for x in V.PEOPLE if x != who]
        duration = rng.choice((30, 60))
        pinned = group(rng, today, {"title": title, "calendar": cal, "duration": duration},
                       {"attendees": [who, *rng.sample(others, rng.randint(1, 3))],
                        "organizer": rng.choice(others)},
                       [{"attendees": rng.sample(others, rng.randint(2, 4)),
                         "organizer": rng.choice(others)} for _ in range(k)])
        d, s, e = new_slot(rng, today, duration, pinned)
        return (*pinned, free(d, s, e)), {"guest": who, "date": d, "start": clock.hhmm(s),
                                          "end": clock.hhmm(e)}

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return p["guest"] in e["attendees"]

    def expected(self, d: Draft, world: World) -> dict[str, Any]:
        p = d.params
        return {"title": p["title"], "date": p["date"], "start": p["start"], "end": p["end"],
                "attendees": sorted(world.entities[d.target]["attendees"])}

    def form_guests(self, d: Draft, world: World) -> list[str]:
        return list(world.entities[d.target]["attendees"])

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        moved = commit_conditions(f"event.{d.target}", {**self.expected(d, world),
                                                        "conflict": False}, "moved event's")
        return [*moved, *untouched(d, "edited", "edited")]


class FollowUpSameGuests(SaveTemplate):
    """Creation from extracted information: the organiser (detail) picks the event, its
    organiser and guests (detail) become the new event's guests."""

    name = "follow_up_same_guests"
    description = "Create a follow-up inviting everyone of the meeting a person organised"
    detail = ("organizer", "attendees")
    sentence = ("Create an event '{new_title}' on {span}, and invite the same people as the "
                "'{title}' organised by {organizer}: its organiser and all of its guests.")

    def pins(self, rng: random.Random, today: str, title: str, cal: str, k: int) -> Pins:
        orgs = people(rng, k + 1)
        pinned = group(rng, today, {"title": title, "calendar": cal}, {"organizer": orgs[0]},
                       [{"organizer": o} for o in orgs[1:]])
        duration = rng.choice((30, 45, 60))
        d, s, e = new_slot(rng, today, duration, pinned)
        return (*pinned, free(d, s, e)), {
            "organizer": orgs[0], "new_title": f"{title} {rng.choice(V.NEW_TITLE_SUFFIX)}",
            "date": d, "start": clock.hhmm(s), "end": clock.hhmm(e)}

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["organizer"] == p["organizer"])

    def expected(self, d: Draft, world: World) -> dict[str, Any]:
        p, t = d.params, world.entities[d.target]
        return {"title": p["new_title"], "date": p["date"], "start": p["start"],
                "end": p["end"], "attendees": sorted([t["organizer"], *t["attendees"]])}


class PrepBeforeEvent(SaveTemplate):
    """Conflict check at creation: a 30-minute prep right before the event, or right after it
    when the half hour before is taken (a companion event ends exactly at its start, so the
    event's own card shows no clash: only the day's grid tells)."""

    name = "prep_before_event"
    description = "Schedule a prep before the meeting about a topic, after it if that clashes"
    detail = ("description",)
    sentence = ("Add a 30-minute event '{title} prep' with {guests[0]} and {guests[1]} right "
                "before your '{title}' about {topic}; if that half hour is already taken by "
                "another event, put it right after the meeting ends instead.")

    def pins(self, rng: random.Random, today: str, title: str, cal: str, k: int) -> Pins:
        topics = rng.sample(V.TOPICS, k + 1)
        pinned = group(rng, today, {"title": title, "calendar": cal}, {"topic": topics[0]},
                       [{"topic": t} for t in topics[1:]])
        target = pinned[0]
        s, dur = clock.minutes(target["start"]), target["duration"]
        blocked = rng.random() < 0.5
        extra: tuple[Entity, ...]
        if blocked:
            bcal = rng.choice(V.CALENDARS)
            blocker = {"role": "companion", "calendar": bcal, "date": target["date"],
                       "start": clock.hhmm(s - 60), "duration": 60, "rsvp": "yes",
                       "title": rng.choice([t for t in V.TITLES[bcal] if t != title])}
            extra = (blocker, free(target["date"], s + dur, s + dur + 30))
            start, end = s + dur, s + dur + 30
        else:
            extra = (free(target["date"], s - 30, s),)
            start, end = s - 30, s
        return (*pinned, *extra), {"topic": topics[0], "guests": people(rng, 2),
                                   "date": target["date"], "start": clock.hhmm(start),
                                   "end": clock.hhmm(end), "blocked": blocked}

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["topic"] == p["topic"])

    def expected(self, d: Draft, world: World) -> dict[str, Any]:
        p = d.params
        return {"title": f"{p['title']} prep", "date": p["date"], "start": p["start"],
                "end": p["end"], "attendees": sorted(p["guests"])}

    def form_guests(self, d: Draft, world: World) -> list[str]:
        return list(d.params["guests"])


TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
