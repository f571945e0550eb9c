"""The viewer on 10,000 episodes: index load and first pages, against reading the traces.

Real traces of the built-in agents (semantic mode) on 24 Shopping and Mail tasks are copied
under new task ids into one run directory of 2,500 tasks x 4 agents, and the results tables
are rebuilt from them as the runner does (``RunStore.rebuild_tables``; not timed). Timed, in
the same process: the baselines (every trace file through ``json.loads``; ``load_runs``, the
report's loader) and the viewer (``RunIndex.load``; the first task-list page, a filtered page
and an episode page through the app, each the first request of its kind).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from webmdp.eval.load import load_runs
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.runner.store import RunStore
from webmdp.sites import get_site
from webmdp.tasks import make_task
from webmdp.tasks.io import write_tasks
from webmdp.tasks.model import Task
from webmdp.viewer import RunIndex, create_app

TASKS = 2_500
AGENTS = ("oracle", "greedy", "random", "random-b")
SOURCES = {"oracle": "oracle", "greedy": "greedy", "random": "random", "random-b": "random"}


def _real(root: Path) -> list[Task]:
    """The real traces copies are made of."""
    shop, mail = get_site("shopping"), get_site("mail")
    tasks = [make_task(shop, i, t, i % 3) for i, t in enumerate(
        ["find_product_extract", "cheapest_filter_sort", "compare_detail_pages",
         "review_extract"] * 4)]
    tasks += [make_task(mail, i, t, i % 3) for i, t in enumerate(
        ["find_email_extract", "label_by_cc", "forward_attachment", "reply_after_expanding"]
        * 2)]
    for agent in ("oracle", "greedy", "random"):
        run_tasks(tasks, root, RunConfig(agent=agent, step_budget=20))
    return tasks


def build(root: Path, src: Path) -> int:
    """``TASKS`` tasks x ``AGENTS`` episodes under ``root``, copied from the run at ``src``."""
    real = _real(src)
    traces = {(a, t.id): json.loads((src / "episodes" / a / "semantic" / f"{t.id}.json")
                                    .read_text()) for a in set(SOURCES.values()) for t in real}
    tasks = []
    for i in range(TASKS):
        base = real[i % len(real)]
        tasks.append(base.model_copy(update={"id": f"{base.site}_{i:05d}", "index": i}))
    write_tasks(root / "tasks.jsonl", tasks)
    for agent in AGENTS:
        folder = root / "episodes" / agent / "semantic"
        folder.mkdir(parents=True)
        for i, task in enumerate(tasks):
            trace = dict(traces[(SOURCES[agent], real[i % len(real)].id)])
            trace |= {"task_id": task.id, "agent": agent}
            (folder / f"{task.id}.json").write_text(json.dumps(trace, indent=1))
    return len(RunStore(root).rebuild_tables())


def _timed(fn, *args):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def _read_json(root: Path) -> int:
    n = 0
    for path in (root / "episodes").glob("*/*/*.json"):
        json.loads(path.read_bytes())
        n += 1
    return n


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root, src = Path(tmp) / "run", Path(tmp) / "real"
        t0 = time.perf_counter()
        n = build(root, src)
        print(f"\n## Viewer on {n} episodes ({TASKS} tasks x {len(AGENTS)} agents; built in "
              f"{time.perf_counter() - t0:.0f} s, not timed; {os.cpu_count()} cores)")
        _, raw = _timed(_read_json, root)
        _, report = _timed(load_runs, [root])
        index, load = _timed(RunIndex.load, [root])
        assert len(index.episodes) == n
        with TestClient(create_app(index)) as client:
            first, page = _timed(client.get, "/")
            filtered, fpage = _timed(client.get, "/?agent=random+%28semantic%29&outcome=failure"
                                                 "&hn=2&page=3")
            ep, epage = _timed(client.get, "/episode?agent=random&mode=semantic&task="
                                           "shopping_01234")
        assert first.status_code == filtered.status_code == ep.status_code == 200
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB
        print(f"  baseline: json.loads of every trace file        {raw:6.2f} s")
        print(f"  baseline: load_runs (the report's loader)       {report:6.2f} s")
        print(f"  viewer index (results.jsonl + task heads)       {load:6.2f} s = "
              f"{load / raw:5.3f}x json.loads, {load / report:5.3f}x load_runs")
        print(f"  first task-list page (50 tasks)                 {page * 1000:6.1f} ms")
        print(f"  filtered page (agent, outcome, hard negatives)  {fpage * 1000:6.1f} ms")
        print(f"  episode page (trace read on demand)             {epage * 1000:6.1f} ms")
        print(f"  index load + first page                         {load + page:6.2f} s = "
              f"{(load + page) / raw:5.3f}x json.loads of the traces")
        print(f"  peak memory (max RSS, baselines included)       {rss:6.0f} MiB")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
