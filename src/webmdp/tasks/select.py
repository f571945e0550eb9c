"""Which tasks run: one description (:class:`Selection`) and one function over it
(:func:`select`), called by every front door: ``webmdp run`` / ``tasks`` / ``validate``
(:mod:`webmdp.cli`), the trainers' catalog (:mod:`webmdp.rl`, through
:mod:`webmdp.tasks.splits`) and ``webmdp.make`` (:func:`env_task`).

A selection names a suite (``builtin``: every site's generated tasks; ``cross-site``: the
composed suite; ``grid``: 40 tasks per site and WebForge level, :mod:`webmdp.forge.grid`; or
a JSONL task file), then narrows it: sites, templates, hard-negative counts,
access levels, an RL split under a holdout (and a measured level), task ids; then limits it
(the first N, or N spread evenly across the list). A selection that comes out empty is an
error naming what each filter removed. Tasks come from :mod:`webmdp.tasks.sources`, which
reads only the sets the selection names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webmdp.errors import ConfigError, unknown_choice
from webmdp.tasks import sources
from webmdp.tasks.model import Task
from webmdp.tasks.sources import CROSS, GRID, read_task_file

SUITES = ("builtin", "cross-site", GRID)
ACCESS_LEVELS = ("card", "filter", "detail")


@dataclass(frozen=True)
class Selection:
    """What to run. ``site`` and ``template`` take one name, a comma-separated list or
    ``all``; without a site (``None``) and without a file, the sites the ``task_ids`` name
    are read, else all. ``spread`` takes the limit evenly across the list (every k-th task)
    instead of the first N, so a small slice still covers every template and hard-negative
    count. ``split`` keeps the tasks of that RL split under ``holdout``
    (:mod:`webmdp.tasks.splits`), narrowed to ``level``, before the limit."""

    site: str | None = None
    suite: str = "builtin"
    tasks_file: Path | None = None
    template: str | None = None
    task_ids: tuple[str, ...] = ()
    hard_negatives: tuple[int, ...] = ()
    access_levels: tuple[str, ...] = ()
    split: str | None = None
    holdout: str = "task"
    level: int | str | None = None
    limit: int | None = None
    spread: bool = False


def select_tasks(site: str | None, *, tasks_file: Path | None = None, template: str | None = None,
                 task_ids: list[str] | None = None, limit: int | None = None,
                 spread: bool = False, hard_negatives: list[int] | None = None,
                 access_levels: list[str] | None = None, suite: str = "builtin",
                 split: str | None = None, holdout: str = "task") -> list[Task]:
    """:func:`select` with the options as keywords (what the CLI parses)."""
    return select(Selection(site=site, suite=suite, tasks_file=tasks_file, template=template,
                            task_ids=tuple(task_ids or ()), limit=limit, spread=spread,
                            hard_negatives=tuple(hard_negatives or ()),
                            access_levels=tuple(access_levels or ()), split=split,
                            holdout=holdout))


def select(sel: Selection) -> list[Task]:
    """The tasks ``sel`` describes, in their fixed order (see the module docstring)."""
    if sel.limit is not None and sel.limit < 1:
        raise ConfigError(f"--limit must be at least 1, got {sel.limit}")
    only = _split_filter(sel)
    tasks_file = sel.tasks_file
    if sel.suite not in SUITES:
        tasks_file = _suite_file(sel)
    elif sel.suite == CROSS or (tasks_file is None and any(_is_cross(i) for i in sel.task_ids)):
        return _select_cross(sel, None, only)
    from webmdp.tasks.dial import is_dial_id, resolve

    dialled = [i for i in sel.task_ids if is_dial_id(i)]
    # dial names (shopping_L3_0007) rebuild their task; the grid holds its own
    if dialled and tasks_file is None and sel.suite != GRID:
        rest = tuple(i for i in sel.task_ids if i not in dialled)
        made = [resolve(i) for i in dialled]
        if rest:
            made = select(Selection(sel.site, template=sel.template, task_ids=rest)) + made
        return made[:sel.limit]
    if tasks_file is not None:
        tasks = read_task_file(tasks_file)
        if check_one_suite(tasks, tasks_file) == CROSS:
            return _select_cross(sel, tasks_file, only, tasks)
        steps = Filters(tasks, f"{len(tasks)} tasks in {tasks_file}")
        if names(sel.site):
            steps.keep(f"--site {sel.site}", lambda t: t.site in names(sel.site))
    elif sel.suite == GRID:
        steps = _grid_pool(sel)
    else:
        steps = _site_pool(sel)
    _narrow(steps, sel, only)
    return sources.as_tasks(_finish(steps, sel, _unknown_task))


def _suite_file(sel: Selection) -> Path:
    """``--suite FILE``: the file, which must exist and not come with ``--tasks``."""
    if sel.tasks_file is not None:
        raise ConfigError(f"give either --suite FILE or --tasks FILE, not both ({sel.suite}, "
                          f"{sel.tasks_file})")
    if not Path(sel.suite).is_file():
        raise ConfigError(f"unknown suite '{sel.suite}': valid suites are "
                          f"{', '.join(SUITES)}, or a JSONL task file")
    return Path(sel.suite)


def _site_pool(sel: Selection) -> Filters:
    """The built-in tasks of the named sites (with a split: the pool the splits partition,
    the dial's level-1 tasks included), only those sites' sets read. Without a split, cached
    sets are filtered as light rows (:func:`sources.site_rows`): only the tasks kept are
    validated."""
    chosen = _chosen_sites(sel)
    sources.build_sets(chosen)  # built in parallel where missing
    tasks: list[Any]
    if sel.split is None:
        rows = sources.site_rows(chosen)
        tasks = rows if rows is not None else [t for n in chosen for t in sources.site_tasks(n)]
    else:
        tasks = list(sources.pool(tuple(chosen)))
    return Filters(tasks, f"{len(tasks)} tasks of {', '.join(chosen)}")


def _grid_pool(sel: Selection) -> Filters:
    """The grid suite's tasks of the named sites, site by site (levels 1, 2, 3 each)."""
    chosen = _chosen_sites(sel)
    tasks = [t for n in chosen for t in sources.grid_tasks(n)]
    return Filters(tasks, f"{len(tasks)} grid tasks of {', '.join(chosen)}")


def _chosen_sites(sel: Selection) -> list[str]:
    """The sites a selection reads: those named, else those its task ids name, else all;
    an unknown name is refused, naming the valid ones."""
    from webmdp.core.registry import get_site, site_names

    chosen = names(sel.site) or _sites_of(sel.task_ids) or site_names()
    for n in chosen:
        get_site(n)
    return chosen


def _narrow(steps: Filters, sel: Selection, only: tuple[str, Callable[[Task], bool]] | None
            ) -> None:
    """Templates, hard-negative counts, access levels, then the split."""
    templates = names(sel.template)
    if templates:
        known = sorted({t.template for t in steps.tasks})
        for name in templates:
            if name not in known:
                raise unknown_choice("template", name, known)
        steps.keep(f"--template {sel.template}", lambda t: t.template in templates)
    if sel.hard_negatives:
        counts = sel.hard_negatives
        for count in counts:
            if not 0 <= count <= 3:
                raise unknown_choice("hard-negative count", str(count), ["0", "1", "2", "3"])
        steps.keep(f"--hard-negatives {','.join(map(str, counts))}",
                   lambda t: t.complexity.hard_negative_count in counts)
    if sel.access_levels:
        levels = sel.access_levels
        for a in levels:
            if a not in ACCESS_LEVELS:
                raise unknown_choice("access level", a, ACCESS_LEVELS)
        steps.keep(f"--access-level {','.join(levels)}",
                   lambda t: t.complexity.access_level in levels)
    if only is not None:
        steps.keep(*only)


def _finish(steps: Filters, sel: Selection,
            unknown: Callable[[str, list[Task], Filters], str]) -> list[Task]:
    """The ids asked for (each must be in the selection), or the selection; limited."""
    tasks = steps.tasks
    if sel.task_ids:
        by_id = {t.id: t for t in tasks}
        for i in sel.task_ids:
            if i not in by_id:
                raise ConfigError(unknown(i, tasks, steps))
        tasks = [by_id[i] for i in sel.task_ids]
    if not tasks:
        raise ConfigError(steps.empty())
    return limited(tasks, sel.limit, sel.spread)


def _select_cross(sel: Selection, tasks_file: Path | None,
                  only: tuple[str, Callable[[Task], bool]] | None,
                  tasks: list[Task] | None = None) -> list[Task]:
    """The cross-site selection: ``site`` keeps tasks whose sites include one of the names;
    ``template`` names DAG patterns; ``only``: a named filter (an RL split)."""
    tasks_file = tasks_file or sel.tasks_file
    if tasks is None:
        if tasks_file is not None:
            tasks = read_task_file(tasks_file)
            check_one_suite(tasks, tasks_file)
        else:
            tasks = list(sources.cross_tasks())
    return select_cross(tasks, site=sel.site, template=sel.template, task_ids=sel.task_ids,
                        limit=sel.limit, spread=sel.spread, only=only,
                        source=f"{len(tasks)} cross-site tasks" +
                        (f" in {tasks_file}" if tasks_file else ""))


def select_cross(tasks: list[Task], *, site: str | None = None, template: str | None = None,
                 task_ids: Sequence[str] = (), limit: int | None = None, spread: bool = False,
                 only: tuple[str, Callable[[Task], bool]] | None = None,
                 source: str | None = None) -> list[Task]:
    """Narrow cross-site ``tasks`` (already read or composed) as :func:`select` does."""
    from webmdp.core.registry import get_site

    steps = Filters(tasks, source or f"{len(tasks)} cross-site tasks")
    sites = [n for n in names(site) if n != CROSS]
    if sites:
        for name in sites:
            get_site(name)
        steps.keep(f"--site {site}", lambda t: bool(set(t.sites or ()) & set(sites)))
    patterns = names(template)
    if patterns:
        known = sorted({t.template for t in tasks})
        for name in patterns:
            if name not in known:
                raise unknown_choice("cross-site pattern", name, known)
        steps.keep(f"--template {template}", lambda t: t.template in patterns)
    if only is not None:
        steps.keep(*only)
    sel = Selection(task_ids=tuple(task_ids), limit=limit, spread=spread)
    return _finish(steps, sel, lambda i, _t, s: f"unknown task id '{i}' ({s.why()})")


# -- splits ------------------------------------------------------------------------------------
def _split_filter(sel: Selection) -> tuple[str, Callable[[Task], bool]] | None:
    """The RL split as a named filter (``--split S --holdout H``), narrowed to ``level``."""
    if sel.split is None:
        return None
    keep = in_split(sel.split, sel.holdout)
    name = f"--split {sel.split} --holdout {sel.holdout}"
    if sel.level is None:
        return name, keep
    from webmdp.tasks.splits import level_of, parse_level

    try:
        level = parse_level(sel.level)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    want = None if level == "none" else level
    return f"{name} --level {sel.level}", lambda t: keep(t) and level_of(t) == want


def in_split(split: str, holdout: str) -> Callable[[Task], bool]:
    """Whether a task lies in RL split ``split`` (``train`` or ``test``) under ``holdout``;
    a bad name is a :class:`ConfigError` (one line)."""
    from webmdp.tasks.splits import SPLITS, Holdout, assign, check_split

    try:
        check_split(split, SPLITS)
        rule = Holdout.parse(holdout)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return lambda task: assign(task, rule) == split


def split_record(split: str, holdout: str) -> dict[str, Any]:
    """What a run's manifest and report name of the split its tasks come from."""
    from webmdp.tasks.splits import SPLIT_VERSION, Holdout

    return {"split": split, "holdout": str(Holdout.parse(holdout)),
            "split_version": SPLIT_VERSION}


# -- the pieces ----------------------------------------------------------------------------------
def limited(tasks: list[Task], limit: int | None, spread: bool) -> list[Task]:
    """The first ``limit`` tasks, or ``limit`` taken evenly across the list (``spread``)."""
    if limit is None or limit >= len(tasks):
        return tasks
    if spread:
        step = len(tasks) / limit
        return [tasks[int(i * step)] for i in range(limit)]
    return tasks[:limit]


def suite_of(task: Task) -> str:
    return CROSS if task.sites else "builtin"


def check_one_suite(tasks: list[Task], path: Path | str) -> str:
    """The suite of a task file's tasks; a file mixing suites is refused (their runs, reports
    and statistics differ)."""
    kinds: dict[str, int] = {}
    for t in tasks:
        kinds[suite_of(t)] = kinds.get(suite_of(t), 0) + 1
    if len(kinds) > 1:
        raise ConfigError(f"{path}: the file mixes suites ({kinds['builtin']} single-site and "
                          f"{kinds[CROSS]} cross-site tasks); keep one suite per file")
    return next(iter(kinds), "builtin")


class Filters:
    """The selection as filters narrow it, remembering what each removed. Its items are
    tasks, or light rows with the same fields (:class:`webmdp.tasks.cache.TaskRow`)."""

    def __init__(self, tasks: list[Any], source: str):
        self.tasks = tasks
        self.source = source
        self.removed: list[tuple[str, int]] = []

    def keep(self, name: str, pred: Callable[[Any], bool]) -> None:
        kept = [t for t in self.tasks if pred(t)]
        self.removed.append((name, len(self.tasks) - len(kept)))
        self.tasks = kept

    def why(self) -> str:
        return "; ".join([self.source, *(f"{name} removed {n}" for name, n in self.removed)])

    def empty(self) -> str:
        return f"no tasks selected ({self.why()})"


def names(spec: str | None) -> list[str]:
    """``None`` / ``all`` -> [] (no filter); else the comma-separated names, in order."""
    if spec is None or spec.strip() in ("", "all"):
        return []
    return list(dict.fromkeys(n.strip() for n in spec.split(",") if n.strip()))


def _is_cross(task_id: str) -> bool:
    return task_id.startswith(CROSS + "_")


def _sites_of(task_ids: Sequence[str]) -> list[str]:
    """The sites task ids name by their prefix (``mail_0003`` -> ``mail``), where known."""
    from webmdp.core.registry import site_names

    known = set(site_names(plugins=True))
    return list(dict.fromkeys(s for i in task_ids if (s := re.sub(
        r"_L(?:[123]|none)$", "", i.rsplit("_", 1)[0])) in known))


def _unknown_task(task_id: str, tasks: list[Task], steps: Filters) -> str:
    """Why ``task_id`` is not in the selection: how many ids its site has, and their range."""
    site = task_id.rsplit("_", 1)[0]
    ids = sorted(t.id for t in tasks if t.site == site)
    if ids:
        return (f"unknown task id '{task_id}': {site} has {len(ids)} task ids in this "
                f"selection, {ids[0]} to {ids[-1]} ({steps.why()})")
    sites = sorted({t.site for t in tasks})
    return (f"unknown task id '{task_id}': no task of site '{site}' in this selection, which "
            f"holds {', '.join(sites) or 'no site'} ({steps.why()}); ids are SITE_NNNN, "
            "e.g. " + (tasks[0].id if tasks else "shopping_0000"))


# -- environments by id (webmdp.make) ------------------------------------------------------------
_ENV_ID = re.compile(r"^(?P<site>[a-z_]+)(?:/(?P<template>[a-z_]+))?-v(?P<version>\d+)$")


def env_ids() -> list[str]:
    """Every environment id: ``<site>-v1`` and ``<site>/<template>-v1``, installed plugin
    sites' included."""
    from webmdp.core.registry import usable_sites

    out = []
    for site in usable_sites():
        out.append(f"{site.name}-v1")
        out += [f"{site.name}/{t}-v1" for t in site.templates]
    return out


def env_task(env_id: str, *, index: int = 0, task_id: str | None = None,
             suite: str = "builtin") -> Task:
    """The task an env id names: the ``index``-th task of the site (or template), or
    ``task_id`` (a built-in id, or a dial name, :mod:`webmdp.tasks.dial`). Only that task is
    built (one oracle replay), not the site's set. ``suite="grid"``: the ``index``-th of the
    site's grid tasks (levels 1, 2, 3 in turn), or ``task_id`` among them."""
    from webmdp.core.registry import get_site
    from webmdp.tasks.dial import is_dial_id, resolve
    from webmdp.tasks.generate import make_task, plan

    m = _ENV_ID.match(env_id)
    if not m or m["version"] != "1":
        raise unknown_choice("environment id", env_id, env_ids())
    site = get_site(m["site"])
    entries = [e for e in plan(site) if m["template"] in (None, e[1])]
    if m["template"] and not entries:
        raise unknown_choice("template", m["template"], list(site.templates))
    if suite == GRID:
        return _grid_task(site.name, m["template"], index, task_id)
    if suite != "builtin":
        raise unknown_choice("suite for an environment id", suite, ["builtin", GRID])
    if task_id is not None and is_dial_id(task_id):  # a dial-made task: shopping_L3_0007
        task = resolve(task_id)
        if task.site != site.name or m["template"] not in (None, task.template):
            raise unknown_choice("task id", task_id, [f"{site.name}_L3_0000", "..."])
        return task
    if task_id is not None:
        entries = [e for e in entries if f"{site.name}_{e[0]:04d}" == task_id]
        if not entries:
            raise unknown_choice("task id", task_id, [f"{site.name}_0000", "..."])
        index = 0
    if not 0 <= index < len(entries):
        raise unknown_choice("task index", str(index), [f"0..{len(entries) - 1}"])
    i, template, hn = entries[index]
    return make_task(site, i, template, hn)


def _grid_task(site: str, template: str | None, index: int, task_id: str | None) -> Task:
    """The grid suite's task of a site by index or id (a template narrows to its variants)."""
    from webmdp.tasks.variants import base_name

    tasks = [t for t in sources.grid_tasks(site)
             if template in (None, base_name(t.template))]
    if task_id is not None:
        found = [t for t in tasks if t.id == task_id]
        if not found:
            raise unknown_choice("grid task id", task_id, [t.id for t in tasks[:3]] + ["..."])
        return found[0]
    if not 0 <= index < len(tasks):
        raise unknown_choice("grid task index", str(index), [f"0..{len(tasks) - 1}"])
    return tasks[index]
