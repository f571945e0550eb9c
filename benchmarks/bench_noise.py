"""Browser steps per second with ``--noise none`` against ``--noise light`` in the same run.

Two envs on the same task, one without noise and one with light noise whose cookie banner has
been closed (nothing pops up any more): both click a product open, then back to the results,
``ROUNDS`` times, alternating which env goes first. Light noise adds a seeded 20-120 ms to every
dispatch on purpose (that is the noise); what it must not add is cost of its own machinery
(the injected script, the sync in the observing round trip, the route), so the target is on
the time per step less the latency it injected: <= 1.05x the noiseless step (median).
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from webmdp.agents.driver import noise_blocker, plan_gui
from webmdp.core import Action
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site
from webmdp.tasks import generate_site_tasks

ROUNDS = 40
TARGET = 1.05


def _prepare(env: BrowserEnv) -> tuple[Any, Any]:
    """Reset, search, close any noise in the way; the product's open click and the results'
    back click."""
    task = env.task
    obs, _ = env.reset()
    for step in plan_gui(Action("Search", {"query": task.params["query"]}), obs["nodes"]) or []:
        obs = env.step(step)[0]
    while True:
        plan = plan_gui(Action("OpenProduct", {"product_id": task.target}), obs["nodes"])
        assert plan, "the results page does not offer the target product"
        blocker = noise_blocker(plan[0], obs["nodes"])
        if blocker is None:
            break
        obs = env.step(blocker)[0]
    for n in obs["nodes"]:  # any noise left anywhere is closed too: nothing pops up later
        if n.get("dismisses"):
            obs = env.step({"kind": "click", "x": n["x"], "y": n["y"]})[0]
    open_click = plan[0]
    obs = env.step(open_click)[0]
    back = next(n for n in obs["nodes"] if n.get("action") == "BackToResults")
    back_click = {"kind": "click", "x": back["x"], "y": back["y"]}
    env.step(back_click)
    return open_click, back_click


def main(rounds: int = ROUNDS) -> None:
    task = generate_site_tasks(get_site("shopping"))[0]
    times: dict[str, list[float]] = {"none": [], "light": [], "light - latency": []}
    with ServerHandle() as server, BrowserHost() as host:
        envs = {level: BrowserEnv(task, server=server, host=host,
                                  config=BrowserConfig(observation="both", step_budget=10_000,
                                                       noise=level))
                for level in ("none", "light")}
        clicks = {level: _prepare(env) for level, env in envs.items()}
        order = list(envs)
        for i in range(rounds):
            for level in order[i % 2:] + order[:i % 2]:
                env = envs[level]
                injected = env.noise.latency_s if env.noise else 0.0
                t0 = time.perf_counter()
                for click in clicks[level]:
                    env.step(click)
                took = (time.perf_counter() - t0) * 1000 / 2
                times[level].append(took)
                if env.noise:
                    times["light - latency"].append(
                        took - (env.noise.latency_s - injected) * 1000 / 2)
        noise_steps = sum(s.noise is not None for s in envs["light"].trace.steps)
        for env in envs.values():
            env.close()
    print("## Browser steps with real-web noise (click + render + PNG + accessibility tree)")
    for name, xs in times.items():
        med = statistics.median(xs)
        print(f"  {name:<16} median {med:7.1f} ms/step  ({1000 / med:5.1f} steps/s)")
    ratio = statistics.median(times["light"]) / statistics.median(times["none"])
    machinery = statistics.median(times["light - latency"]) / statistics.median(times["none"])
    print(f"  light / none             {ratio:.2f}x  (the seeded latency included)")
    print(f"  (light - latency) / none {machinery:.2f}x  (target <= {TARGET}x; "
          f"{noise_steps} noise step(s) before measuring)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS)
