"""Runs at scale: episodes per minute with 1, 2 and 4 workers, memory per worker, a shared
server against one per worker, the Ray backend against the local one, and a model agent with
2 s latency per call against the ideal. Every figure is measured in this run, on this machine.

    python benchmarks/bench_runner.py [N_TASKS] [--no-ray]

First, the runner's serial part (benchmarks/bench_serial.py): the line
``parent serial time: X s for 1200 semantic episodes`` (a 1-worker ``webmdp run`` of 1,200
semantic episodes less the seconds its worker spent inside them), then the same run's 1- and
2-worker wall times.

The oracle runs in browser mode (axtree observation) on N_TASKS tasks (default 100) spread
over every site. Scaling efficiency = rate(W) / (W x rate(1)); on a 2-core machine it cannot
pass 2 / W beyond two workers.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import psutil
from bench_serial import main as serial

from webmdp.agents.llm import ModelAgentConfig
from webmdp.cli.common import select_tasks
from webmdp.core.spec import Action
from webmdp.runner.run import RunPlan, execute_run
from webmdp.runner.spec import AgentSpec, RunSettings
from webmdp.tasks.model import Task
from webmdp.testing.model_server import Reply, Request, ScriptedModelServer
from webmdp.testing.oracle_model import Mirror, OracleModel

LATENCY_S = 2.0


class MemorySampler:
    """Peak proportional set size (PSS) of each worker's process tree (worker, driver,
    Chromium), sampled every half second."""

    def __init__(self) -> None:
        self.peak: dict[int, int] = defaultdict(int)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        me = psutil.Process()
        while not self._stop.wait(0.5):
            for worker in me.children():
                try:
                    tree = [worker, *worker.children(recursive=True)]
                    total = sum(_pss(p) for p in tree)
                except psutil.Error:
                    continue
                self.peak[worker.pid] = max(self.peak[worker.pid], total)

    def per_worker_mb(self) -> float:
        peaks = [v for v in self.peak.values() if v]
        return max(peaks) / 2**20 if peaks else 0.0


def _pss(p: psutil.Process) -> int:
    try:
        return p.memory_full_info().pss
    except (psutil.Error, AttributeError):
        return 0


def timed_run(tasks: list[Task], agents: list[AgentSpec], mode: str,
              **settings: Any) -> tuple[float, float, int]:
    """(wall seconds, peak MB per worker, successes) of one fresh run."""
    root = Path(tempfile.mkdtemp(prefix="webmdp-bench-"))
    try:
        plan = RunPlan(root, tasks, agents, mode,  # type: ignore[arg-type]
                       RunSettings(observation="axtree", **settings))
        with MemorySampler() as mem:
            t0 = time.perf_counter()
            outcome = execute_run(plan)
            wall = time.perf_counter() - t0
        assert outcome.status == "completed", outcome
        assert outcome.tally.infra_errors == 0, "infrastructure errors in a benchmark run"
        return wall, mem.per_worker_mb(), outcome.tally.success
    finally:
        shutil.rmtree(root, ignore_errors=True)


def oracle_model(tasks: list[Task]) -> tuple[Any, float]:
    """A scripted model that answers each task's oracle actions in order after
    ``LATENCY_S``, however many episodes ask at once; and the mean calls per episode."""
    writer = OracleModel(Mirror(None), "json")
    plans = {t.instruction: [*t.oracle_actions(), Action("Finish")] for t in tasks}
    asked: dict[str, int] = defaultdict(int)
    lock = threading.Lock()

    def respond(req: Request) -> Reply:
        text = "\n".join(req.texts())
        instruction = next(i for i in plans if i in text)
        with lock:
            k = asked[instruction]
            asked[instruction] += 1
        reply = writer.write(plans[instruction][min(k, len(plans[instruction]) - 1)])
        reply.delay_s = LATENCY_S
        return reply

    mean_calls = sum(len(p) for p in plans.values()) / len(plans)
    return respond, mean_calls


def main(n_tasks: int = 100, ray: bool = True) -> None:
    serial()  # first: its first line ("parent serial time: ...") is read by scripts
    tasks = select_tasks("all", limit=n_tasks, spread=True)
    oracle = [AgentSpec("oracle")]
    print(f"## Runs at scale ({len(tasks)} tasks, oracle, browser mode, {os.cpu_count()} "
          "cores)")
    rates: dict[int, float] = {}
    for workers in (1, 2, 4):
        wall, mb, ok = timed_run(tasks, oracle, "browser", workers=workers, backend="local")
        rates[workers] = len(tasks) / wall * 60
        eff = rates[workers] / (workers * rates[1])
        print(f"  local  {workers} worker(s): {rates[workers]:6.1f} episodes/min  "
              f"scaling efficiency {eff:4.2f}  peak {mb:5.0f} MB per worker  "
              f"({ok}/{len(tasks)} solved, {wall:.0f} s)")
    wall, mb, _ = timed_run(tasks, oracle, "browser", workers=2, backend="local",
                            server="shared")
    shared = len(tasks) / wall * 60
    print(f"  local  2 workers, one shared server: {shared:6.1f} episodes/min "
          f"({shared / rates[2]:.2f}x the per-worker servers)")
    if ray:
        wall, mb, _ = timed_run(tasks, oracle, "browser", workers=2, backend="ray")
        rate = len(tasks) / wall * 60
        print(f"  ray    2 workers: {rate:6.1f} episodes/min (Ray start-up included; "
              f"{wall / (len(tasks) / rates[2] * 60):.2f}x the local backend's wall time)")
    model_agent(select_tasks("all", limit=min(40, n_tasks), spread=True))


def model_agent(tasks: list[Task]) -> None:
    """The step agent against a scripted endpoint answering after ``LATENCY_S``: episodes
    per minute against the ideal ``workers x slots / (calls x latency)``."""
    for workers, slots in ((1, 4), (2, 4)):
        respond, calls = oracle_model(tasks)  # fresh: it counts each task's calls
        with ScriptedModelServer(respond) as srv:
            cfg = ModelAgentConfig(model="vllm/scripted-model", grammar="json",
                                   base_url=srv.base_url, api_key="x",
                                   concurrency=workers * slots)
            wall, _, ok = timed_run(tasks, [AgentSpec("step", model=cfg)], "semantic",
                                    workers=workers, slots=slots, backend="local")
        rate = len(tasks) / wall * 60
        ideal = workers * slots * 60 / (calls * LATENCY_S)
        print(f"  model agent, {LATENCY_S:g} s per call, {workers} x {slots} slots: "
              f"{rate:6.1f} episodes/min, ideal {ideal:6.1f} ({rate / ideal:.0%}; "
              f"{ok}/{len(tasks)} solved, {calls:.1f} calls per episode)")

if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(int(args[0]) if args else 100, ray="--no-ray" not in sys.argv)
