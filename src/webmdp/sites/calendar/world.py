"""Calendar world generation (WebSTEP E.2): events ``EVT-###`` around a fixed "today".

"Today" is drawn from the world seed (a template pins it on its entities as ``today``), never
read from the clock. Filler events are placed in free time, so two events overlap only where a
template pins them to (its hard negatives' conflicts); pins of ``kind: free`` reserve a slot
that must stay empty (where the instruction asks to schedule something). ``conflicts`` is
derived from the placed events, so the detail page agrees with the grid.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import date, timedelta

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.sites._common.worldgen import assemble
from webmdp.sites.calendar import vocab as V
from webmdp.sites.calendar.clock import day, hhmm, minutes, overlaps, shift

CARD_FIELDS: tuple[str, ...] = ("title", "date", "start", "end", "duration", "calendar",
                                "location", "rsvp")
"""What an event chip or a search row shows."""
DETAIL_FIELDS: tuple[str, ...] = ("organizer", "attendees", "description", "conference",
                                  "reminder", "conflicts")
"""Only on the event's detail card."""
N_EVENTS = 64
WINDOW = (-7, 27)
"""Days around today that events fall in (five weeks)."""

Slot = tuple[str, int, int]


def draw_today(rng: random.Random) -> str:
    return (date(2026, 1, 4) + timedelta(days=rng.randint(0, 320))).isoformat()


def generate_world(spec: WorldSpec, rng: random.Random) -> World:
    today = next((p["today"] for p in spec.pinned if "today" in p), None) or draw_today(rng)
    busy: dict[str, list[tuple[int, int]]] = {}
    events = tuple({k: v for k, v in p.items() if k != "today"}
                   for p in spec.pinned if p.get("kind") != "free")
    for p in spec.pinned:
        if p.get("kind") == "free":
            busy.setdefault(p["date"], []).append((minutes(p["start"]), minutes(p["end"])))
    for p in events:
        if "date" in p and "start" in p:
            s = minutes(p["start"])
            busy.setdefault(p["date"], []).append((s, s + p.get("duration", 60)))

    def complete(p: Entity, r: random.Random) -> Entity:
        return complete_event(p, r, today, busy)

    world = assemble("calendar", WorldSpec(events, spec.n_fillers, spec.avoid), rng,
                     prefix="EVT", complete=complete, meta={"today": today})
    for e in world.entities.values():
        e["conflicts"] = conflicts_of(e, world.entities.values())
    return world


def conflicts_of(e: Entity, events: Iterable[Entity]) -> list[str]:
    """Titles of the other events overlapping ``e`` (what the detail card warns about)."""
    span = (minutes(e["start"]), minutes(e["end"]))
    return [o["title"] for o in events
            if o["id"] != e["id"] and o["date"] == e["date"]
            and overlaps(span, (minutes(o["start"]), minutes(o["end"])))]


def _free_slot(rng: random.Random, today: str, duration: int,
               busy: dict[str, list[tuple[int, int]]], weekdays: bool) -> tuple[str, int]:
    """A free time for a filler; work and team events only on weekdays."""
    for _ in range(60):
        d = shift(today, rng.randint(*WINDOW))
        if weekdays and day(d).weekday() >= 5:
            continue
        s = rng.randrange(8 * 60, 18 * 60 - duration + 1, 15)
        if not any(overlaps((s, s + duration), b) for b in busy.get(d, [])):
            return d, s
    return shift(today, WINDOW[1] + 1), 8 * 60


def complete_event(p: Entity, rng: random.Random, today: str,
                   busy: dict[str, list[tuple[int, int]]]) -> Entity:
    """Fill an event's missing attributes; unpinned times go where the calendar is free."""
    cal = p.get("calendar") or rng.choice(V.CALENDARS)
    title = p.get("title") or rng.choice(V.TITLES[cal])
    duration = p.get("duration") or rng.choice(V.DURATIONS)
    if "date" in p and "start" in p:
        d, s = p["date"], minutes(p["start"])
    else:
        d, s = _free_slot(rng, today, duration, busy, cal in ("Work", "Team")) if "date" not in p \
            else (p["date"], rng.randrange(8 * 60, 18 * 60 - duration + 1, 15))
        busy.setdefault(d, []).append((s, s + duration))
    organizer = p.get("organizer") or rng.choice(V.PEOPLE)
    attendees = p.get("attendees") or rng.sample([x for x in V.PEOPLE if x != organizer],
                                                 rng.randint(1, 4))
    topic = p.get("topic") or rng.choice(V.TOPICS)
    conference = V.CONFERENCE[0].format(a=_word(rng, 3), b=_word(rng, 4), c=_word(rng, 3)) \
        if rng.random() < 0.6 else V.CONFERENCE[1].format(n=rng.randint(10**9, 10**10 - 1))
    out = {
        "title": title, "calendar": cal, "date": d, "start": hhmm(s),
        "end": hhmm(s + duration), "duration": duration,
        "location": p.get("location") or rng.choice(V.LOCATIONS[cal]),
        "rsvp": p.get("rsvp") or rng.choice(("yes", "yes", "yes", "maybe", "pending")),
        "organizer": organizer, "attendees": list(attendees), "topic": topic,
        "description": rng.choice(V.AGENDA).format(topic=topic),
        "conference": conference,
        "reminder": p.get("reminder") or rng.choice(V.REMINDERS),
    }
    return {**p, **out}


def _word(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("abcdefghijkmnopqrstuvwxyz") for _ in range(n))
