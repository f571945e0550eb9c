"""The RL environment's cost per step and per reset, by reward mode, and whether sessions
stall on each other (issue 42; the trainer integrations' overhead is part 3).

1. Per site and for cross-site tasks: CPU time of ``WebMDPEnvironment.step`` and ``reset``
   (semantic mode) under ``terminal``, ``dense-state`` and ``dense``, over fresh states: the
   search caches are cleared before each task, whose oracle episode and ``WALKS`` seeded
   random-agent episodes of ``STEPS`` steps are then played (the same actions in every mode).
   Median and p99, and each shaped mode's median against ``terminal``'s, measured in the same
   run. Targets (2 cores): ``dense`` p99 <= 20 ms a step and <= 50 ms a reset, median <= 2 ms.
2. Stalls: one server, four WebSocket clients under ``dense``: a cheap one replays shopping
   oracles while three play housing, mail and repo tasks (oracle and random actions). Prints
   the cheap client's worst and p99 step time against its own run alone (target <= 50 ms).
3. TRL tools and OpenEnv WebSocket overhead against ``SemanticEnv.step`` (shopping, terminal).

``python benchmarks/bench_rl.py [tasks-per-site] [site,...]``; parts 2 and 3 need
``webmdp[openenv]``.
"""

from __future__ import annotations

import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from webmdp.core import Action
from webmdp.env.semantic import SemanticEnv
from webmdp.rl.openenv import WebMDPAction, WebMDPEnvironment
from webmdp.rl.server import settle
from webmdp.rl.trl import environment, method_name
from webmdp.sites import get_site, site_names
from webmdp.tasks import Task, distance, generate_site_tasks, informed
from webmdp.tasks.sources import cross_tasks
from webmdp.tasks.walks import random_walk

MODES = ("terminal", "dense-state", "dense")
TASKS, WALKS = 3, 3
CROSS_TASKS = 5


def _episodes(task: Task) -> list[list[Action]]:
    return [list(task.oracle_actions()), *(random_walk(task, s) for s in range(WALKS))]


def _play(task: Task, reward: str, episodes: Sequence[Sequence[Action]],
          steps: list[float], resets: list[float]) -> None:
    env = WebMDPEnvironment(task.site if not task.sites else "cross-site",
                            reward=reward)  # type: ignore[arg-type]
    for actions in episodes:
        t0 = time.process_time()
        env.reset(task_id=task.id)
        resets.append(time.process_time() - t0)
        for a in actions:
            t0 = time.process_time()
            obs = env.step(WebMDPAction(name=a.name, params=dict(a.params)))
            steps.append(time.process_time() - t0)
            if obs.done:
                break
    env.close()


def _p(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] * 1000


def cost_table(groups: dict[str, list[Task]]) -> None:
    print("## CPU ms per step / per reset over fresh states (median, p99); x = median / "
          "terminal's")
    print(f"| site | {' | '.join(f'{m} step' for m in MODES)} | "
          f"{' | '.join(f'{m} reset' for m in MODES)} | dense: worst step |")
    print("|---|" + "---|" * (2 * len(MODES) + 1))
    for name, tasks in groups.items():
        _play(tasks[0], "terminal", [[]], [], [])  # builds the site's task pool: not timed
        steps: dict[str, list[float]] = {m: [] for m in MODES}
        resets: dict[str, list[float]] = {m: [] for m in MODES}
        modes = MODES if not tasks[0].sites else ("terminal",)  # cross-site refuses shaping
        for task in tasks:
            episodes = _episodes(task)
            for mode in modes:
                distance.clear_cache()
                informed.clear_cache()
                _play(task, mode, episodes, steps[mode], resets[mode])
        base = statistics.median(steps["terminal"])
        cells = [f"{_p(steps[m], .5):.2f} / {_p(steps[m], .99):.1f}"
                 + ("" if m == "terminal" else f" ({statistics.median(steps[m]) / base:.1f}x)")
                 if steps[m] else "refused" for m in MODES]
        cells += [f"{_p(resets[m], .5):.1f} / {_p(resets[m], .99):.1f}" if resets[m]
                  else "refused" for m in MODES]
        worst = f"{max(steps['dense']) * 1000:.0f}" if steps["dense"] else "-"
        print(f"| {name} ({len(steps['terminal'])} steps) | {' | '.join(cells)} | {worst} |",
              flush=True)


