"""Task-template machinery of the catalogue sites (accommodation, housing, food): a template
finds one entity of a group and commits on it (WebSTEP H.1, E.3).

A :class:`FindTemplate` subclass says only what is its own:

* ``pins(rng, k)``: the pinned entities (target, ``k`` hard negatives, decoys) and the params;
* ``sentence``: the instruction, a format string over the params and the site's ``words(p)``;
* ``world(rng, pinned, p)`` (or the world's size ``total``): the world spec;
* ``keys`` (the params every entity of the group shares, also the first card fields), ``card``,
  ``detail``, ``accepts(e, p)`` and ``best_by``: which entities satisfy the instruction;
* ``narrow`` and ``order`` (or ``reach(p, world)``): the E.3 stage-1 prefix;
* ``steps`` (or ``commit(d, world)``): what follows the target's opening; ``verifier(d, world)``.

The base class draws the draft, computes ``matches`` and builds the oracle: the prefix, the
hard negatives ranked above the target (all of them for a comparison), the target, the commit.
The transition and observation helpers of their MDPs are in ``handlers.py``.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action, VisibilitySpec
from webmdp.sites._common.catalog import entities_where
from webmdp.sites._common.templates import Params, Worded, split
from webmdp.sites._common.worldgen import pin_group
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft

Pins = tuple[tuple[Entity, ...], Params]


class Step:
    """One action of a declared commit, each parameter taken from the task's param of the same
    name (``same``) or of the name given (``named``): ``Step("PlaceOrder", "tip")``,
    ``Step("UnsaveHome", property_id=Step.TARGET)``."""

    TARGET = "target"
    """The source that is the target's id, not a task param."""

    def __init__(self, name: str, *same: str, **named: str) -> None:
        self.name = name
        self.sources = {**{k: k for k in same}, **named}

    def action(self, d: Draft) -> Action:
        return Action(self.name, {k: d.target if v == self.TARGET else d.params[v]
                                  for k, v in self.sources.items()})


Steps = tuple[Action | Step, ...]


def perform(steps: Steps, d: Draft) -> list[Action]:
    """The actions of declared steps for one draft."""
    return [s.action(d) if isinstance(s, Step) else s for s in steps]


class FindTemplate(Worded):
    """Find the one entity of a group the instruction describes, open it and commit."""

    keys: ClassVar[tuple[str, ...]] = ()
    card: ClassVar[tuple[str, ...]] = ()
    detail: ClassVar[tuple[str, ...]] = ()
    open: ClassVar[Action]
    back: ClassVar[Action]
    param: ClassVar[str]
    """The entity-id parameter of ``open``."""
    inspect: ClassVar[tuple[Action, ...]] = ()
    all_negatives: ClassVar[bool] = False
    """A comparison: every hard negative is opened, not only those ranked above the target."""
    narrow: ClassVar[tuple[str, ...]] = ()
    """The list steps that bring the group on screen, by their names in the site's ``by``."""
    by: ClassVar[Mapping[str, Callable[[Params], Action]]] = {}
    order: ClassVar[str] = ""
    """The sort order picked after them."""
    total: ClassVar[int] = 0
    steps: ClassVar[Steps] = ()
    """The commit, when it is fixed actions and steps over the params and the target."""

    @abstractmethod
    def pins(self, rng: random.Random, k: int) -> Pins:
        """The pinned entities and the task's params."""

    def world(self, rng: random.Random, pinned: tuple[Entity, ...], p: Params) -> WorldSpec:
        """The world spec around the pinned entities: by default ``total`` entities, fillers
        outside the group."""
        return spec(pinned, self.total, {k: p[k] for k in self.keys})

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        pinned, p = self.pins(rng, hard_negatives)
        return Draft(instruction=self.instruction(p), params=p, spec=self.world(rng, pinned, p),
                     card_fields=(*self.keys, *self.card), detail_fields=self.detail)

    def group(self, d: Draft, world: World) -> list[Entity]:
        """The entities that share the group's ``keys``."""
        return entities_where(world, **{k: d.params[k] for k in self.keys})

    def accepts(self, e: Entity, p: Params) -> bool:
        return True

    def matches(self, d: Draft, world: World) -> list[str]:
        return self.pick([e for e in self.group(d, world) if self.accepts(e, d.params)])

    def reach(self, p: Params, world: World) -> list[Action]:
        """E.3 stage 1: the searches and filters ``narrow`` names, then the sort ``order``."""
        return [*(self.by[n](p) for n in self.narrow), *([sort(self.order)] if self.order else [])]

    def explore(self, d: Draft, world: World, site: Site) -> list[Action]:
        """E.3 stages 1-2: the prefix, the hard negatives to visit, then the target."""
        return reach_and_explore(site, world, d, self.reach(d.params, world),
                                 open_action=self.open, back=self.back, entity_param=self.param,
                                 inspect=self.inspect, all_negatives=self.all_negatives)

    def commit(self, d: Draft, world: World) -> list[Action]:
        """The actions after the target is open."""
        return perform(self.steps, d)

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*self.explore(d, world, site), *self.commit(d, world)]


def sort(order: str) -> Action:
    return Action("SortBy", {"order": order})


def filler(base: Entity, **extra: Any) -> Entity:
    """A decoy like ``base`` that the instruction rules out on a card field."""
    return {**base, "role": "filler", **extra}


def spec(pinned: tuple[Entity, ...], total: int, *avoid: Entity) -> WorldSpec:
    """``total`` entities: the pinned ones and fillers that differ from every ``avoid``."""
    return WorldSpec(pinned, total - len(pinned), avoid=avoid)


def pin_split(rng: random.Random, base: Entity, field: str, values: Sequence[Any]
              ) -> tuple[Entity, ...]:
    """The target (the first of ``values`` in ``field``) and a hard negative per other value,
    all sharing ``base``."""
    return pin_group(rng, base, *split(field, values))


def distinct(rng: random.Random, pool: range, k: int, *, highest: bool) -> list[int]:
    """``k`` distinct values, the extreme one first (the target's)."""
    return sorted(rng.sample(pool, k), reverse=highest)


def shown(card: tuple[str, ...], detail: tuple[str, ...],
          **surfaces: tuple[str, ...] | frozenset[str]) -> VisibilitySpec:
    """A site's card and detail fields, and the fields each surface renders."""
    return VisibilitySpec(card, detail, {k: frozenset(v) for k, v in surfaces.items()})
