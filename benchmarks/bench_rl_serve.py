"""`rl serve` at scale (issue 43), one table per part, every figure measured in this run.

1. Throughput: `rl serve --site shopping` with ``--workers 1`` and ``--workers 2``, rewards
   ``terminal`` and ``dense``: steps/s and step p50 / p95 at 1, 4 and 16 clients (asyncio
   WebSocket clients in one process, each replaying shopping oracles), ``CELL_S`` seconds a
   cell; errors counted (a capacity refusal is one).
2. Start-up and memory, ``--site all``: ``ready`` on a cold cache, a partly warm one (one
   site's pools) and a warm one (``webmdp cache build``); the first reset of each site on a
   cold cache; RSS per worker and in all after one reset per site.

``python benchmarks/bench_rl_serve.py [cell-seconds] [workers,...] [clients,...]``
(``BENCH_PARTS=2`` runs part 2 alone). On 2 cores
the clients share the cores with the workers, so a second worker cannot show a gain there:
the figures show correctness and cost; on 16 cores run ``... 10 1,4,16 64`` with
``--max-sessions 64`` (the script passes ``max(clients)``).
"""

from __future__ import annotations

import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import psutil

from webmdp.rl.client import WebMDPClient
from webmdp.rl.openenv import WebMDPAction
from webmdp.rl.splits import TRAIN, Catalog

CELL_S = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
WORKERS = [int(w) for w in (sys.argv[2] if len(sys.argv) > 2 else "1,2").split(",")]
CLIENTS = [int(c) for c in (sys.argv[3] if len(sys.argv) > 3 else "1,4,16").split(",")]
REWARDS = ("terminal", "dense")


def serve(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], int,
                                                                   float]:
    """A `rl serve` process on a free port; its port and seconds to ``ready``."""
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "webmdp.cli.main", "rl", "serve", "--port",
                             "0", "--quiet", *args], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True, env=env)
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("ready"):
            found = re.search(r":(\d+) \(", line)
            assert found, line
            return proc, int(found.group(1)), time.monotonic() - t0
    raise SystemExit(f"the server exited: {proc.wait()}")


def stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()


def episodes() -> list[tuple[str, list[WebMDPAction]]]:
    out = []
    for t in Catalog("shopping").tasks(TRAIN)[:20]:
        acts = [WebMDPAction(name=a.name, params=dict(a.params)) for a in t.oracle_actions()]
        out.append((t.id, [*acts, WebMDPAction(name="Finish",
                                               params={"answer": t.answer or "done"})]))
    return out


async def client(port: int, plays: list[tuple[str, list[WebMDPAction]]], k: int,
                 deadline: float, steps: list[float], errors: list[str]) -> None:
    try:
        async with WebMDPClient(base_url=f"http://127.0.0.1:{port}") as c:
            i = k
            while time.monotonic() < deadline:
                task_id, actions = plays[i % len(plays)]
                i += 1
                await c.reset(task_id=task_id)
                for a in actions:
                    t0 = time.monotonic()
                    r = await c.step(a)
                    steps.append(time.monotonic() - t0)
                    if r.done or time.monotonic() >= deadline:
                        break
    except Exception as exc:  # a refused or dropped session is a figure, not a crash
        errors.append(type(exc).__name__)


async def cell(port: int, n: int, plays: list[tuple[str, list[WebMDPAction]]]
               ) -> tuple[float, float, float, int]:
    steps: list[float] = []
    errors: list[str] = []
    deadline = time.monotonic() + CELL_S
    t0 = time.monotonic()
    await asyncio.gather(*(client(port, plays, k, deadline, steps, errors) for k in range(n)))
    took = time.monotonic() - t0
    q = statistics.quantiles(steps, n=20) if len(steps) > 1 else [0.0] * 19
    return len(steps) / took, statistics.median(steps) * 1000, q[18] * 1000, len(errors)


