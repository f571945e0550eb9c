"""Wall time of `webmdp validate` (GUI replay of every oracle) per site, with the time of the
same oracles replayed on the MDP alone as the in-run baseline."""

from __future__ import annotations

import sys
import time

from webmdp.agents import OracleAgent
from webmdp.env.semantic import SemanticEnv
from webmdp.runner.episode import run_episode
from webmdp.runner.validate import validate_site
from webmdp.sites import get_site, site_names
from webmdp.tasks import generate_site_tasks


def main(limit: int | None = None) -> None:
    print("## webmdp validate wall time")
    for name in site_names():
        tasks = generate_site_tasks(get_site(name))
        if limit:
            tasks = tasks[:: max(1, len(tasks) // limit)][:limit]
        t0 = time.perf_counter()
        for t in tasks:
            run_episode(SemanticEnv(t), OracleAgent())
        sem = time.perf_counter() - t0
        t0 = time.perf_counter()
        rep = validate_site(name, tasks)
        wall = time.perf_counter() - t0
        status = "ok" if rep.ok else f"{len(rep.level1 + rep.level2 + rep.level3)} problems"
        print(f"  {name:13s} {len(tasks)} oracles, {rep.pages_checked} pages: {wall:6.1f} s "
              f"({wall / len(tasks):.2f} s/task; {wall / sem:,.0f}x the MDP-only replay "
              f"of {sem * 1000:.0f} ms) [{status}]")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else None)
