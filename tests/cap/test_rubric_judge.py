"""The agent-as-judge for rubric leaves against a scripted model endpoint (the real OpenAI
protocol), measured against the exact leaves."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from support import shared_dir
from webmdp.cap.compose import generate_cross_tasks
from webmdp.cli.main import app
from webmdp.eval.rubric_judge import parse_leaf_verdict, parse_value, value_verdict
from webmdp.tasks.answers import matches
from webmdp.tasks.io import read_tasks, write_tasks
from webmdp.tasks.rubric import RubricNode, parse_tree
from webmdp.testing.model_server import Reply, Request, ScriptedModelServer

runner = CliRunner()


def _build_run(root: Path) -> None:
    file = root / "cross.jsonl"
    write_tasks(file, generate_cross_tasks(3))
    res = runner.invoke(app, ["run", "--suite", str(file), "--agent", "oracle", "--agent",
                              "random", "--out", str(root / "run"), "--workers", "0"])
    assert res.exit_code == 0, res.output


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The module's run (its tests judge it in turn): a copy of one run made once per session
    (every xdist worker copies the same finished run)."""
    built = shared_dir(tmp_path_factory, "cap-judge-run", _build_run)
    out = tmp_path_factory.mktemp("judge") / "run"
    shutil.copytree(built / "run", out)
    return out


def _extracted(text: str) -> Reply:
    """An extraction reply: the final answer for the answer leaf (with a contrary pass/fail),
    no value for a fact leaf."""
    if "final answer gives" in text:
        answer = re.search(r"^FINAL ANSWER: (.*)$", text, re.MULTILINE)
        assert answer is not None
        return Reply(text=f"Verdict: fail\nValue: {answer.group(1)}")
    return Reply(text="Nothing on it.\nVerdict: pass\nValue: none")


def test_parse_leaf_verdict() -> None:
    assert parse_leaf_verdict("It was done.\nVerdict: pass") == 1
    assert parse_leaf_verdict("Verdict: PASS\n...\nVerdict: **fail**") == 0
    assert parse_leaf_verdict("looks fine to me") is None


def _judge(run_dir: Path, model: str, respond: Any, *extra: str) -> tuple[Any, list[str]]:
    with ScriptedModelServer(respond) as srv:
        res = runner.invoke(app, ["rubric", "judge", str(run_dir), "--judge-model", model,
                                  "--judge-base-url", srv.base_url, "--max-retries", "0",
                                  *extra])
        prompts = ["\n".join(r.texts()) for r in srv.requests]
    assert res.exit_code == 0, res.output
    return res, prompts


def _rows(run_dir: Path, name: str, model: str | None) -> list[dict]:
    """The stored rows of ``model`` (None: every judge's)."""
    path = run_dir / "rubric" / name
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.is_file() \
        else []
    return [r for r in rows if model is None or r.get("judge") == model]


def _leaves(run_dir: Path) -> dict[str, RubricNode]:
    out: dict[str, RubricNode] = {}
    for task in read_tasks(run_dir / "tasks.jsonl"):
        assert task.cross is not None
        out |= {f"{task.id}/{leaf.id}": leaf for leaf in task.cross.rubric.leaves()}
    return out


def test_judge_against_exact_leaves(run_dir: Path) -> None:
    """The scripted judge passes 'other' criteria, fails action leaves and answers perception
    leaves with prose; in extract mode it extracts the final answer for the answer leaf and
    finds no value for a fact leaf, whatever pass/fail it adds: agreement, kappa and the
    unjudged count follow from the exact verdicts, and every verdict is stored with its
    prompt."""
    def respond(req: Request) -> Reply:
        text = "\n".join(req.texts())
        if "EXTRACT (" in text:
            return _extracted(text)
        if "CRITERION (perception" in text:
            return Reply(text="I cannot tell from this.")
        return Reply(text="Checked.\nVerdict: " + ("pass" if "CRITERION (other" in text
                                                  else "fail"))

    _, prompts = _judge(run_dir, "openai/judge", respond)
    rows = _rows(run_dir, "judge.jsonl", "openai/judge")
    assert {r["judge_mode"] for r in rows} == {"extract", "url"}
    assert all(r["prompt"] and r["why"] in ("judged", "unparseable") for r in rows)
    perception = [r for r in rows if r["kind"] == "perception"]
    assert perception and all(r["verdict"] is None for r in perception)  # unjudged, not 0
    assert any("PAGE AT" in p for p in prompts) and any("VISITED URLS" in p for p in prompts)
    result = json.loads((run_dir / "rubric" / "agreement.json").read_text())
    for mode in ("extract", "url"):
        leaves = result[mode]["leaves"]
        action = [r for r in rows if r["judge_mode"] == mode and r["kind"] == "action"]
        assert leaves["action"]["confusion"]["fn"] == sum(r["exact"] == 1 for r in action)
        assert leaves["perception"]["unjudged"] == leaves["perception"]["n"]
        assert result[mode]["exact"]["success_rate"] == 0.5  # oracle 3/3, random 0/3
        assert result[mode]["judge"]["complex_a"] == 0.0
        assert result[mode]["shift"]["complex_a"] == -result[mode]["exact"]["complex_a"]
        assert result[mode]["shift"]["n"] == result[mode]["judge"]["n"] == 6
    other = [r for r in rows if r["judge_mode"] == "url" and r["kind"] == "other"]
    assert result["url"]["leaves"]["other"]["confusion"]["tp"] == sum(
        r["exact"] == 1 for r in other)
    assert result["url"]["leaves"]["other"]["confusion"]["fp"] == sum(
        r["exact"] == 0 for r in other)


