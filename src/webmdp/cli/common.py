"""Shared CLI helpers: task selection, errors, progress bars."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from webmdp.errors import ConfigError, WebMDPError, unknown_choice
from webmdp.sites import get_site, site_names
from webmdp.tasks.generate import generate_sets, generate_site_tasks
from webmdp.tasks.model import Task

console = Console(stderr=True)


def fail(message: str) -> typer.Exit:
    console.print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code=2)


def in_range(option: str, value: int, low: int, high: int | None = None) -> None:
    """Refuse ``value`` outside ``low..high`` (no upper bound when ``high`` is None) with one
    line naming the option (exit status 2)."""
    if value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"between {low} and {high}"
        raise fail(f"{option} must be {bound}, got {value}")


def request_options(timeout: float | None, max_retries: int | None,
                    concurrency: int | None, limit: int | None = None) -> dict[str, Any]:
    """A model judge's request options as its client takes them (those given), after checking
    ``--limit``."""
    if limit is not None:
        in_range("--limit", limit, 1)
    return {k: v for k, v in (("timeout_s", timeout), ("max_retries", max_retries),
                              ("concurrency", concurrency)) if v is not None}


def check_noise(level: str, mode: str = "browser") -> None:
    """``--noise``: a known level (:data:`webmdp.env.noise.NOISE_LEVELS`), and noise only in
    browser mode (it lives in the page); else a one-line :class:`ConfigError`."""
    from webmdp.env.noise import check_level

    check_level(level)
    if level != "none" and mode != "browser":
        raise ConfigError(f"--noise {level} needs --mode browser: noise lives in the browser "
                          "page, the semantic MDP has none")


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn webmdp errors into a one-line message and exit code 2."""
    try:
        yield
    except WebMDPError as exc:
        raise fail(str(exc)) from None


def read_task_file(path: Path) -> list[Task]:
    """A task file's tasks, each checked as :func:`webmdp.tasks.io.read_checked` does (world
    shape, the fields its site declares, unique ids): a bad task is one line naming the file,
    the line and the place (``world.entities[3].title``), not a KeyError inside a run."""
    from webmdp.tasks.io import read_checked

    return [t for _, t in read_checked(path)]


@cache
def site_tasks(site: str) -> tuple[Task, ...]:
    return tuple(generate_site_tasks(get_site(site)))


def check_difficulty(tasks: list[Task], path: Path | str,
                     on_done: Callable[[int], None] | None = None) -> None:
    """A task file's stored difficulty must be what measuring its tasks gives: one oracle
    replay per task, so it runs where measuring is the job (``tasks check``, ``validate``)
    and on the tasks a ``run`` is about to run, never on reading a file. ``on_done`` hears
    how many tasks each chunk measured (a progress bar)."""
    from webmdp.tasks.difficulty import disagreements

    wrong: list[str] = []
    for k in range(0, len(tasks), 50):
        wrong += disagreements(tasks[k:k + 50])
        if on_done is not None:
            on_done(len(tasks[k:k + 50]))
    if wrong:
        more = f" (and {len(wrong) - 1} more)" if len(wrong) > 1 else ""
        raise ConfigError(f"{path}: {wrong[0]}{more}; regenerate the file, or remove the "
                          "tasks' difficulty to have it measured")


