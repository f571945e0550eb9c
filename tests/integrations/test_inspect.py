"""webmdp as an Inspect AI task, run by Inspect's own ``eval()`` (issue 44): the oracle played
through the tools by Inspect's ``mockllm/model`` on a slice of every site; Inspect's ``openai``
provider against webmdp's scripted model server, in semantic and browser mode; refused calls,
a 1 MB argument and replies without a tool call; the traces in a run directory that
``webmdp report`` reads; the entry point that ``inspect eval webmdp/webmdp`` resolves."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import get_model
from inspect_support import oracle_model

from webmdp.core.registry import site_names
from webmdp.integrations.inspect_task import NO_TOOL_CALL, select_tasks, tool_name, webmdp
from webmdp.tasks.model import Task
from webmdp.testing.model_server import Reply, Request, ScriptedModelServer


def _run(tasks: list[Task], model: Any, tmp_path: Path, **options: Any) -> EvalLog:
    task = webmdp(tasks=",".join(t.id for t in tasks), out=str(tmp_path / "run"), **options)
    # on a thread of its own: Playwright's sync API (other tests' browsers) may hold an event
    # loop on this one, and Inspect runs its own
    with ThreadPoolExecutor(1) as pool:
        (log,) = pool.submit(inspect_eval, task, model=model, log_dir=str(tmp_path / "logs"),
                             display="none").result()
    assert log.status == "success", log.error
    return log


def _slice() -> list[Task]:
    """The first task of every site, and the first cross-site task."""
    return [select_tasks(s, None, None, "task", None)[0] for s in site_names()] + \
        select_tasks("cross-site", None, None, "task", None)[:1]


def test_the_oracle_through_the_tools_scores_every_site(tmp_path: Path) -> None:
    tasks = _slice()
    log = _run(tasks, get_model("mockllm/model", custom_outputs=oracle_model(tasks)),
               tmp_path)
    assert log.results is not None
    metrics = log.results.scores[0].metrics
    assert metrics["accuracy"].value == 1.0
    assert metrics["coverage_at_commit"].value == 1.0
    assert metrics["exploration_success"].value == 1.0
    assert log.samples is not None and len(log.samples) == len(tasks)
    for sample in log.samples:
        score = sample.scores["verdict"]  # type: ignore[index]
        assert score.value == "C", sample.id
        meta = score.metadata or {}
        oracle = next(t for t in tasks if t.id == sample.id).oracle_actions()
        assert meta["steps"] == len(oracle) + 1  # the oracle's actions, then Finish
        assert meta["first_bifurcation"] is None and meta["termination"] == "finished"
        assert Path(meta["trace"]).is_file()
    report = subprocess.run([sys.executable, "-m", "webmdp.cli.main", "report",
                             str(tmp_path / "run"), "--out", str(tmp_path / "report")],
                            capture_output=True, text=True)
    assert report.returncode == 0, report.stderr
    summary = json.loads((tmp_path / "report" / "report.json").read_text())
    assert summary["terminal_sr"] == 1.0
    stored = sorted(p.stem for p in (tmp_path / "run" / "episodes").glob("*/semantic/*.json"))
    assert stored == sorted(t.id for t in tasks)
    assert {p.name for p in (tmp_path / "run" / "episodes").iterdir()} == \
        {"inspect:mockllm-model"}


def _responder(tasks: list[Task], plans: dict[str, list[tuple[str, dict[str, Any]]]]
               ) -> Any:
    """Chat Completions replies: the next planned call of the conversation's task."""
    by_instruction = {t.instruction: t for t in tasks}

    def reply(request: Request) -> Reply:
        messages = request.body["messages"]
        first = next(m for m in messages if m["role"] == "user")
        text = first["content"] if isinstance(first["content"], str) else \
            " ".join(p.get("text", "") for p in first["content"])
        task = by_instruction[text.split("\n\n", 1)[0].removeprefix("Task: ")]
        turns = sum(m["role"] == "assistant" for m in messages)
        plan = plans[task.id]
        name, args = plan[min(turns, len(plan) - 1)]
        if name == "":
            return Reply(text=str(args["text"]), usage=(10, 5))
        return Reply(tool_calls=[{"name": tool_name(name), "arguments": args}], usage=(10, 5))

    return reply


