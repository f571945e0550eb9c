"""Cost of the exact goal distance ``d(s)`` a tree-search agent asks for at every node.

States: every oracle prefix of the 5 longest oracles per site. Prints per site, against a
baseline measured on the same states in the same run:
- ``d(s)`` with a cold result cache (the task's world and bounds already built) vs. one
  expansion, i.e. ``observe`` plus ``step`` on every candidate action (one BFS level);
- the same query again (an LRU hit);
- ``d`` of every successor after ``d(s)``, as an agent scoring its moves does.
"""

from __future__ import annotations

import statistics
import time

from webmdp.core import State, World
from webmdp.errors import InvalidAction
from webmdp.sites import get_site, site_names
from webmdp.tasks import Task, generate_site_tasks
from webmdp.tasks.distance import (
    at_goal,
    candidate_actions,
    clear_cache,
    distance_to_goal,
    state_after,
)

LONGEST = 5


def _ms(fn) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1e3


def _expand(task: Task, world: World, state: State) -> list[State]:
    """One BFS level from ``state``: the baseline unit of work."""
    site = get_site(task.site)
    out = []
    for action in candidate_actions(task, state):
        try:
            out.append(site.step(state, action, world))
        except InvalidAction:
            continue
    return out


def bench_site(name: str) -> dict[str, list[float]]:
    tasks = sorted(generate_site_tasks(get_site(name)), key=lambda t: -len(t.oracle))[:LONGEST]
    out: dict[str, list[float]] = {"cold": [], "expand": [], "cached": [], "successors": [],
                                   "distance": []}
    for task in tasks:
        world, actions = World.from_dict(task.world), task.oracle_actions()
        for k in range(len(actions) + 1):
            state = state_after(task, actions[:k])
            _expand(task, world, state)  # warm the site's list caches as a search would
            out["expand"].append(_ms(lambda t=task, w=world, s=state: _expand(t, w, s)))
            clear_cache()
            at_goal(task, state)  # rebuild the task's world and bounds outside the timing
            got: list[int | None] = []
            out["cold"].append(_ms(lambda t=task, s=state, g=got: g.append(distance_to_goal(t, s))))
            out["distance"].append(float(got[0] if got[0] is not None else -1))
            out["cached"].append(_ms(lambda t=task, s=state: distance_to_goal(t, s)))
            kids = _expand(task, world, state)
            out["successors"].append(_ms(lambda t=task, ks=kids: [distance_to_goal(t, c)
                                                                   for c in ks]))
    return out


def main() -> None:
    print(f"## Exact goal distance d(s), every oracle prefix of the {LONGEST} longest oracles "
          "per site (A* over the agent action space)")
    for name in site_names():
        r = bench_site(name)
        cold, base = r["cold"], r["expand"]
        ratios = [c / b for c, b in zip(cold, base, strict=True)]
        print(f"  {name:9s} {len(cold):3d} states, d up to {max(r['distance']):.0f}: "
              f"cold median {statistics.median(cold):6.2f} ms, max {max(cold):6.2f} ms   "
              f"= {statistics.median(ratios):4.1f}x / {max(ratios):4.1f}x one expansion "
              f"(observe + step every candidate: median {statistics.median(base):.2f} ms)")
        print(f"  {'':9s} cached re-query median {statistics.median(r['cached']) * 1e3:6.1f} us;"
              f"   d of every successor after d(s): median "
              f"{statistics.median(r['successors']):6.1f} ms, max {max(r['successors']):6.1f} ms")


if __name__ == "__main__":
    main()
