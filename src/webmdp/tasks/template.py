"""Task templates (WebSTEP H.1): an instruction pattern, constraints, a world spec, an oracle."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from webmdp.core.model import World, WorldSpec
from webmdp.core.spec import Action
from webmdp.tasks.model import AccessLevel, Condition, InfoConstraint

if TYPE_CHECKING:
    from webmdp.core.site import Site


@dataclass
class Draft:
    """A template's plan for one task before and after its world is generated.

    Pinned entities in ``spec`` carry a ``role`` (``target``, ``hard_negative``, ``companion``);
    ids are assigned by the world generator and read back with :meth:`bind`.
    ``card_fields`` / ``detail_fields`` are the entity fields the instruction refers to.
    """

    instruction: str
    params: dict[str, Any]
    spec: WorldSpec
    card_fields: tuple[str, ...]
    detail_fields: tuple[str, ...]
    target: str = ""
    hard_negatives: list[str] = field(default_factory=list)
    companions: list[str] = field(default_factory=list)

    def bind(self, world: World) -> None:
        roles: dict[str, list[str]] = {}
        for eid, ent in world.entities.items():
            if ent.get("role"):
                roles.setdefault(ent["role"], []).append(eid)
        self.target = roles["target"][0]
        self.hard_negatives = roles.get("hard_negative", [])
        self.companions = roles.get("companion", [])


class TaskTemplate(ABC):
    """One task family of a site. Subclasses fill the four hooks below."""

    name: ClassVar[str]
    description: ClassVar[str]
    commit_action: ClassVar[str]
    answer_type: ClassVar[str] = "operation_code"
    """What the agent returns: the commit's confirmation code (``operation_code``), a value it
    read (``direct``: :meth:`answer` gives it) or both (``mixed``)."""
    dial_segment: ClassVar[str] = "templates"
    """The difficulty dial's stream segment a dial-only template joins (:mod:`webmdp.tasks.dial`):
    ``templates`` (the first), or a segment appended after the five (``visual``), or the last
    (``commits``), so that the dial names a published stream gave do not move when a template
    is added."""

    @abstractmethod
    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        """Sample constraints, the instruction and the world spec."""

    @abstractmethod
    def matches(self, draft: Draft, world: World) -> list[str]:
        """Ids of every entity that satisfies the instruction; generation demands ``[target]``."""

    @abstractmethod
    def oracle(self, draft: Draft, world: World, site: Site) -> list[Action]:
        """The E.3 oracle: reach the region, inspect higher-ranked hard negatives, open, commit."""

    @abstractmethod
    def verifier(self, draft: Draft, world: World) -> list[Condition]:
        """Conditions on the final state's facts."""

    def finish(self, draft: Draft, world: World, site: Site) -> None:
        """Complete the draft once its world exists (a variant words its question here)."""
        return None

    def access_level(self, draft: Draft, oracle: list[Action], site: Site) -> AccessLevel:
        """The exploration type required to isolate the target (WebSTEP 4.4)."""
        if draft.hard_negatives:
            return "detail"
        uses = {site.action_spec(a.name).category.value for a in oracle}
        return "filter" if uses & {"search", "filter"} else "card"

    def answer(self, draft: Draft, world: World) -> str | None:
        """The value a ``direct`` or ``mixed`` task's final answer must state."""
        return None

    def info_constraints(self, draft: Draft, world: World, site: Site) -> list[InfoConstraint]:
        """C.4 rules, as WebSTEP's published bundles state them: the target's referenced card
        and detail fields at their access level, and nothing else. Whether an agent looked at
        the hard negatives is not coverage (the E.3 oracle opens only those ranked above the
        target)."""
        out: list[InfoConstraint] = []
        for f in draft.card_fields:
            out.append(InfoConstraint(entity=draft.target, field=f, level="card",
                                      description=f"see target's {f}"))
        for f in draft.detail_fields:
            out.append(InfoConstraint(entity=draft.target, field=f, level="detail",
                                      description=f"inspect target's {f} (detail page)"))
        return out
