"""What a task can report: the fields of its target that make outputs, and the first page its
oracle shows each on.

A task's *output* is a field of its target that its oracle shows on the way (so doing the task
finds it), typed (money, name, text, number, time, email, code). Each site lists the fields
that make good outputs, in order of preference (:data:`OUTPUTS`). CAP's cross-site ports
(:mod:`webmdp.cap.ports`) carry them from one site's task to another's; WebForge's Direct and
Mixed answer types (:mod:`webmdp.tasks.variants`) ask for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from webmdp.core.model import World
from webmdp.core.registry import get_site
from webmdp.core.spec import Action
from webmdp.tasks.answers import mentions
from webmdp.tasks.model import Port, Task
from webmdp.tracking import Tracker

PORT_TYPES = ("money", "name", "text", "number", "time", "email", "code")

@dataclass(frozen=True)
class OutputSpec:
    field: str
    type: str
    label: str


def _o(field: str, typ: str, label: str) -> OutputSpec:
    assert typ in PORT_TYPES
    return OutputSpec(field, typ, label)


OUTPUTS: dict[str, tuple[OutputSpec, ...]] = {
    "shopping": (_o("model_number", "code", "model number"), _o("seller", "name", "seller"),
                 _o("price", "money", "price")),
    "accommodation": (_o("price_per_night", "money", "nightly price"),
                      _o("host_name", "name", "host's name"),
                      _o("check_in_time", "time", "check-in time")),
    "housing": (_o("address", "text", "address"), _o("price", "money", "price"),
                _o("year_built", "number", "year built")),
    "food": (_o("address", "text", "address"), _o("hours", "text", "opening hours"),
             _o("price", "money", "price"), _o("calories", "number", "calorie count")),
    "jobs": (_o("salary", "money", "salary"), _o("location", "text", "location"),
             _o("school", "text", "school"), _o("city", "text", "city")),
    "mail": (_o("from_email", "email", "sender's address"), _o("subject", "text", "subject")),
    "chat": (_o("author", "name", "author"), _o("channel", "text", "channel")),
    "calendar": (_o("location", "text", "location"), _o("organizer", "name", "organiser"),
                 _o("conference", "text", "meeting link")),
    "qa": (_o("environment", "text", "environment"), _o("title", "text", "title")),
    "repo": (_o("default_branch", "text", "default branch"), _o("license", "text", "license"),
             _o("milestone", "text", "milestone"), _o("author", "name", "author")),
}
"""Site -> the fields of a task's target that make outputs, preferred first."""

_NOUNS: dict[str, tuple[tuple[str, str], ...]] = {
    # (a field only that kind of entity has, its noun); the last is the default
    "food": (("calories", "dish"), ("", "restaurant")),
    "jobs": (("salary", "job"), ("", "person")),
    "repo": (("stars", "repository"), ("branch", "pull request"), ("", "issue")),
    "shopping": (("", "product"),), "accommodation": (("", "listing"),),
    "housing": (("", "home"),), "mail": (("", "email"),), "chat": (("", "message"),),
    "calendar": (("", "event"),), "qa": (("", "question"),),
}


def noun(site: str, entity: dict[str, Any]) -> str:
    """What a target is called in an instruction ("the dish", "the pull request")."""
    for field, word in _NOUNS[site]:
        if not field or field in entity:
            return word
    return "item"  # pragma: no cover


def display(value: Any, typ: str) -> str:
    """A value as a person would copy it from the page."""
    if typ == "money" and isinstance(value, int | float):
        return f"${value:,.2f}" if value != int(value) else f"${int(value):,}"
    return str(value)


def first_shown(task: Task) -> dict[tuple[str, str], str]:
    """(entity, field) -> the surface the task's oracle first shows it on (the first page
    included): what doing the task finds, and where."""
    return shown_on(task.site, World.from_dict(task.world), task.oracle_actions())


def shown_on(site: str, world: World, actions: Sequence[Action]) -> dict[tuple[str, str], str]:
    """:func:`first_shown` for an action sequence on a world."""
    tracker = Tracker(get_site(site), world)
    out = {pair: tracker.state.surface for pair in tracker.initial_revealed}
    for action in actions:
        rec = tracker.apply(action)
        for entity, field in rec.revealed:
            out.setdefault((entity, field), rec.surface_after)
    return out


def find_output(task: Task, avoid: tuple[str, ...] = ()) -> Port | None:
    """The task's first usable output: a preferred field of its target that the oracle shows,
    that the instruction does not already state, and that none of ``avoid`` (texts the value
    must not already be in) mentions."""
    entity = next(e for e in task.world["entities"] if e["id"] == task.target)
    return pick_output(task.site, task.target, entity, first_shown(task),
                       (task.instruction, *avoid))


def pick_output(site: str, target: str, entity: dict[str, Any],
                seen: dict[tuple[str, str], str], avoid: Sequence[str],
                types: Sequence[str] = PORT_TYPES) -> Port | None:
    """The first of the site's :data:`OUTPUTS` (of ``types``) that ``seen`` shows for
    ``target`` and that none of ``avoid`` (the instruction, other texts) already states."""
    for spec in OUTPUTS.get(site, ()):
        value = entity.get(spec.field)
        if spec.type not in types or value in (None, "", [], 0) or \
                isinstance(value, list | dict | bool):
            continue
        if (target, spec.field) not in seen or (
                spec.type == "money" and not isinstance(value, int | float)):
            continue
        shown = display(value, spec.type)
        if spec.type in ("text", "name") and len(shown) < 6 and not any(
                ch.isdigit() or ch == " " for ch in shown):
            continue  # a short word ("Home") is no evidence that the value was carried
        if len(shown) < 3 or any(mentions(shown, a) for a in avoid):
            continue
        return Port(entity=target, field=spec.field, type=spec.type, label=spec.label,
                    value=shown)
    return None
