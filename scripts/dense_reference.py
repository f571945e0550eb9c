"""Reference values of the shaped rewards' distances (issue 42), stored in
``tests/data/dense_reference.json.gz`` and checked by ``tests/rl/test_dense_reference.py``.

For the first ``PER_TEMPLATE`` tasks of every template of every built-in site (cross-site
tasks refuse the shaped rewards: :func:`webmdp.rl.rewards.check_shaping`): the oracle's states
and those of ``WALKS`` seeded random-agent episodes (:func:`webmdp.tasks.walks.random_walk`).
Per state: the informed distance ``dense`` uses and the state distance ``dense-state`` uses
(null: no goal reachable), each from a search with a budget of ``BUDGET`` expansions that
none may run out of (the script fails if one does).

``python scripts/dense_reference.py [site,...]`` rewrites the sites named (all by default)
and keeps the others' entries. Each finished task is also appended to a partial file beside the
reference (``.dense_reference.<site>.partial.jsonl``, not committed), so a run that is stopped
picks up where it left off; the partial file is removed once the site is written.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from webmdp.core import World
from webmdp.sites import get_site, site_names
from webmdp.tasks import Task, distance, generate_site_tasks, informed
from webmdp.tasks.walks import random_walk
from webmdp.tracking import Tracker

PATH = Path(__file__).resolve().parents[1] / "tests" / "data" / "dense_reference.json.gz"
PER_TEMPLATE, WALKS, BUDGET = 5, 3, 1_000_000


def tasks_of(name: str) -> list[Task]:
    """The reference's tasks of a site (or ``cross-site``), in a fixed order."""
    by_template: dict[str, list[Task]] = {}
    for t in generate_site_tasks(get_site(name)):
        by_template.setdefault(t.template, []).append(t)
    return [t for ts in by_template.values() for t in ts[:PER_TEMPLATE]]


def episodes(task: Task) -> Iterator[tuple[str, list]]:  # type: ignore[type-arg]
    yield "oracle", list(task.oracle_actions())
    for seed in range(WALKS):
        yield f"walk{seed}", random_walk(task, seed)


def distances(task: Task, actions: list, budget: int | None) -> list[list[int | None]]:  # type: ignore[type-arg]
    """[informed, state] distance of every state of the episode, its start included; -2 where
    the search ran out of ``budget``."""
    tracker = Tracker(get_site(task.site), World.from_dict(task.world))
    out = [_pair(task, tracker, budget)]
    for action in actions:
        tracker.apply(action)
        out.append(_pair(task, tracker, budget))
    return out


def _pair(task: Task, tracker: Tracker, budget: int | None) -> list[int | None]:
    a = informed.informed_reach(task, tracker.state, tracker.seen, max_expansions=budget)
    b = distance.reach(task, tracker.state, max_expansions=budget)
    return [r.distance if r.known else -2 for r in (a, b)]


def main() -> None:
    names = sys.argv[1].split(",") if len(sys.argv) > 1 else list(site_names())
    for name in names:
        t0 = time.process_time()
        wanted = {t.id for t in tasks_of(name)}
        stored = json.loads(gzip.decompress(PATH.read_bytes())).get(name, {}) \
            if PATH.exists() else {}
        # a task already stored is kept: its values are a pure function of the task
        entries = {k: v for k, v in stored.items() if k in wanted}
        partial = PATH.parent / f".dense_reference.{name}.partial.jsonl"
        if partial.exists():
            for line in partial.read_text().splitlines():
                try:  # a run killed while it wrote leaves its last line cut
                    entries.update(json.loads(line))
                except json.JSONDecodeError:
                    continue
        for task in tasks_of(name):
            if task.id in entries:
                continue
            distance.clear_cache()
            informed.clear_cache()
            entries[task.id] = {kind: distances(task, acts, BUDGET)
                                for kind, acts in episodes(task)}
            out = [d for ep in entries[task.id].values() for pair in ep for d in pair if d == -2]
            if out:
                raise SystemExit(f"{task.id}: {len(out)} searches ran out of {BUDGET}")
            with partial.open("a") as f:
                f.write(json.dumps({task.id: entries[task.id]}) + "\n")
        # read just before writing: another run may have written other sites meanwhile
        data = json.loads(gzip.decompress(PATH.read_bytes())) if PATH.exists() else {}
        data[name] = entries
        n = sum(len(ep) for e in entries.values() for ep in e.values())
        print(f"{name}: {len(entries)} tasks, {n} states, {time.process_time() - t0:.0f} s CPU",
              flush=True)
        PATH.write_bytes(gzip.compress(json.dumps(data, sort_keys=True,
                                                  separators=(",", ":")).encode(), mtime=0))
        partial.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
