"""`webmdp forge calibrate`: is each difficulty dimension monotone, by measurement?

WebForge observes that accuracy falls from L1 to L3 on every dimension. Here it is tested.
Built-in agents run on a set balanced over overall levels: greedy and random in semantic mode,
plus, on the dial's visual tasks, the scripted screenshot agent (``pixel``, which decodes our
widgets) and the text-only agent (``axtext``) in Chromium. The oracle runs as well, as a
sanity row: it must solve everything, and it is left out of the accuracies. Per dimension,
accuracy at each level (Wilson 95% interval) is shown pooled and per agent; a dimension is
``monotone`` when no agent scores higher on a harder level of it (over the levels where the
agent has episodes), and an inversion is ``significant`` when the two intervals are apart.

``agents`` replaces greedy and random with any agents a run takes, model agents included
(``step``, ``plan``, ``tree`` with a ``ModelAgentConfig``, in ``model_mode``): a model's
accuracy per dimension level, on the same balanced set, next to the oracle's.
"""

from __future__ import annotations

import itertools
import math
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from webmdp.agents.registry import MODEL_AGENTS
from webmdp.core.registry import get_site
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.sites import site_names
from webmdp.tasks.dial import stream
from webmdp.tasks.difficulty import TITLES
from webmdp.tasks.model import DIMENSIONS, Task
from webmdp.trace import EpisodeTrace

SEMANTIC_AGENTS = ("greedy", "random")
BROWSER_AGENTS = ("pixel", "axtext")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """The Wilson score interval of k successes in n trials (None when n is 0)."""
    if n == 0:
        return None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def balanced_set(per_level: int, sites: list[str]) -> list[Task]:
    """``per_level`` tasks of each overall level (1-3) per site, from the dial streams."""
    out = []
    for name in sites:
        taken = {1: 0, 2: 0, 3: 0}
        for task in stream(get_site(name)):
            lv = task.difficulty.level if task.difficulty else None
            if isinstance(lv, int) and taken[lv] < per_level:
                taken[lv] += 1
                out.append(task)
            if all(v == per_level for v in taken.values()):
                break
    return out


def visual_set(per_site: int, sites: list[str]) -> list[Task]:
    """Dial tasks of the sites' visual templates (information only in pixels), with at least
    one hard negative: with none, any pick is right and a text-only agent looks able."""
    out: list[Task] = []
    for name in sites:
        site = get_site(name)
        if not site.dial_templates:
            continue
        found = (t for t in stream(site) if t.hard_negatives
                 and t.difficulty is not None and t.difficulty.of("visual") > 1)
        out += itertools.islice(found, per_site)
    return out


