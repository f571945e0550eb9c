"""A soak of `rl serve --workers 2` (issue 43, `make test-slow`): 64 clients replay shopping
oracles for ``WEBMDP_SOAK_S`` seconds (default 300). Every episode a client started either
finished or failed with a reason, the server's own count of finished episodes matches the
clients', and no worker's memory grows more than 10% after the first minute."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time

import psutil
import pytest
from rl_support import oracle_actions, until

from webmdp.rl.client import WebMDPClient
from webmdp.rl.splits import TRAIN, Catalog

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]
SOAK_S = float(os.environ.get("WEBMDP_SOAK_S", "300"))
CLIENTS = 64


async def _client(port: int, plays: list, k: int, deadline: float,  # type: ignore[type-arg]
                  tally: dict[str, int], reasons: list[str]) -> None:
    i = k
    async with WebMDPClient(base_url=f"http://127.0.0.1:{port}") as c:
        while time.monotonic() < deadline:
            task, actions = plays[i % len(plays)]
            i += 1
            tally["started"] += 1
            try:
                await c.reset(task_id=task.id)
                for a in actions:
                    r = await c.step(a)
                    if r.done:
                        break
                tally["finished" if r.done else "cut"] += 1
            except Exception as exc:  # an errored episode must say why
                reasons.append(str(exc) or type(exc).__name__)
                tally["errored"] += 1
                return


def _rss(proc: subprocess.Popen[str]) -> dict[int, int]:
    out = {}
    for p in psutil.Process(proc.pid).children():
        try:
            if "spawn_main" in " ".join(p.cmdline()):
                out[p.pid] = p.memory_info().rss
        except psutil.Error:
            continue
    return out


def test_64_clients_on_two_workers_lose_no_episode_and_leak_no_memory() -> None:
    import re

    proc = subprocess.Popen([sys.executable, "-m", "webmdp.cli.main", "rl", "serve", "--site",
                             "shopping", "--port", "0", "--workers", "2", "--max-sessions",
                             "96"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True)
    port = int(re.search(r":(\d+) \(", until(proc, "ready")[-1]).group(1))  # type: ignore[union-attr]
    said: list[str] = []  # drained as it comes: a full pipe would stall the server
    drain = threading.Thread(target=lambda: said.extend(proc.stderr or ()), daemon=True)
    drain.start()
    plays = [(t, oracle_actions(t)) for t in Catalog("shopping").tasks(TRAIN)[:32]]
    tally = {"started": 0, "finished": 0, "cut": 0, "errored": 0}
    reasons: list[str] = []
    samples: list[dict[int, int]] = []

    async def soak() -> None:
        deadline = time.monotonic() + SOAK_S
        clients = asyncio.gather(*(_client(port, plays, k, deadline, tally, reasons)
                                   for k in range(CLIENTS)))
        while not clients.done():
            await asyncio.sleep(min(60.0, SOAK_S / 5))
            samples.append(_rss(proc))
        await clients

    try:
        asyncio.run(soak())
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        drain.join(10)
    err = "".join(said)
    assert tally["started"] == tally["finished"] + tally["cut"] + tally["errored"]
    assert tally["errored"] == len(reasons) and all(reasons), reasons
    assert tally["finished"] > CLIENTS
    served = re.search(r"stopped: .* episodes: (\d+),", err)
    assert served and int(served.group(1)) == tally["finished"], (tally, reasons[:3], err[-300:])
    first, last = samples[0], samples[-1]
    for pid, rss in last.items():
        if pid in first:
            assert rss <= 1.10 * first[pid], (pid, first[pid], rss)
