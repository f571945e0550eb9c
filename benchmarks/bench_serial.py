"""The runner's serial part: ``webmdp run`` of 1,200 semantic episodes (600 tasks x random +
greedy, warm task cache) typed as a user types it, with 1 worker and with 2.

    python benchmarks/bench_serial.py [--workers 1,2]

The parent serial time is the 1-worker run's wall time minus the seconds its worker spent on
episode attempts, which the worker measures itself (the run manifest's last invocation,
``episode_s``). Everything else (the CLI's start, selecting and hashing the tasks, writing
the run directory, starting and stopping the worker, scheduling, rebuilding the tables) is
the runner's own, and does not shrink with more workers.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WEBMDP = str(Path(sys.executable).with_name("webmdp"))
COMMAND = ["run", "--site", "all", "--agent", "random", "--agent", "greedy", "--limit", "600"]
EPISODES = 1200


def timed(workers: int) -> tuple[float, float]:
    """(wall seconds, the worker's summed episode seconds) of one fresh run."""
    out = Path(tempfile.mkdtemp(prefix="webmdp-serial-"))
    try:
        t0 = time.perf_counter()
        res = subprocess.run([WEBMDP, *COMMAND, "--workers", str(workers), "--out",
                              str(out / "run")], capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if res.returncode != 0:
            raise SystemExit(f"webmdp run failed ({res.returncode}): {res.stderr[-2000:]}")
        manifest = json.loads((out / "run" / "manifest.json").read_text())
        return wall, float(manifest["invocations"][-1]["episode_s"])
    finally:
        shutil.rmtree(out, ignore_errors=True)


def warm() -> None:
    """Two runs first: the first builds and caches the task sets where they are missing; the
    second reads them back, so their sidecars (index, hash) are built and cached too."""
    for _ in range(2):
        out = Path(tempfile.mkdtemp(prefix="webmdp-serial-warm-"))
        try:
            subprocess.run([WEBMDP, *COMMAND, "--workers", "1", "--out", str(out / "run")],
                           capture_output=True, check=True)
        finally:
            shutil.rmtree(out, ignore_errors=True)


def main(workers: tuple[int, ...] = (1, 2)) -> dict[int, float]:
    warm()
    walls: dict[int, float] = {}
    for w in workers:
        wall, inside = timed(w)
        walls[w] = wall
        if w == 1:
            print(f"parent serial time: {wall - inside:.2f} s for {EPISODES} semantic episodes",
                  flush=True)
            print(f"  1 worker: wall {wall:.2f} s, of which the worker inside episodes "
                  f"{inside:.2f} s", flush=True)
    if 1 in walls:
        for w in workers:
            if w != 1:
                print(f"  {EPISODES} semantic episodes: 1 worker {walls[1]:.1f} s, {w} workers "
                      f"{walls[w]:.1f} s ({walls[1] / walls[w]:.2f}x)", flush=True)
    return walls


if __name__ == "__main__":
    spec = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--workers=")), "1,2")
    main(tuple(int(x) for x in spec.split(",")))