def test_extract_mode_decides_value_leaves_by_the_extracted_value(run_dir: Path) -> None:
    """CAP's extraction + verification: for an answer or fact leaf the model extracts the
    value (never told the expected one) and the deterministic check decides; its pass/fail
    counts only for leaves with no value to compare."""
    def respond(req: Request) -> Reply:
        text = "\n".join(req.texts())
        if "EXTRACT (" in text:
            return _extracted(text)
        return Reply(text="Verdict: pass")

    _, prompts = _judge(run_dir, "openai/extractor", respond, "--mode", "extract")
    leaves = _leaves(run_dir)
    rows = _rows(run_dir, "judge.jsonl", "openai/extractor")
    value_rows = [r for r in rows if r["kind"] == "other"]
    assert value_rows and all(r["decided_by"] == "value" for r in value_rows)
    answers = [r for r in value_rows if leaves[f"{r['task_id']}/{r['leaf']}"].check.type
               == "answer"]  # type: ignore[union-attr]
    assert answers and all(r["verdict"] == r["exact"] for r in answers)
    assert any(r["verdict"] == 1 for r in answers)  # "Verdict: fail" did not decide
    for r in value_rows:
        check = leaves[f"{r['task_id']}/{r['leaf']}"].check
        if check is not None and check.type == "fact":
            assert r["extracted"] is None
            assert r["verdict"] == int(check.condition.op == "not_contains")
    assert all(r["decided_by"] == "model" and r["verdict"] == 1
               for r in rows if r["kind"] != "other")
    value_prompts = [p for p in prompts if "EXTRACT (" in p]
    assert value_prompts and not any("the final answer states" in p for p in value_prompts)


def test_parse_value_and_value_verdict() -> None:
    assert parse_value("It says $14.84.\nValue: $14.84") == (True, "$14.84")
    assert parse_value("**Value:** none") == (True, None)
    assert parse_value("Verdict: pass") == (False, None)
    tree = parse_tree({"id": "root", "children": [
        {"id": "ans", "kind": "other", "check": {"type": "answer", "value": "$14.84"}},
        {"id": "body", "kind": "other", "check": {"type": "fact", "condition": {
            "fact": "mail.sent.0.body", "op": "mentions", "value": ["review it", "$242"]}}},
        {"id": "neg", "kind": "other", "check": {"type": "fact", "condition": {
            "fact": "food.order.items", "op": "not_contains", "value": "ITM-113"}}}]})
    ans, body, neg = tree.children
    assert value_verdict(ans, "14.84") == 1 and value_verdict(ans, "$15") == 0
    assert matches("$14.84", "14.84")
    assert value_verdict(body, "I'll review it tonight; it was $242.") == 1
    assert value_verdict(body, "I'll review it tonight.") == 0
    assert value_verdict(neg, "ITM-117, ITM-115") == 1 and value_verdict(neg, "ITM-113") == 0


def test_every_leaf_unjudged_reports_no_metric(run_dir: Path) -> None:
    """A judge that reads no verdict anywhere gives no credit and no shift: every root stays
    unjudged, judge.n is 0 and every metric and every shift is null."""
    res, _ = _judge(run_dir, "openai/silent", lambda req: Reply(text="Hard to say."))
    result = json.loads((run_dir / "rubric" / "agreement.json").read_text())
    for mode in ("extract", "url"):
        judge, shift = result[mode]["judge"], result[mode]["shift"]
        assert judge["n"] == 0 and judge["unjudged"] == 6
        assert all(v is None for k, v in judge.items() if k not in ("n", "unjudged"))
        assert shift["n"] == 0 and all(v is None for k, v in shift.items() if k != "n")
        assert result[mode]["exact"]["n"] == 6
    trees = _rows(run_dir, "judged.jsonl", "openai/silent")
    assert trees and all(t["result"]["root"] is None for t in trees)
    assert "left unjudged (not counted in the metrics): 6" in " ".join(res.output.split())


def test_judging_again_replaces_the_earlier_verdicts(run_dir: Path) -> None:
    def respond(req: Request) -> Reply:
        return Reply(text="Verdict: pass")

    others = [r for r in _rows(run_dir, "judge.jsonl", None) if r["judge"] != "openai/again"]
    _judge(run_dir, "openai/again", respond, "--mode", "url")
    first = json.loads((run_dir / "rubric" / "agreement.json").read_text())
    n_rows = len(_rows(run_dir, "judge.jsonl", "openai/again"))
    _judge(run_dir, "openai/again", respond, "--mode", "url")
    again = json.loads((run_dir / "rubric" / "agreement.json").read_text())
    assert len(_rows(run_dir, "judge.jsonl", "openai/again")) == n_rows
    assert len(_rows(run_dir, "judged.jsonl", "openai/again")) == 6
    assert again == first
    assert again["url"]["leaves"]["all"]["n"] == n_rows == sum(
        len(t.cross.rubric.leaves()) for t in read_tasks(run_dir / "tasks.jsonl")
        if t.cross is not None) * 2  # two agents
    assert [r for r in _rows(run_dir, "judge.jsonl", None)
            if r["judge"] != "openai/again"] == others  # other judges' rows are kept


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
