"""World-generation helpers shared by every site (WebSTEP E.2)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from webmdp.core.model import Entity, World, WorldSpec

_FILLER_TRIES = 200
T = TypeVar("T")


def differs(entity: Entity, avoid: Entity) -> bool:
    """True when ``entity`` differs from ``avoid`` on at least one of avoid's attributes."""
    return any(entity.get(k) != v for k, v in avoid.items())


def assemble(
    site: str,
    spec: WorldSpec,
    rng: random.Random,
    *,
    prefix: str,
    complete: Callable[[Entity, random.Random], Entity],
    meta: dict | None = None,
) -> World:
    """Complete pinned entities, draw fillers that avoid the task's constraints, shuffle, and
    assign ids ``PREFIX-001...`` so that position never reveals the target."""
    entities = [complete(dict(p), rng) for p in spec.pinned]
    entities += fillers(rng, spec.n_fillers, complete, spec.avoid)
    rng.shuffle(entities)
    out: dict[str, Entity] = {}
    for i, ent in enumerate(entities, start=1):
        eid = f"{prefix}-{i:03d}"
        out[eid] = {"id": eid, **{k: v for k, v in ent.items() if k != "id"}}
    return World(site=site, entities=out, meta=meta or {})


def fillers(rng: random.Random, n: int, complete: Callable[[Entity, random.Random], Entity],
            avoid: Sequence[Entity], base: Entity | None = None) -> list[Entity]:
    """``n`` completed fillers (``base`` plus role ``filler``), each differing from every
    ``avoid`` mapping; a world of two entity kinds calls it once per kind (or per parent)."""
    out: list[Entity] = []
    for _ in range(n):
        for _ in range(_FILLER_TRIES):
            cand = complete({"role": "filler", **(base or {})}, rng)
            if all(differs(cand, a) for a in avoid):
                out.append(cand)
                break
    return out


def rank_values(rng: random.Random, n: int, *, low: int = 10, high: int = 990) -> list[int]:
    """``n`` distinct descending popularity scores, used to fix a listing order."""
    return sorted(rng.sample(range(low, high), n), reverse=True)


def pin_group(rng: random.Random, base: Entity, target_extra: Entity,
              negatives: list[Entity], *, rank: str = "popularity") -> tuple[Entity, ...]:
    """The target and its hard negatives: all share ``base``; the target adds ``target_extra``
    and each negative its own differing values. Their default-order ranks are shuffled so the
    target's place among them varies from task to task."""
    ranks = rank_values(rng, len(negatives) + 1)
    rng.shuffle(ranks)
    target = {**base, **target_extra, "role": "target", rank: ranks[0]}
    hns = [{**base, **n, "role": "hard_negative", rank: r}
           for n, r in zip(negatives, ranks[1:], strict=True)]
    return (target, *hns)


def others(rng: random.Random, pool: Sequence[T], exclude: T, k: int) -> list[T]:
    """``k`` distinct values of ``pool`` other than ``exclude`` (hard negatives' differing
    values)."""
    return rng.sample([v for v in pool if v != exclude], k)
