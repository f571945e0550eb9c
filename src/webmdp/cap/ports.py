"""Typed information ports (CAP §3.3-3.4): what a site's task can output, and where another
site's task can take it in.

* An output is a field of the task's target that its oracle shows on the way (so doing the
  task finds it), typed (money, name, text, number, time, email, code). Each site lists the
  fields that make good outputs, in order of preference (:data:`OUTPUTS`).
* An input is a message a task sends: a free-text parameter of its commit (a reply, a note to
  a recruiter, a comment, a message to an agent) that the task's instruction quotes and its
  verifier checks. Found generically in the task (:func:`find_sink`): a text input takes any
  type. The cross-site version of the task must carry the value in that message, and its
  verifier checks that it does (``mentions``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from webmdp.core.model import World
from webmdp.core.registry import get_site
from webmdp.tasks.answers import mentions
from webmdp.tasks.conditions import Condition
from webmdp.tasks.model import Port, Task
from webmdp.tracking import Tracker

PORT_TYPES = ("money", "name", "text", "number", "time", "email", "code")
TEXT_PARAMS = ("text", "body", "message", "note")
"""Commit parameters that are messages a person writes (a sink takes a value in them)."""
MIN_TEXT = 8


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
    tracker = Tracker(get_site(task.site), World.from_dict(task.world))
    out = {pair: tracker.state.surface for pair in tracker.initial_revealed}
    for action in task.oracle_actions():
        rec = tracker.apply(action)
        for entity, field in rec.revealed:
            out.setdefault((entity, field), rec.surface_after)
    return out


def find_output(task: Task, avoid: tuple[str, ...] = ()) -> Port | None:
    """The task's first usable output: a preferred field of its target that the oracle shows,
    that the instruction does not already state, and that none of ``avoid`` (texts the value
    must not already be in) mentions."""
    entity = next(e for e in task.world["entities"] if e["id"] == task.target)
    seen = first_shown(task)
    for spec in OUTPUTS.get(task.site, ()):
        value = entity.get(spec.field)
        if value in (None, "", [], 0) or isinstance(value, list | dict | bool):
            continue
        if (task.target, spec.field) not in seen:
            continue
        shown = display(value, spec.type)
        if spec.type in ("text", "name") and len(shown) < 6 and not any(
                ch.isdigit() or ch == " " for ch in shown):
            continue  # a short word ("Home") is no evidence that the value was carried
        if len(shown) < 3 or mentions(shown, task.instruction) or any(
                mentions(shown, a) for a in avoid):
            continue
        return Port(entity=task.target, field=spec.field, type=spec.type, label=spec.label,
                    value=shown)
    return None


@dataclass(frozen=True)
class Sink:
    """Where a task takes values in: oracle step ``index``'s text parameter ``param``, whose
    value ``text`` the instruction quotes and ``conditions`` (indices into the verifier)
    check."""

    index: int
    param: str
    text: str
    conditions: tuple[int, ...]


def find_sink(task: Task) -> Sink | None:
    """The task's message, if it sends one (see the module docstring)."""
    site = get_site(task.site)
    for i in range(len(task.oracle) - 1, -1, -1):
        action = task.oracle[i]
        spec = site.action_spec(action.name)
        for p in spec.params:
            text = action.params.get(p.name)
            if p.name not in TEXT_PARAMS or not isinstance(text, str) or len(text) < MIN_TEXT:
                continue
            if f"'{text}'" not in task.instruction and f'"{text}"' not in task.instruction:
                continue
            conds = tuple(k for k, c in enumerate(task.verifier)
                          if c.value == text and c.op in ("eq", "contains"))
            if conds:
                return Sink(i, p.name, text, conds)
    return None


def carried(text: str, ports: list[Port]) -> str:
    """The message the oracle sends with ``ports`` in it."""
    extra = "; ".join(f"{p.label}: {p.value}" for p in ports)
    return f"{text} ({extra})"


def sink_conditions(task: Task, sink: Sink, ports: list[Port]) -> list[Condition]:
    """The task's verifier with the message's conditions now asking for its quoted text and
    every carried value."""
    out: list[Condition] = []
    for k, c in enumerate(task.verifier):
        if k in sink.conditions:
            labels = ", ".join(p.label for p in ports)
            c = Condition(fact=c.fact, op="mentions", value=[sink.text, *(p.value for p in ports)],
                          description=f"{c.description or c.fact}, with the {labels}")
        out.append(c)
    return out
