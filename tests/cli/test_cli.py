"""The `webmdp` command: bad input gives one-line errors naming valid choices; runs and reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.agents.registry import agent_names
from webmdp.cli.main import app
from webmdp.sites import site_names

runner = CliRunner()


def _run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


@pytest.mark.parametrize("args,needle", [
    (("run", "--site", "nope"),
     f"unknown site 'nope'; valid choices: {', '.join(site_names(plugins=True))}"),
    (("demo", "--sites", "mail,nope"), "unknown site 'nope'"),
    (("run", "--agent", "nope"),
     f"unknown agent 'nope'; valid choices: {', '.join(agent_names())}"),
    (("run", "--mode", "vr"), "unknown mode 'vr'; valid choices: browser, semantic"),
    (("run", "--template", "nope"), "unknown template 'nope'; valid choices: cart_add_two"),
    (("tasks", "show", "shopping_9999"), "unknown task id 'shopping_9999'"),
    (("tasks", "list", "--site", "nope"), "unknown site 'nope'"),
    (("validate", "--site", "nope"), "unknown site 'nope'"),
    (("run", "--agent", "step"), "agent 'step' is driven by a model: give --model"),
    (("run", "--agent", "plan", "--model", "gpt-4o"), "must be given as PROVIDER/MODEL"),
    (("run", "--agent", "tree", "--model", "openai/gpt-4o", "--value", "magic"),
     "unknown value function 'magic'"),
    (("run", "--agent", "step", "--model", "openai/gpt-4o", "--grammar", "anthropic-cua",
      "--mode", "semantic"), "grammar anthropic-cua works in browser mode, not semantic"),
    (("agents", "parse", "--grammar", "nope"), "unknown grammar 'nope'"),
])
def test_bad_input_is_one_line_naming_choices(args, needle) -> None:  # type: ignore[no-untyped-def]
    res = _run(*args)
    assert res.exit_code == 2, res.output
    assert needle in res.output
    assert "Traceback" not in res.output


def test_malformed_task_file_names_file_line_field(tmp_path: Path) -> None:
    p = tmp_path / "tasks.jsonl"
    good = _run("tasks", "show", "shopping_0001")
    data = json.loads(good.stdout)
    data.pop("target")
    p.write_text(json.dumps(data) + "\n")
    res = _run("run", "--tasks", str(p), "--site", "shopping")
    assert res.exit_code == 2
    assert f"{p}:1: field 'target'" in res.output


def test_generate_is_deterministic(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert _run("tasks", "generate", "--site", "shopping", "--limit", "12", "--out", str(a)
                ).exit_code == 0
    assert _run("tasks", "generate", "--site", "shopping", "--limit", "12", "--out", str(b)
                ).exit_code == 0
    assert a.read_bytes() == b.read_bytes()
    assert len(a.read_text().splitlines()) == 12


def test_tasks_list_and_show() -> None:
    res = _run("tasks", "list", "--site", "shopping", "--limit", "3")
    assert res.exit_code == 0 and "shopping_0002" in res.stdout
    shown = json.loads(_run("tasks", "show", "shopping_0002").stdout)
    assert shown["id"] == "shopping_0002" and "world" not in shown


def test_run_then_report_json_and_markdown(tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = _run("run", "--site", "shopping", "--agent", "oracle", "--agent", "greedy",
               "--mode", "semantic", "--limit", "16", "--out", str(out))
    assert res.exit_code == 0, res.output
    rep = json.loads(_run("report", str(out), "--json").stdout)
    agg = rep
    assert set(agg) >= {"terminal_sr", "safe_pass_sr", "exploration_sr", "execution_sr",
                        "coverage_at_commit", "gui_steps", "semantic_steps",
                        "gui_semantic_ratio", "episodes"}
    assert agg["episodes"] == 32
    assert rep["by_agent"]["oracle"]["terminal_sr"] == 1.0
    assert rep["by_agent"]["oracle"]["exploration_sr"] == 1.0
    assert rep["by_agent"]["greedy"]["terminal_sr"] < 1.0
    md = _run("report", str(out)).stdout
    assert "| oracle" in md and "Exploration" in md
    # resume: a second run skips finished episodes; another agent set is refused
    res = _run("run", "--site", "shopping", "--agent", "oracle", "--agent", "greedy",
               "--limit", "16", "--out", str(out))
    assert "0 episodes run (32 resumed)" in res.output
    res = _run("run", "--site", "shopping", "--agent", "oracle", "--limit", "16", "--out",
               str(out))
    assert res.exit_code == 2 and "different run" in res.output


def test_report_on_missing_dir(tmp_path: Path) -> None:
    res = _run("report", str(tmp_path / "nope"))
    assert res.exit_code == 2 and "no run directory" in res.output


def test_demo_runs_the_chosen_sites_and_reports(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    res = _run("demo", "--out", str(out), "--sites", "mail,shopping", "--per-site", "2",
               "--mode", "semantic")
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {r["task_id"].split("_")[0] for r in rows} == {"mail", "shopping"}
    assert sorted({r["agent"] for r in rows}) == ["greedy", "oracle", "random"]
    assert len(rows) == 2 * 2 * 3
    assert (out / "report" / "report.md").read_text().startswith("#")


def test_trace_schema_is_json() -> None:
    schema = json.loads(_run("trace-schema").stdout)
    assert schema["title"] == "EpisodeTrace" and "steps" in schema["properties"]


@pytest.mark.browser
def test_validate_command_replays_oracles_in_chromium() -> None:
    res = _run("validate", "--site", "mail", "--limit", "2")
    assert res.exit_code == 0, res.output
    assert "level 3 (GUI replay): ok" in res.output
    assert "2 oracles replayed" in res.output


@pytest.mark.browser
def test_browser_run_writes_traces_with_screenshots(tmp_path: Path) -> None:
    out = tmp_path / "b"
    res = _run("run", "--site", "shopping", "--agent", "greedy", "--mode", "browser",
               "--limit", "2", "--screenshots", "--out", str(out))
    assert res.exit_code == 0, res.output
    traces = sorted((out / "episodes" / "greedy" / "browser").glob("*.json"))
    assert len(traces) == 2
    data = json.loads(traces[0].read_text())
    shots = [s["screenshot"] for s in data["steps"] if s["screenshot"]]
    assert shots and all((traces[0].parent / s).is_file() for s in shots)


def test_agents_parse_prints_viewport_action_and_stated_intent() -> None:
    raw = "Thought: open it\nAction: click(start_box='(714,448)')"
    res = runner.invoke(app, ["agents", "parse", "--grammar", "uitars"], input=raw)
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    assert got["kind"] == "click" and (got["x"], got["y"]) == (720.0, 450.0)  # 1428x896 -> 1440x900
    res = runner.invoke(app, ["agents", "parse", "--grammar", "axtree"],
                        input="I will click [12] to open it.\n```click('14')```")
    got = json.loads(res.stdout)
    assert got["element"] == 14 and got["intent"] == {"element": 12, "kind": "click"}


def test_agents_parse_invalid_output_exits_1_with_the_error() -> None:
    res = runner.invoke(app, ["agents", "parse", "--grammar", "qwen"],
                        input="<tool_call>{broken</tool_call>")
    assert res.exit_code == 1
    got = json.loads(res.stdout)
    assert got["kind"] == "invalid" and got["error"] and "broken" in got["raw"]


def test_agents_lists_install_extras_verbatim() -> None:
    res = runner.invoke(app, ["agents"], env={"COLUMNS": "220"})
    assert res.exit_code == 0
    assert "pip install 'webmdp[anthropic]'" in res.output
    assert "uitars" in res.output and "tree" in res.output
