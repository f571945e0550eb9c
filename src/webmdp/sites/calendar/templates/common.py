"""Building blocks shared by the Calendar templates: "today", event groups placed on distinct
days, reserved free slots, the E.3 oracle prefix (search the title, open hard negatives listed
above the target, then the target) and the editor's form values."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.templates import PinnedTemplate
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.calendar import clock
from webmdp.sites.calendar import vocab as V
from webmdp.sites.calendar.world import N_EVENTS, WINDOW, draw_today
from webmdp.tasks.template import Draft

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


def when(d: str, start: int, end: int) -> str:
    return (f"{clock.long_day(d)}, {clock.clock(clock.hhmm(start))} to "
            f"{clock.clock(clock.hhmm(end))}")


def save(title: str, d: str, start: int, end: int, guests: list[str]) -> Action:
    """The editor's Save with every field the form submits (a blank guests box sends none)."""
    params: dict[str, Any] = {"title": title, "date": d, "start": clock.hhmm(start),
                              "end": clock.hhmm(end)}
    if guests:
        params["attendees"] = ", ".join(guests)
    return Action("SaveEvent", params)


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
