"""Read a run directory written by the runner.

Layout::

    DIR/tasks.jsonl                              one Task JSON per line
    DIR/episodes/<agent>/<mode>/<task_id>.json   one EpisodeTrace per episode
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from webmdp.errors import ConfigError, TaskFileError
from webmdp.eval.metrics import EpisodeMetrics, episode_metrics
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace


def load_tasks(path: str | Path) -> dict[str, Task]:
    """Tasks of a JSONL file by id; blank lines are skipped."""
    tasks: dict[str, Task] = {}
    with Path(path).open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                task = Task.model_validate_json(line)
            except ValidationError as e:
                err = e.errors()[0]
                loc = ".".join(str(p) for p in err["loc"]) or "<line>"
                raise TaskFileError(str(path), n, loc, err["msg"]) from None
            tasks[task.id] = task
    return tasks


def load_run(run_dir: str | Path) -> list[tuple[EpisodeTrace, Task]]:
    """Every episode of a run with its task, ordered by agent, mode and file name."""
    root = Path(run_dir)
    tasks = load_tasks(root / "tasks.jsonl")
    out: list[tuple[EpisodeTrace, Task]] = []
    for path in sorted((root / "episodes").glob("*/*/*.json")):
        trace = EpisodeTrace.model_validate_json(path.read_text(encoding="utf-8"))
        if trace.task_id not in tasks:
            raise ConfigError(f"{path}: task '{trace.task_id}' is not in {root / 'tasks.jsonl'}")
        out.append((trace, tasks[trace.task_id]))
    return out


def metrics_rows(run_dir: str | Path) -> list[EpisodeMetrics]:
    """:func:`episode_metrics` of every episode of a run."""
    return [episode_metrics(trace, task) for trace, task in load_run(run_dir)]
