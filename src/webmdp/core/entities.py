"""What a world's entities must carry: each site declares, per entity kind (the id's prefix,
``PRD`` in ``PRD-001``), the fields its views render, its verifier reads and its transitions
use, with their JSON types (``Site.entity_fields``). A task file's world is checked against it
when the file is read, so a malformed world is one line naming its path
(``world.entities[3].title``), not a ``KeyError`` deep inside a run.

Types: ``str``, ``int``, ``number`` (int or float), ``bool``, ``list``, ``dict``; a trailing
``?`` also allows null.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

EntityFields = Mapping[str, Mapping[str, str]]
"""kind (id prefix) -> field -> type."""

_CHECKS: dict[str, Any] = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "list": lambda v: isinstance(v, list),
    "dict": lambda v: isinstance(v, dict),
}
_PREFIX = re.compile(r"[A-Za-z]+")


def kind_of(entity_id: str) -> str:
    """An entity's kind: the letters its id starts with (``PRD-001`` -> ``PRD``)."""
    m = _PREFIX.match(entity_id)
    return m.group(0) if m else ""


def check_type(kind: str) -> None:
    """Refuse a declared type that is not one of the above (a site's declaration error)."""
    if kind.removesuffix("?") not in _CHECKS:
        raise ValueError(f"unknown entity field type {kind!r}: use one of {sorted(_CHECKS)}")


def world_problem(world: Mapping[str, Any], declared: EntityFields) -> tuple[str, str] | None:
    """The first place where ``world``'s entities break ``declared``, as (path under
    ``world``, why); None when they all fit (or nothing is declared)."""
    if not declared:
        return None
    for k, entity in enumerate(world.get("entities") or ()):
        where = f"entities[{k}]"
        kind = kind_of(str(entity.get("id", "")))
        fields = declared.get(kind)
        if fields is None:
            return (f"{where}.id", f"{str(entity.get('id'))[:40]!r} is no entity kind of this "
                                   f"site (ids start with {', '.join(sorted(declared))})")
        for name, typ in fields.items():
            if name not in entity:
                return (f"{where}.{name}", f"missing (a {kind} entity needs it, {typ})")
            value = entity[name]
            if value is None and typ.endswith("?"):
                continue
            if not _CHECKS[typ.removesuffix("?")](value):
                shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
                return (f"{where}.{name}", f"must be {typ.removesuffix('?')}, got {shown}")
    return None
