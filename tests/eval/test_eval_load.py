"""Reading a run directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from webmdp.errors import ConfigError, TaskFileError
from webmdp.eval import episode_metrics, load_run, load_tasks, metrics_rows
from webmdp.tasks import Task
from webmdp.trace import EpisodeTrace


def _write_run(root: Path, task: Task, episodes: dict[str, EpisodeTrace]) -> None:
    (root / "tasks.jsonl").write_text(task.model_dump_json() + "\n\n", encoding="utf-8")
    for rel, trace in episodes.items():
        path = root / "episodes" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(trace.model_dump_json(indent=1), encoding="utf-8")


def test_load_run_and_metrics_rows(tmp_path: Path, task: Task, good: EpisodeTrace,
                                   safe: EpisodeTrace) -> None:
    _write_run(tmp_path, task, {"a/browser/shopping_0000.json": good,
                                "b/semantic/shopping_0000.json": safe})
    (tmp_path / "episodes" / "a" / "browser" / "shots").mkdir()  # ignored: not a trace
    pairs = load_run(tmp_path)
    assert [(t.agent, t.mode) for t, _ in pairs] == [("a", "browser"), ("b", "semantic")]
    assert pairs[0] == (good, task)
    rows = metrics_rows(tmp_path)
    assert rows == [episode_metrics(good, task), episode_metrics(safe, task)]
    assert [(r.agent, r.mode, r.site, r.task_id) for r in rows] == [
        ("a", "browser", "shopping", "shopping_0000"),
        ("b", "semantic", "shopping", "shopping_0000"),
    ]


def test_unknown_task_is_an_error(tmp_path: Path, task: Task, good: EpisodeTrace) -> None:
    _write_run(tmp_path, task, {"a/browser/x.json": good.model_copy(update={"task_id": "nope"})})
    with pytest.raises(ConfigError, match="nope"):
        load_run(tmp_path)


def test_malformed_task_line(tmp_path: Path, task: Task) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_text(task.model_dump_json() + "\n" + '{"id": "x"}\n', encoding="utf-8")
    with pytest.raises(TaskFileError, match=r"tasks\.jsonl:2"):
        load_tasks(path)
