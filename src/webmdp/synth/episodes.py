"""The episodes of a run directory, each with its run label (``agent`` or ``agent@sN``), mode,
trace and task, for the synth commands."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from webmdp.errors import ConfigError
from webmdp.tasks.io import read_tasks
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace


@dataclass(frozen=True)
class Episode:
    label: str
    """The run label: the agent's directory name, ``NAME@sSEED`` for a seed other than 0."""
    mode: str
    trace: EpisodeTrace
    task: Task
    path: Path

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.label, self.mode, self.trace.task_id)


def trace_paths(run: Path) -> list[Path]:
    """Every trace file of the run, sorted; a one-line error when there is none."""
    if not run.is_dir():
        raise ConfigError(f"{run}: no such run directory")
    paths = sorted((run / "episodes").glob("*/*/*.json"))
    if not paths:
        raise ConfigError(f"{run}: the run has no traces (expected episodes/<agent>/<mode>/"
                          "<task>.json; run `webmdp run --out {run}` or `webmdp synth rollouts`)")
    return paths


def load_tasks(run: Path) -> dict[str, Task]:
    path = run / "tasks.jsonl"
    if not path.is_file():
        raise ConfigError(f"{run}: tasks.jsonl is missing; it is not a run directory")
    from webmdp.runner.manifest import check_run_code_key

    check_run_code_key(run)
    return {t.id: t for t in read_tasks(path)}


def episodes(run: Path) -> Iterator[Episode]:
    """The run's episodes in a stable order (label, mode, task id). A trace that does not
    parse, or whose task is not in the run's tasks file, stops with the file named."""
    tasks = load_tasks(run)
    for path in trace_paths(run):
        try:
            trace = EpisodeTrace.model_validate_json(path.read_text(encoding="utf-8"))
        except (ValidationError, OSError, UnicodeDecodeError) as e:
            raise ConfigError(f"{path}: not a readable episode trace ({_first_line(e)})") from None
        task = tasks.get(trace.task_id)
        if task is None:
            raise ConfigError(f"{path}: task '{trace.task_id}' is not in {run / 'tasks.jsonl'}")
        yield Episode(path.parent.parent.name, path.parent.name, trace, task, path)


def _first_line(e: Exception) -> str:
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
