"""Helpers importable from any test module (tests/ is on sys.path via the root conftest)."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from webmdp.core import Action, Site, State, World
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.tasks import Task, generate_site_tasks


@cache
def site_tasks(site: str) -> list[Task]:
    """A site's 180 generated tasks, built once per test session."""
    return generate_site_tasks(get_site(site))


def random_walk(site: Site, world: World, rng: random.Random, steps: int,
                fill: Callable[[Action], Action]) -> list[State]:
    """States visited by a seeded walk over the offered actions; ``fill`` supplies the text
    parameters an agent would type. Rejected actions are skipped."""
    state = site.initial_state(world)
    out = [state]
    for _ in range(steps):
        try:
            state = site.step(state, fill(rng.choice(site.observe(state, world).available)), world)
        except InvalidAction:
            continue
        out.append(state)
    return out
