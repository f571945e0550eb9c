"""Model agents end to end: the real SDKs against the scripted model server on loopback, a
real Chromium against the real site server. The scripted model is the oracle writing each
grammar's syntax (tests/scripted_oracle.py), so success means every layer in between worked."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from support import site_tasks
from webmdp.agents.llm.agent import ModelAgentConfig
from webmdp.agents.llm.images import png_size
from webmdp.agents.registry import make_agent
from webmdp.core.spec import Action
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.env.semantic import SemanticEnv
from webmdp.runner.episode import run_episode
from webmdp.server.runner import ServerHandle
from webmdp.tasks import Task
from webmdp.testing import Reply, Request, ScriptedModelServer
from webmdp.testing.oracle_model import Mirror, OracleModel
from webmdp.trace import EpisodeTrace

pytestmark = pytest.mark.browser

MODELS = {"openai-cua": "openai/computer-use-preview",
          "anthropic-cua": "anthropic/claude-sonnet-4-6"}


def _task() -> Task:
    return site_tasks("shopping")[0]  # search, open the product, add it to the cart


def _config(grammar: str, srv: ScriptedModelServer, **kw: Any) -> ModelAgentConfig:
    model = MODELS.get(grammar, "vllm/scripted-model")
    url = srv.root_url if model.startswith("anthropic/") else srv.base_url
    options: dict[str, Any] = {"backoff_s": 0.01, "max_retries": 2, "timeout_s": 10.0, **kw}
    return ModelAgentConfig(model=model, grammar=grammar, base_url=url, api_key="test",
                            **options)


def _episode(env: Any, paradigm: str, grammar: str, *, before: Any = None,
             **kw: Any) -> tuple[EpisodeTrace, ScriptedModelServer, OracleModel]:
    mirror = Mirror(env)
    model = OracleModel(mirror, grammar, coords=kw.get("coords") or "absolute", before=before)
    with ScriptedModelServer(model) as srv:
        agent = make_agent(paradigm, config=_config(grammar, srv, **kw))
        trace = run_episode(mirror, agent)
    return trace, srv, model


@pytest.fixture
def browser_env(server: ServerHandle, host: BrowserHost) -> Iterator[Any]:
    envs: list[BrowserEnv] = []

    def make(task: Task | None = None) -> BrowserEnv:
        env = BrowserEnv(task or _task(), agent="model", server=server, host=host,
                         config=BrowserConfig(step_budget=30))
        envs.append(env)
        return env

    yield make
    for env in envs:
        env.close()


def _accounted(trace: EpisodeTrace) -> list[Any]:
    calls = [c for s in trace.steps if s.notes for c in s.notes.model_calls]
    assert calls, "no model call was recorded"
    for c in calls:
        assert c.prompt_tokens and c.prompt_tokens > 0 and c.completion_tokens
        assert c.latency_s > 0 and c.raw
    return calls


# -- one episode per grammar (browser mode, step paradigm) ----------------------------------
@pytest.mark.parametrize("grammar", ["uitars", "qwen", "fara", "openai-cua", "anthropic-cua",
                                     "axtree", "json"])
def test_each_grammar_reaches_success_in_chromium(browser_env, grammar: str) -> None:  # type: ignore[no-untyped-def]
    trace, srv, model = _episode(browser_env(), "step", grammar)
    assert trace.success, (grammar, trace.termination, [s.error for s in trace.steps])
    assert trace.agent_log is not None and trace.agent_log.grammar == grammar
    _accounted(trace)
    # every executed step kept its raw output and the stated intent (= executed action here)
    acted = [s for s in trace.steps if s.notes and s.notes.model_calls]
    assert all(s.raw_output for s in acted)
    assert all(s.notes.intent for s in trace.steps if s.notes)
    first = srv.requests[0]
    if grammar == "axtree":  # element ids over the accessibility tree, no screenshot
        assert not first.images() and any("[1] " in t for t in first.texts())
    else:  # the screenshot the model saw was resized to its family's image size
        assert png_size(first.images()[-1]) == model.size


def test_qwen3_relative_coordinates(browser_env) -> None:  # type: ignore[no-untyped-def]
    trace, srv, _ = _episode(browser_env(), "step", "qwen", coords="relative1000")
    assert trace.success
    system = srv.requests[0].texts()[0]
    assert "1000x1000" in system and "1428x896" not in system  # the prompt says 0-1000 too


# -- one episode per paradigm ---------------------------------------------------------------
@pytest.mark.parametrize("paradigm", ["plan", "tree"])
@pytest.mark.parametrize("grammar", ["uitars", "qwen", "fara", "openai-cua", "anthropic-cua",
                                     "axtree", "json"])
def test_plan_and_tree_with_each_grammar(browser_env, paradigm: str, grammar: str) -> None:  # type: ignore[no-untyped-def]
    trace, srv, _ = _episode(browser_env(), paradigm, grammar, branching=1)
    assert trace.success, (grammar, trace.termination, [s.error for s in trace.steps])
    purposes = {c.purpose for c in _accounted(trace)}
    assert purposes >= ({"plan", "act"} if paradigm == "plan" else {"value", "propose"})
    if grammar == "openai-cua":  # a computer-use model plans and values over Responses too
        assert {r.protocol for r in srv.requests} == {"responses"}


def test_plan_paradigm_records_plan_and_steps(browser_env) -> None:  # type: ignore[no-untyped-def]
    trace, srv, _ = _episode(browser_env(), "plan", "uitars")
    assert trace.success
    log = trace.agent_log
    assert log is not None and log.paradigm == "plan" and len(log.plans) == 1
    assert log.plans[0].steps[0].startswith("Find the item")
    assert {s.notes.plan_step for s in trace.steps if s.notes and s.notes.model_calls} == {2}
    purposes = [c.purpose for c in _accounted(trace)]
    assert purposes[0] == "plan" and purposes.count("plan") == 1
    assert "GENERAL PLAN" in srv.requests[-1].last_text() or \
        any("GENERAL PLAN" in t for t in srv.requests[-1].texts())


def test_plan_replans_when_the_model_says_so(browser_env) -> None:  # type: ignore[no-untyped-def]
    asked = {"n": 0}

    def replan_once(req: Request) -> Reply | None:
        if any("'Plan step: N'" in t for t in req.texts()) and asked["n"] == 0:
            asked["n"] += 1
            return Reply(text="Replan: the search box is not where the plan expects")
        return None

    trace, _, _ = _episode(browser_env(), "plan", "json", before=replan_once)
    assert trace.success
    assert trace.agent_log is not None
    assert [p.reason for p in trace.agent_log.plans] == \
        ["", "the search box is not where the plan expects"]


def test_tree_paradigm_with_model_value_in_chromium(browser_env) -> None:  # type: ignore[no-untyped-def]
    trace, _, _ = _episode(browser_env(), "tree", "json", branching=1)
    assert trace.success
    log = trace.agent_log
    assert log is not None and log.paradigm == "tree"
    assert len(log.tree) >= 4 and log.tree[0].parent is None
    assert all(n.value == 0.8 for n in log.tree)
    assert "value" in {c.purpose for c in _accounted(trace)}


@pytest.mark.parametrize("paradigm", ["step", "plan", "tree"])
def test_each_paradigm_in_semantic_mode(paradigm: str) -> None:
    task = site_tasks("mail")[5]
    trace, _, _ = _episode(SemanticEnv(task), paradigm, "json", branching=1)
    assert trace.success, (paradigm, trace.termination, [s.error for s in trace.steps])
    assert trace.agent_log is not None and trace.agent_log.paradigm == paradigm


# -- failure paths --------------------------------------------------------------------------
def _fail_first(n: int, reply: Reply) -> Any:
    seen = {"n": 0}

    def before(req: Request) -> Reply | None:
        seen["n"] += 1
        return reply if seen["n"] <= n else None

    return before


def test_unparseable_outputs_are_invalid_steps_then_stop(browser_env) -> None:  # type: ignore[no-untyped-def]
    garbage = Reply(text="I think I should look around a bit more.")
    trace, _, _ = _episode(browser_env(), "step", "uitars", before=_fail_first(99, garbage))
    assert trace.termination == "unparseable"
    assert [s.action["kind"] for s in trace.steps] == ["invalid"] * 3
    assert all(s.raw_output == garbage.text for s in trace.steps)
    assert trace.agent_log is not None and "3 consecutive" in (trace.agent_log.stop_reason or "")


def test_one_unparseable_output_then_recovery(browser_env) -> None:  # type: ignore[no-untyped-def]
    trace, _, _ = _episode(browser_env(), "step", "qwen",
                           before=_fail_first(1, Reply(text="<tool_call>{not json</tool_call>")))
    assert trace.success
    assert trace.steps[0].action["kind"] == "invalid" and trace.steps[0].error


def test_malformed_tool_call_is_an_invalid_step(browser_env) -> None:  # type: ignore[no-untyped-def]
    bad = Reply(computer={"action": "left_click", "coordinate": "here"})
    trace, _, _ = _episode(browser_env(), "step", "anthropic-cua", before=_fail_first(1, bad))
    assert trace.success
    assert trace.steps[0].action["kind"] == "invalid"
    assert "coordinate" in (trace.steps[0].error or "")


def test_429_then_success_is_retried_and_accounted(browser_env) -> None:  # type: ignore[no-untyped-def]
    trace, _, _ = _episode(browser_env(), "step", "openai-cua",
                             before=_fail_first(2, Reply(status=429)))
    assert trace.success
    assert _accounted(trace)[0].retries == 2


def test_request_timeout_ends_in_infra_error_with_cause(browser_env) -> None:  # type: ignore[no-untyped-def]
    trace, _, _ = _episode(browser_env(), "step", "uitars", timeout_s=0.3, max_retries=1,
                           before=_fail_first(99, Reply(delay_s=2.0, text="late")))
    assert trace.termination == "infra_error"
    assert "timed out" in (trace.infra_error or "")


def test_model_server_down_is_infra_error_and_the_run_goes_on(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from webmdp.runner.local import RunConfig, run_tasks
    with ScriptedModelServer([]) as srv:
        url = srv.base_url  # closed below: nobody listens there any more
    cfg = ModelAgentConfig(model="vllm/scripted-model", grammar="json", base_url=url,
                           backoff_s=0.01, max_retries=1)
    tasks = site_tasks("mail")[:2]
    traces = run_tasks(tasks, tmp_path, RunConfig(agent="step", mode="semantic", model=cfg))
    assert [t.termination for t in traces] == ["infra_error", "infra_error"]
    assert all("connection failed" in (t.infra_error or "") for t in traces)
    rows = (tmp_path / "results.jsonl").read_text().splitlines()
    assert len(rows) == 2  # both results kept
    # resuming runs the infra_error episodes again, now against a live endpoint
    writer = OracleModel(Mirror(None), "json")
    script = [writer.write(a) for t in tasks for a in (*t.oracle_actions(), Action("Finish"))]
    with ScriptedModelServer(script) as live:
        again = run_tasks(tasks, tmp_path, RunConfig(agent="step", mode="semantic",
                                                     model=replace(cfg, base_url=live.base_url)))
    assert [t.success for t in again] == [True, True]
    assert run_tasks(tasks, tmp_path, RunConfig(agent="step", mode="semantic", model=cfg)) == []


# -- tree search with the exact value -------------------------------------------------------
def test_tree_with_oracle_value_solves_a_hard_negative_task_from_search_alone() -> None:
    """The model proposes every offered action in a shuffled order, hard negatives included,
    and knows nothing of the target: the exact value V(s) = 1 / (1 + d) alone finds it."""
    import json
    import random

    from webmdp.tasks.distance import candidate_actions

    task = site_tasks("shopping")[6]
    assert len(task.hard_negatives) == 2
    env = SemanticEnv(task, step_budget=400)
    rng = random.Random(7)

    def uninformed(req: Request) -> Reply:
        actions = candidate_actions(task, env.tracker.state)
        rng.shuffle(actions)
        return Reply(text=json.dumps({"thought": "any of these", "candidates": [
            {"name": a.name, "params": a.params} for a in actions]}))

    with ScriptedModelServer(uninformed) as srv:
        agent = make_agent("tree", config=_config("json", srv, value="oracle", branching=100))
        trace = run_episode(env, agent)
    assert trace.success, (trace.termination, trace.verifier)
    log = trace.agent_log
    assert log is not None and len(log.tree) > len(task.oracle)  # it searched, not replayed
    assert trace.restores  # and backtracked by restoring snapshots
    opened = {t.params.get("product_id") for t in trace.transitions()
              if t.action == "OpenProduct"}
    assert opened & set(task.hard_negatives)  # hard negatives were tried and rejected
    assert max(n.value for n in log.tree) == 1.0
    assert len({len(n.state_key or "") for n in log.tree}) == 1  # root keyed like the rest


# -- the command line, both modes -----------------------------------------------------------
def _cli(*args: str) -> Any:
    from typer.testing import CliRunner

    from webmdp.cli.main import app

    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("mode", ["semantic", "browser"])
def test_webmdp_run_drives_a_model_agent(server, host, tmp_path, mode: str) -> None:  # type: ignore[no-untyped-def]
    """``webmdp run --agent step --model ...`` against the scripted server: the script is the
    oracle's actions, recorded beforehand (browser: from an oracle run in Chromium)."""
    import json

    from webmdp.agents import OracleAgent

    task = _task()
    if mode == "semantic":
        actions: list[Any] = [*task.oracle_actions()]
        actions.append(type(actions[0])("Finish", {}))
    else:
        env = BrowserEnv(task, agent="oracle", server=server, host=host)
        try:
            actions = [s.action for s in run_episode(env, OracleAgent()).steps]
        finally:
            env.close()
        from webmdp.env.actions import GUIAction

        actions = [GUIAction.model_validate(a) for a in actions]
    writer = OracleModel(Mirror(None), "json")
    with ScriptedModelServer([writer.write(a) for a in actions]) as srv:
        res = _cli("run", "--agent", "step", "--model", "vllm/scripted-model", "--base-url",
                   srv.base_url, "--grammar", "json", "--mode", mode, "--task", task.id,
                   "--out", str(tmp_path), "--max-retries", "0")
    assert res.exit_code == 0, res.output
    row = json.loads((tmp_path / "results.jsonl").read_text().splitlines()[0])
    assert row["success"] is True and row["agent"].startswith("step")
    trace = json.loads((tmp_path / row["trace"]).read_text())
    assert trace["agent_log"]["model"] == "vllm/scripted-model"
    calls = [c for s in trace["steps"] if s.get("notes") for c in s["notes"]["model_calls"]]
    assert len(calls) == len(actions) and all(c["prompt_tokens"] for c in calls)


