"""The agent-as-judge for rubric leaves against a scripted model endpoint (the real OpenAI
protocol), measured against the exact leaves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cap.compose import generate_cross_tasks
from webmdp.cli.main import app
from webmdp.eval.rubric_judge import parse_leaf_verdict
from webmdp.tasks.io import write_tasks
from webmdp.testing.model_server import Reply, Request, ScriptedModelServer

runner = CliRunner()


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("judge")
    file = root / "cross.jsonl"
    write_tasks(file, generate_cross_tasks(3))
    res = runner.invoke(app, ["run", "--suite", str(file), "--agent", "oracle", "--agent",
                              "random", "--out", str(root / "run"), "--workers", "0"])
    assert res.exit_code == 0, res.output
    return root / "run"


def test_parse_leaf_verdict() -> None:
    assert parse_leaf_verdict("It was done.\nVerdict: pass") == 1
    assert parse_leaf_verdict("Verdict: PASS\n...\nVerdict: **fail**") == 0
    assert parse_leaf_verdict("looks fine to me") is None


def test_judge_against_exact_leaves(run_dir: Path) -> None:
    """The scripted judge passes 'other' leaves, fails action leaves and answers perception
    leaves with prose: agreement, kappa and the unjudged count follow from the exact verdicts,
    and every verdict is stored with its prompt."""
    def respond(req: Request) -> Reply:
        text = "\n".join(req.texts())
        if "CRITERION (perception" in text:
            return Reply(text="I cannot tell from this.")
        return Reply(text="Checked.\nVerdict: " + ("pass" if "CRITERION (other" in text
                                                  else "fail"))

    with ScriptedModelServer(respond) as srv:
        res = runner.invoke(app, ["rubric", "judge", str(run_dir), "--judge-model",
                                  "openai/judge", "--judge-base-url", srv.base_url,
                                  "--max-retries", "0"])
        prompts = ["\n".join(r.texts()) for r in srv.requests]
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in (run_dir / "rubric" / "judge.jsonl").read_text()
            .splitlines()]
    assert {r["judge_mode"] for r in rows} == {"extract", "url"}
    assert all(r["prompt"] and r["why"] in ("judged", "unparseable") for r in rows)
    perception = [r for r in rows if r["kind"] == "perception"]
    assert perception and all(r["verdict"] is None for r in perception)  # unjudged, not 0
    assert any("PAGE AT" in p for p in prompts) and any("VISITED URLS" in p for p in prompts)
    result = json.loads((run_dir / "rubric" / "agreement.json").read_text())
    for mode in ("extract", "url"):
        leaves = result[mode]["leaves"]
        other = [r for r in rows if r["judge_mode"] == mode and r["kind"] == "other"]
        assert leaves["other"]["confusion"]["tp"] == sum(r["exact"] == 1 for r in other)
        assert leaves["other"]["confusion"]["fp"] == sum(r["exact"] == 0 for r in other)
        action = [r for r in rows if r["judge_mode"] == mode and r["kind"] == "action"]
        assert leaves["action"]["confusion"]["fn"] == sum(r["exact"] == 1 for r in action)
        assert leaves["perception"]["unjudged"] == leaves["perception"]["n"]
        assert result[mode]["exact"]["success_rate"] == 0.5  # oracle 3/3, random 0/3
        assert result[mode]["judge"]["complex_a"] == 0.0
        assert result[mode]["shift"]["complex_a"] == -result[mode]["exact"]["complex_a"]


def test_judge_refuses_runs_without_cross_site_tasks(tmp_path: Path) -> None:
    res = runner.invoke(app, ["run", "--site", "mail", "--limit", "1", "--out",
                              str(tmp_path / "r"), "--workers", "0"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["rubric", "judge", str(tmp_path / "r"), "--judge-model",
                              "openai/judge", "--judge-base-url", "http://127.0.0.1:9/v1"])
    assert res.exit_code != 0 and "no episode of a cross-site task" in res.output


def test_rubric_check_and_schema(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"id": "root", "children": [
        {"id": "a", "kind": "feeling", "check": {"type": "answer", "value": "1"}}]}))
    res = runner.invoke(app, ["rubric", "check", str(bad)])
    assert res.exit_code != 0 and "root.children[0].kind" in res.output
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"id": "root", "children": [
        {"id": "a", "kind": "other", "critical": True,
         "check": {"type": "answer", "value": "1"}}]}))
    res = runner.invoke(app, ["rubric", "check", str(good)])
    assert res.exit_code == 0 and "1 leaves" in res.output
    res = runner.invoke(app, ["rubric", "schema"])
    assert res.exit_code == 0
    assert "children" in json.loads(res.output)["$defs"]["RubricNode"]["properties"]