# -- 2. stalls -------------------------------------------------------------------------------
def _server() -> tuple[str, Callable[[], None]]:
    import uvicorn

    from webmdp.rl.server import SWITCH_INTERVAL_S, build_app

    sys.setswitchinterval(SWITCH_INTERVAL_S)  # as `rl serve` runs (webmdp.rl.server.serve)
    server = uvicorn.Server(uvicorn.Config(build_app(reward="dense", max_sessions=8),
                                           host="127.0.0.1", port=0, log_level="warning",
                                           ws="websockets-sansio"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started and thread.is_alive():
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]

    def stop() -> None:
        server.should_exit = True
        thread.join()

    return f"http://127.0.0.1:{port}", stop


def _client(url: str, plays: Sequence[tuple[Task, Sequence[Action]]],
            until: threading.Event | None = None) -> list[float]:
    from webmdp.rl.client import WebMDPClient

    times: list[float] = []
    with WebMDPClient(base_url=url).sync() as env:
        while True:
            for task, actions in plays:
                env.reset(task_id=task.id)
                for a in actions:
                    t0 = time.perf_counter()
                    r = env.step(WebMDPAction(name=a.name, params=dict(a.params)))
                    times.append(time.perf_counter() - t0)
                    if r.done:
                        break
            if until is None or until.is_set():
                return times


def stalls() -> None:
    try:
        url, stop = _server()
    except ImportError:
        print("## stalls: OpenEnv not installed (pip install 'webmdp[openenv]')")
        return
    cheap = [(t, list(t.oracle_actions()))
             for t in generate_site_tasks(get_site("shopping"))[:10]]
    heavy = {s: [(t, a) for t in generate_site_tasks(get_site(s))[10:13] for a in _episodes(t)]
             for s in ("housing", "mail", "repo")}
    try:
        _client(url, cheap)  # the shopping tasks' searches are cached: the cheap client's cost
        alone = _client(url, cheap)
        distance.clear_cache()
        informed.clear_cache()
        done = threading.Event()
        with ThreadPoolExecutor(4) as pool:
            others = [pool.submit(_client, url, plays) for plays in heavy.values()]
            time.sleep(0.5)
            beside = _client(url, cheap * 3)
            done.set()
            heavy_steps = sum(len(f.result()) for f in others)
    finally:
        stop()
    print("## Stalls: a shopping oracle client beside three dense clients (housing, mail, "
          "repo), one server")
    print(f"  alone:  {len(alone)} steps, p99 {_p(alone, .99):.1f} ms, worst "
          f"{max(alone) * 1000:.1f} ms")
    print(f"  beside: {len(beside)} steps, p99 {_p(beside, .99):.1f} ms, worst "
          f"{max(beside) * 1000:.1f} ms (target <= 50 ms); the others made {heavy_steps} "
          "steps")


# -- 3. trainer integrations -----------------------------------------------------------------
def _rate(run: Callable[[], int], min_s: float = 1.5) -> float:
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < min_s:
        n += run()
    return n / (time.perf_counter() - t0)


def integrations() -> None:
    tasks = generate_site_tasks(get_site("shopping"))[:40]

    def bare() -> int:
        k = 0
        for t in tasks:
            env = SemanticEnv(t, agent="bench")
            env.reset()
            for a in t.oracle_actions():
                env.step(a)
                k += 1
        return k

    def trl() -> int:
        cls, k = environment("shopping", reward="terminal"), 0
        for t in tasks:
            env = cls()
            env.reset(task_id=t.id)
            for a in t.oracle_actions():
                getattr(env, method_name(a.name))(**a.params)
                k += 1
        return k

    base, tools = _rate(bare), _rate(trl)
    print(f"## TRL tools vs SemanticEnv.step (shopping, {len(tasks)} oracles, terminal): "
          f"{base:,.0f} vs {tools:,.0f} steps/s, {base / tools:.2f}x the time per step")


def main() -> None:
    per = int(sys.argv[1]) if len(sys.argv) > 1 else TASKS
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else [*site_names(), "cross-site"]
    groups = {n: (list(cross_tasks()[:CROSS_TASKS]) if n == "cross-site"
                  else generate_site_tasks(get_site(n))[:per]) for n in names}
    settle()  # as rl serve does once its pools are read: no step pays a full collection
    cost_table(groups)
    stalls()
    integrations()


if __name__ == "__main__":
    main()