def select_tasks(site: str | None, *, tasks_file: Path | None = None, template: str | None = None,
                 task_ids: list[str] | None = None, limit: int | None = None,
                 spread: bool = False, hard_negatives: list[int] | None = None,
                 access_levels: list[str] | None = None, suite: str = "builtin",
                 split: str | None = None, holdout: str = "task") -> list[Task]:
    """Tasks of sites (generated) or from a file, filtered, limited.

    ``suite``: ``builtin`` (every site's generated tasks), ``cross-site`` (the generated
    cross-site tasks, :mod:`webmdp.cap.compose`; ``site`` then keeps those whose sites include
    it) or a JSONL task file (as ``tasks_file``). A file must hold one suite, not both.

    ``site`` and ``template`` take one name, a comma-separated list or ``all``;
    ``hard_negatives`` and ``access_levels`` keep tasks with those complexity values. Without a
    site (``None``) and without a file, the sites the ``task_ids`` name are generated, else
    all. ``spread`` takes the limit evenly across the list (every k-th task) instead of the
    first N, so a small slice still covers every template and hard-negative count. ``split``
    keeps the tasks of that RL split under ``holdout`` (:mod:`webmdp.rl.splits`), before the
    limit. A selection that comes out empty is an error naming what each filter removed.
    """
    if limit is not None and limit < 1:
        raise ConfigError(f"--limit must be at least 1, got {limit}")
    only = None if split is None else (f"--split {split} --holdout {holdout}",
                                       in_split(split, holdout))
    if suite not in SUITES:
        if tasks_file is not None:
            raise ConfigError(f"give either --suite FILE or --tasks FILE, not both ({suite}, "
                              f"{tasks_file})")
        if not Path(suite).is_file():
            raise ConfigError(f"unknown suite '{suite}': valid suites are "
                              f"{', '.join(SUITES)}, or a JSONL task file")
        tasks_file = Path(suite)
    elif suite == CROSS or (tasks_file is None and any(
            i.startswith(CROSS + "_") for i in task_ids or [])):
        return _select_cross(site, tasks_file, template, task_ids, limit, spread, only=only)
    from webmdp.tasks.dial import is_dial_id, resolve

    dialled = [i for i in task_ids or [] if is_dial_id(i)]
    if dialled and tasks_file is None:  # dial names (shopping_L3_0007) rebuild their task
        rest = [i for i in task_ids or [] if i not in dialled]
        made = [resolve(i) for i in dialled]
        if rest:
            made = select_tasks(site, template=template, task_ids=rest) + made
        return made[:limit]
    sites = _names(site)
    if tasks_file is not None:
        tasks = read_task_file(tasks_file)
        source = f"{len(tasks)} tasks in {tasks_file}"
        if check_one_suite(tasks, tasks_file) == CROSS:
            return _select_cross(site, tasks_file, template, task_ids, limit, spread, tasks,
                                 only=only)
    else:
        names = sites or _sites_of(task_ids) or site_names()
        for n in names:
            get_site(n)
        if len(names) > 1:
            generate_sets([get_site(n) for n in names])  # built in parallel where missing
        if split is None:
            tasks = [t for n in names for t in site_tasks(n)]
        else:  # the pool the RL splits partition: the dial's level-1 tasks too
            from webmdp.rl.splits import site_pool

            tasks = list(site_pool(names))
        source = f"{len(tasks)} tasks of {', '.join(names)}"
    steps = _Filters(tasks, source)
    if sites and tasks_file is not None:
        steps.keep(f"--site {site}", lambda t: t.site in sites)
    templates = _names(template)
    if templates:
        known = sorted({t.template for t in steps.tasks})
        for name in templates:
            if name not in known:
                raise unknown_choice("template", name, known)
        steps.keep(f"--template {template}", lambda t: t.template in templates)
    if hard_negatives:
        for count in hard_negatives:
            if not 0 <= count <= 3:
                raise unknown_choice("hard-negative count", str(count), ["0", "1", "2", "3"])
        steps.keep(f"--hard-negatives {','.join(map(str, hard_negatives))}",
                   lambda t: t.complexity.hard_negative_count in hard_negatives)
    if access_levels:
        for a in access_levels:
            if a not in ACCESS_LEVELS:
                raise unknown_choice("access level", a, ACCESS_LEVELS)
        steps.keep(f"--access-level {','.join(access_levels)}",
                   lambda t: t.complexity.access_level in access_levels)
    if only is not None:
        steps.keep(*only)
    tasks = steps.tasks
    if task_ids:
        by_id = {t.id: t for t in tasks}
        for i in task_ids:
            if i not in by_id:
                raise ConfigError(_unknown_task(i, tasks, steps))
        tasks = [by_id[i] for i in task_ids]
    if not tasks:
        raise ConfigError(steps.empty())
    return _limited(tasks, limit, spread)


def in_split(split: str, holdout: str) -> Callable[[Task], bool]:
    """Whether a task lies in RL split ``split`` (``train`` or ``test``) under ``holdout``;
    a bad name is a :class:`ConfigError` (one line)."""
    from webmdp.rl.splits import SPLITS, Holdout, assign, check_split

    try:
        check_split(split, SPLITS)
        rule = Holdout.parse(holdout)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return lambda task: assign(task, rule) == split


def split_record(split: str, holdout: str) -> dict[str, Any]:
    """What a run's manifest and report name of the split its tasks come from."""
    from webmdp.rl.splits import SPLIT_VERSION, Holdout

    return {"split": split, "holdout": str(Holdout.parse(holdout)),
            "split_version": SPLIT_VERSION}


def _limited(tasks: list[Task], limit: int | None, spread: bool) -> list[Task]:
    """The first ``limit`` tasks, or ``limit`` taken evenly across the list (``spread``)."""
    if limit is None or limit >= len(tasks):
        return tasks
    if spread:
        step = len(tasks) / limit
        return [tasks[int(i * step)] for i in range(limit)]
    return tasks[:limit]


