"""Shared CLI helpers: errors, option checks, progress bars. Which tasks run is decided in one
place, :mod:`webmdp.tasks.select`; its names are re-exported here for the commands."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from webmdp.errors import ConfigError, WebMDPError
from webmdp.tasks.model import Task
from webmdp.tasks.select import (  # the one selection; re-exported for the commands
    ACCESS_LEVELS,
    SUITES,
    check_one_suite,
    in_split,
    names,
    select_tasks,
    split_record,
    suite_of,
)
from webmdp.tasks.sources import CROSS, cross_tasks, read_task_file, site_tasks

__all__ = ["ACCESS_LEVELS", "CROSS", "SUITES", "check_difficulty", "check_noise",
           "check_one_suite", "console", "cross_tasks", "fail", "in_range", "in_split", "names",
           "progress", "prose", "read_task_file", "request_options", "select_tasks",
           "site_tasks", "split_record", "suite_of", "user_errors"]

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


def progress() -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=console, transient=False)


def prose(doc: str | None) -> str:
    """A docstring as ``--help`` shows it: paragraphs kept, the source's line breaks inside a
    paragraph dropped (this Typer keeps them after the first paragraph, so Rich wrapped text
    that was already wrapped)."""
    paragraphs = inspect.cleandoc(doc or "").split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)
