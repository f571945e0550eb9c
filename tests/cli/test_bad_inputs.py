"""Numbers and files that cannot break a command: each named case of issue 30 (part 4) ends
in one ``error:`` line and exit status 2, never a traceback, a hang or an invalid JSON file."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app

runner = CliRunner()


def _one_line_error(argv: list[str], needle: str) -> str:
    res = runner.invoke(app, argv, env={"COLUMNS": "200"})
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    lines = res.output.strip().splitlines()
    assert lines[-1].startswith("error:") and needle in lines[-1], res.output
    return lines[-1]


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    """A directory that passes for a run (it has a tasks.jsonl)."""
    d = tmp_path / "run"
    d.mkdir()
    (d / "tasks.jsonl").write_text("")
    return d


@pytest.mark.parametrize("option", ["--episode-timeout", "--step-timeout", "--temperature",
                                    "--timeout", "--price-in"])
@pytest.mark.parametrize("value", ["nan", "inf"])
def test_run_refuses_nan_and_inf_before_writing_a_manifest(tmp_path: Path, option: str,
                                                           value: str) -> None:
    out = tmp_path / "out"
    _one_line_error(["run", "--out", str(out), option, value], f"{option} must be a finite")
    assert not out.exists()


def test_the_manifest_writer_refuses_nan(tmp_path: Path) -> None:
    from webmdp.runner import manifest as mf

    with pytest.raises(ValueError):
        mf.write(tmp_path, {"settings": {"episode_timeout_s": math.nan}})
    assert not (tmp_path / mf.MANIFEST).exists()


def test_report_out_on_a_file(run_dir: Path) -> None:
    _one_line_error(["report", str(run_dir), "--out", str(run_dir / "tasks.jsonl")],
                    "is a file, not a directory")
    _one_line_error(["report", str(run_dir), "--out", str(run_dir / "tasks.jsonl" / "x")],
                    "cannot be created")


@pytest.mark.parametrize("command", [["rubric", "judge", "{run}", "--judge-model", "openai/x"],
                                     ["synth", "grade", "{run}", "--grader", "model",
                                      "--model", "openai/x"]])
@pytest.mark.parametrize("option,value,needle", [
    ("--max-retries", "-1", "--max-retries must be at least 0, got -1"),
    ("--concurrency", "0", "--concurrency must be between 1 and 256, got 0"),
    ("--concurrency", "-3", "--concurrency must be between 1 and 256, got -3"),
    ("--timeout", "-1", "--timeout must be more than 0 seconds, got -1"),
])
def test_judges_refuse_bad_request_options(run_dir: Path, command: list[str], option: str,
                                           value: str, needle: str) -> None:
    argv = [a.format(run=run_dir) for a in command] + [option, value]
    assert _one_line_error(argv, needle) == f"error: {needle}"
    assert sorted(p.name for p in run_dir.iterdir()) == ["tasks.jsonl"]


def _task_file(path: Path, **change: object) -> Path:
    res = runner.invoke(app, ["tasks", "show", "mail_0001", "--world"])
    data = json.loads(res.stdout)
    data.update(change)
    path.write_text(json.dumps(data) + "\n")
    return path


def test_a_task_whose_world_is_bogus(tmp_path: Path) -> None:
    f = _task_file(tmp_path / "F.jsonl", world={"bogus": 1})
    out = tmp_path / "out"
    _one_line_error(["run", "--tasks", str(f), "--mode", "semantic", "--out", str(out)],
                    f"{f}:1: world: needs 'site'")
    assert not out.exists()
    _one_line_error(["tasks", "check", str(f)], "world:")


@pytest.mark.parametrize("argv", [["run", "--tasks", "{f}", "--out", "{out}"],
                                  ["tasks", "list", "--tasks", "{f}"],
                                  ["tasks", "check", "{f}"],
                                  ["rubric", "check", "{f}"]])
def test_a_non_utf8_file(tmp_path: Path, argv: list[str]) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_bytes(b"\xff\xfe not utf-8 \xc3\x28\n")
    _one_line_error([a.format(f=f, out=tmp_path / "out") for a in argv], str(f))
    assert not (tmp_path / "out").exists()


def test_a_rubric_nested_100000_deep(tmp_path: Path) -> None:
    f = tmp_path / "deep.json"
    f.write_text('{"id": "a", "children": [' * 100_000 + "]}" * 100_000)
    _one_line_error(["rubric", "check", str(f)], "nested too deeply")


def test_an_unknown_suite_names_the_valid_ones() -> None:
    line = _one_line_error(["run", "--suite", "nosuch"], "unknown suite 'nosuch'")
    assert "builtin, cross-site, grid, or a JSONL task file" in line
    assert "field '-'" not in line


def test_report_on_runs_that_share_no_task(tmp_path: Path) -> None:
    runs = []
    for name, tasks in (("a", ["mail_0000", "mail_0001"]), ("b", ["mail_0002"])):
        out = tmp_path / name
        argv = ["run", "--workers", "0", "--out", str(out)]
        for t in tasks:
            argv += ["--task", t]
        assert runner.invoke(app, argv).exit_code == 0
        runs.append(out)
    line = _one_line_error(["report", *map(str, runs)], "the runs share no task")
    assert f"{runs[0]} has 2, {runs[1]} has 1" in line


def test_json_files_hold_null_for_a_value_that_does_not_exist(tmp_path: Path) -> None:
    """A kappa over no pair is NaN in memory; every JSON file webmdp writes is valid JSON,
    with null there (the manifest, whose settings must never be NaN, refuses instead)."""
    import json as _json

    from webmdp.redact import scrubbed_line, strict_dumps

    text = strict_dumps({"kappa": math.nan, "rows": [1.0, math.inf, {"rho": -math.inf}]})
    assert _json.loads(text) == {"kappa": None, "rows": [1.0, None, {"rho": None}]}
    assert "NaN" not in scrubbed_line({"x": math.nan}) and "Infinity" not in text