SUITES = ("builtin", "cross-site")
CROSS = "cross-site"


def suite_of(task: Task) -> str:
    return CROSS if task.sites else "builtin"


def check_one_suite(tasks: list[Task], path: Path) -> str:
    """The suite of a task file's tasks; a file mixing suites is refused (their runs, reports
    and statistics differ)."""
    kinds: dict[str, int] = {}
    for t in tasks:
        kinds[suite_of(t)] = kinds.get(suite_of(t), 0) + 1
    if len(kinds) > 1:
        raise ConfigError(f"{path}: the file mixes suites ({kinds['builtin']} single-site and "
                          f"{kinds[CROSS]} cross-site tasks); keep one suite per file")
    return next(iter(kinds), "builtin")


@cache
def cross_tasks() -> tuple[Task, ...]:
    from webmdp.cap.compose import generate_cross_tasks

    return tuple(generate_cross_tasks())


def _select_cross(site: str | None, tasks_file: Path | None, template: str | None,
                  task_ids: list[str] | None, limit: int | None, spread: bool,
                  tasks: list[Task] | None = None, *,
                  only: tuple[str, Callable[[Task], bool]] | None = None) -> list[Task]:
    """The cross-site selection: ``site`` keeps tasks whose sites include one of the names;
    ``template`` names DAG patterns; ``only``: a named filter (an RL split)."""
    if tasks is None:
        if tasks_file is not None:
            tasks = read_task_file(tasks_file)
            check_one_suite(tasks, tasks_file)
        else:
            tasks = list(cross_tasks())
    source = f"{len(tasks)} cross-site tasks" + (f" in {tasks_file}" if tasks_file else "")
    steps = _Filters(tasks, source)
    sites = [n for n in _names(site) if n != CROSS]
    if sites:
        for name in sites:
            get_site(name)
        steps.keep(f"--site {site}", lambda t: bool(set(t.sites or ()) & set(sites)))
    patterns = _names(template)
    if patterns:
        known = sorted({t.template for t in tasks})
        for name in patterns:
            if name not in known:
                raise unknown_choice("cross-site pattern", name, known)
        steps.keep(f"--template {template}", lambda t: t.template in patterns)
    if only is not None:
        steps.keep(*only)
    out = steps.tasks
    if task_ids:
        by_id = {t.id: t for t in out}
        for i in task_ids:
            if i not in by_id:
                raise ConfigError(f"unknown task id '{i}' ({steps.why()})")
        out = [by_id[i] for i in task_ids]
    if not out:
        raise ConfigError(steps.empty())
    return _limited(out, limit, spread)


class _Filters:
    """The selection as filters narrow it, remembering what each removed."""

    def __init__(self, tasks: list[Task], source: str):
        self.tasks = tasks
        self.source = source
        self.removed: list[tuple[str, int]] = []

    def keep(self, name: str, pred: Callable[[Task], bool]) -> None:
        kept = [t for t in self.tasks if pred(t)]
        self.removed.append((name, len(self.tasks) - len(kept)))
        self.tasks = kept

    def why(self) -> str:
        return "; ".join([self.source, *(f"{name} removed {n}" for name, n in self.removed)])

    def empty(self) -> str:
        return f"no tasks selected ({self.why()})"


def _sites_of(task_ids: list[str] | None) -> list[str]:
    """The sites task ids name by their prefix (``mail_0003`` -> ``mail``), where known."""
    known = set(site_names())
    return list(dict.fromkeys(s for i in task_ids or [] if (s := i.rsplit("_", 1)[0]) in known))


def _unknown_task(task_id: str, tasks: list[Task], steps: _Filters) -> str:
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


ACCESS_LEVELS = ("card", "filter", "detail")


def _names(spec: str | None) -> list[str]:
    """``None`` / ``all`` -> [] (no filter); else the comma-separated names, in order."""
    if spec is None or spec.strip() in ("", "all"):
        return []
    return list(dict.fromkeys(n.strip() for n in spec.split(",") if n.strip()))


def progress() -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=console, transient=False)


def prose(doc: str | None) -> str:
    """A docstring as ``--help`` shows it: paragraphs kept, the source's line breaks inside a
    paragraph dropped (this Typer keeps them after the first paragraph, so Rich wrapped text
    that was already wrapped)."""
    paragraphs = inspect.cleandoc(doc or "").split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)