def throughput() -> None:
    plays = episodes()
    print(f"\n## 1. Throughput (shopping, oracle episodes, {CELL_S:.0f} s a cell)\n")
    print("| workers | reward | clients | steps/s | step p50 ms | step p95 ms | errors |")
    print("|---|---|---|---|---|---|---|")
    base: dict[tuple[str, int], float] = {}
    for w in WORKERS:
        for reward in REWARDS:
            proc, port, _ = serve("--site", "shopping", "--workers", str(w), "--reward",
                                  reward, "--max-sessions", str(max(CLIENTS) * 2))
            try:
                asyncio.run(cell(port, 1, plays[:1]))  # each worker's pool read once
                for n in CLIENTS:
                    rate, p50, p95, errs = asyncio.run(cell(port, n, plays))
                    ratio = rate / base.setdefault((reward, n), rate)
                    print(f"| {w} | {reward} | {n} | {rate:.0f} ({ratio:.2f}x workers=1) | "
                          f"{p50:.1f} | {p95:.1f} | {errs} |", flush=True)
            finally:
                stop(proc)


def startup() -> None:
    print("\n## 2. Start-up and memory (--site all)\n")
    with tempfile.TemporaryDirectory() as cold:
        env = {**os.environ, "WEBMDP_CACHE_DIR": cold}
        proc, port, ready = serve("--site", "all", env=env)
        firsts = {}
        try:
            with WebMDPClient(base_url=f"http://127.0.0.1:{port}").sync() as c:
                for site in ("accommodation", "calendar", "chat", "food", "housing", "jobs",
                             "mail", "qa", "repo", "shopping"):
                    t0 = time.monotonic()
                    c.reset(task_id=f"{site}_0001")
                    firsts[site] = time.monotonic() - t0
            rss = psutil.Process(proc.pid).memory_info().rss
        finally:
            stop(proc)
        print(f"ready, cold cache: {ready:.1f} s; first reset per site (builds its pool): "
              + ", ".join(f"{s} {v:.1f} s" for s, v in firsts.items()))
        print(f"RSS after one reset per site, one process: {rss / 2**20:.0f} MB")
        subprocess.run([sys.executable, "-m", "webmdp.cli.main", "cache", "build", "--site",
                        "shopping"], env=env, check=True, capture_output=True)
    with tempfile.TemporaryDirectory() as part:
        env = {**os.environ, "WEBMDP_CACHE_DIR": part}
        subprocess.run([sys.executable, "-m", "webmdp.cli.main", "cache", "build", "--site",
                        "shopping"], env=env, check=True, capture_output=True)
        proc, _, ready = serve("--site", "all", env=env)
        stop(proc)
        print(f"ready, partly warm (shopping's pools only): {ready:.1f} s")
    with tempfile.TemporaryDirectory() as warm:
        env = {**os.environ, "WEBMDP_CACHE_DIR": warm}
        t0 = time.monotonic()
        subprocess.run([sys.executable, "-m", "webmdp.cli.main", "cache", "build"], env=env,
                       check=True, capture_output=True)
        print(f"webmdp cache build, every pool from a cold cache: {time.monotonic() - t0:.1f} s")
        warm_starts(env)


def warm_starts(env: dict[str, str]) -> None:
    for w in WORKERS:
        proc, port, ready = serve("--site", "all", "--workers", str(w), env=env)
        try:
            with WebMDPClient(base_url=f"http://127.0.0.1:{port}").sync() as c:
                c.reset(task_id="shopping_0001")
            kids = [p for p in psutil.Process(proc.pid).children(recursive=True)
                    if "resource_tracker" not in " ".join(p.cmdline())]
            per = [p.memory_info().rss / 2**20 for p in kids] or \
                [psutil.Process(proc.pid).memory_info().rss / 2**20]
            total = psutil.Process(proc.pid).memory_info().rss / 2**20 + (sum(per) if kids
                                                                            else 0)
        finally:
            stop(proc)
        print(f"ready, warm, --workers {w}: {ready:.1f} s; RSS per worker "
              f"{', '.join(f'{r:.0f}' for r in per)} MB, {total:.0f} MB in all")


if __name__ == "__main__":
    print(f"# bench_rl_serve: {os.cpu_count()} CPUs, cells of {CELL_S:.0f} s")
    parts = os.environ.get("BENCH_PARTS", "1,2").split(",")
    if "1" in parts:
        throughput()
    if "2" in parts:
        startup()

