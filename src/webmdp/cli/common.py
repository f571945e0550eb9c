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
                 spread: bool = False) -> list[Task]:
    """Tasks of a site (generated) or from a file, filtered by template / ids, limited.

    ``spread`` takes the limit evenly across the list (every k-th task) instead of the first N,
    so a small slice still covers every template and hard-negative count.
    """
    if tasks_file is not None:
        tasks = read_tasks(tasks_file)
        if site:
            tasks = [t for t in tasks if t.site == site]
    else:
        names = site_names() if site in (None, "all") else [site]
        for n in names:
            get_site(n)
        tasks = [t for n in names for t in site_tasks(n)]
    if template:
        known = sorted({t.template for t in tasks})
        if template not in known:
            raise unknown_choice("template", template, known)
        tasks = [t for t in tasks if t.template == template]
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


def progress() -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=console, transient=False)
