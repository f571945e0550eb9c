"""Each site's declared :attr:`~webmdp.core.site.Site.evidence_gap`, refuted where it can be.

The informed distance's evidence bound (:meth:`webmdp.tasks.informed._Informed.unseen_bound`)
is admissible only where the declaration holds over the action space the search uses
(:func:`~webmdp.tasks.distance.candidate_actions`). Walks of that space, the oracle's and
seeded random ones, look for a screen showing two entities' detail fields of a kind declared
1 or more, for one action going from one entity's detail screen to another's of a kind
declared 2 or more, and for a detail field shown for the first time from a screen that
neither shows its entity nor offers an action naming it, of a kind declared 3.
``python tests/tasks/test_evidence_gap.py [site ...]`` prints what the walks observe.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

import pytest

from webmdp.core import World
from webmdp.core.entities import kind_of
from webmdp.core.site import Site
from webmdp.errors import InvalidAction
from webmdp.sites import get_site, site_names
from webmdp.tasks import Task, generate_site_tasks
from webmdp.tasks.distance import candidate_actions
from webmdp.tasks.sources import CROSS, cross_tasks

WALKS, STEPS, TASKS = 6, 30, 6


def _detail(site: Site, revealed: set[tuple[str, str]]) -> dict[str, set[tuple[str, str]]]:
    """kind -> the (entity, detail field) pairs the screen shows."""
    out: dict[str, set[tuple[str, str]]] = {}
    for entity, name in revealed:
        kind = kind_of(entity)
        if name not in site.card_fields_of(kind):
            out.setdefault(kind, set()).add((entity, name))
    return out


def _screens(task: Task, seed: int
             ) -> Iterator[tuple[dict[str, set[tuple[str, str]]], set[str]]]:
    """The detail pairs of each screen of a walk (the oracle's for seed 0, else random) and
    the entities the screen before it shows or names in an action it offers."""
    site, world = get_site(task.site), World.from_dict(task.world)
    state, rng = site.initial_state(world), random.Random(seed)
    yield _detail(site, site.observe(state, world).revealed()), set()
    oracle = list(task.oracle_actions())
    for i in range(len(oracle) if seed == 0 else STEPS):
        named = {v for a in site.available(state, world) for v in a.params.values()
                 if isinstance(v, str)} | {e for e, _ in site.observe(state, world).revealed()}
        if seed == 0:
            action = oracle[i]
        else:
            options = candidate_actions(task, state, world=world)
            if not options:
                return
            action = rng.choice(options)
        try:
            state = site.step(state, action, world)
        except InvalidAction:
            continue
        yield _detail(site, site.observe(state, world).revealed()), named


def observed(site_name: str) -> dict[str, int]:
    """kind -> the largest gap the walks allow (3 unless refuted)."""
    site = get_site(site_name)
    gaps: dict[str, int] = {}
    tasks = list(cross_tasks()[:30]) if site_name == CROSS else generate_site_tasks(site)
    for task in tasks[::max(1, len(tasks) // TASKS)][:TASKS]:
        for seed in range(WALKS):
            before: dict[str, set[str]] = {}
            shown: set[tuple[str, str]] = set()
            for screen, named in _screens(task, seed):
                for kind, pairs in screen.items():
                    gap = gaps.setdefault(kind, 3)
                    entities = {e for e, _ in pairs}
                    if len(entities) > 1:
                        gaps[kind] = 0
                    elif before.get(kind) and before[kind] != entities and gap > 1:
                        gaps[kind] = 1
                    elif not {e for e, _ in pairs - shown} <= named and gap > 2:
                        gaps[kind] = 2  # first shown from a screen blind to its entity
                    shown |= pairs
                before = {k: {e for e, _ in v} for k, v in screen.items()}
    return gaps


@pytest.mark.parametrize("site_name", [*site_names(), CROSS])
def test_declared_gaps_hold_on_walks(site_name: str) -> None:
    declared = get_site(site_name).evidence_gap
    seen = observed(site_name)
    wrong = {k: (g, seen[k]) for k, g in declared.items() if k in seen and seen[k] < g}
    assert not wrong, f"{site_name}: declared gap > observed (kind: (declared, observed)) {wrong}"


def test_cross_site_claims_only_single_owner_kinds() -> None:
    cross, members = get_site("cross-site"), {n: get_site(n) for n in site_names()}
    for kind, gap in cross.evidence_gap.items():
        owners = [n for n, s in members.items() if kind in s.evidence_gap]
        assert owners == [owners[0]] and members[owners[0]].evidence_gap[kind] == gap
        assert cross.card_fields_of(kind) == members[owners[0]].card_fields_of(kind)


if __name__ == "__main__":
    for name in sys.argv[1:] or site_names():
        print(name, observed(name), "declared", get_site(name).evidence_gap)
