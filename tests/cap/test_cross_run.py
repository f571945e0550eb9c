"""Cross-site tasks end to end: the oracle in Chromium across sites (the switcher, each site's
stylesheet, a modal's scrim), a run and its report's ``cap`` object, per-site process
metrics, and the viewer's rubric tree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from webmdp.cap.compose import generate_cross_tasks
from webmdp.cli.main import app
from webmdp.eval.cap_section import METRICS
from webmdp.runner.validate import validate_site
from webmdp.tasks.io import write_tasks
from webmdp.tasks.model import Task

runner = CliRunner()


@pytest.fixture(scope="module")
def tasks() -> list[Task]:
    return generate_cross_tasks(14)


@pytest.mark.browser
def test_oracles_replay_in_chromium_across_sites(tasks: list[Task]) -> None:
    """Each of the seven patterns once, in one tab: GUI trace = MDP trace, verifier holds,
    every page passes the occlusion check (the switcher stays clickable over a site's modal
    scrim), and each site's transitions are tagged with it."""
    picked = [t for t in tasks[:7]]
    assert any("mail" in (t.sites or ()) for t in picked)  # the compose window's scrim
    rep = validate_site("cross-site", picked)
    assert rep.ok, (rep.level1, rep.level2[:5], rep.level3[:5])
    assert rep.pages_checked > 7 * 10


def test_run_report_and_viewer(tasks: list[Task], tmp_path: Path) -> None:
    file = tmp_path / "cross.jsonl"
    write_tasks(file, tasks[:7])
    out = tmp_path / "run"
    res = runner.invoke(app, ["run", "--suite", str(file), "--agent", "oracle", "--agent",
                              "random", "--out", str(out), "--workers", "0"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["report", str(out), "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads((out / "report" / "report.json").read_text())
    cap = report["cap"]
    assert set(METRICS) <= set(cap)
    oracle, rnd = cap["agents"]["oracle"], cap["agents"]["random"]
    assert oracle["success_rate"] == 1.0 and oracle["partial_completion"] == 1.0
    assert oracle["complex_a"] == 1.0 and oracle["complex_p"] == 1.0
    assert rnd["success_rate"] == 0.0 and rnd["mean_score"] < 1.0
    assert set(cap["by_pattern"]["oracle"]) == {t.template for t in tasks[:7]}
    assert set(cap["by_n_sites"]["random"]) == {"2", "3", "4"}
    assert all(m["success_rate"] == 1.0 for m in cap["by_site"]["oracle"].values())
    assert cap["by_type"]["action"] and cap["by_type"]["perception"]
    per_site = cap["process_by_site"]["oracle"]
    assert set(per_site) == {s for t in tasks[:7] for s in t.sites or ()}
    assert all(m["terminal_success"] == 1.0 for m in per_site.values())
    md = (out / "report" / "report.md").read_text()
    assert "## Cross-site tasks (CAP rubric trees)" in md and "figures/cap_types.png" in md
    assert (out / "report" / "figures" / "cap_complexity.png").stat().st_size > 1000

    from webmdp.viewer.app import create_app
    from webmdp.viewer.index import RunIndex

    client = TestClient(create_app(RunIndex.load([out])))
    page = client.get("/episode", params={"agent": "random", "mode": "semantic",
                                          "task": tasks[0].id, "view": "verification"})
    assert page.status_code == 200
    assert 'id="rubric-tree"' in page.text and "rubric-leaf fail" in page.text
    assert "critical" in page.text
