"""Where tasks come from: a site's built-in set, the dial's level-1 pool of a site, the
cross-site suite, the grid suite and a user's task file. Each is built once per process and
read from the disk cache (:mod:`webmdp.tasks.cache`) when another process built it; only the
sets asked for are read. :mod:`webmdp.tasks.select` chooses among them.

Sites are named through the site registry (:mod:`webmdp.core.registry`) and the cross-site
suite through a lazy ``module:attr`` target (:data:`CROSS_SOURCE`): the composer lives above
the tasks layer (it needs the sites' cards), so naming it costs no import until it is read.
"""

from __future__ import annotations

import functools
import importlib
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from webmdp.tasks.model import Task

CROSS = "cross-site"
CROSS_SOURCE = "webmdp.cap.compose:generate_cross_tasks"
"""The cross-site suite's generator (CAP's composer), loaded on first read."""
GRID = "grid"
GRID_SOURCE = "webmdp.forge.grid:grid_site"
"""The grid suite's builder (WebForge's site x level grid, refined by the forge), loaded on
first read: like the composer, it lives above the tasks layer."""
LOCK = threading.Lock()
"""One build at a time: concurrent sessions (``rl serve``) would otherwise each build it."""


@cache
def site_tasks(site: str) -> tuple[Task, ...]:
    """A site's built-in task set."""
    from webmdp.core.registry import get_site
    from webmdp.tasks.generate import generate_site_tasks

    return tuple(generate_site_tasks(get_site(site)))


def build_sets(sites: Sequence[str]) -> None:
    """Make sure the built-in sets of ``sites`` exist, building the missing ones in parallel
    (:func:`webmdp.tasks.generate.generate_sets`); the cached ones are not read."""
    from webmdp.core.registry import get_site
    from webmdp.tasks.cache import cached_path
    from webmdp.tasks.generate import generate_sets

    missing = [s for s in sites if cached_path(f"{s}-{get_site(s).task_count}") is None]
    if len(missing) > 1:
        with LOCK:
            generate_sets([get_site(s) for s in missing])


def site_rows(sites: Sequence[str]) -> list[Any] | None:
    """The built-in tasks of ``sites`` as light rows (:class:`webmdp.tasks.cache.TaskRow`),
    from their cache entries' indexes, so a selection filters without validating every task
    (:func:`as_tasks` validates the ones it keeps); ``None`` unless every set is in the disk
    cache and none is in this process already (then :func:`site_tasks` is as cheap)."""
    from webmdp.core.registry import get_site
    from webmdp.tasks import generate
    from webmdp.tasks.cache import cached_path, entry_rows

    rows: list[Any] = []
    for name in sites:
        site = get_site(name)
        n = site.task_count
        if (name, type(site), n) in generate._GENERATED or not generate._shipped(site):
            return None
        entry = cached_path(f"{name}-{n}")
        found = entry_rows(entry) if entry is not None else None
        if not found:
            return None
        rows += found
    return rows


def as_tasks(items: Sequence[Any]) -> list[Task]:
    """``items`` as tasks: a row (:func:`site_rows`) becomes its task, a task stays."""
    from webmdp.tasks.cache import TaskRow, load_rows

    rows = [t for t in items if isinstance(t, TaskRow)]
    if not rows:
        return list(items)
    loaded = dict(zip(map(id, rows), load_rows(rows), strict=True))
    return [loaded.get(id(t), t) for t in items]


@cache
def cross_tasks() -> tuple[Task, ...]:
    """The cross-site suite (:data:`CROSS_SOURCE`)."""
    module, attr = CROSS_SOURCE.split(":")
    generate = getattr(importlib.import_module(module), attr)
    with LOCK:
        return tuple(generate())


@cache
def grid_tasks(site: str) -> tuple[Task, ...]:
    """The grid suite's tasks of ``site`` (:data:`GRID_SOURCE`): levels 1, 2, 3, up to 40
    each, from its built-in tasks and dial stream."""
    module, attr = GRID_SOURCE.split(":")
    build = getattr(importlib.import_module(module), attr)
    with LOCK:
        return tuple(build(site))


@cache
def dial_tasks(site: str) -> tuple[Task, ...]:
    """The dial's level-1 tasks of ``site``, in stream order (``SITE_L1_NNNN``), from the
    segments the RL pool reads (:func:`webmdp.tasks.dial.pool_candidates`)."""
    import itertools

    from webmdp.core.registry import get_site
    from webmdp.tasks.cache import cached_tasks
    from webmdp.tasks.dial import DIAL_BASE, pool_candidates, stream

    def build(name: str) -> list[Task]:
        end = DIAL_BASE + pool_candidates(get_site(name))
        return [t for t in itertools.takewhile(lambda t: t.index < end, stream(get_site(name)))
                if t.difficulty is not None and t.difficulty.level == 1]

    with LOCK:
        return cached_tasks(f"{site}-dial-L1", functools.partial(build, site))


