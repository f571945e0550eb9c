"""State keys are the same in every process: traces from different runs align."""

from __future__ import annotations

import os
import subprocess
import sys

from webmdp.core.model import World
from webmdp.sites import get_site
from webmdp.tasks import make_task
from webmdp.tracking import state_key

_PROBE = """
from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.sites import get_site
from webmdp.tasks import make_task
from webmdp.tracking import state_key
site = get_site("mail")
task = make_task(site, 5, next(iter(site.templates)), 0)
world = World.from_dict(task.world)
s = site.initial_state(world)
stars = [a for a in site.observe(s, world).available if a.name == "Star"]
for a in stars[:6]:
    s = site.step(s, a, world)
assert len(s.starred) >= 6
print(state_key(s))
"""


def test_state_key_does_not_depend_on_the_hash_seed() -> None:
    keys = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                             text=True, check=True)
        keys.add(out.stdout.strip())
    assert len(keys) == 1 and len(keys.pop()) == 16


def test_state_key_tells_states_apart() -> None:
    site = get_site("mail")
    task = make_task(site, 5, next(iter(site.templates)), 0)
    world = World.from_dict(task.world)
    s = site.initial_state(world)
    star = next(a for a in site.observe(s, world).available if a.name == "Star")
    starred = site.step(s, star, world)
    assert state_key(s) != state_key(starred)
    assert state_key(starred) == state_key(site.step(s, star, world))
