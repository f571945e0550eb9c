"""`webmdp run --split --holdout`: a trained policy is evaluated on exactly the held-out
tasks, and the manifest and the report name the split, the holdout and split_version."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.rl.splits import SPLIT_VERSION, TEST, Catalog, Holdout

runner = CliRunner()


def test_run_evaluates_on_the_held_out_templates(tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = runner.invoke(app, ["run", "--site", "shopping", "--split", "test", "--holdout",
                              "template", "--limit", "4", "--workers", "0", "--out", str(out)])
    assert res.exit_code == 0, res.output
    manifest = json.loads((out / "manifest.json").read_text())
    record = {"split": "test", "holdout": "template", "split_version": SPLIT_VERSION}
    assert manifest["task_set"]["split"] == record
    catalog = Catalog("shopping", None, Holdout.parse("template"))
    held = {t.id for t in catalog.tasks(TEST)}
    ids = manifest["task_set"]["ids"]
    assert len(ids) == 4 and set(ids) <= held  # the limit counts test tasks only
    report = runner.invoke(app, ["report", str(out)])
    assert report.exit_code == 0, report.output
    assert json.loads((out / "report" / "report.json").read_text())["runs"][0]["split"] == record
    md = (out / "report" / "report.md").read_text()
    assert "split `test`" in md and "holdout `template`" in md and SPLIT_VERSION in md
    again = runner.invoke(app, ["run", "--resume", str(out)])  # a resume keeps the split
    assert again.exit_code == 0, again.output
    assert json.loads((out / "manifest.json").read_text())["task_set"]["split"] == record


def test_a_bad_split_or_holdout_is_one_line(tmp_path: Path) -> None:
    for args, words in ((["--split", "level-1"], "--split train --level 1"),
                        (["--split", "test", "--holdout", "sites"], "unknown holdout"),
                        (["--split", "dev"], "unknown split 'dev'")):
        res = runner.invoke(app, ["run", "--site", "shopping", *args, "--workers", "0",
                                  "--out", str(tmp_path / "r")])
        assert res.exit_code == 2 and words in " ".join(res.output.split()), res.output