def _openai(server: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Inspect's openai provider, configured as a user would (OPENAI_BASE_URL); not memoised,
    since every test has a server of its own."""
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    return get_model("openai/gpt-4o", memoize=False)


def _oracle_plan(task: Task) -> list[tuple[str, dict[str, Any]]]:
    return [*((a.name, dict(a.params)) for a in task.oracle_actions()),
            ("Finish", {"answer": task.answer or "done"})]


def test_inspects_openai_provider_plays_semantic_mode(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    tasks = select_tasks("food", None, None, "task", None)[:2]
    plans = {t.id: _oracle_plan(t) for t in tasks}
    with ScriptedModelServer(_responder(tasks, plans)) as server:
        log = _run(tasks, _openai(server, monkeypatch), tmp_path)
        sent = server.requests[0].body
    assert log.results is not None and log.results.scores[0].metrics["accuracy"].value == 1.0
    names = {t["function"]["name"] for t in sent["tools"]}
    assert {"Search", "Finish"} <= names
    search = next(t for t in sent["tools"] if t["function"]["name"] == "Search")
    assert search["function"]["parameters"]["properties"]["query"]["maxLength"] > 0


def test_refused_calls_huge_arguments_and_plain_replies_are_steps(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A call the site refuses, a 1 MB argument and a reply with no tool call each cost one
    step and come back as one line; the oracle then still succeeds. A model that never calls
    a tool ends at the step budget with a verdict, not an exception."""
    good, idle = select_tasks("shopping", None, None, "task", None)[:2]
    plans = {good.id: [("AddToCart", {"product": "PRD-NOPE"}),
                       ("Search", {"query": "x" * 1_000_000}),
                       ("", {"text": "I think I should look around first."}),
                       *_oracle_plan(good)],
             idle.id: [("", {"text": "Let me think about this."})]}
    with ScriptedModelServer(_responder([good, idle], plans)) as server:
        log = _run([good, idle], _openai(server, monkeypatch), tmp_path, step_budget=10)
        replies = [r.body["messages"] for r in server.requests]
    assert log.samples is not None
    scores = {s.id: s.scores["verdict"] for s in log.samples}  # type: ignore[index]
    assert scores[good.id].value == "C" and scores[idle.id].value == "I"
    assert scores[good.id].metadata["invalid_steps"] == 3  # type: ignore[index]
    assert scores[idle.id].metadata["termination"] == "budget"  # type: ignore[index]
    last = max(replies, key=lambda ms: sum(m["role"] == "tool" for m in ms))
    tool_errors = [str(m["content"]) for m in last if m["role"] == "tool"]
    assert "unknown parameter(s) ['product']" in tool_errors[0]
    assert "is 1000000 characters, at most 2000" in tool_errors[1]
    assert all(len(t) < 600 for t in tool_errors[:2])  # one line, never the argument back
    assert any(m["role"] == "user" and NO_TOOL_CALL in str(m["content"])
               for ms in replies for m in ms)


@pytest.mark.browser
def test_inspects_openai_provider_plays_browser_mode(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from rl.rl_support import gui_oracle

    task = select_tasks("shopping", None, None, "task", None)[0]
    plan = [(a.name, dict(a.params)) for a in gui_oracle(task)]
    with ScriptedModelServer(_responder([task], {task.id: plan})) as server:
        log = _run([task], _openai(server, monkeypatch), tmp_path, mode="browser")
        sent = server.requests[-1].body["messages"]
    assert log.samples is not None
    score = log.samples[0].scores["verdict"]  # type: ignore[index]
    assert score.value == "C", score.metadata
    images = [p for m in sent if isinstance(m.get("content"), list) for p in m["content"]
              if p.get("type") == "image_url"]
    assert images and images[0]["image_url"]["url"].startswith("data:image/png;base64,")


def test_inspect_eval_resolves_webmdp_webmdp_from_the_entry_point(tmp_path: Path) -> None:
    """What a user types: `inspect eval webmdp/webmdp -T ...` with no file of theirs (Inspect's
    openai provider against the scripted server, through OPENAI_BASE_URL)."""
    import os

    task = select_tasks("shopping", None, None, "task", None)[0]
    with ScriptedModelServer(_responder([task], {task.id: _oracle_plan(task)})) as server:
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-test"}
        result = subprocess.run(
            [sys.executable, "-m", "inspect_ai", "eval", "webmdp/webmdp", "--model",
             "openai/gpt-4o", "-T", "site=shopping", "-T", f"tasks={task.id}", "-T",
             f"out={tmp_path / 'run'}", "--log-dir", str(tmp_path / "logs"), "--display",
             "plain"], capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    (log_file,) = (tmp_path / "logs").glob("*.eval")
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(log_file))
    assert log.eval.task == "webmdp/webmdp" and log.status == "success"
    assert log.samples is not None and log.samples[0].scores["verdict"].value == "C"  # type: ignore[index]
    assert log.results is not None
    assert log.results.scores[0].metrics["steps"].value == len(task.oracle_actions()) + 1
    assert (tmp_path / "run" / "episodes" / "inspect:openai-gpt-4o" / "semantic"
            / f"{task.id}.json").is_file()
