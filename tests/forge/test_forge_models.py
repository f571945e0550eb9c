"""WebForge's optional model stages against a scripted endpoint (the real OpenAI protocol):
`webmdp forge answers` (a comparator for final answers, measured against the exact
comparison) and `webmdp forge --draft-model` (rewording, kept only when every check passes)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.eval.answer_judge import parse_answer_verdict
from webmdp.sites import get_site
from webmdp.tasks import dial
from webmdp.tasks.generate import make_task
from webmdp.tasks.io import write_tasks
from webmdp.testing.model_server import Reply, Request, ScriptedModelServer

runner = CliRunner()


def test_parse_answer_verdict() -> None:
    assert parse_answer_verdict("Both say 12.50.\nVerdict: same") == 1
    assert parse_answer_verdict("Verdict: same\nNo wait.\nVerdict: **Different**") == 0
    assert parse_answer_verdict("they look alike") is None


def test_comparator_against_the_exact_comparison(tmp_path: Path) -> None:
    shop, mail = get_site("shopping"), get_site("mail")
    tasks = [make_task(shop, 20_000, "find_product_extract:direct", 1),
             make_task(shop, 20_001, "cheapest_filter_sort:mixed", 0),
             make_task(mail, 20_002, "email_reply_to_address:direct", 1)]
    file = tmp_path / "answers.jsonl"
    write_tasks(file, tasks)
    res = runner.invoke(app, ["run", "--suite", str(file), "--agent", "oracle", "--agent",
                              "greedy", "--out", str(tmp_path / "run"), "--workers", "0"])
    assert res.exit_code == 0, res.output

    def respond(req: Request) -> Reply:
        # a lenient comparator: "same" whenever the agent answered at all, prose for mail
        text = "\n".join(req.texts())
        if "EXPECTED ANSWER" not in text:
            return Reply(text="?")
        if tasks[2].instruction in text:
            return Reply(text="I am not sure.")
        given = re.search(r"AGENT'S FINAL ANSWER: (.*)", text)
        answered = given is not None and given.group(1) != "(none)"
        return Reply(text="Compared.\nVerdict: " + ("same" if answered else "different"))

    with ScriptedModelServer(respond) as srv:
        res = runner.invoke(app, ["forge", "answers", str(tmp_path / "run"), "--judge-model",
                                  "openai/cmp", "--judge-base-url", srv.base_url,
                                  "--max-retries", "0"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in (tmp_path / "run" / "answers" / "judge.jsonl").read_text()
            .splitlines()]
    assert len(rows) == 6  # 3 tasks x 2 agents
    oracle = [r for r in rows if r["agent"] == "oracle"]
    assert all(r["exact"] == 1 for r in oracle)  # the oracle states each expected value
    mail_rows = [r for r in rows if r["task_id"] == tasks[2].id]
    assert all(r["verdict"] is None and r["why"] == "unparseable" for r in mail_rows)
    result = json.loads((tmp_path / "run" / "answers" / "agreement.json").read_text())
    judged = [r for r in rows if r["verdict"] is not None]
    assert result["unjudged"] == 2 and result["judged"] == len(judged) == 4
    c = result["confusion"]
    assert c["tp"] == sum(r["exact"] == 1 and r["verdict"] == 1 for r in judged)
    assert c["fp"] == sum(r["exact"] == 0 and r["verdict"] == 1 for r in judged)
    # greedy reports the code on screen: a lenient model accepts what the exact check refuses
    assert result["model_only"] and c["fp"] >= 1
    assert "the model accepts, the exact comparison does not" in res.output


def test_a_run_without_answers_is_refused(tmp_path: Path) -> None:
    res = runner.invoke(app, ["run", "--site", "mail", "--limit", "1", "--out",
                              str(tmp_path / "r"), "--workers", "0"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["forge", "answers", str(tmp_path / "r"), "--judge-model",
                              "openai/x", "--judge-base-url", "http://127.0.0.1:9/v1"])
    assert res.exit_code == 2 and "no episode of a task with an expected answer" in res.output


def test_model_wording_is_kept_only_when_every_check_passes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`webmdp forge --draft-model`: the scripted model rewords at temperature 1 and checks at
    0; a rewrite that drops a stated value, or that its check calls different, keeps the
    template's wording."""
    seen: list[tuple[float | None, str]] = []

    def respond(req: Request) -> Reply:
        body = req.body
        system = body["messages"][0]["content"]
        text = "\n".join(req.texts())
        seen.append((body.get("temperature"), system[:20]))
        if system.startswith("You reword"):
            original = body["messages"][1]["content"]
            original = original if isinstance(original, str) else original[0]["text"]
            if "Reply" in original or "reply" in original:
                return Reply(text="Do the thing.")  # drops every stated value
            return Reply(text="Please: " + original)
        if len(text) % 3 == 0:  # a third of the checks, by the text's length
            return Reply(text="Not the same.\nVerdict: different")
        return Reply(text="Same request.\nVerdict: same")

    monkeypatch.setattr(dial, "SCAN", 40)  # shorter streams: fewer cells to fill, sooner
    with ScriptedModelServer(respond) as srv:
        res = runner.invoke(app, ["forge", "--per-cell", "1", "--site", "mail", "--out",
                                  str(tmp_path), "--no-browser", "--draft-model", "openai/w",
                                  "--draft-base-url", srv.base_url])
    assert res.exit_code == 0, res.output
    data = json.loads((tmp_path / "forge.json").read_text())
    words = {w["task_id"]: w for w in data["wording"]}
    assert words and {t for t, _ in seen} >= {1.0, 0.0}
    from webmdp.tasks.io import read_tasks

    for task in read_tasks(tmp_path / "tasks.jsonl"):
        w = words[task.id]
        if w["accepted"]:
            assert task.instruction == w["draft"] and task.instruction.startswith("Please: ")
        else:
            assert task.instruction != w["draft"] and w["reasons"]
    reasons = [r for w in words.values() for r in w["reasons"]]
    assert any(r.startswith("drops ") for r in reasons)
    assert any("the model finds it different" in r for r in reasons)
    assert any(w["accepted"] for w in words.values())
    assert "instructions reworded by the model" in res.output
