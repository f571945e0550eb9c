"""Cost of measuring WebForge difficulty vectors (``webmdp.tasks.difficulty.measure``).

Every built-in task (1,800) is measured from its stored form. The baseline, measured on the
same tasks in the same run, is replaying each oracle and observing every state on its path:
what any measure of depth, breadth, interaction and information must do. The rest of the cost
is the risk measure's search for an undo. Target: all vectors in under 10 s.
"""

from __future__ import annotations

import time

from webmdp.core import World
from webmdp.sites import get_site, site_names
from webmdp.tasks import Task, generate_site_tasks
from webmdp.tasks.difficulty import measure
from webmdp.tasks.distance import clear_cache


def replay_and_observe(task: Task) -> None:
    site, world = get_site(task.site), World.from_dict(task.world)
    state = site.initial_state(world)
    site.observe(state, world)
    for a in task.oracle_actions():
        state = site.step(state, a, world)
        site.observe(state, world)


def main() -> None:
    tasks = [t.model_copy(update={"difficulty": None})
             for s in site_names() for t in generate_site_tasks(get_site(s))]
    t0 = time.perf_counter()
    for t in tasks:
        replay_and_observe(t)
    base = time.perf_counter() - t0
    clear_cache()
    per_site: dict[str, float] = {}
    t0 = time.perf_counter()
    for t in tasks:
        t1 = time.perf_counter()
        measure(t)
        per_site[t.site] = per_site.get(t.site, 0.0) + time.perf_counter() - t1
    total = time.perf_counter() - t0
    print(f"## difficulty: measured vectors of {len(tasks)} tasks")
    print(f"  baseline: replay + observe every oracle    {base:6.2f} s")
    print(f"  measure (cold caches)                      {total:6.2f} s "
          f"({total / base:.1f}x baseline; target < 10 s: {'met' if total < 10 else 'NOT met'})")
    print("  by site (s): " + ", ".join(f"{s} {v:.2f}" for s, v in per_site.items()))


if __name__ == "__main__":
    main()