def test_report_compares_a_model_agent_with_built_in_agents(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Built-in agents and a model agent (scripted server) in one run: `webmdp report` writes
    every file, with the model's stated intents feeding element accuracy."""
    import json

    tasks = site_tasks("shopping")[:3]
    ids = [a for t in tasks for a in ("--task", t.id)]
    built_in, model_run = tmp_path / "built-in", tmp_path / "model"
    assert _cli("run", "--agent", "oracle", "--agent", "greedy", "--out", str(built_in),
                *ids).exit_code == 0
    writer = OracleModel(Mirror(None), "json")
    script = [writer.write(a) for t in tasks for a in (*t.oracle_actions(), Action("Finish"))]
    with ScriptedModelServer(script) as srv:
        res = _cli("run", "--agent", "step", "--model", "vllm/scripted-model", "--base-url",
                   srv.base_url, "--slots", "1", "--out", str(model_run), *ids)
    assert res.exit_code == 0, res.output
    res = _cli("report", str(built_in), str(model_run), "--json", "--out", str(tmp_path / "report"))
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    model = next(k for k in rep["planning"]["by_agent"] if k.startswith("step"))
    assert rep["planning"]["by_agent"][model]["element_accuracy"] == 1.0
    assert rep["planning"]["by_agent"][model]["step_success"] == 1.0
    out = tmp_path / "report"
    for name in ("report.md", "report.html", "report.json", "episodes.parquet",
                 "figures/temporal.png", "figures/complexity.png"):
        assert (out / name).is_file(), name
