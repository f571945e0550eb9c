"""The ``grid`` suite (issue 45): 40 tasks per site and WebForge level, each measuring at its
level and passing Refine, with stable ids and a record of what generation attempted; taken by
`tasks`, `run`, `rl splits` / `dataset`, the TRL environment and the report. One site here;
`make test-slow` checks every cell of every site."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from support import site_tasks
from webmdp.cli.main import app
from webmdp.forge.grid import PER_CELL, PER_DOMAIN, grid_record, grid_site
from webmdp.forge.refine import refine
from webmdp.tasks import dial
from webmdp.tasks.select import select_tasks
from webmdp.tasks.splits import Catalog

runner = CliRunner()
SITE = "shopping"


def _cli(*args: str) -> str:
    done = runner.invoke(app, list(args))
    assert done.exit_code == 0, done.output
    return done.output


def test_each_cell_holds_tasks_measured_at_its_level_with_stable_ids() -> None:
    tasks = grid_site(SITE)
    assert Counter(t.difficulty.level for t in tasks if t.difficulty) == {1: 40, 2: 40, 3: 40}
    assert [t.difficulty.level for t in tasks if t.difficulty] == sorted(
        t.difficulty.level for t in tasks if t.difficulty)  # level 1, then 2, then 3
    builtin = {t.id: t for t in site_tasks(SITE)}
    made = [t for t in tasks if t.id not in builtin]
    assert made and all(dial.is_dial_id(t.id) for t in made)
    for t in tasks:  # a task keeps its id, and its bytes, in the grid and out of it
        if t.id in builtin:
            assert t == builtin[t.id]
    for t in made[:: max(1, len(made) // 3)]:
        assert dial.resolve(t.id) == t
    for t in tasks[::20]:
        assert not any(refine(t).values()), t.id


def test_the_record_counts_what_generation_attempted() -> None:
    rec = grid_record(SITE)
    assert rec["per_cell"] == PER_CELL and rec["scanned"] >= 3 * PER_CELL
    for lv in ("1", "2", "3"):
        cell = rec["levels"][lv]
        rejected = sum(cell["rejected"].values())
        assert cell["accepted"] == PER_CELL and cell["candidates"] >= PER_CELL + rejected
        assert sum(cell["domains"].values()) == PER_CELL
    # every domain the site's templates carry at a level has its share of the cell
    by_cell = Counter((t.difficulty.level, t.domain) for t in grid_site(SITE) if t.difficulty)
    for lv in ("1", "2", "3"):
        cell = rec["levels"][lv]
        for domain, n in cell["domains"].items():
            assert by_cell[(int(lv), domain)] == n >= min(PER_DOMAIN, cell["found"][domain])


def test_tasks_stats_prints_tables_7_and_8(tmp_path: Path) -> None:
    out = json.loads(_cli("tasks", "stats", "--suite", "grid", "--site", SITE, "--json"))
    assert out["n"] == 3 * PER_CELL
    assert out["level"] == {"1": 40, "2": 40, "3": 40, "none": 0}
    assert sum(out["dimension"]["risk"].values()) == 3 * PER_CELL  # Table 7: every task, per dim
    rates = out["table8"]["sites"][SITE]
    assert rates == {f"L{lv}": {"count": 40, "planned": 40, "rate": 1.0,
                                "rejected": grid_record(SITE)["levels"][str(lv)]["rejected"]}
                     for lv in (1, 2, 3)}
    assert sum(sum(c.values()) for c in out["table8"]["domains"].values()) == 3 * PER_CELL
    text = " ".join(_cli("tasks", "stats", "--suite", "grid", "--site", SITE).split())
    assert "WebForge Table 7" in text and "WebForge Table 8" in text
    assert "40/40 (100%)" in text


def test_generate_run_and_report_take_the_grid(tmp_path: Path) -> None:
    path = tmp_path / "grid.jsonl"
    _cli("tasks", "generate", "--suite", "grid", "--site", SITE, "--out", str(path))
    assert len(path.read_text().splitlines()) == 3 * PER_CELL
    refused = runner.invoke(app, ["tasks", "generate", "--suite", "grid", "--level", "1",
                                  "--out", str(path)])
    assert refused.exit_code != 0 and "does not combine with --suite grid" in refused.output
    run = tmp_path / "run"
    _cli("run", "--suite", "grid", "--site", SITE, "--limit", "9", "--agent", "greedy",
         "--mode", "semantic", "--workers", "0", "--out", str(run))
    _cli("report", str(run))
    report = (run / "report" / "report.md").read_text()
    assert "### By level (WebForge Table 2) and domain (Table 1)" in report
    assert "| Monotone |" in report and "95% Wilson interval" in report
    levels = Counter(t.difficulty.level for t in select_tasks(SITE, suite="grid", limit=9,
                                                              spread=True) if t.difficulty)
    assert levels == {1: 3, 2: 3, 3: 3}  # the run's spread slice covers every level


def test_rl_splits_and_dataset_take_the_grid(tmp_path: Path) -> None:
    out = json.loads(_cli("rl", "splits", "--site", SITE, "--suite", "grid", "--json"))
    assert out["suite"] == "grid"
    per_level = Counter()
    for row in out["counts"]:
        per_level[row["level"]] += row["tasks"]
    assert {lv: per_level[lv] for lv in ("1", "2", "3")} == {"1": 40, "2": 40, "3": 40}
    path = tmp_path / "rows.jsonl"
    _cli("rl", "dataset", "--site", SITE, "--suite", "grid", "--split", "test", "--level", "2",
         "--out", str(path))
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    grid_ids = {t.id for t in grid_site(SITE)}
    assert rows and all(r["task_id"] in grid_ids and r["level"] == 2 for r in rows)
    train = Catalog(SITE, None, "task", "grid").tasks("train")
    assert not {r["task_id"] for r in rows} & {t.id for t in train}
    # the old form stays: --site cross-site, and --suite cross-site means the same
    assert Catalog("all", None, "task", "cross-site").site == "cross-site"
    with pytest.raises(ValueError, match="single-site"):
        Catalog("cross-site", None, "task", "grid")


def test_the_trl_environment_serves_grid_tasks() -> None:
    from webmdp.rl.trl import environment

    env_cls = environment(SITE, split="train", suite="grid")
    train = Catalog(SITE, None, "task", "grid").tasks("train")
    dialled = next(t for t in train if dial.is_dial_id(t.id))
    env = env_cls()
    assert dialled.instruction.split()[0] in str(env.reset(task_id=dialled.id))
    outside = next(t for t in site_tasks(SITE) if t.id not in {x.id for x in grid_site(SITE)})
    with pytest.raises(ValueError):
        env.reset(task_id=outside.id)


def test_make_builds_a_grid_task_by_index_or_id() -> None:
    import webmdp

    tasks = grid_site(SITE)
    env = webmdp.make(f"{SITE}-v1", suite="grid", index=45)
    assert env.task == tasks[45] and env.task.difficulty.level == 2
    by_id = webmdp.make(f"{SITE}-v1", suite="grid", task_id=tasks[0].id)
    assert by_id.task == tasks[0]
    with pytest.raises(Exception, match="grid task index"):
        webmdp.make(f"{SITE}-v1", suite="grid", index=3 * PER_CELL)


def test_validate_replays_a_sample_of_each_cell_in_chromium() -> None:
    said = " ".join(_cli("validate", "--suite", "grid", "--site", SITE, "--limit", "3").split())
    assert "level 3 (GUI replay): ok" in said and "3 oracles replayed" in said


def test_calibrate_runs_the_grid_and_reports_table_2() -> None:
    from webmdp.forge.calibrate import calibrate

    data = calibrate(2, sites=[SITE], browser=False, suite="grid")
    assert data["episodes"] == 3 * 2 * 3  # oracle, greedy, random on 2 tasks of each level
    for agent in ("greedy", "random"):
        cells = data["by_level"][agent]
        assert [cells[f"L{lv}"]["n"] for lv in (1, 2, 3)] == [2, 2, 2]
        assert isinstance(cells["monotone"], bool)
    assert data["oracle_success"] == 1.0
