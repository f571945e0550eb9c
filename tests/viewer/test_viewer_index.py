"""The viewer's light index: rows from the results tables, traces only where a row is missing
or stale, task heads cut before the world, the full task and trace read lazily."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from viewer_runs import Runs

from webmdp.errors import ConfigError
from webmdp.tasks.io import read_tasks
from webmdp.trace import EpisodeTrace
from webmdp.viewer import RunIndex
from webmdp.viewer.index import _task_head


def _trace_files(runs: list[Path]) -> list[Path]:
    return [p for r in runs for p in sorted((r / "episodes").glob("*/*/*.json"))]


def test_every_trace_is_indexed_once_as_its_trace_says(runs: Runs, index: RunIndex) -> None:
    files = _trace_files(runs.all)
    assert len(index.episodes) == len(files) == 49
    assert not index.skipped
    for path in files:
        tr = EpisodeTrace.model_validate_json(path.read_text())
        ep = index.episode(tr.agent, tr.mode, tr.task_id)
        assert ep is not None and ep.trace == path
        assert (ep.success, ep.termination, ep.gui_steps, ep.infra_error) == (
            tr.success, tr.termination, len(tr.steps), tr.infra_error)
        assert ep.outcome == ("error" if tr.termination == "infra_error" else
                              "success" if tr.success else "failure")
    model = index.episode("step-vllm_scripted-model-json", "semantic", runs.premature.id)
    assert model is not None and (model.prompt_tokens, model.completion_tokens) == (4800, 160)
    assert "crashy (browser)" in index.agents and "oracle (semantic)" in index.agents


def test_task_rows_match_the_tasks_and_the_full_task_is_read_on_demand(
        runs: Runs, index: RunIndex) -> None:
    for run in runs.all:
        for task in read_tasks(run / "tasks.jsonl"):
            ref = index.tasks[task.id]
            assert (ref.site, ref.template, ref.instruction, ref.hard_negatives,
                    ref.access_level, ref.oracle_length) == (
                task.site, task.template, task.instruction,
                task.complexity.hard_negative_count, task.complexity.access_level,
                task.complexity.oracle_length)
            assert index.task(task.id) == task
    assert index.differing and index.common == set()


def test_task_head_is_the_line_before_the_top_level_world(runs: Runs) -> None:
    task = read_tasks(runs.semantic / "tasks.jsonl")[0]
    tricky = task.model_copy(update={"params": {"world": {"x": 1}, "note": ',"world":{'}})
    head = _task_head(tricky.model_dump_json().encode())
    assert "world" not in head and head["params"] == tricky.params
    assert head["complexity"] == task.complexity.model_dump()
    reordered = json.dumps({"world": task.world, **task.model_dump(exclude={"world"})})
    assert _task_head(reordered.encode())["id"] == task.id  # another key order: parsed whole


def test_a_missing_or_stale_row_is_read_from_its_trace(runs: Runs, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(runs.semantic, run)
    rows = (run / "results.jsonl").read_text().splitlines()
    dropped = json.loads(rows[0])
    (run / "results.jsonl").write_text("\n".join(rows[1:]) + "\n")
    stale = run / json.loads(rows[1])["trace"]
    trace = EpisodeTrace.model_validate_json(stale.read_text())
    stale.write_text(trace.model_copy(update={"termination": "infra_error", "success": False,
                                               "infra_error": "rerun"}).model_dump_json())
    later = (run / "results.jsonl").stat().st_mtime + 5
    os.utime(stale, (later, later))
    (stale.parent / "broken.json").write_text("{not json")

    idx = RunIndex.load([run])
    assert idx.episode(dropped["agent"], dropped["mode"], dropped["task_id"]) is not None
    ep = idx.episode(trace.agent, trace.mode, trace.task_id)
    assert ep is not None and (ep.outcome, ep.infra_error) == ("error", "rerun")
    assert [Path(p).name for p, why in idx.skipped if "corrupt trace" in why] == ["broken.json"]
    assert len(idx.episodes) == len(rows)


def test_duplicates_and_tasks_unknown_to_their_run_are_skipped(runs: Runs,
                                                               tmp_path: Path) -> None:
    again = tmp_path / "again"
    shutil.copytree(runs.semantic, again)
    stray = again / "episodes" / "oracle" / "semantic" / "elsewhere_0001.json"
    first = _trace_files([again])[0]
    stray.write_text(EpisodeTrace.model_validate_json(first.read_text()).model_copy(
        update={"task_id": "elsewhere_0001"}).model_dump_json())
    idx = RunIndex.load([runs.semantic, again])
    n = len(_trace_files([runs.semantic]))
    assert len(idx.episodes) == n
    reasons = [why for _, why in idx.skipped]
    assert sum("duplicate episode" in r for r in reasons) == n
    assert any("task 'elsewhere_0001' is not in" in r for r in reasons)
    assert all(e.run == 0 for e in idx.episodes.values())


def test_a_directory_without_tasks_is_not_a_run(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a run directory"):
        RunIndex.load([tmp_path])