def calibrate(per_level: int | None = None, *, sites: list[str] | None = None,
              browser: bool = True, visual_per_site: int = 6,
              progress: Callable[[str], None] | None = None, out: Path | None = None,
              agents: tuple[str, ...] = SEMANTIC_AGENTS, model: Any = None,
              model_mode: str = "semantic", suite: str = "builtin") -> dict[str, Any]:
    """Run the agents and measure accuracy per dimension level (see the module's docstring).
    ``agents`` run on the balanced set, or with ``suite="grid"`` on the grid suite's cells
    (the first ``per_level`` of each, default all), built-in ones in semantic mode, model
    agents with ``model`` in ``model_mode``; the oracle always does."""
    names = sites or site_names()
    if suite == "grid":
        from webmdp.forge.grid import grid_site

        cap = per_level or 10**6
        tasks = [t for s in names for lv in (1, 2, 3) for t in
                 [t for t in grid_site(s) if t.difficulty and t.difficulty.level == lv][:cap]]
    else:
        tasks = balanced_set(per_level or 2, names)
    runs: list[tuple[str, Task, EpisodeTrace]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = out or Path(tmp)
        for agent in ("oracle", *agents):
            driven = agent in MODEL_AGENTS
            config = RunConfig(agent=agent, model=model if driven else None,
                               mode=model_mode if driven else "semantic",  # type: ignore[arg-type]
                               observation="both")
            if progress:
                progress(f"{config.label()}: {len(tasks)} tasks ({config.mode})")
            where = "semantic" if config.mode == "semantic" else "browser-balanced"
            traces = run_tasks(tasks, root / where, config)
            runs += [(config.label(), t, tr) for t, tr in zip(tasks, traces, strict=True)]
        if browser:
            vis = visual_set(visual_per_site, names)
            for agent in BROWSER_AGENTS:
                if progress and vis:
                    progress(f"{agent}: {len(vis)} visual tasks (browser)")
                traces = run_tasks(vis, root / "browser", RunConfig(
                    agent=agent, mode="browser", observation="both")) if vis else []
                runs += [(agent, t, tr) for t, tr in zip(vis, traces, strict=True)]
    return summarise(runs)


def _cells(pairs: list[tuple[Task, EpisodeTrace]], dim: str | None) -> dict[str, Any]:
    """Success at L1-L3 of dimension ``dim`` (``None``: the overall level, WebForge Table 2)
    with 95% intervals."""
    cells: dict[str, Any] = {}
    for lv in (1, 2, 3):
        hits = [tr.success for t, tr in pairs if t.difficulty and
                (t.difficulty.level if dim is None else t.difficulty.of(dim)) == lv]
        k, n = sum(hits), len(hits)
        cells[f"L{lv}"] = {"n": n, "accuracy": round(k / n, 4) if n else None,
                           "ci95": wilson(k, n)}
    return cells


def inversions(cells: dict[str, Any]) -> list[dict[str, Any]]:
    """Each pair of levels where the harder one scores higher; ``significant`` when their
    intervals do not overlap."""
    out = []
    for lo, hi in itertools.combinations(("L1", "L2", "L3"), 2):
        a, b = cells[lo], cells[hi]
        if a["n"] and b["n"] and b["accuracy"] > a["accuracy"]:
            out.append({"easier": lo, "harder": hi,
                        "significant": b["ci95"][0] > a["ci95"][1]})
    return out


def summarise(runs: list[tuple[str, Task, EpisodeTrace]]) -> dict[str, Any]:
    """The calibration table from (agent, task, trace) triples.

    Agents ran different task sets (the screenshot agents only the visual ones), so a pooled
    accuracy mixes agents across levels; monotonicity is therefore judged per agent: a
    dimension is ``monotone`` when no agent scores higher on a harder level of it. The pooled
    ``L1``-``L3`` cells are shown as well, and ``by_agent`` has each agent's."""
    by_agent: dict[str, list[tuple[Task, EpisodeTrace]]] = {}
    for agent, t, tr in runs:
        if agent != "oracle" and tr.infra_error is None:
            by_agent.setdefault(agent, []).append((t, tr))
    pooled = [p for pairs in by_agent.values() for p in pairs]
    oracle = [tr.success for agent, _, tr in runs if agent == "oracle"]
    dims: dict[str, Any] = {}
    for dim in DIMENSIONS:
        per_agent = {a: _cells(pairs, dim) for a, pairs in sorted(by_agent.items())}
        found = [{"agent": a, **inv} for a, cells in per_agent.items()
                 for inv in inversions(cells)]
        dims[dim] = {**_cells(pooled, dim), "monotone": not found,
                     "significant_inversions": sum(i["significant"] for i in found),
                     "inversions": found, "by_agent": per_agent, "title": TITLES[dim]}
    return {"dimensions": dims, "agents": sorted({a for a, _, _ in runs}),
            "by_level": {a: {**(c := _cells(pairs, None)), "monotone": not inversions(c)}
                         for a, pairs in sorted(by_agent.items())},
            "episodes": len(runs),
            "oracle_success": round(sum(oracle) / len(oracle), 4) if oracle else None,
            "not_monotone": [d for d, v in dims.items() if not v["monotone"]]}
