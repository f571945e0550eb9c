"""`webmdp forge answers`: a model comparator for final answers against a scripted endpoint
(the real OpenAI protocol), measured against the exact comparison."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.eval.answer_judge import parse_answer_verdict
from webmdp.sites import get_site
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
