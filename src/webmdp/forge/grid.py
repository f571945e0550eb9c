"""The ``grid`` suite: WebForge's domain x level grid, filled site by site (issue 45).

For each site and each of WebForge's levels 1-3, :data:`PER_CELL` tasks that *measure* at
that level (:mod:`webmdp.tasks.difficulty`) and pass the forge's Refine checks
(:func:`webmdp.forge.refine.refine`), drawn from the site's built-in tasks in order, then from
its difficulty-dial stream (:mod:`webmdp.tasks.dial`): the first :data:`PER_DOMAIN` of each
WebForge domain the site's templates carry at that level, then the earliest of the rest. No
task is put in a level by hand, and the ids are the sources' own (``shopping_0042``,
``shopping_L1_0007``), so a task keeps its id in the grid and out of it.

What generation attempted is recorded beside the tasks (:func:`grid_record`): per level the
candidates that measured at it, those Refine rejected (by check), those it passed per domain
(up to :data:`PER_CELL`), those accepted and their domains, so the pass rate (accepted /
planned) that ``webmdp tasks stats --suite grid`` prints is real: a cell whose sources run
out shows fewer than planned.

Both are built in one pass per site and kept in the task cache (:mod:`webmdp.tasks.cache`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from webmdp.core.registry import get_site
from webmdp.forge.refine import refine
from webmdp.tasks.cache import cached_json, cached_tasks
from webmdp.tasks.dial import stream
from webmdp.tasks.domains import DOMAINS
from webmdp.tasks.model import Task
from webmdp.tasks.sources import site_tasks

SUITE = "grid"
PER_CELL = 40
PER_DOMAIN = 5
"""Each domain a site carries gets this many tasks of a cell (where its templates reach the
level) before the rest go in source order."""
LEVELS = (1, 2, 3)


@cache
def _build(site: str) -> tuple[tuple[Task, ...], dict[str, Any]]:
    """One pass over the site's built-in tasks, then its whole dial stream: the grid's tasks
    and the record of what it took (see :func:`_pick` for the choice within a cell)."""
    found: dict[int, dict[str, list[tuple[int, Task]]]] = {lv: {} for lv in LEVELS}
    record: dict[str, Any] = {"site": site, "per_cell": PER_CELL, "scanned": 0, "levels": {
        str(lv): {"candidates": 0, "accepted": 0, "rejected": {}, "domains": {}, "found": {}}
        for lv in LEVELS}}
    for pos, task in enumerate(itertools.chain(site_tasks(site), stream(get_site(site)))):
        record["scanned"] += 1
        level = task.difficulty.level if task.difficulty is not None else "none"
        if level not in found:
            continue
        kept = found[level].setdefault(task.domain or "", [])  # type: ignore[index]
        if len(kept) >= PER_CELL:  # this domain can fill the cell alone: refine no more
            continue
        cell = record["levels"][str(level)]
        cell["candidates"] += 1
        problems = [check for check, found_ in refine(task).items() if found_]
        for check in problems:
            cell["rejected"][check] = cell["rejected"].get(check, 0) + 1
        if not problems:
            kept.append((pos, task))
    out: list[Task] = []
    for lv in LEVELS:
        chosen = _pick(found[lv])
        cell = record["levels"][str(lv)]
        cell["accepted"] = len(chosen)
        cell["domains"] = {d: sum(t.domain == d for t in chosen) for d in sorted(found[lv])}
        cell["found"] = {d: len(kept) for d, kept in sorted(found[lv].items())}
        out += chosen
    return tuple(out), record


def _pick(by_domain: dict[str, list[tuple[int, Task]]]) -> list[Task]:
    """A cell's :data:`PER_CELL` tasks: the first :data:`PER_DOMAIN` of each domain found at
    the level (so every domain a site carries shows at every level it reaches), then the
    earliest of the rest; in source order."""
    first = [pt for kept in by_domain.values() for pt in kept[:PER_DOMAIN]]
    rest = sorted(pt for kept in by_domain.values() for pt in kept[PER_DOMAIN:])
    chosen = sorted(first)[:PER_CELL]
    chosen = sorted(chosen + rest[:PER_CELL - len(chosen)])
    return [t for _, t in chosen]


def grid_site(site: str) -> tuple[Task, ...]:
    """The grid's tasks of ``site``: level 1, then 2, then 3, each in source order; building
    them stores their :func:`grid_record` too (one pass makes both)."""
    def build() -> tuple[Task, ...]:
        tasks, record = _build(site)
        _cached_record(site, lambda: record)
        return tasks

    return cached_tasks(f"{site}-{SUITE}-{PER_CELL}", build)


def grid_record(site: str) -> dict[str, Any]:
    """What building ``site``'s grid attempted: per level, candidates that measured at it,
    Refine's rejections by check, tasks accepted (see the module docstring). Stored beside
    the grid's tasks when they are built (:func:`grid_site`), so a process that finds the
    tasks in the cache finds their record too."""
    grid_site(site)
    return _cached_record(site, lambda: _build(site)[1])


def _cached_record(site: str, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    return cached_json(SUITE, f"{site}-{PER_CELL}", build, lambda r: r, lambda r: r)


def table8(tasks: Sequence[Task], sites: Sequence[str]) -> dict[str, Any]:
    """WebForge's Table 8 for the grid: tasks per domain x level, and per site x level the
    pass rate (accepted / planned) as ``forge`` prints it."""
    domains = {d: {f"L{lv}": sum(1 for t in tasks if t.domain == d and t.difficulty is not None
                                 and t.difficulty.level == lv) for lv in LEVELS}
               for d in DOMAINS}
    rates = {}
    for s in sites:
        rec = grid_record(s)
        rates[s] = {f"L{lv}": {"count": rec["levels"][str(lv)]["accepted"],
                               "planned": PER_CELL,
                               "rate": round(rec["levels"][str(lv)]["accepted"] / PER_CELL, 4),
                               "rejected": rec["levels"][str(lv)]["rejected"]}
                    for lv in LEVELS}
    return {"domains": {d: c for d, c in domains.items() if any(c.values())}, "sites": rates}
