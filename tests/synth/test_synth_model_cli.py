"""`webmdp synth grade --grader model`, `synth thoughts` and `synth rollouts` through the CLI,
against the scripted model server: resume after an endpoint outage, agreement with exact."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_model_grader import closed_port
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.testing.model_server import ScriptedModelServer, synth_responder

pytestmark = pytest.mark.browser
runner = CliRunner()
FAST = ["--max-retries", "0", "--timeout", "10"]


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture()
def run_copy(tmp_path: Path, recorded_run: Path) -> Path:
    dst = tmp_path / "run"
    shutil.copytree(recorded_run, dst)
    shutil.rmtree(dst / "synth", ignore_errors=True)
    return dst


def test_model_grades_resume_after_the_endpoint_was_down(run_copy: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    down = runner.invoke(app, ["synth", "grade", str(run_copy), "--grader", "model", "--model",
                               "openai/critic", "--base-url",
                               f"http://127.0.0.1:{closed_port()}/v1", *FAST])
    assert down.exit_code == 0, down.output
    path = run_copy / "synth" / "grades-model.jsonl"
    first = _rows(path)
    assert first and all(r["grade"] is None and r["why"] == "infra_error" for r in first)
    with ScriptedModelServer(synth_responder(grade=7)) as srv:
        up = runner.invoke(app, ["synth", "grade", str(run_copy), "--grader", "model",
                                 "--model", "openai/critic", "--base-url", srv.base_url, *FAST,
                                 "--json"])
        asked = len(srv.requests)
    assert up.exit_code == 0, up.output
    again = _rows(path)
    assert len(again) == len(first) == asked
    assert all(r["grade"] == 7 and r["source"] == "model" for r in again)
    printed = [json.loads(x) for x in up.stdout.splitlines() if x.startswith("{")]
    assert len(printed) == len(again)
    with ScriptedModelServer(synth_responder(grade=7)) as srv:  # nothing left to ask
        runner.invoke(app, ["synth", "grade", str(run_copy), "--grader", "model", "--model",
                            "openai/critic", "--base-url", srv.base_url, *FAST])
        assert srv.requests == []
    exact = runner.invoke(app, ["synth", "grade", str(run_copy)])
    assert exact.exit_code == 0
    res = runner.invoke(app, ["synth", "agreement", str(run_copy), "exact", "model", "--json"])
    out = json.loads(res.stdout)
    assert out["n"] == len(again)
    assert out["confusion"]["matrix"][0][1] == 0  # the model keeps every step (7 > 5)


def test_model_grader_needs_a_model_and_screenshots(run_copy: Path) -> None:
    res = runner.invoke(app, ["synth", "grade", str(run_copy), "--grader", "model"])
    assert res.exit_code == 2 and "--model" in res.output


def test_rollouts_store_n_seeds_per_task_and_filter_by_the_verifier(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    assert runner.invoke(app, ["tasks", "generate", "--site", "mail", "--limit", "2",
                               "--out", str(tasks)]).exit_code == 0
    out = tmp_path / "run"
    args = ["synth", "rollouts", "--tasks", str(tasks), "-a", "oracle", "-a", "random",
            "--n", "3", "--out", str(out), "--step-budget", "12"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    rows = _rows(out / "synth" / "trajectories.jsonl")
    assert len(rows) == 2 * 2 * 3
    assert {r["agent"] for r in rows} == {"oracle", "oracle@s1", "oracle@s2", "random",
                                          "random@s1", "random@s2"}
    assert all(r["kept"] == r["verifier"] for r in rows)
    assert all(r["kept"] for r in rows if r["agent"].startswith("oracle"))
    again = runner.invoke(app, args)  # the runner resumes: nothing runs twice
    assert again.exit_code == 0
    assert "0 episodes run (12 resumed)" in " ".join(again.output.split())
    thoughts = runner.invoke(app, ["synth", "thoughts", str(out)])
    assert thoughts.exit_code == 0, thoughts.output
    written = _rows(out / "synth" / "thoughts-exact.jsonl")
    steps = sum(len(json.loads(p.read_text())["steps"])
                for p in (out / "episodes").glob("*/*/*.json"))
    assert len(written) == steps and all(r["thought"] for r in written)
