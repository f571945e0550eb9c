"""Run directory layout: tasks, one JSON trace per episode, a results table.

    DIR/tasks.jsonl                                  one Task per line
    DIR/episodes/<agent>/<mode>/<task_id>.json       EpisodeTrace
    DIR/episodes/<agent>/<mode>/shots/               screenshots (browser mode, optional)
    DIR/results.jsonl                                one summary row per finished episode
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from webmdp.tasks.io import write_tasks
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace


class RunStore:
    def __init__(self, root: Path):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)

    def episode_dir(self, agent: str, mode: str) -> Path:
        d = self.root / "episodes" / agent / mode
        d.mkdir(parents=True, exist_ok=True)
        return d

    def trace_path(self, agent: str, mode: str, task_id: str) -> Path:
        return self.episode_dir(agent, mode) / f"{task_id}.json"

    def has(self, agent: str, mode: str, task_id: str) -> bool:
        """Whether a finished episode is stored: one that ended in ``infra_error`` (a browser,
        server or model endpoint fault, not the agent's doing) is run again on resume."""
        path = self.trace_path(agent, mode, task_id)
        if not path.is_file():
            return False
        try:
            return json.loads(path.read_text()).get("termination") != "infra_error"
        except (OSError, ValueError):
            return False  # a torn or unreadable trace is not a result

    def add_tasks(self, tasks: list[Task]) -> None:
        """Merge ``tasks`` into DIR/tasks.jsonl (by id; existing lines are kept)."""
        path = self.root / "tasks.jsonl"
        known: dict[str, Task] = {}
        if path.is_file():
            from webmdp.tasks.io import read_tasks

            known = {t.id: t for t in read_tasks(path)}
        for t in tasks:
            known.setdefault(t.id, t)
        write_tasks(path, list(known.values()))

    def save(self, trace: EpisodeTrace) -> Path:
        """Write the trace atomically, then append its summary row."""
        path = self.trace_path(trace.agent, trace.mode, trace.task_id)
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(trace.model_dump_json(indent=1))
        os.replace(tmp, path)
        with (self.root / "results.jsonl").open("a") as fh:
            fh.write(json.dumps(summary_row(trace, path.relative_to(self.root))) + "\n")
        return path


def summary_row(trace: EpisodeTrace, trace_file: Path) -> dict[str, Any]:
    """The ``results.jsonl`` row of an episode whose trace is at ``trace_file`` (relative to
    the run directory)."""
    return {"task_id": trace.task_id, "site": trace.site, "template": trace.template,
            "agent": trace.agent, "mode": trace.mode, "success": trace.success,
            "termination": trace.termination, "gui_steps": len(trace.steps),
            "infra_error": trace.infra_error, "trace": str(trace_file)}