@cache
def pool(sites: tuple[str, ...]) -> tuple[Task, ...]:
    """The pool the splits of ``sites`` partition: site by site, its built-in tasks, then the
    dial's level-1 tasks of that site."""
    build_sets(sites)
    return tuple(t for s in sites for t in (*site_tasks(s), *dial_tasks(s)))


def read_task_file(path: Path | str) -> list[Task]:
    """A task file's tasks, each checked as :func:`webmdp.tasks.io.read_checked` does (world
    shape, the fields its site declares, unique ids): a bad task is one line naming the file,
    the line and the place (``world.entities[3].title``), not a KeyError inside a run."""
    from webmdp.tasks.io import read_checked

    return [t for _, t in read_checked(path)]


def builtin_twin(task: Task) -> Task | None:
    """The built-in task (or dial level-1 task) of ``task``'s id, if its site has one. Only
    the set the id names is read: a dial name (``SITE_L1_NNNN``) the site's dial pool, any
    other id its built-in set."""
    from webmdp.core.registry import site_names
    from webmdp.tasks.dial import is_dial_id

    if task.sites:
        found: Sequence[Task] = cross_tasks() if task.id.startswith(CROSS + "_") else ()
    elif task.site in site_names(plugins=True) and task.id.startswith(task.site + "_"):
        found = dial_tasks(task.site) if is_dial_id(task.id) else site_tasks(task.site)
    else:
        return None
    return next((t for t in found if t.id == task.id), None)


# -- what serving a scope needs from the disk cache (``webmdp cache``, ``rl serve``) -----------
def _scope_sites(scope: str) -> tuple[str, ...]:
    """The sites whose pools serving ``scope`` (a site, ``all`` or ``cross-site``) reads."""
    from webmdp.core.registry import site_names

    return tuple(site_names()) if scope == "all" else () if scope == CROSS else (scope,)


def cache_names(scope: str) -> list[str]:
    """The task sets of the disk cache that serving ``scope`` (a site, ``all`` or
    ``cross-site``) reads: each site's built-in and dial sets, and the cross-site suite's."""
    from webmdp.core.registry import get_site

    names = [n for s in _scope_sites(scope)
             for n in (f"{s}-{get_site(s).task_count}", f"{s}-dial-L1")]
    if scope in ("all", CROSS):
        suite = importlib.import_module(CROSS_SOURCE.split(":")[0])  # cap sits above tasks
        names.append(f"{suite.SUITE}-{suite.DEFAULT_COUNT}")
    return names


def pools_cached(scope: str) -> bool:
    """Whether the disk cache holds every task set :func:`cache_names` lists (a plugin's
    site, never cached, makes it False)."""
    from webmdp.core.registry import get_site
    from webmdp.tasks.cache import cached_path
    from webmdp.tasks.generate import _shipped

    return all(_shipped(get_site(s)) for s in _scope_sites(scope)) and all(
        cached_path(n) is not None for n in cache_names(scope))


def build_pools(scope: str) -> None:
    """Build (or read) every task set serving ``scope`` needs, storing each in the cache."""
    sites = _scope_sites(scope)
    if sites:
        pool(sites)
    if scope in ("all", CROSS):
        cross_tasks()


def build_parallel(sites: Sequence[str], *, cross: bool = False, grid: Sequence[str] = (),
                   workers: int = 1, dial: Sequence[str] | None = None) -> None:
    """Build what serving ``sites`` reads (their built-in sets, in parallel already, then
    each site's dial pool, or only those of the sites in ``dial``), the cross-site suite when
    ``cross``, and the grid suite of the sites in ``grid``, with the jobs after the built-in
    sets spread over ``workers`` processes: the same entries :func:`build_pools` stores,
    sooner on several cores."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    build_sets(sites)  # forks a worker per site itself, when two or more are missing
    for s in sites:  # a lone missing set is built here (the others are only read)
        site_tasks(s)
    jobs = [*((dial_tasks, s) for s in (sites if dial is None else dial)),
            *([(cross_tasks, None)] if cross else []),
            *((grid_tasks, s) for s in grid)]
    if workers <= 1 or len(jobs) <= 1 or threading.active_count() > 1:
        for fn, arg in jobs:
            fn() if arg is None else fn(arg)  # type: ignore[operator]
        return
    with ProcessPoolExecutor(min(workers, len(jobs)),
                             mp_context=multiprocessing.get_context("fork")) as pool:
        for done in [pool.submit(_job, fn.__name__, arg) for fn, arg in jobs]:
            done.result()


def _job(name: str, arg: str | None) -> None:
    """A worker's share of :func:`build_parallel`: build one set into the disk cache."""
    fn = globals()[name]
    fn() if arg is None else fn(arg)
