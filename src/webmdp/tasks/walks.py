"""Seeded random-agent walks: the states a policy that explores reaches, for benchmarks and the
shaped rewards' reference values (``benchmarks/bench_rl.py``, ``scripts/dense_reference.py``).
"""

from __future__ import annotations

import random

from webmdp.core.model import World
from webmdp.core.registry import get_site
from webmdp.core.site import fill
from webmdp.core.spec import Action
from webmdp.errors import InvalidAction
from webmdp.tasks.model import Task

RANDOM_STEPS = 30


def random_walk(task: Task, seed: int, steps: int = RANDOM_STEPS) -> list[Action]:
    """A seeded random agent's ``steps`` actions on ``task``: each one of the actions the screen
    offers, chosen uniformly, with the typed parameters it leaves open taken from the site's
    examples (an action the site refuses is still a step, and the state stays)."""
    site, world, rng = get_site(task.site), World.from_dict(task.world), random.Random(seed)
    state, out = site.initial_state(world), []
    for _ in range(steps):
        offered = site.observe(state, world).available
        if not offered:
            break
        action = fill(site, rng.choice(offered))
        out.append(action)
        try:
            state = site.step(state, action, world)
        except InvalidAction:
            continue
    return out
