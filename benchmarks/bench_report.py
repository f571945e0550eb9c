"""All analyses and the report for 10,000 synthetic episodes over 1,800 tasks, on one core.

Episodes come from the built-in agents in semantic mode (oracle, greedy, random and a seeded
mix) on 900 generated tasks per site, written as a run directory first (not timed). Timed:
``load_runs`` + ``analyse`` + ``write_report`` (markdown, HTML with figures, JSON, parquet),
against the bare baseline of reading and validating every trace file, in the same run. Peak
memory is the process's maximum RSS. Target (issue 6): under 30 s and under 2 GiB.
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from webmdp.eval.analysis import analyse
from webmdp.eval.load import load_runs
from webmdp.eval.write import write_report
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.sites import get_site
from webmdp.tasks import generate_site_tasks
from webmdp.trace import EpisodeTrace

TASKS_PER_SITE = 900
EPISODES = 10_000
AGENTS = ("oracle", "greedy", "random")


def _build(root: Path) -> int:
    tasks = [t for s in ("shopping", "mail") for t in generate_site_tasks(get_site(s),
                                                                           TASKS_PER_SITE)]
    n = 0
    for round_, agent in enumerate([*AGENTS, "random", "greedy", "random"]):
        take = min(len(tasks), EPISODES - n)
        if take <= 0:
            break
        run_tasks(tasks[:take], root, RunConfig(agent=agent, seed=round_, resume=False))
        n += take
    return n


def main() -> None:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "run"
        t0 = time.perf_counter()
        n = _build(root)
        print(f"\n## Report on {n} synthetic episodes over {2 * TASKS_PER_SITE} tasks "
              f"(one core; built in {time.perf_counter() - t0:.0f} s, not timed)")
        t0 = time.perf_counter()
        for path in (root / "episodes").glob("*/*/*.json"):
            EpisodeTrace.model_validate_json(path.read_bytes())
        base = time.perf_counter() - t0
        t0 = time.perf_counter()
        analysis = analyse(load_runs([root]))
        mid = time.perf_counter() - t0
        write_report(analysis, Path(tmp) / "report")
        total = time.perf_counter() - t0
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2  # KiB -> GiB
        print(f"  baseline: read + validate every trace   {base:6.1f} s")
        print(f"  load + all analyses                     {mid:6.1f} s = {mid / base:4.1f}x")
        print(f"  ... + report files (md, html, figures, json, parquet) {total:6.1f} s = "
              f"{total / base:4.1f}x the baseline; target < 30 s")
        print(f"  peak memory (max RSS)                   {rss:6.2f} GiB; target < 2 GiB")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
