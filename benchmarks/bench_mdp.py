"""Semantic-MDP throughput and task generation time.

Prints absolute figures and ratios against baselines measured in the same run:
- transitions/s of ``site.step`` on one core vs. a bare ``dataclasses.replace`` loop;
- generating and oracle-verifying every task (1,800 over ten sites) vs. a 10 s target, and
  reading them back from the disk cache vs. generating them.
"""

from __future__ import annotations

import dataclasses
import os
import statistics
import tempfile
import time
from collections.abc import Callable

from webmdp.core import World
from webmdp.sites import get_site, site_names
from webmdp.tasks import cache, generate_site_tasks, make_task, plan
from webmdp.tasks import generate as G
from webmdp.tasks.generate import generate_sets

TARGET_TPS = 20_000
TARGET_GEN_S = 7.0  # issue 28: all 1,800 tasks of the ten sites (issue 10's was 10 s)


def _timeit(fn, min_s: float = 1.0) -> tuple[int, float]:  # type: ignore[no-untyped-def]
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < min_s:
        n += fn()
    return n, time.perf_counter() - t0


def _baseline_loop() -> Callable[[], int]:
    """A bare ``dataclasses.replace`` loop over the shopping state: the floor a transition
    that only copies a state cannot beat."""
    state = get_site("shopping").initial_state(World("shopping", {}))

    def baseline() -> int:
        s = state
        for i in range(1000):
            s = dataclasses.replace(s, page=i)
        return 1000

    return baseline


def bench_transitions(rounds: int = 3) -> dict[str, tuple[float, float]]:
    """Per site: transitions/s and the ratio to the baseline loop, each the median of
    ``rounds`` alternations (baseline, site, baseline, ...) so that both see the same noise."""
    baseline = _baseline_loop()
    out: dict[str, tuple[float, float]] = {}
    for name in site_names():
        site = get_site(name)
        tasks = generate_site_tasks(site)[::6]
        runs = [(World.from_dict(t.world), t.oracle_actions()) for t in tasks]

        def replay_all(site=site, runs=runs) -> int:  # type: ignore[no-untyped-def]
            k = 0
            for world, actions in runs:
                s = site.initial_state(world)
                for a in actions:
                    s = site.step(s, a, world)
                    k += 1
            return k

        replay_all()  # warm caches as a long episode would
        speeds, ratios = [], []
        for _ in range(rounds):
            nb, db = _timeit(baseline, 0.3)
            n, dt = _timeit(replay_all, 0.6)
            nb2, db2 = _timeit(baseline, 0.3)
            speeds.append(n / dt)
            ratios.append((n / dt) / ((nb + nb2) / (db + db2)))
        out[name] = (statistics.median(speeds), statistics.median(ratios))
    return out


def bench_generation() -> dict[str, float]:
    """Generating every task as a command that needs them all does (``generate_sets``: the
    sites in parallel worker processes, no cache of any kind), the same in one process
    (``make_task`` over each site's plan), then reading the sets back from a fresh disk cache
    (what a second process does). Every set must be the same bytes each way."""
    os.environ[cache.CACHE_ENV] = "off"
    G._GENERATED.clear()
    t0 = time.perf_counter()
    made = generate_sets([get_site(n) for n in site_names()])
    dt = time.perf_counter() - t0
    t0 = time.perf_counter()
    one = {n: [make_task(get_site(n), i, t, hn) for i, t, hn in plan(get_site(n))]
           for n in site_names()}
    dt_one = time.perf_counter() - t0
    if any(cache.tasks_text(one[n]) != cache.tasks_text(made[n]) for n in site_names()):
        raise SystemExit("parallel generation differs from generation in one process")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ[cache.CACHE_ENV] = tmp
        for n, tasks in made.items():
            cache.cached_tasks(f"{n}-{len(tasks)}", lambda tasks=tasks: tasks)  # store
        t1 = time.perf_counter()
        read = sum(len(cache.cached_tasks(f"{n}-{len(ts)}", list)) for n, ts in made.items())
        dr = time.perf_counter() - t1
    return {"tasks": sum(map(len, made.values())), "seconds": dt, "read": read,
            "read_seconds": dr, "one_process_seconds": dt_one, "workers": os.cpu_count() or 1}


def main() -> None:
    tps = bench_transitions()
    print("## Semantic transitions per second (one core; ratio to a bare dataclasses.replace "
          "loop timed next to it, median of 3)")
    for name, (v, ratio) in tps.items():
        verdict = "met" if v >= TARGET_TPS else "MISSED"
        print(f"  {name:13s} {v:12,.0f}/s   {ratio:5.2f}x of the replace loop   "
              f"target {TARGET_TPS:,}/s -> {verdict}")
    gen = bench_generation()
    print("## Generate + oracle-verify every task")
    print(f"  {gen['tasks']:.0f} tasks in {gen['seconds']:.2f} s   "
          f"{gen['seconds'] / TARGET_GEN_S:.2f}x of the {TARGET_GEN_S:.0f} s target")
    print(f"  (sites in parallel over {gen['workers']:.0f} cores; in one process: "
          f"{gen['one_process_seconds']:.2f} s, {gen['one_process_seconds'] / gen['seconds']:.2f}x"
          " of that)")
    print(f"  read back from the disk cache: {gen['read']:.0f} tasks in "
          f"{gen['read_seconds']:.2f} s   {gen['read_seconds'] / gen['seconds']:.3f}x of "
          "generating them")


if __name__ == "__main__":
    main()
