"""Templates whose commit is the editor's Save: move an event, or create one from what an
event's card says (its guests, its time). Every saved field is verified on its own
(``commit_conditions``), and so is the conflict check."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.spec import Action
from webmdp.sites._common.templates import untouched
from webmdp.sites.calendar import clock
from webmdp.sites.calendar import vocab as V
from webmdp.sites.calendar.templates.common import (
    EventTemplate,
    Pins,
    free,
    group,
    new_slot,
    people,
    save,
    when,
)
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions


class SaveTemplate(EventTemplate):
    """Same-titled events told apart by a detail field; the editor's Save commits."""

    commit_action = "SaveEvent"

    def expected(self, d: Draft, world: World) -> dict[str, Any]:
        """The saved event's fields: title, date, start, end, guests (sorted)."""
        raise NotImplementedError

    def commit(self, d: Draft, world: World) -> list[Action]:
        e = self.expected(d, world)
        guests = self.form_guests(d, world)
        return [Action("CloseEvent"), Action("CreateEvent"),
                save(e["title"], e["date"], clock.minutes(e["start"]),
                     clock.minutes(e["end"]), guests)]

    def form_guests(self, d: Draft, world: World) -> list[str]:
        return list(self.expected(d, world)["attendees"])

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return commit_conditions("created", {**self.expected(d, world), "conflict": False},
                                 "new event's")


class RescheduleByGuest(SaveTemplate):
    """Edit: the guest list (detail-only) picks the event; date and times change, title and
    guests stay; the hard negatives stay untouched."""

    name = "reschedule_by_guest"
    description = "Find the same-titled meeting a person is invited to and move it"
    detail = ("attendees",)

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

    def sentence(self, p: dict[str, Any]) -> str:
        span = when(p["date"], clock.minutes(p["start"]), clock.minutes(p["end"]))
        return (f"Move the '{p['title']}' meeting that {p['guest']} is invited to, so that it "
                f"takes place on {span}.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return p["guest"] in e["attendees"]

    def expected(self, d: Draft, world: World) -> dict[str, Any]:
        p = d.params
        return {"title": p["title"], "date": p["date"], "start": p["start"], "end": p["end"],
                "attendees": sorted(world.entities[d.target]["attendees"])}

    def commit(self, d: Draft, world: World) -> list[Action]:
        e = self.expected(d, world)
        return [Action("EditEvent"),
                save(e["title"], e["date"], clock.minutes(e["start"]), clock.minutes(e["end"]),
                     list(world.entities[d.target]["attendees"]))]

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

    def pins(self, rng: random.Random, today: str, title: str, cal: str, k: int) -> Pins:
        orgs = people(rng, k + 1)
        pinned = group(rng, today, {"title": title, "calendar": cal}, {"organizer": orgs[0]},
                       [{"organizer": o} for o in orgs[1:]])
        duration = rng.choice((30, 45, 60))
        d, s, e = new_slot(rng, today, duration, pinned)
        return (*pinned, free(d, s, e)), {
            "organizer": orgs[0], "new_title": f"{title} {rng.choice(V.NEW_TITLE_SUFFIX)}",
            "date": d, "start": clock.hhmm(s), "end": clock.hhmm(e)}

    def sentence(self, p: dict[str, Any]) -> str:
        span = when(p["date"], clock.minutes(p["start"]), clock.minutes(p["end"]))
        return (f"Create an event '{p['new_title']}' on {span}, and invite the same people as "
                f"the '{p['title']}' organised by {p['organizer']}: its organiser and all of "
                f"its guests.")

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

    def sentence(self, p: dict[str, Any]) -> str:
        a, b = p["guests"]
        return (f"Add a 30-minute event '{p['title']} prep' with {a} and {b} right before "
                f"your '{p['title']}' about {p['topic']}; if that half hour is already taken "
                f"by another event, put it right after the meeting ends instead.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["topic"] == p["topic"])

    def expected(self, d: Draft, world: World) -> dict[str, Any]:
        p = d.params
        return {"title": f"{p['title']} prep", "date": p["date"], "start": p["start"],
                "end": p["end"], "attendees": sorted(p["guests"])}

    def form_guests(self, d: Draft, world: World) -> list[str]:
        return list(d.params["guests"])


__all__ = ["FollowUpSameGuests", "PrepBeforeEvent", "RescheduleByGuest"]
