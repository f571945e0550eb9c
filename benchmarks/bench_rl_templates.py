"""The cost of ``dense`` per template (issue 42): ``bench_rl.py`` times the first task of each
site, which hides the templates whose exact search is slow. Here: the first task of every
template of every site, its oracle episode under ``WebMDPEnvironment(reward="dense")`` with the
search caches cleared first (fresh states), the CPU time of the reset and of the worst step.
A template that does not finish within ``CAP`` seconds (wall) is reported as over it.

``python benchmarks/bench_rl_templates.py [cap-seconds] [site,...]`` (default 20 s, every
site). Prints one row per template over ``SLOW_MS`` and the count of the others.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

from bench_rl import _play

from webmdp.rl.server import settle
from webmdp.sites import get_site, site_names
from webmdp.tasks import Task, distance, generate_site_tasks, informed

SLOW_MS = 100.0


class _Over(Exception):
    pass


def _alarm(_sig: int, _frame: FrameType | None) -> None:
    raise _Over


def play(task: Task, cap: float) -> tuple[float, float, int] | None:
    """(reset ms, worst step ms, steps) of the oracle episode under ``dense``
    (:func:`bench_rl._play`), or None past ``cap`` seconds."""
    distance.clear_cache()
    informed.clear_cache()
    steps: list[float] = []
    resets: list[float] = []
    signal.setitimer(signal.ITIMER_REAL, cap)
    try:
        _play(task, "dense", [list(task.oracle_actions())], steps, resets)
    except _Over:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return resets[0] * 1000, max(steps, default=0.0) * 1000, len(steps)


def main() -> None:
    cap = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else list(site_names())
    signal.signal(signal.SIGALRM, _alarm)
    settle()  # as rl serve does once its pools are read
    print(
        f"## dense, first task of each template, oracle episode, fresh caches (CPU ms; "
        f"rows over {SLOW_MS:g} ms)"
    )
    print("| site | template | task | reset | worst step |")
    print("|---|---|---|---|---|")
    quick = total = 0
    for name in names:
        first: dict[str, Task] = {}
        for t in generate_site_tasks(get_site(name)):
            first.setdefault(t.template, t)
        for template, task in first.items():
            total += 1
            got = play(task, cap)
            if got is not None and max(got[:2]) <= SLOW_MS:
                quick += 1
                continue
            cells = ("over", f"{cap:g} s") if got is None else (f"{got[0]:,.0f}", f"{got[1]:,.0f}")
            print(f"| {name} | {template} | {task.id} | {cells[0]} | {cells[1]} |", flush=True)
    print(f"{quick} of {total} templates within {SLOW_MS:g} ms a reset and a step")


if __name__ == "__main__":
    main()
