"""The task list shows a cross-site episode's rubric root score beside its mark (CAP eq. 2),
so partial credit is visible at a glance; an unjudged root shows as unjudged."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from webmdp.cap.compose import generate_cross_tasks
from webmdp.cli.main import app
from webmdp.tasks.io import write_tasks
from webmdp.trace import EpisodeTrace
from webmdp.viewer import RunIndex, create_app

runner = CliRunner()


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cross-viewer")
    write_tasks(root / "cross.jsonl", generate_cross_tasks(2))
    res = runner.invoke(app, ["run", "--suite", str(root / "cross.jsonl"), "--agent", "oracle",
                              "--agent", "random", "--out", str(root / "run"), "--workers", "0"])
    assert res.exit_code == 0, res.output
    return root / "run"


def _cell(html: str, agent: str, task_id: str) -> str:
    row = re.search(rf'<tr data-task="{task_id}">(.*?)</tr>', html, re.DOTALL)
    assert row is not None
    cell = re.search(rf'<a class="mark [^"]*"[^>]*agent={agent}[^>]*>(.*?)</a>', row.group(1))
    assert cell is not None, row.group(1)
    return cell.group(1)


def test_cross_site_cells_show_the_rubric_root(run_dir: Path) -> None:
    traces = sorted((run_dir / "episodes").glob("*/*/*.json"))
    assert traces
    with TestClient(create_app(RunIndex.load([run_dir]))) as client:
        html = client.get("/").text
    for path in traces:
        tr = EpisodeTrace.model_validate_json(path.read_text())
        assert tr.rubric is not None
        cell = _cell(html, tr.agent, tr.task_id)
        shown = re.search(r'<span class="rubric"[^>]*>([^<]*)</span>', cell)
        assert shown is not None and shown.group(1) == f"{tr.rubric.root:.2f}", cell
        assert cell.startswith("\u2713" if tr.success else "\u2717")
    assert "rubric root score" in html


def test_an_unjudged_root_shows_as_unjudged(run_dir: Path, tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    (copy / "results.jsonl").unlink()  # rows from the traces themselves
    path = sorted((copy / "episodes" / "random").glob("*/*.json"))[0]
    data = json.loads(path.read_text())
    data["rubric"]["root"] = float("nan")  # written as NaN: a judge's unjudged root
    path.write_text(json.dumps(data))
    tr = EpisodeTrace.model_validate_json(path.read_text())
    index = RunIndex.load([copy])
    with TestClient(create_app(index)) as client:
        cell = _cell(client.get("/").text, "random", tr.task_id)
    assert re.search(r'<span class="rubric unjudged"[^>]*>unjudged</span>', cell), cell
    ep = index.episode("random", tr.mode, tr.task_id)
    assert ep is not None and index.rubric_label(ep) == "unjudged"
