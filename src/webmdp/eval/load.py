"""Read a run directory written by the runner.

Layout::

    DIR/tasks.jsonl                              one Task JSON per line
    DIR/episodes/<agent>/<mode>/<task_id>.json   one EpisodeTrace per episode
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from webmdp.errors import ConfigError, TaskFileError
from webmdp.eval.metrics import EpisodeMetrics, episode_metrics
from webmdp.runner import manifest as mf
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


@dataclass
class LoadedRuns:
    """Episodes of one or more runs, ready for analysis, and what could not be used.

    ``skipped`` names each unusable file with the reason (a corrupt trace, a trace of a task
    missing from its run's tasks file, a duplicate episode); ``notes`` says what the analysis
    covers (e.g. the intersection of differing task sets)."""

    runs: list[Path]
    episodes: list[tuple[EpisodeTrace, Task]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _read_trace(path: Path) -> EpisodeTrace:
    try:
        return EpisodeTrace.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(p) for p in err["loc"]) or "<file>"
        raise ValueError(f"{loc}: {err['msg']}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(str(e)) from None


def load_runs(run_dirs: Sequence[str | Path]) -> LoadedRuns:
    """Load every episode of ``run_dirs``. A run without a readable ``tasks.jsonl`` is an error
    (:class:`ConfigError`); a bad trace is skipped and named. When the runs cover different
    task sets, only tasks present in every run are analysed, and a note says so. The same
    (agent, mode, task) in two runs is kept once (the first run's)."""
    out = LoadedRuns(runs=[Path(r) for r in run_dirs])
    per_run: list[tuple[Path, list[tuple[EpisodeTrace, Task]]]] = []
    for root in out.runs:
        if not (root / "tasks.jsonl").is_file():
            raise ConfigError(f"{root}: not a run directory (no tasks.jsonl)")
        tasks = load_tasks(root / "tasks.jsonl")
        mf.check_run_code_key(root)
        pairs: list[tuple[EpisodeTrace, Task]] = []
        for path in sorted((root / "episodes").glob("*/*/*.json")):
            try:
                trace = _read_trace(path)
            except ValueError as e:
                out.skipped.append((str(path), f"corrupt trace: {e}"))
                continue
            if trace.task_id not in tasks:
                out.skipped.append((str(path), f"task '{trace.task_id}' is not in "
                                               f"{root / 'tasks.jsonl'}"))
                continue
            pairs.append((trace, tasks[trace.task_id]))
        per_run.append((root, pairs))
    task_sets = [{t.task_id for t, _ in pairs} for _, pairs in per_run if pairs]
    common = set.intersection(*task_sets) if task_sets else set()
    if len(task_sets) > 1 and any(s != common for s in task_sets):
        union = set.union(*task_sets)
        out.notes.append(f"the runs cover different task sets: analysing the {len(common)} "
                         f"tasks common to all runs ({len(union) - len(common)} of {len(union)} "
                         "left out)")
    seen: set[tuple[str, str, str]] = set()
    for _, pairs in per_run:
        for trace, task in pairs:
            key = (trace.agent, trace.mode, trace.task_id)
            if trace.task_id not in common:
                continue
            if key in seen:
                out.skipped.append((f"{trace.agent}/{trace.mode}/{trace.task_id}",
                                    "duplicate episode (kept the first run's)"))
                continue
            seen.add(key)
            out.episodes.append((trace, task))
    return out
