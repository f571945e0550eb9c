"""Templates whose commit is a reply to an invitation (Going? Yes / No / Maybe): find the one
event among same-titled ones by a detail-only field, then answer it."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.spec import Action
from webmdp.sites.calendar import clock
from webmdp.sites.calendar import vocab as V
from webmdp.sites.calendar.templates.common import (
    EventTemplate,
    Pins,
    group,
    people,
    pick_title,
    workday,
)
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import membership


class ReplyTemplate(EventTemplate):
    """Target and hard negatives share the title (and calendar); the reply is the commit."""

    commit_action = "RespondToEvent"

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("RespondToEvent", {"response": d.params["response"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        r = d.params["response"]
        return membership(d, f"rsvp.{r}", f"answered {V.RSVP_LABELS[r]!r}")


class ReplyByOrganizer(ReplyTemplate):
    """Detail-only target: the organiser is only on the event card."""

    name = "reply_by_organizer"
    description = "Search same-titled invitations, check organisers, reply to one"
    detail = ("organizer",)

    def pins(self, rng: random.Random, today: str, title: str, cal: str, k: int) -> Pins:
        orgs = people(rng, k + 1)
        pinned = group(rng, today, {"title": title, "calendar": cal, "rsvp": "pending"},
                       {"organizer": orgs[0]}, [{"organizer": o} for o in orgs[1:]])
        return tuple(pinned), {"organizer": orgs[0], "response": rng.choice(V.RESPONSES)}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Several invitations on your calendar are titled '{p['title']}'. Reply "
                f"'{V.RSVP_LABELS[p['response']]}' to the one organised by {p['organizer']}.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["organizer"] == p["organizer"])


class AcceptWithoutConflict(ReplyTemplate):
    """Conflict detection: each hard negative overlaps another event (a companion pinned on
    its day); the detail card warns of the clash and the grid draws them side by side."""

    name = "accept_without_conflict"
    description = "Among same-titled invitations, accept the one that clashes with nothing"
    detail = ("conflicts",)

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

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"You were invited to '{p['title']}' more than once. Accept (reply 'Yes' to) "
                f"the '{p['title']}' that does not clash with any other event on your "
                f"calendar.")

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

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Next week your {p['calendar']} calendar has '{p['title']}' on it. Decline "
                f"(reply 'No' to) the {p['calendar']} calendar's '{p['title']}' whose "
                f"description is about {p['topic']}.")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("NextPeriod"), *(Action("ToggleCalendar", {"calendar": c})
                                        for c in V.CALENDARS if c != p["calendar"])]

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        week = clock.week_days(clock.shift(p["today"], 7))
        return e["calendar"] == p["calendar"] and e["topic"] == p["topic"] and e["date"] in week
