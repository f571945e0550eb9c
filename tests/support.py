"""Helpers importable from any test module (tests/ is on sys.path via the root conftest)."""

from __future__ import annotations

import fcntl
import html as htmllib
import json
import os
import random
import re
import shutil
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
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


def shared_dir(tmp_path_factory: Any, name: str, build: Callable[[Path], None]) -> Path:
    """A folder that ``build`` fills once per test session, however many pytest-xdist workers
    ask for it: under xdist it lives in the session's root (the parent of each worker's
    basetemp), and a file lock makes the other workers wait for the first. A build that fails
    is not marked done: the next one to ask builds it again (and fails on its own)."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    out, done = root / name, root / f"{name}.done"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            build(out)
            done.touch()
    return out
