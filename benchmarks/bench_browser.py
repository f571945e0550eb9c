"""Browser step latency against the raw-Playwright floor measured in the same run.

Both sides do the same work on the same page: click a bound element, wait for the page's own
"rendered" signal, take a screenshot and the accessibility snapshot. BrowserEnv adds its
bookkeeping (reading the step's semantic transitions from the control API, the trace).
Clicks alternate between opening a product and going back to the results.
"""

from __future__ import annotations

import statistics
import time

from webmdp.agents.driver import plan_gui
from webmdp.core import Action
from webmdp.env.axtree import SCRIPT
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site
from webmdp.tasks import generate_site_tasks

ROUNDS = 40
SETTLED = "() => window.__webmdp.pending === 0"


def _prepare(env: BrowserEnv):  # type: ignore[no-untyped-def]
    task = env.task
    obs, _ = env.reset()
    for step in plan_gui(Action("Search", {"query": task.params["query"]}), obs["nodes"]) or []:
        obs = env.step(step)[0]
    return obs


def _targets(obs, target: str):  # type: ignore[no-untyped-def]
    open_ = plan_gui(Action("OpenProduct", {"product_id": target}), obs["nodes"])
    return open_[0]


def main() -> None:
    task = generate_site_tasks(get_site("shopping"))[0]
    env_ms: list[float] = []
    floor_ms: list[float] = []
    with ServerHandle() as server, BrowserHost() as host:
        env = BrowserEnv(task, server=server, host=host,
                         config=BrowserConfig(observation="both", step_budget=10_000))
        obs = _prepare(env)
        open_click = _targets(obs, task.target)
        page = env.page
        back_xy = None
        for i in range(ROUNDS):
            # floor: raw Playwright on the same page
            t0 = time.perf_counter()
            page.mouse.click(open_click.x, open_click.y)
            page.wait_for_function(SETTLED, polling="raf")
            page.screenshot(type="png")
            nodes = page.evaluate(SCRIPT)
            floor_ms.append((time.perf_counter() - t0) * 1000)
            back = next(n for n in nodes if n.get("action") == "BackToResults")
            back_xy = (back["x"], back["y"])
            page.mouse.click(*back_xy)
            page.wait_for_function(SETTLED, polling="raf")
            # BrowserEnv.step doing the same click
            t0 = time.perf_counter()
            env.step(open_click)
            env_ms.append((time.perf_counter() - t0) * 1000)
            env.step({"kind": "click", "x": back_xy[0], "y": back_xy[1]})
            del i
        env.close()
    fm, em = statistics.median(floor_ms), statistics.median(env_ms)
    print("## Browser step latency (click + render + screenshot + accessibility tree)")
    print(f"  raw Playwright floor  median {fm:7.1f} ms  (p90 {_p90(floor_ms):.1f})")
    print(f"  BrowserEnv.step       median {em:7.1f} ms  (p90 {_p90(env_ms):.1f})")
    print(f"  ratio {em / fm:.2f}x of the floor (target <= 1.5x)")


def _p90(xs: list[float]) -> float:
    return sorted(xs)[int(0.9 * (len(xs) - 1))]


if __name__ == "__main__":
    main()
