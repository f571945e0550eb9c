"""The report's difficulty section: success by measured level, domain and dimension level,
and the runtime cost per level, from real runs."""

from __future__ import annotations

import json
from pathlib import Path

from support import site_tasks
from webmdp.eval.analysis import analyse
from webmdp.eval.difficulty_section import difficulty_summary
from webmdp.eval.load import load_runs
from webmdp.eval.write import write_report
from webmdp.forge.calibrate import wilson
from webmdp.runner.local import RunConfig, run_tasks


def test_accuracy_by_level_domain_dimension_and_cost(tmp_path: Path) -> None:
    tasks = [*site_tasks("shopping")[::40], *site_tasks("chat")[::60]]
    run = tmp_path / "run"
    run_tasks(tasks, run, RunConfig(agent="oracle"))
    run_tasks(tasks, run, RunConfig(agent="random"))
    episodes = load_runs([run]).episodes
    summary = difficulty_summary(episodes)
    oracle, rnd = summary["oracle (semantic)"], summary["random (semantic)"]
    assert oracle["all"] == {"n": len(tasks), "accuracy": 1.0, "ci95": wilson(len(tasks),
                                                                              len(tasks))}
    assert oracle["all"]["ci95"][1] == 1.0 and oracle["all"]["ci95"][0] < 1.0
    # every task is counted once under its level, domain and each dimension
    levels = [str(t.difficulty.level) for t in tasks if t.difficulty]
    assert {lv: oracle["by_level"][lv]["n"] for lv in oracle["by_level"]} == {
        lv: levels.count(lv) for lv in ("1", "2", "3", "none")}
    assert sum(r["n"] for r in oracle["by_domain"].values()) == len(tasks)
    assert oracle["by_domain"]["D1"]["n"] == len(site_tasks("shopping")[::40])
    for dim, cells in oracle["by_dimension"].items():
        assert sum(c["n"] for c in cells.values()) == len(tasks), dim
    # the random agent fails more, and takes more actions per episode than the oracle
    assert rnd["all"]["accuracy"] < 1.0
    cost = {lv: c for lv, c in oracle["cost"].items() if c["n"]}
    for lv, c in cost.items():
        mean_len = [len(t.oracle) + 1 for t in tasks if str(t.difficulty.level) == lv]
        assert c["actions"] == round(sum(mean_len) / len(mean_len), 3)  # oracle + Finish
        assert c["turns"] == 0 and c["prompt_k"] == 0  # no model calls
    out = tmp_path / "report"
    write_report(analyse(load_runs([run])), out)
    data = json.loads((out / "report.json").read_text())
    assert data["difficulty"] == json.loads(json.dumps(summary))
    md = (out / "report.md").read_text()
    assert "## Success by measured difficulty (WebForge)" in md
    assert "Runtime cost per level (WebForge Table 3)" in md and "Jump Breadth" in md
