"""Helpers importable from any test module (tests/ is on sys.path via the root conftest)."""

from __future__ import annotations

import html as htmllib
import json
import random
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

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


def oracle_states(site: Site, task: Task) -> list[State]:
    """The start state and every state the task's oracle passes through."""
    world = World.from_dict(task.world)
    state = site.initial_state(world)
    out = [state]
    for action in task.oracle_actions():
        state = site.step(state, action, world)
        out.append(state)
    return out


def bindings(html: str) -> list[tuple[str, dict]]:
    """(action, params) of every element a rendered page binds, parsed from the markup."""
    pairs = re.findall(r'data-action="([A-Za-z]+)" data-params="([^"]*)"', html)
    return [(name, json.loads(htmllib.unescape(raw))) for name, raw in pairs]


def action_key(name: str, params: dict) -> tuple[str, str]:
    """A hashable (action, canonical params) key."""
    return name, json.dumps(params, sort_keys=True)


def strings(value: Any) -> Iterator[str]:
    """Every string inside a nested value (entity fields, observation context)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def play(site: Site, world: World, *actions: Action) -> State:
    """The state ``actions`` reach from the start state (each validated, as an env does)."""
    state = site.initial_state(world)
    for action in actions:
        state = site.step(state, action, world)
    return state
