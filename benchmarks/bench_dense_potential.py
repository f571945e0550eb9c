"""Shaped rewards along the oracle: the informed potential (``dense``) against the state-only
one (``dense-state``) and against the task's information constraints alone.

For every built-in site, the first ``PER_TEMPLATE`` tasks of each template are replayed with
their oracle and a :class:`~webmdp.tracking.Tracker`; Φ is computed before and after each
step, as :class:`~webmdp.rl.episode.RLEpisode` does, and the Finish step earns
terminal (1) - Φ(s_n). Prints per site and potential, for every budget in ``BUDGETS``:

- positive / zero / negative: the fraction of oracle steps (Finish included) whose shaped
  reward r = terminal + Φ(s') - Φ(s) is > 0, == 0, < 0 (our definition, ``rl.rewards``);
  ``(n by budget)``: the steps among them with a search out of budget on either side;
- budget: the fraction of Φ calls whose search ran out of expansions (Φ = 0 there);
- ms/Φ: median and maximum time of one Φ call, caches warm from the task's earlier steps as
  in an episode (each budget starts cold).

Then, for the first task of each template, whether the focused informed distance (the
default) equals the unfocused one on every oracle state (both within ``CHECK_BUDGET``).

``python benchmarks/bench_dense_potential.py [per-template] [site,...]``
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from webmdp.core import World
from webmdp.sites import get_site, site_names
from webmdp.tasks import Task, distance, generate_site_tasks, informed
from webmdp.tracking import Tracker

PER_TEMPLATE = 2
BUDGETS = (1_000, 5_000)
CHECK_BUDGET = 2_000
Potential = Callable[[Task, Tracker, int], "float | None"]


def _dense(task: Task, tracker: Tracker, budget: int) -> float | None:
    found = informed.informed_distance(task, tracker.state, tracker.seen, max_expansions=budget)
    return None if found is None else 1.0 / (2.0 + found)


def _constraints(task: Task, tracker: Tracker, budget: int) -> float | None:
    found = informed.informed_distance(task, tracker.state, tracker.seen, max_expansions=budget,
                                       pairs=informed.constraints(task))
    return None if found is None else 1.0 / (2.0 + found)


def _state(task: Task, tracker: Tracker, budget: int) -> float | None:
    found = distance.distance_to_goal(task, tracker.state, max_expansions=budget)
    return None if found is None else 1.0 / (1.0 + found)


POTENTIALS: dict[str, Potential] = {"dense": _dense, "constraints": _constraints,
                                    "dense-state": _state}


@dataclass
class Tally:
    rewards: list[float] = field(default_factory=list)
    spent: list[bool] = field(default_factory=list)
    """Per step: whether a search on either side of it ran out of budget."""
    negative: set[str] = field(default_factory=set)
    """Templates with a negative step."""
    calls: int = 0
    budget: int = 0
    ms: list[float] = field(default_factory=list)

    def line(self) -> str:
        n = len(self.rewards)
        pos = [r > 1e-12 for r in self.rewards]
        neg = [r < -1e-12 for r in self.rewards]
        zero = [not p and not q for p, q in zip(pos, neg, strict=True)]
        return (f"positive {sum(pos) / n:6.1%}  zero {sum(zero) / n:6.1%} "
                f"({_by_budget(zero, self.spent):3d} by budget)  negative {sum(neg) / n:6.1%} "
                f"({_by_budget(neg, self.spent):3d})  budget {self.budget / self.calls:6.1%}  "
                f"ms/Φ median {statistics.median(self.ms):6.2f} max {max(self.ms):8.1f}")


def _by_budget(steps: Sequence[bool], spent: Sequence[bool]) -> int:
    return sum(a and b for a, b in zip(steps, spent, strict=True))


def replay(task: Task, phi: Potential, budget: int, tally: Tally) -> None:
    """The oracle's shaped rewards under ``phi``, Finish (terminal 1) last."""
    tracker = Tracker(get_site(task.site), World.from_dict(task.world))
    first = len(tally.rewards)
    before, was_spent = _timed(phi, task, tracker, budget, tally)
    for action in task.oracle_actions():
        tracker.apply(action)
        after, spent = _timed(phi, task, tracker, budget, tally)
        tally.rewards.append(after - before)
        tally.spent.append(was_spent or spent)
        before, was_spent = after, spent
    tally.rewards.append(1.0 - before)
    tally.spent.append(was_spent)
    if min(tally.rewards[first:]) < -1e-12:
        tally.negative.add(task.template)


def _timed(phi: Potential, task: Task, tracker: Tracker, budget: int,
           tally: Tally) -> tuple[float, bool]:
    """Φ (0 when the search ran out of budget) and whether it did."""
    t0 = time.perf_counter()
    value = phi(task, tracker, budget)
    tally.ms.append((time.perf_counter() - t0) * 1e3)
    tally.calls += 1
    tally.budget += value is None
    return (0.0, True) if value is None else (value, False)


def sample(site: str, per: int) -> list[Task]:
    by: dict[str, list[Task]] = {}
    for task in generate_site_tasks(get_site(site)):
        by.setdefault(task.template, []).append(task)
    return [t for ts in by.values() for t in ts[:per]]


def focused_agrees(tasks: Sequence[Task]) -> tuple[int, int, int]:
    """(states compared, disagreements, states where either search ran out)."""
    compared = differ = unknown = 0
    for task in tasks:
        tracker = Tracker(get_site(task.site), World.from_dict(task.world))
        for action in [None, *task.oracle_actions()]:
            if action is not None:
                tracker.apply(action)
            a, b = (informed.informed_distance(task, tracker.state, tracker.seen,
                                               max_expansions=CHECK_BUDGET, focused=f)
                    for f in (True, False))
            if a is None or b is None:
                unknown += 1
            else:
                compared += 1
                differ += a != b
    return compared, differ, unknown


def main(per: int = PER_TEMPLATE, sites: Sequence[str] | None = None) -> None:
    print(f"## Shaped oracle rewards, first {per} task(s) of each template per site "
          f"(Finish included; budgets {BUDGETS})")
    for name in sites or site_names():
        tasks = sample(name, per)
        steps = sum(len(t.oracle) + 1 for t in tasks)
        print(f"  {name}: {len(tasks)} tasks, {steps} oracle steps")
        for budget in BUDGETS:
            for label, phi in POTENTIALS.items():
                distance.clear_cache()
                informed.clear_cache()
                tally = Tally()
                for task in tasks:
                    replay(task, phi, budget, tally)
                print(f"    {label:11s} {budget:6d}  {tally.line()}", flush=True)
                if tally.negative:
                    print(f"      negative steps in: {', '.join(sorted(tally.negative))}")
        first = sample(name, 1)
        compared, differ, unknown = focused_agrees(first)
        print(f"    focused == unfocused on {compared - differ}/{compared} oracle states "
              f"({unknown} beyond {CHECK_BUDGET} expansions)", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else PER_TEMPLATE,
         sys.argv[2].split(",") if len(sys.argv) > 2 else None)
