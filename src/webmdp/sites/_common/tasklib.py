"""Task-template machinery of the catalogue sites (accommodation, housing, food): a template
finds one entity of a group and commits on it (WebSTEP H.1, E.3).

A :class:`FindTemplate` is a :class:`~webmdp.sites._common.templates.PinnedTemplate` whose
subclass says only what is its own:

* ``pins(rng, k)``: the pinned entities (target, ``k`` hard negatives, decoys) and the params;
* ``sentence``: the instruction, a format string over the params and the site's ``words(p)``;
* ``world(rng, pinned, p)`` (or the world's size ``total``): the world spec;
* ``keys`` (the params every entity of the group shares, also the first card fields), ``card``,
  ``detail``, ``fits(e, p)`` (or ``wants``) and ``best_by``: which entities satisfy the
  instruction;
* ``narrow`` and ``order`` (or ``prefix(p, world)``): the E.3 stage-1 prefix;
* ``steps`` (or ``commit(d, world)``): what follows the target's opening; ``verifier(d, world)``.

The base classes draw the draft, compute ``matches`` and build the oracle: the prefix, the
hard negatives ranked above the target (all of them for a comparison), the target, the commit.
The transition and observation helpers of their MDPs are in ``handlers.py``.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import VisibilitySpec
from webmdp.sites._common.catalog import entities_where
from webmdp.sites._common.templates import Params, PinnedTemplate, split
from webmdp.sites._common.worldgen import pin_group
from webmdp.tasks.template import Draft

Pins = tuple[tuple[Entity, ...], Params]


class FindTemplate(PinnedTemplate):
    """Find the one entity of a group the instruction describes, open it and commit: the draft
    comes from ``pins`` and ``world``, and the candidates are the group's entities that fit."""

    total: ClassVar[int] = 0

    @abstractmethod
    def pins(self, rng: random.Random, k: int) -> Pins:
        """The pinned entities and the task's params."""

    def world(self, rng: random.Random, pinned: tuple[Entity, ...], p: Params) -> WorldSpec:
        """The world spec around the pinned entities: by default ``total`` entities, fillers
        outside the group."""
        return spec(pinned, self.total, {k: p[k] for k in self.keys})

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        pinned, p = self.pins(rng, hard_negatives)
        return self.compose(p, self.world(rng, pinned, p))

    def group(self, d: Draft, world: World) -> list[Entity]:
        """The entities that share the group's ``keys``."""
        return entities_where(world, **{k: d.params[k] for k in self.keys})

    def candidates(self, d: Draft, world: World) -> list[Entity]:
        return [e for e in self.group(d, world) if self.fits(e, d.params)]


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
