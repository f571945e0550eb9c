"""Browser step latency against two raw-Playwright floors measured in the same run.

All three do the same work on the same page: click a bound element, wait for the page's own
"rendered" signal, take a PNG screenshot of the viewport and an accessibility observation.

- floor A: the accessibility observation is our own DOM walk (``axtree.js``), run as a plain
  ``page.evaluate`` after Playwright's ``wait_for_function`` and ``page.screenshot``;
- floor B (stricter, the target): Playwright's built-in ``page.aria_snapshot()`` instead;
- ``BrowserEnv.step`` with ``observation="both"``, which also reads the step's semantic
  transitions and records the trace.

Clicks alternate between opening a product (measured) and going back to the results (not
measured); the three measurements rotate their order every round so that drift on a noisy
machine spreads evenly. Target: step <= 1.2x floor B (median).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from webmdp.agents.driver import plan_gui
from webmdp.core import Action
from webmdp.env.actions import GUIAction
from webmdp.env.axtree import SCRIPT
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site
from webmdp.tasks import generate_site_tasks

ROUNDS = 40
SETTLED = "() => window.__webmdp.pending === 0"
TARGET_B = 1.2


def _prepare(env: BrowserEnv) -> dict[str, Any]:
    """Reset and search, so the page lists the task's products."""
    task = env.task
    obs, _ = env.reset()
    for step in plan_gui(Action("Search", {"query": task.params["query"]}), obs["nodes"]) or []:
        obs = env.step(step)[0]
    return obs


def _open_click(obs: dict[str, Any], target: str) -> GUIAction:
    plan = plan_gui(Action("OpenProduct", {"product_id": target}), obs["nodes"])
    assert plan, "the results page does not offer the target product"
    return plan[0]


def main(rounds: int = ROUNDS) -> None:
    task = generate_site_tasks(get_site("shopping"))[0]
    times: dict[str, list[float]] = {"floor A": [], "floor B": [], "step": []}
    with ServerHandle() as server, BrowserHost() as host:
        env = BrowserEnv(task, server=server, host=host,
                         config=BrowserConfig(observation="both", step_budget=10_000))
        open_click = _open_click(_prepare(env), task.target)
        page = env.page

        def raw_click(x: float, y: float) -> None:
            page.mouse.click(x, y)
            page.wait_for_function(SETTLED, polling="raf")

        raw_click(open_click.x, open_click.y)  # find the product page's Back-to-results button
        back = next(n for n in page.evaluate(SCRIPT) if n.get("action") == "BackToResults")
        back_xy = (back["x"], back["y"])
        raw_click(*back_xy)

        def floor(observe: Callable[[], object]) -> Callable[[], None]:
            def run() -> None:
                raw_click(open_click.x, open_click.y)
                page.screenshot(type="png")
                observe()
            return run

        def step() -> None:
            env.step(open_click)

        measured = {"floor A": floor(lambda: page.evaluate(SCRIPT)),
                     "floor B": floor(page.aria_snapshot), "step": step}
        names = list(measured)
        for i in range(rounds):
            for name in names[i % 3:] + names[:i % 3]:
                t0 = time.perf_counter()
                measured[name]()
                times[name].append((time.perf_counter() - t0) * 1000)
                if name == "step":  # keep the env's trace in step with the page
                    env.step({"kind": "click", "x": back_xy[0], "y": back_xy[1]})
                else:
                    raw_click(*back_xy)
        env.close()
    print("## Browser step latency (click + render + PNG screenshot + accessibility tree)")
    for name, label in (("floor A", "floor A (our DOM walk)     "),
                        ("floor B", "floor B (aria_snapshot)    "),
                        ("step", "BrowserEnv.step (both)     ")):
        xs = times[name]
        print(f"  {label} median {statistics.median(xs):7.1f} ms  (p90 {_p90(xs):.1f})")
    em = statistics.median(times["step"])
    ra = em / statistics.median(times["floor A"])
    rb = em / statistics.median(times["floor B"])
    print(f"  step / floor A  {ra:.2f}x")
    print(f"  step / floor B  {rb:.2f}x  (target <= {TARGET_B}x)")


def _p90(xs: list[float]) -> float:
    return sorted(xs)[int(0.9 * (len(xs) - 1))]


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS)
