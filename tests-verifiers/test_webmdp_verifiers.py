"""webmdp's verifiers taskset, run by verifiers' own code: its taskset API, its MCP tool
server, ``vf-eval`` against a scripted OpenAI-compatible model, and verifiers' own OpenEnv
taskset against ``webmdp rl serve``. Run by ``make test-integrations`` in a virtualenv of its
own (verifiers and webmdp's ``openenv`` extra do not co-install)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import verifiers.v1 as vf

from support import BIG, oracle_json, oracle_tools, plan
from webmdp.rl.actions import task_actions
from webmdp.rl.dataset import rows
from webmdp.sites import site_names
from webmdp.tasks.io import write_tasks
from webmdp.tasks.model import Task
from webmdp.tasks.sources import site_tasks
from webmdp.tasks.splits import Catalog, Holdout, assign
from webmdp.testing import ScriptedModelServer
from webmdp_verifiers import WebMDPEnv, WebMDPHarness, WebMDPTaskset
from webmdp_verifiers.taskset import WebMDPConfig
from webmdp_verifiers.toolset import WebMDPToolset

ROOT = Path(__file__).resolve().parents[1]
PLAYED = ("shopping", "mail", "repo")
"""The sites `vf-eval` plays end to end (each rollout's tool server is a process)."""
KEY = "SCRIPTED_KEY"


def taskset(**options: Any) -> WebMDPTaskset:
    return WebMDPTaskset(WebMDPConfig(id="webmdp-verifiers", **options))


def ids(ts: WebMDPTaskset) -> list[str]:
    return [t.data.task_id for t in ts]


# -- the taskset --------------------------------------------------------------------------
@pytest.mark.parametrize("holdout", ["task", "template"])
def test_the_taskset_is_rl_datasets_selection_and_never_mixes_splits(holdout: str) -> None:
    train = ids(taskset(site="shopping", split="train", holdout=holdout))
    test = ids(taskset(site="shopping", split="test", holdout=holdout))
    assert train == [r["task_id"] for r in rows("shopping", "train", holdout=holdout)]
    assert test == [r["task_id"] for r in rows("shopping", "test", holdout=holdout)]
    assert train and test and not set(train) & set(test)
    level = ids(taskset(site="shopping", split="train", level="1"))
    assert level == [r["task_id"] for r in rows("shopping", "train", level=1)]


def test_a_task_carries_its_prompt_and_no_part_of_its_goal() -> None:
    t = next(iter(taskset(site="mail", split="test").take(1)))
    web = Catalog("mail").task(t.data.task_id)
    wire = json.loads(t.data.model_dump_json())
    assert t.data.prompt.startswith(f"Task: {web.instruction}\n\nThe page:\n")
    assert "Available actions:" in t.data.prompt and t.key == web.id
    assert not {"oracle", "verifier", "target", "answer", "world"} & set(wire)
    assert "oracle" not in json.dumps(wire) and "verifier" not in t.data.prompt


def test_the_package_exports_what_verifiers_loads() -> None:
    from verifiers.v1.utils import loaders

    assert loaders.taskset_class("webmdp-verifiers") is WebMDPTaskset
    assert loaders.environment_class("webmdp-verifiers") is WebMDPEnv
    assert loaders.harness_class(loaders.default_harness_id("webmdp-verifiers")) is WebMDPHarness


def test_an_unknown_site_or_split_is_one_line() -> None:
    with pytest.raises(ValueError, match="unknown site 'shoping'"):
        list(taskset(site="shoping"))
    with pytest.raises(ValueError, match="split"):
        list(taskset(site="shopping", split="dev"))


# -- the tool server ----------------------------------------------------------------------
def test_the_tools_are_the_sites_actions_and_the_site_checks_their_arguments() -> None:
    from mcp.server.mcpserver import MCPServer

    t = next(iter(taskset(site="shopping", split="test").take(1)))
    web = Catalog("shopping").task(t.data.task_id)
    server = WebMDPToolset(vf.ToolsetConfig())

    async def run() -> tuple[list[Any], list[str]]:
        await server.setup_task(t.data)
        mcp = MCPServer("webmdp")
        server.register(mcp)
        tools = await mcp.list_tools()
        out = []
        for name, args in (("OpenProduct", {"product_id": "P-nope"}),
                           ("Search", {"query": BIG}),
                           ("SetDepartment", {"department": "Garden"})):
            result = await mcp.call_tool(name, args)
            out.append(" ".join(c.text for c in result.content))
        return tools, out

    tools, answers = asyncio.run(run())
    assert [x.name for x in tools] == [a["name"] for a in task_actions(web)]
    schema = {x.name: x.input_schema for x in tools}
    assert schema["SetDepartment"]["properties"]["department"]["enum"][:2] == \
        ["Electronics", "Home & Kitchen"]
    assert schema["Search"]["properties"]["query"]["maxLength"] == 2000
    assert schema["Search"]["required"] == ["query"]
    for text in answers:  # refused by the site: one line each, the episode goes on
        assert text.startswith("Error: ") and "\n" not in text and len(text) <= 510
    assert server.episode is not None and server.episode.steps == 3
    assert not server.episode.done


def test_every_sites_oracle_plays_through_the_tool_server_to_reward_one(tmp_path: Path) -> None:
    """The tool server verifiers launches per rollout, in this process (the MCP server it
    registers on, its tool calls): each site's first test task and a cross-site task offer
    their actions as tools and the oracle's calls, then Finish, win. `vf-eval` plays a few of
    them end to end below; each of its tool servers costs a process that imports verifiers."""
    from mcp.server.mcpserver import MCPServer

    rule = Holdout.parse("task")
    picked = [next(t for t in site_tasks(s) if assign(t, rule) == "test") for s in site_names()]
    picked.append(next(iter(Catalog("cross-site").tasks("cross-site"))))

    async def run(task: Task, file: Path) -> WebMDPToolset:
        t = next(iter(taskset(tasks=str(file), split="file").take(1)))
        server = WebMDPToolset(vf.ToolsetConfig())
        await server.setup_task(t.data)
        mcp = MCPServer("webmdp")
        server.register(mcp)
        assert [x.name for x in await mcp.list_tools()] == [
            a["name"].replace(".", "__") for a in task_actions(task)]
        for call in plan(task):
            result = await mcp.call_tool(call["name"].replace(".", "__"), call["params"])
            assert not " ".join(c.text for c in result.content).startswith("Error"), call
        return server

    for task in picked:
        file = tmp_path / f"{task.id}.jsonl"
        write_tasks(file, [task])
        server = asyncio.run(run(task, file))
        assert server.episode is not None and server.episode.done, task.id
        assert server.episode.success, task.id


# -- vf-eval ------------------------------------------------------------------------------
def vf_eval(args: list[str], base_url: str, out: Path, timeout: float = 300) -> list[dict]:
    """Run ``vf-eval`` (no upload to the hosted platform) and read its traces."""
    env = {**os.environ, KEY: "scripted",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    cmd = [str(Path(sys.executable).parent / "vf-eval"), *args, "--model", "scripted",
           "--client.base-url", base_url, "--client.api-key-var", KEY, "--no-push",
           "--no-rich", "-o", str(out)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout,
                          cwd=out.parent)
    runs = sorted(out.glob("*/traces.jsonl"))
    assert done.returncode == 0 and runs, done.stdout[-3000:] + done.stderr[-3000:]
    return [json.loads(line) for line in runs[-1].read_text().splitlines()]


def outcome(episode: dict) -> tuple[str, dict, dict, dict]:
    trace = episode["traces"][0]
    return episode["task"]["data"]["task_id"], trace["rewards"], trace["metrics"], trace["info"]


def test_vf_eval_plays_site_and_cross_site_tasks_to_reward_one(tmp_path: Path) -> None:
    """One test task of three sites and two cross-site tasks, from a task file; an oracle
    model through the tools (every site's are played in-process above). A further task is
    played by a model that calls an action the page lacks and a 1 MB argument, then stops:
    a verdict of 0, no exception."""
    # each site's first test task is a built-in one (a site's pool lists them first): read
    # from the built-in sets, not through every site's dial pool
    rule = Holdout.parse("task")
    picked = [next(t for t in site_tasks(s) if assign(t, rule) == "test") for s in PLAYED]
    picked += list(Catalog("cross-site").tasks("cross-site"))[:2]
    unruly = next(t for t in site_tasks("shopping") if assign(t, rule) == "test"
                  and t not in picked)
    picked.append(unruly)
    file = tmp_path / "slice.jsonl"
    write_tasks(file, picked)
    runs = tmp_path / "runs"
    with ScriptedModelServer(oracle_tools(picked, unruly.id)) as model:
        traces = vf_eval(["webmdp-verifiers", "-n", str(len(picked)), "--env.taskset.tasks",
                          str(file), "--env.taskset.split", "file", "--env.taskset.out",
                          str(runs)], model.base_url, tmp_path / "outputs")
    assert len(traces) == len(picked)
    by_id = {outcome(e)[0]: outcome(e) for e in traces}
    assert set(by_id) == {t.id for t in picked}
    for t in picked:
        _, rewards, metrics, info = by_id[t.id]
        if t is unruly:
            assert rewards["reward"]["score"] == 0.0 and metrics["success"] == 0.0
            assert info["webmdp"]["termination"] == "agent_error"
            assert metrics["invalid_steps"] == 2.0
            continue
        assert rewards["reward"]["score"] == 1.0, (t.id, rewards)
        assert metrics["success"] == 1.0
        if not t.sites:
            assert metrics["coverage_at_commit"] == 1.0
            assert metrics["steps"] == len(t.oracle_actions()) + 1
        assert Path(info["webmdp"]["trace"]).is_file()
    assert len({t.site for t in picked if not t.sites}) == len(PLAYED)
    assert {"cross-site"} <= {t.site if not t.sites else "cross-site" for t in picked}
    report = subprocess.run([str(Path(sys.executable).parent / "webmdp"), "report",
                             str(runs)], capture_output=True, text=True, timeout=120)
    assert report.returncode == 0, report.stderr
    assert "| verifiers (semantic) |" in report.stdout, report.stdout
    saved = (runs / "results.jsonl").read_text().splitlines()
    assert len(saved) == len(picked)


def test_vf_eval_selects_a_split_like_rl_dataset(tmp_path: Path) -> None:
    test = list(Catalog("food", holdout="template").tasks("test"))[:2]
    with ScriptedModelServer(oracle_tools(test)) as model:
        traces = vf_eval(["webmdp-verifiers", "-n", "2", "--env.taskset.site", "food",
                          "--env.taskset.split", "test", "--env.taskset.holdout", "template",
                          "--env.taskset.out", ""], model.base_url, tmp_path / "outputs")
    assert [outcome(e)[0] for e in sorted(traces, key=lambda e: e["task"]["data"]["idx"])] \
        == [t.id for t in test]
    assert all(outcome(e)[1]["reward"]["score"] == 1.0 for e in traces)
    assert all(outcome(e)[3]["webmdp"]["trace"] is None for e in traces)


# -- verifiers' own OpenEnv taskset against `webmdp rl serve` -----------------------------
def test_verifiers_openenv_taskset_plays_webmdp_rl_serve(tmp_path: Path) -> None:
    """verifiers' ``openenv`` taskset reads ``/schema`` and steps the server over its
    WebSocket; ``rl serve`` runs from webmdp's main virtualenv (``WEBMDP_SERVE``), whose
    OpenEnv is newer than the one verifiers installs beside itself. (verifiers 0.4.0's
    ``vf-eval openenv --env.taskset.base-url ...`` fails while resolving its options, before
    any run: the taskset's config is given as a file, which verifiers also reads.)"""
    serve = os.environ.get("WEBMDP_SERVE", str(ROOT / ".venv" / "bin" / "webmdp"))
    tasks = list(Catalog("shopping").tasks("test"))[:2]
    proc = subprocess.Popen([serve, "rl", "serve", "--site", "shopping", "--port", "0",
                             "--reward", "terminal"], stderr=subprocess.PIPE, text=True)
    try:
        url, lines = None, []
        deadline = time.monotonic() + 120
        while url is None and time.monotonic() < deadline:
            line = proc.stderr.readline() if proc.stderr else ""
            lines.append(line)
            found = re.search(r"ready: .* on (http://127\.0\.0\.1:\d+)", line)
            url = found.group(1) if found else None
            assert line or proc.poll() is None, "".join(lines)
        assert url, "".join(lines)
        with ScriptedModelServer(oracle_json(tasks)) as model:
            config = tmp_path / "openenv.toml"
            resets = ", ".join(f'{{task_id = "{t.id}"}}' for t in tasks)
            config.write_text(f'[env.taskset]\nid = "openenv"\nbase_url = "{url}"\n'
                              f"resets = [{resets}]\n\n[env.player.runtime]\n"
                              'type = "subprocess"\n')
            traces = vf_eval(["@", str(config)], model.base_url, tmp_path / "outputs")
    finally:
        proc.terminate()
        rest = proc.communicate(timeout=30)[1]
    assert len(traces) == len(tasks)
    assert all(e["traces"][0]["rewards"]["openenv_reward"]["score"] == 1.0 for e in traces)
    for t in tasks:
        assert re.search(rf"episode {t.id}: \d+ steps, reward 1\.000, success", rest), rest


def test_importing_webmdp_loads_no_verifiers() -> None:
    code = ("import sys, webmdp; webmdp.make; "
            "print(sorted(m for m in ('verifiers', 'mcp', 'webmdp_verifiers') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
