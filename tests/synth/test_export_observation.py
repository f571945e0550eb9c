"""A semantic-mode training sample shows what the model saw: its user turn is the prompt the
`step` model agent sends at that step (one shared prompt function), with the observation text
re-rendered from the task's world, so every id a target names is in its input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from webmdp.agents.llm.agent import ModelAgentConfig
from webmdp.agents.registry import make_agent
from webmdp.cli.main import app
from webmdp.env.semantic import SemanticEnv
from webmdp.runner.episode import run_episode
from webmdp.sites import get_site, site_names
from webmdp.synth.episodes import Episode
from webmdp.synth.export import HISTORY_TOKENS, Writer, _system, semantic_prompts
from webmdp.tasks.generate import generate_site_tasks
from webmdp.testing.model_server import Request, ScriptedModelServer
from webmdp.testing.oracle_model import Mirror, OracleModel

runner = CliRunner()


def _user_text(req: Request) -> str:
    users = [m for m in req.body["messages"] if m["role"] == "user"]
    assert len(users) == 1 and isinstance(users[0]["content"], str)
    return str(users[0]["content"])


def _system_text(req: Request) -> str:
    return str(next(m for m in req.body["messages"] if m["role"] == "system")["content"])


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """The oracle on 2 tasks of every site (semantic mode), graded, exported with json."""
    root = tmp_path_factory.mktemp("export-obs")
    run, out = root / "run", root / "out"
    res = runner.invoke(app, ["run", "--site", "all", "-a", "oracle", "-n", "20",
                              "--mode", "semantic", "--out", str(run)])
    assert res.exit_code == 0, res.output
    assert runner.invoke(app, ["synth", "grade", str(run)]).exit_code == 0
    res = runner.invoke(app, ["synth", "export", str(run), "--grammar", "json", "--format",
                              "jsonl", "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in (out / "data.jsonl").read_text().splitlines()]
    return run, rows


def _named(site: str, action: dict[str, Any]) -> list[tuple[str, str]]:
    """(type, value) of each entity id and option value the action's params name (free text
    and numbers the agent composes from the instruction are not names)."""
    spec = next(a for a in get_site(site).actions if a.name == action["name"])
    out: list[tuple[str, str]] = []
    for name, v in (action.get("params") or {}).items():
        kind = spec.param(name).type
        if kind in ("entity", "choice"):
            out += [(kind, str(x)) for x in (v if isinstance(v, list) else [v])]
    return out


def test_every_target_value_is_in_its_sample_input(
        exported: tuple[Path, list[dict[str, Any]]]) -> None:
    """Across every site: an entity id or option value a target names occurs in the input
    the sample gives (the observation, or the instruction for typed text)."""
    _, rows = exported
    assert {r["site"] for r in rows} == set(site_names())
    checked = 0
    for r in rows:
        action = r["action"]
        if action["name"] == "Finish":
            continue  # an answer is read on earlier pages; the history says what was read
        assert r["prompt"].startswith(f"Task: {r['instruction']}")
        assert "Current observation:\n" in r["prompt"]
        for kind, value in _named(r["site"], action):
            assert value in r["prompt"], (r["task_id"], r["step"], action, kind, value)
            checked += 1
    assert checked > 50


def test_full_history_keeps_every_earlier_answer(
        exported: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    run, trimmed = exported
    res = runner.invoke(app, ["synth", "export", str(run), "--grammar", "json", "--format",
                              "jsonl", "--full-history", "--out", str(tmp_path / "full")])
    assert res.exit_code == 0, res.output
    manifest = json.loads((tmp_path / "full" / "export.json").read_text())
    assert manifest["history"] == "full" and manifest["history_tokens"] is None
    rows = [json.loads(line) for line in (tmp_path / "full" / "data.jsonl").read_text()
            .splitlines()]
    assert len(rows) == len(trimmed)
    for r in rows:
        for n, h in enumerate(r["history"], 1):
            assert f"{n}. {h['text'].strip()}" in r["prompt"]


@pytest.mark.parametrize("site", ["shopping", "mail"])
def test_inputs_are_what_the_step_agent_sends(site: str, tmp_path: Path) -> None:
    """The step agent on the task's oracle (a scripted endpoint), then the exporter's prompts
    for its trace, with the agent's own answers as history: byte-identical at every step."""
    task = generate_site_tasks(get_site(site))[4]
    mirror = Mirror(SemanticEnv(task, agent="model"))
    model = OracleModel(mirror, "json")
    with ScriptedModelServer(model) as srv:
        config = ModelAgentConfig(model="vllm/scripted-model", grammar="json",
                                  base_url=srv.base_url, api_key="test", timeout_s=10.0)
        trace = run_episode(mirror, make_agent("step", config=config))
    assert trace.success and len(srv.requests) == len(trace.steps) > 2
    ep = Episode("step", "semantic", trace, task, tmp_path / "t.json")
    system = _system(Writer("json"), ep)
    assert system == _system_text(srv.requests[0])
    answers = [s.raw_output or "" for s in trace.steps]
    prompts = semantic_prompts(ep, system, answers, HISTORY_TOKENS)
    assert prompts == [_user_text(r) for r in srv.requests]


def test_an_exported_first_step_is_the_agents_first_request(
        exported: tuple[Path, list[dict[str, Any]]]) -> None:
    run, rows = exported
    first = next(r for r in rows if r["step"] == 0)
    task = next(t for t in generate_site_tasks(get_site(first["site"]))
                if t.id == first["task_id"])
    mirror = Mirror(SemanticEnv(task, agent="model"))
    with ScriptedModelServer(OracleModel(mirror, "json")) as srv:
        config = ModelAgentConfig(model="vllm/scripted-model", grammar="json",
                                  base_url=srv.base_url, api_key="test", timeout_s=10.0)
        run_episode(mirror, make_agent("step", config=config))
    assert first["prompt"] == _user_text(srv.requests[0])
    manifest = json.loads((run.parent / "out" / "export.json").read_text())
    assert manifest["history"] == "trimmed" and manifest["history_tokens"] == HISTORY_TOKENS
    assert manifest["system_prompts"][f"semantic:{first['site']}"] == \
        _system_text(srv.requests[0])
