"""Declarative parts of the site contract: surfaces, typed actions, skills, visibility."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

MAX_TEXT = 2000
"""The most characters a string parameter (``str``, ``entity``, ``choice``) or a GUI ``type``
text may have, unless its :class:`ParamSpec` declares more: one action carries a bounded value
(a million-key ``type`` would never return; a huge query would fill every observation)."""


class SurfaceKind(StrEnum):
    """WebSTEP Table 5 surface categories."""

    CARD = "card"
    DETAIL = "detail"
    COMMIT = "commit"
    OTHER = "other"


class SkillCategory(StrEnum):
    """WebSTEP Table 6 skill categories."""

    NAVIGATE = "navigate"
    SEARCH = "search"
    FILTER = "filter"
    INSPECT = "inspect"
    COMMIT = "commit"


@dataclass(frozen=True, slots=True)
class SurfaceSpec:
    """A distinct UI view (page or modal) of a site."""

    name: str
    kind: SurfaceKind
    description: str = ""


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One typed parameter of a semantic action.

    ``type`` is one of ``str``, ``int``, ``float``, ``entity`` (an entity id) or ``choice``;
    ``text`` params are free text the agent types (search queries, message bodies).
    ``max_length`` bounds a string value (``str``, ``entity``, ``choice``); a site declares
    more than :data:`MAX_TEXT` only on a param that needs it.
    """

    name: str
    type: str
    choices: tuple[str, ...] = ()
    text: bool = False
    optional: bool = False
    max_length: int = MAX_TEXT


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """A typed semantic action with its skill (Table 7) and category (Table 6)."""

    name: str
    skill: str
    category: SkillCategory
    params: tuple[ParamSpec, ...] = ()
    changes_state: bool = False
    description: str = ""

    def param(self, name: str) -> ParamSpec:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)


def declare_action(name: str, skill: str, category: SkillCategory, *params: ParamSpec,
                   changes_state: bool | None = None, doc: str = "") -> ActionSpec:
    """Declare a site action. Commit actions change application state unless said otherwise
    (WebSTEP Table 6: commit = "actions that modify the application state")."""
    if changes_state is None:
        changes_state = category is SkillCategory.COMMIT
    return ActionSpec(name, skill, category, params, changes_state=changes_state,
                      description=doc)


@dataclass(frozen=True, slots=True)
class VisibilitySpec:
    """Which entity fields each surface renders (WebSTEP Table 5)."""

    card_fields: tuple[str, ...]
    detail_fields: tuple[str, ...]
    surface_fields: dict[str, frozenset[str]] = field(default_factory=dict)

    def fields_on(self, surface: str) -> frozenset[str]:
        return self.surface_fields.get(surface, frozenset())

    def level(self, field_name: str) -> str:
        """``card`` when a list view shows the field, ``detail`` when only a detail view does."""
        return "card" if field_name in self.card_fields else "detail"


@dataclass(frozen=True, slots=True)
class Action:
    """A concrete semantic action: a name and its parameters."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.name}({args})"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        return cls(str(data["name"]), dict(data.get("params") or {}))
