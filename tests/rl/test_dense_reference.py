"""The shaped rewards' distances against stored reference values, and Φ as a pure function.

``tests/data/dense_reference.json.gz`` (``scripts/dense_reference.py``) holds, for the first
5 tasks of every template of every built-in site (:data:`FIVE`), the informed distance
(``dense``) and the state distance (``dense-state``) of every state of the oracle's episode
and of seeded random-agent episodes, each from a search of up to 10⁶ expansions that none ran
out of. Here every distance, computed as the reward computes it (no budget, caches cleared per
task), must equal its reference: in ``make test`` each site's first task on its oracle and
first random episode, in ``make test-slow`` everything.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from webmdp.core import Action, World
from webmdp.rl.episode import RLEpisode
from webmdp.rl.rewards import potential
from webmdp.sites import get_site
from webmdp.tasks import Task, distance, generate_site_tasks, informed
from webmdp.tasks.sources import CROSS, cross_tasks
from webmdp.tasks.walks import random_walk
from webmdp.tracking import Tracker

DATA = Path(__file__).resolve().parents[1] / "data" / "dense_reference.json.gz"
REFERENCE_SITES = ("accommodation", "calendar", "chat", "food", "housing", "jobs", "mail", "qa",
                   "repo", "shopping")
"""Every built-in site (``python scripts/dense_reference.py SITE`` regenerates one, keeping the
tasks already stored: 1-10 minutes of CPU a site on 2 cores, housing's 60 tasks 584 s)."""
FIVE = REFERENCE_SITES
"""The sites whose reference holds the first 5 tasks of every template, as the issue asks:
every built-in site (a site added later starts with its first task of every template)."""
SLOW_TIMEOUT_S = 3600
"""A task's whole reference in ``make test-slow``: the unbounded searches of random-agent states
can take minutes (housing's five took 40-90 s each), so past the suite's 900 s default."""
SAMPLE = 1
"""Tasks a site that ``make test`` checks (its first), on the episodes of ``SAMPLED``."""
SAMPLED = ("oracle", "walk0")


@cache
def reference() -> dict[str, dict[str, dict[str, list[list[int | None]]]]]:
    return json.loads(gzip.decompress(DATA.read_bytes()))  # type: ignore[no-any-return]


@cache
def _tasks(name: str) -> dict[str, Task]:
    tasks = cross_tasks() if name == CROSS else generate_site_tasks(get_site(name))
    return {t.id: t for t in tasks}


def _actions(task: Task, kind: str) -> list[Action]:
    return list(task.oracle_actions()) if kind == "oracle" else \
        random_walk(task, int(kind.removeprefix("walk")))


def _cases(sample: bool) -> list[Any]:
    out = []
    for name, entries in sorted(reference().items()):
        for task_id in sorted(entries)[:SAMPLE] if sample else sorted(entries):
            out.append(pytest.param(name, task_id, sample, id=task_id, marks=() if sample else (
                pytest.mark.slow, pytest.mark.timeout(SLOW_TIMEOUT_S))))
    return out


def _check(name: str, task_id: str, sample: bool) -> None:
    task = _tasks(name)[task_id]
    distance.clear_cache()
    informed.clear_cache()
    for kind, want in reference()[name][task_id].items():
        if sample and kind not in SAMPLED:
            continue
        tracker = Tracker(get_site(task.site), World.from_dict(task.world))
        got = [_pair(task, tracker)]
        for action in _actions(task, kind):
            tracker.apply(action)
            got.append(_pair(task, tracker))
        assert got == want, f"{task_id} {kind}: {got} != {want}"


def _pair(task: Task, tracker: Tracker) -> list[int | None]:
    return [informed.informed_distance(task, tracker.state, tracker.seen, max_expansions=None),
            distance.distance_to_goal(task, tracker.state, max_expansions=None)]


def test_the_reference_covers_every_site_and_template() -> None:
    data = reference()
    assert set(REFERENCE_SITES) <= set(data)
    for name in data:
        templates = {t.template for t in _tasks(name).values()}
        assert {_tasks(name)[i].template for i in data[name]} == templates, name
        per = 5 if name in FIVE else 1
        firsts: dict[str, list[str]] = {}
        for task in _tasks(name).values():  # in generation order
            firsts.setdefault(task.template, []).append(task.id)
        assert sorted(data[name]) == sorted(i for ids in firsts.values() for i in ids[:per]), name
    values = [d for e in data.values() for ep in e.values() for eps in ep.values()
              for pair in eps for d in pair]
    assert -2 not in values  # no search ran out of its budget


@pytest.mark.parametrize(("name", "task_id", "sample"), _cases(sample=True))
def test_distances_equal_the_reference_sample(name: str, task_id: str, sample: bool) -> None:
    _check(name, task_id, sample)


@pytest.mark.parametrize(("name", "task_id", "sample"), _cases(sample=False))
def test_distances_equal_the_reference_all(name: str, task_id: str, sample: bool) -> None:
    _check(name, task_id, sample)


# -- Φ is a pure function of (task, state, seen) ---------------------------------------------
CASES = ("housing_0001", "mail_0001")
WALK = 12
SCRIPT = """
import sys
sys.path.insert(0, "tests/rl")
from test_dense_reference import rewards
print(repr(rewards(sys.argv[1], int(sys.argv[2]))))
"""


def rewards(task_id: str, seed: int) -> list[str]:
    """Every reward (as repr, byte for byte) of a random-agent episode of ``task_id`` then its
    oracle's, under ``dense`` and ``dense-state``."""
    task = _tasks(task_id.rsplit("_", 1)[0])[task_id]
    out = []
    for mode in ("dense", "dense-state"):
        for actions in (random_walk(task, seed, WALK), list(task.oracle_actions())):
            episode = RLEpisode(task, mode)  # type: ignore[arg-type]
            out.append(repr(episode.phi))
            for a in actions:
                r = episode.step({"name": a.name, "params": dict(a.params)})
                out.append(repr(r.reward))
                if r.done:
                    break
    return out


@pytest.mark.parametrize("task_id", CASES)
def test_rewards_are_the_same_fresh_warm_and_after_another_episode(task_id: str) -> None:
    root = Path(__file__).resolve().parents[2]
    fresh = subprocess.run([sys.executable, "-c", SCRIPT, task_id, "7"], cwd=root, check=True,
                           capture_output=True, text=True).stdout.strip()
    # warm: after other tasks' episodes and another episode of the same task, caches kept
    for other in CASES:
        if other != task_id:
            rewards(other, 3)
    rewards(task_id, 11)
    assert repr(rewards(task_id, 7)) == fresh
    distance.clear_cache()
    informed.clear_cache()
    assert repr(rewards(task_id, 7)) == fresh


def test_a_budget_that_runs_out_raises_instead_of_a_zero() -> None:
    from webmdp.errors import DistanceUnknown

    task = _tasks("housing")["housing_0002"]
    state = get_site("housing").initial_state(World.from_dict(task.world))
    distance.clear_cache()
    informed.clear_cache()
    with pytest.raises(DistanceUnknown, match="not settled within 1 expansions"):
        potential(task, state, mode="dense", max_expansions=1)
    assert potential(task, state, mode="dense") == 1 / (2 + 6)


def test_cross_site_tasks_refuse_the_shaped_rewards_in_one_line() -> None:
    """No search settles a cross-site task's distance: the shaped modes are refused, for the
    suite at construction and for a cross-site task at its reset, never a silent 0."""
    from webmdp.rl.episode import check_options
    from webmdp.rl.openenv import WebMDPEnvironment

    task = cross_tasks()[0]
    for mode in ("dense", "dense-state"):
        with pytest.raises(ValueError, match="not offered for cross-site tasks") as info:
            check_options("semantic", mode, CROSS)
        assert "\n" not in str(info.value)
        with pytest.raises(ValueError, match=f"task {task.id}: .*use rubric"):
            RLEpisode(task, mode)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="not offered"):
            WebMDPEnvironment(CROSS, reward=mode)  # type: ignore[arg-type]
    episode = RLEpisode(task, "rubric")  # the cross-site reward still runs
    assert episode.phi == 0.0
