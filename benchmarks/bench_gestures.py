"""Gesture step cost: ``BrowserEnv.step`` (observation "axtree") for a click against a
slider drag and a drag-and-drop, each on the same page, interleaved in one run.

- Housing's results page: a click on a bedroom pill (SetMinBeds, toggled) vs a drag of the
  price slider's max knob (SetPriceRange, alternating between two values), and vs a drag on
  the results map's background (a pan: page state, nothing sent);
- Food's restaurant page: a click on a dish's "+" (QuickAdd) vs dragging the dish onto the cart
  drop zone (the same QuickAdd).

Each step dispatches one semantic action and re-renders. Reported: steps/s (1 / median step
seconds) and the ratio gesture / click of median seconds. Target: ratio <= 1.0 + noise (a
gesture costs no more than a click). A drag is four input events (move, press, move, release)
where a click is three, and its handlers do more page work (a ghost element, hit tests for the
drop target). History, on a shared 2-core machine (medians of several runs; single runs vary by
+-0.2x):
- first build: slider 1.60x, drag-and-drop 2.17x;
- moves unbuffered (DevTools' overlay, no frame wait a move): 1.22x, 1.69x;
- the drag's four events sent through the page's CDP session, overlay enabled once per page
  (Playwright's mouse checked every frame for an HTML5 drag on each held move): 1.09-1.23x,
  1.11-1.41x; map pan 0.56-0.89x. An A/B in one run on the food page: a drag-and-drop step
  82 ms this way, 99 ms through Playwright's mouse, a click 58 ms. On a quiet machine (three
  runs): slider 1.05-1.16x, drag-and-drop 1.36-1.50x, map pan 0.55-0.61x.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from webmdp.agents.driver import plan_gui
from webmdp.agents.gestures import plan_drop, slider_scale, slider_x
from webmdp.core import Action
from webmdp.env.actions import GUIAction, click
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site
from webmdp.tasks import generate_site_tasks

ROUNDS = 20


def _timed(env: BrowserEnv, act: GUIAction) -> tuple[float, list[dict[str, Any]]]:
    t0 = time.perf_counter()
    obs, *_ = env.step(act)
    return time.perf_counter() - t0, obs["nodes"]


def _params(n: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(n.get("params") or "{}"))


def _housing(env: BrowserEnv, nodes: list[dict[str, Any]]) -> dict[str, Callable[[], float]]:
    state = {"nodes": nodes, "k": 0}

    def pill() -> float:
        n = next(n for n in state["nodes"] if n.get("action") == "SetMinBeds")
        dt, state["nodes"] = _timed(env, click(n["x"], n["y"]))
        return dt

    def slider() -> float:
        t = next(n for n in state["nodes"] if n.get("action") == "SetPriceRange"
                 and slider_scale(n))
        scale = slider_scale(t)
        assert scale is not None
        lo, hi, step = scale
        a, b = (lo + step * round((hi - lo) / step * f) for f in (0.5, 0.7))
        cur, nxt = (a, b) if state["k"] % 2 else (b, a)
        if state["k"] == 0:
            cur = hi
        state["k"] += 1
        dt, state["nodes"] = _timed(env, GUIAction(kind="drag", x=slider_x(t, cur, scale),
                                                   y=t["y"], x2=slider_x(t, nxt, scale),
                                                   y2=t["y"]))
        return dt

    def pan() -> float:
        """A drag on the results map's background: it pans (page state; nothing is sent)."""
        m = next(n for n in state["nodes"] if str(n.get("name", "")).startswith("Map of"))
        if not (m["in_viewport"] and 0 <= m["y"] < 900):
            _, state["nodes"] = _timed(env, GUIAction(kind="scroll", x=720, y=450,
                                                      dy=round(m["y"] - 450)))
            m = next(n for n in state["nodes"] if str(n.get("name", "")).startswith("Map of"))
        x, y = m["x"] - m["w"] * 0.4, m["y"] - m["h"] * 0.4  # a corner: off the pins
        dx = 24 if state["k"] % 2 else -24
        dt, state["nodes"] = _timed(env, GUIAction(kind="drag", x=x, y=y, x2=x + dx, y2=y))
        return dt

    return {"click (pill)": pill, "slider drag": slider, "map pan": pan}


def _food(env: BrowserEnv, nodes: list[dict[str, Any]]) -> dict[str, Callable[[], float]]:
    state = {"nodes": nodes}

    def first_dish() -> dict[str, Any]:
        """The first dish's "+", scrolled into view first (an untimed step: a dispatch
        re-renders at the top of the page)."""
        n = next(n for n in state["nodes"] if n.get("action") == "QuickAdd")
        if not (n["in_viewport"] and 0 <= n["y"] < 900):
            _, state["nodes"] = _timed(env, GUIAction(kind="scroll", x=720, y=450,
                                                      dy=round(n["y"] - 450)))
            n = next(n for n in state["nodes"] if n.get("action") == "QuickAdd")
        return n

    def plus() -> float:
        n = first_dish()
        dt, state["nodes"] = _timed(env, click(n["x"], n["y"]))
        return dt

    def dnd() -> float:
        n = first_dish()
        plan = plan_drop(Action("QuickAdd", _params(n)), state["nodes"])
        assert plan and plan[0].kind == "drag", plan
        dt, state["nodes"] = _timed(env, plan[0])
        return dt

    return {"click (+)": plus, "drag-and-drop": dnd}


def _open(env: BrowserEnv, nodes: list[dict[str, Any]], action: str) -> list[dict[str, Any]]:
    n = next(n for n in nodes if n.get("action") == action)
    for s in plan_gui(Action(action, _params(n)), nodes) or []:
        obs, *_ = env.step(s)
        nodes = obs["nodes"]
    return nodes


def main() -> int:
    results: dict[str, list[float]] = {}
    with ServerHandle() as server, BrowserHost() as host:
        for site in ("housing", "food"):
            task = generate_site_tasks(get_site(site))[0]
            env = BrowserEnv(task, agent="bench", server=server, host=host,
                             config=BrowserConfig(observation="axtree", step_budget=1000))
            try:
                obs, _ = env.reset(seed=0)
                nodes = obs["nodes"]
                if site == "food":
                    nodes = _open(env, nodes, "OpenRestaurant")
                    runs = _food(env, nodes)
                else:
                    runs = _housing(env, nodes)
                for fn in runs.values():  # warm-up
                    fn()
                for r in range(ROUNDS):
                    order = list(runs.items())
                    for name, fn in order[r % 2:] + order[:r % 2]:
                        results.setdefault(name, []).append(fn())
            finally:
                env.close()
    med = {k: statistics.median(v) for k, v in results.items()}
    for k, v in med.items():
        print(f"{k:18s} median {v * 1000:7.1f} ms   {1 / v:6.1f} steps/s")
    print(f"slider drag / click (pill): {med['slider drag'] / med['click (pill)']:.2f}x")
    print(f"drag-and-drop / click (+):  {med['drag-and-drop'] / med['click (+)']:.2f}x")
    print(f"map pan / click (pill):     {med['map pan'] / med['click (pill)']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
