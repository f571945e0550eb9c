"""Visual-only information: the pixel agent against the text-only agent, and what a chart costs
a page render.

Tasks: the first ``N`` visual dial tasks (templates of ``Site.dial_templates``) with at least
two hard negatives (three or four candidates) of each site's dial stream
(``webmdp.tasks.dial.stream``). Each runs in a real Chromium against the real
server (observation ``both``) with ``pixel`` (reads the screenshot) and ``axtext`` (reads the
accessibility tree). Success is the verifier's verdict. Chance is the mean over tasks of
1 / (1 + hard negatives): a uniform pick among the candidates.

Render cost: ``render_page`` of each task's first detail page with its widgets (cold: the
widget cache cleared before every render; warm: cached) against the same observation with the
pixel fields removed (the page without the widgets), same run, median of 20.

    python benchmarks/bench_visual.py [N]    # N tasks per site, default 12
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace

from webmdp.agents.pixel import AxTextAgent, PixelAgent
from webmdp.core import World
from webmdp.core.model import EntityView, Observation
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.runner.episode import run_episode
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site
from webmdp.sites._common import visual
from webmdp.sites._common.views import render_page
from webmdp.sites._common.visualtask import VisualPick
from webmdp.tasks import Task
from webmdp.tasks.dial import stream

SITES = ("shopping", "housing", "accommodation", "food")


def visual_tasks(site: str, n: int) -> list[Task]:
    names = {n for n, t in get_site(site).dial_templates.items() if isinstance(t, VisualPick)}
    out = []
    for t in stream(get_site(site)):
        if t.template in names and len(t.hard_negatives) >= 2:
            out.append(t)
            if len(out) == n:
                break
    return out


def detail_view(task: Task) -> Observation:
    site, world = get_site(task.site), World.from_dict(task.world)
    state = site.initial_state(world)
    for a in task.oracle_actions():
        state = site.step(state, a, world)
        if state.surface in site.pixel_fields:
            break
    return site.observe(state, world)


def without_pixels(obs: Observation, fields: frozenset[str]) -> Observation:
    ents = tuple(EntityView(e.id, {k: v for k, v in e.fields.items() if k not in fields})
                 for e in obs.entities)
    return replace(obs, entities=ents)


def _median_ms(fn, reps: int = 20) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def _render(site: str, views: list[Observation], cold: bool) -> float:
    """Median ms to render every page of ``views`` (cold: the widget cache cleared first)."""

    def once() -> None:
        for o in views:
            if cold:
                visual.cache_clear()
            render_page(site, o, title="bench", base="/s/bench", version=1)

    return _median_ms(once)


def render_cost(tasks: list[Task]) -> None:
    for site in SITES:
        obs = [detail_view(t) for t in tasks if t.site == site]
        fields = frozenset().union(*get_site(site).pixel_fields.values())
        plain = [without_pixels(o, fields) for o in obs]
        _render(site, obs, False)  # compile the site's templates before timing
        base, warm = _render(site, plain, False), _render(site, obs, False)
        cold, k = _render(site, obs, True), len(obs)
        print(f"render {site:9s} per page: without widgets {base / k:.2f} ms, with widgets "
              f"warm {warm / k:.2f} ms ({warm / base:.2f}x), cold {cold / k:.2f} ms "
              f"({cold / base:.2f}x)")


def success(tasks: list[Task]) -> None:
    rows: dict[tuple[str, str, int], list[bool]] = {}
    with ServerHandle() as srv, BrowserHost() as host:
        for t in tasks:
            level = t.difficulty.of("visual") if t.difficulty else 0
            for agent in (PixelAgent(), AxTextAgent()):
                env = BrowserEnv(t, agent=agent.name, server=srv, host=host,
                                 config=BrowserConfig(observation="both"))
                try:
                    trace = run_episode(env, agent)
                finally:
                    env.close()
                rows.setdefault((t.site, agent.name, level), []).append(bool(trace.success))
    for site in SITES:
        ts = [t for t in tasks if t.site == site]
        chance = statistics.mean(1 / (1 + len(t.hard_negatives)) for t in ts)
        for agent in ("pixel", "axtext"):
            cells = []
            for level in (2, 3):
                got = rows.get((site, agent, level), [])
                if got:
                    cells.append(f"visual L{level} {sum(got)}/{len(got)}")
            allx = [x for (s, a, _), v in rows.items() if s == site and a == agent for x in v]
            print(f"{site:9s} {agent:7s} success {sum(allx)}/{len(allx)} "
                  f"({sum(allx) / len(allx):.0%}; {', '.join(cells)}); chance {chance:.0%}")


def main(n: int = 12) -> None:
    tasks = [t for s in SITES for t in visual_tasks(s, n)]
    render_cost(tasks)
    t0 = time.perf_counter()
    success(tasks)
    print(f"{2 * len(tasks)} browser episodes in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 12)
