"""Building blocks shared by the Calendar templates: "today", event groups placed on distinct
days, reserved free slots, the E.3 oracle prefix (search the title, open hard negatives listed
above the target, then the target) and the editor's form values."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.calendar import clock
from webmdp.sites.calendar import vocab as V
from webmdp.sites.calendar.world import N_EVENTS, WINDOW
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft

OPEN, CLOSE = Action("OpenEvent"), Action("CloseEvent")


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


def when(d: str, start: int, end: int) -> str:
    return (f"{clock.long_day(d)}, {clock.clock(clock.hhmm(start))} to "
            f"{clock.clock(clock.hhmm(end))}")


def titled(world: World, title: str) -> list[Entity]:
    return [e for e in world.entities.values() if e["title"] == title]


def explore(site: Site, world: World, d: Draft, prefix: list[Action]) -> list[Action]:
    return reach_and_explore(site, world, d, prefix, open_action=OPEN, back=CLOSE,
                             entity_param="event_id")


def search_and_open(site: Site, world: World, d: Draft) -> list[Action]:
    """Search the instruction's title, open the hard negatives listed above the target, then
    the target."""
    return explore(site, world, d, [Action("SearchEvents", {"query": d.params["title"]})])


def save(title: str, d: str, start: int, end: int, guests: list[str]) -> Action:
    """The editor's Save with every field the form submits (a blank guests box sends none)."""
    params: dict[str, Any] = {"title": title, "date": d, "start": clock.hhmm(start),
                              "end": clock.hhmm(end)}
    if guests:
        params["attendees"] = ", ".join(guests)
    return Action("SaveEvent", params)


def people(rng: random.Random, k: int, exclude: tuple[str, ...] = ()) -> list[str]:
    return rng.sample([p for p in V.PEOPLE if p not in exclude], k)
