"""Semantic MDP values: world, state, observation. Pure data, no I/O."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Self

from webmdp.core.spec import Action, SurfaceKind

Entity = dict[str, Any]
"""An entity is a flat mapping of typed attributes; ``id`` is always present."""


PAGE_META = "page_size"
"""World meta key: results per page on every catalogue listing of the world, in place of the
site's own (the difficulty dial's page-size knob: :mod:`webmdp.tasks.dial`)."""


@dataclass(frozen=True, eq=False)
class World:
    """The seeded item set a task runs against (E.2): entities in catalogue order."""

    site: str
    entities: dict[str, Entity]
    meta: dict[str, Any] = field(default_factory=dict)

    def get(self, entity_id: str) -> Entity:
        return self.entities[entity_id]

    def to_dict(self) -> dict[str, Any]:
        return {"site": self.site, "entities": list(self.entities.values()), "meta": self.meta}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> World:
        ents = {e["id"]: e for e in data["entities"]}
        return cls(site=data["site"], entities=ents, meta=dict(data.get("meta") or {}))


@dataclass(frozen=True, slots=True)
class WorldSpec:
    """What a template asks of a site's world generator.

    ``pinned`` are partial entities (target, hard negatives, companions) whose given attributes are
    kept; the generator completes them. ``n_fillers`` more entities are drawn, each differing from
    every ``avoid`` mapping on at least one listed attribute, so fillers never match the task.
    """

    pinned: tuple[Entity, ...]
    n_fillers: int
    avoid: tuple[Entity, ...] = ()
    sparse: bool = False
    """Nothing beyond what is pinned: a site that draws background entities of its own (a
    chat's channel history, a job board's postings) draws none either. Only the dial's
    ``lookups`` segment asks for it (:mod:`webmdp.tasks.dial`)."""


@dataclass(frozen=True)
class State:
    """Base semantic state ``s = (s^p, s^i)``: sites subclass it with their own typed variables.

    ``surface`` and ``focus`` (the entity a detail surface shows) are common to every site.
    States are immutable; transitions return a new state via :meth:`replace`. A state class
    holds plain fields only (no ``__post_init__``, no ``init=False`` field, no slots), so a
    replace can copy the field dict instead of running ``__init__``.
    """

    surface: str
    focus: str | None = None
    pending: str | None = None
    """An action waiting in a confirmation dialog (its JSON; :mod:`webmdp.core.dialog`)."""

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` applied: the same result as :func:`dataclasses.replace`
        about three times faster (transitions are the semantic mode's inner loop)."""
        cls = type(self)
        names = _FIELDS.get(cls)
        if names is None:
            names = _FIELDS[cls] = _plain_fields(cls)
        unknown = changes.keys() - names
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
        new = object.__new__(cls)
        attrs = new.__dict__
        attrs.update(self.__dict__)
        attrs.update(changes)
        return new

    def to_dict(self) -> dict[str, Any]:
        """The state's fields as plain data (``pending`` only while a dialog is open, so a
        state's canonical form is the same as before dialogs existed)."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)
                if f.name != "pending" or self.pending is not None}


_FIELDS: dict[type, frozenset[str]] = {}


def _plain_fields(cls: type) -> frozenset[str]:
    """The field names of a state class, after checking that copying its field dict is a
    faithful replace (see :class:`State`)."""
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__") or any(
            not f.init for f in fields):
        raise TypeError(f"{cls.__name__}: a state class holds plain fields only")
    return frozenset(f.name for f in fields)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class EntityView:
    """An entity as a surface shows it: only the fields the visibility spec allows there."""

    id: str
    fields: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Observation:
    """What is on screen in a state. Views render this and nothing else."""

    surface: str
    kind: SurfaceKind
    entities: tuple[EntityView, ...]
    available: tuple[Action, ...]
    context: dict[str, Any] = field(default_factory=dict)

    def revealed(self) -> set[tuple[str, str]]:
        """(entity id, field) pairs visible in this observation, the unit of coverage (C.4)."""
        return {(e.id, f) for e in self.entities for f in e.fields}

    def to_text(self) -> str:
        """Compact text observation for semantic-mode agents."""
        lines = [f"Surface: {self.surface} ({self.kind.value})"]
        for key, value in self.context.items():
            if key.startswith("_"):
                continue
            lines.append(f"{key}: {value}")
        lines.append(f"Entities ({len(self.entities)}):")
        for e in self.entities:
            attrs = "; ".join(f"{k}={v}" for k, v in e.fields.items())
            lines.append(f"  [{e.id}] {attrs}")
        lines.append("Available actions:")
        lines.extend(f"  {a}" for a in self.available)
        return "\n".join(lines)
