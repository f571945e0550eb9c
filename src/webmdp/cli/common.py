"""Shared CLI helpers: task selection, errors, progress bars."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from webmdp.errors import WebMDPError, unknown_choice
from webmdp.sites import get_site, site_names
from webmdp.tasks.generate import generate_site_tasks
from webmdp.tasks.io import read_tasks
from webmdp.tasks.model import Task

console = Console(stderr=True)


def fail(message: str) -> typer.Exit:
    console.print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code=2)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn webmdp errors into a one-line message and exit code 2."""
    try:
        yield
    except WebMDPError as exc:
        raise fail(str(exc)) from None


@cache
def site_tasks(site: str) -> tuple[Task, ...]:
    return tuple(generate_site_tasks(get_site(site)))


def select_tasks(site: str | None, *, tasks_file: Path | None = None, template: str | None = None,
                 task_ids: list[str] | None = None, limit: int | None = None,
                 spread: bool = False, hard_negatives: list[int] | None = None,
                 access_levels: list[str] | None = None) -> list[Task]:
    """Tasks of sites (generated) or from a file, filtered, limited.

    ``site`` and ``template`` take one name, a comma-separated list or ``all``;
    ``hard_negatives`` and ``access_levels`` keep tasks with those complexity values.
    ``spread`` takes the limit evenly across the list (every k-th task) instead of the first N,
    so a small slice still covers every template and hard-negative count.
    """
    sites = _names(site)
    if tasks_file is not None:
        tasks = read_tasks(tasks_file)
        if sites:
            tasks = [t for t in tasks if t.site in sites]
    else:
        names = sites or site_names()
        for n in names:
            get_site(n)
        tasks = [t for n in names for t in site_tasks(n)]
    templates = _names(template)
    if templates:
        known = sorted({t.template for t in tasks})
        for name in templates:
            if name not in known:
                raise unknown_choice("template", name, known)
        tasks = [t for t in tasks if t.template in templates]
    if hard_negatives:
        for count in hard_negatives:
            if not 0 <= count <= 3:
                raise unknown_choice("hard-negative count", str(count), ["0", "1", "2", "3"])
        tasks = [t for t in tasks if t.complexity.hard_negative_count in hard_negatives]
    if access_levels:
        for a in access_levels:
            if a not in ACCESS_LEVELS:
                raise unknown_choice("access level", a, ACCESS_LEVELS)
        tasks = [t for t in tasks if t.complexity.access_level in access_levels]
    if task_ids:
        by_id = {t.id: t for t in tasks}
        missing = [i for i in task_ids if i not in by_id]
        if missing:
            shown = list(by_id)[:5] + (["..."] if len(by_id) > 5 else [])
            raise unknown_choice("task id", missing[0], shown)
        tasks = [by_id[i] for i in task_ids]
    if limit is not None and limit < len(tasks):
        if spread:
            step = len(tasks) / limit
            tasks = [tasks[int(i * step)] for i in range(limit)]
        else:
            tasks = tasks[:limit]
    return tasks


ACCESS_LEVELS = ("card", "filter", "detail")


def _names(spec: str | None) -> list[str]:
    """``None`` / ``all`` -> [] (no filter); else the comma-separated names, in order."""
    if spec is None or spec.strip() in ("", "all"):
        return []
    return list(dict.fromkeys(n.strip() for n in spec.split(",") if n.strip()))


def progress() -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=console, transient=False)
