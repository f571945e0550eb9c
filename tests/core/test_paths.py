"""No write outside the run directory: every name that becomes a path is checked where it
enters (task files, bundles, agent labels), and every path under a root goes through one door
that refuses anything outside it, symlinks included."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from support import site_tasks
from webmdp.agents.llm import ModelAgentConfig, run_label
from webmdp.cli.main import app
from webmdp.paths import NAME_PATTERN, PathEscape, UnsafeName, check_name, safe_label, under

runner = CliRunner()
BAD = ["../../../../pwned_by_taskid", "/tmp/pwned_abs", "a/../../b", "..", "x..y", "",
       "-flag", "a b", "a\nb"]


def _listing(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.mark.parametrize("name", BAD)
def test_unsafe_names_are_refused(name: str) -> None:
    with pytest.raises(UnsafeName, match="task id"):
        check_name(name, "task id")


@pytest.mark.parametrize("name", ["shopping_0001", "shopping_L3_0007", "cross-site_0003",
                                  "find_product:direct", "oracle@s1", "my.pkg:Agent"])
def test_plain_names_pass(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize("text", ["vllm/../../../x", "openai/gpt-4o:latest", "../..", "/abs"])
def test_labels_webmdp_builds_are_safe(text: str) -> None:
    import re

    assert re.fullmatch(NAME_PATTERN, safe_label(text)) and ".." not in safe_label(text)
    label = run_label("step", ModelAgentConfig(model=text))
    assert check_name(label) == label


def test_under_refuses_escapes_and_symlinks(tmp_path: Path) -> None:
    root = tmp_path / "run"
    root.mkdir()
    assert under(root, "episodes", "a", "t.json") == root / "episodes" / "a" / "t.json"
    for parts in (("..", "x"), ("/etc/passwd",), ("a", "..", "..", "x")):
        with pytest.raises(PathEscape):
            under(root, *parts)
    (root / "link").symlink_to(tmp_path)
    with pytest.raises(PathEscape):
        under(root, "link", "outside.json")


def _bad_task_file(path: Path, field: str, value: object, cross: bool = False) -> Path:
    task = json.loads(site_tasks("shopping")[0].model_dump_json())
    task[field] = value
    path.write_text(json.dumps(task) + "\n")
    return path


@pytest.mark.parametrize("field", ["id", "site", "template"])
@pytest.mark.parametrize("value", ["../../../../pwned_by_taskid", "/tmp/webmdp_pwned_abs"])
def test_a_task_file_cannot_write_outside_the_run(tmp_path: Path, field: str,
                                                  value: str) -> None:
    tasks = _bad_task_file(tmp_path / "bad.jsonl", field, value)
    before = _listing(tmp_path)
    res = runner.invoke(app, ["run", "--tasks", str(tasks), "--mode", "semantic", "--agent",
                              "oracle", "--out", str(tmp_path / "a" / "b" / "run")])
    assert res.exit_code == 2, res.output
    assert f"bad.jsonl:1: field '{field}'" in res.output and "not a plain name" in res.output
    assert "Traceback" not in res.output
    assert _listing(tmp_path) == before
    assert not Path("/tmp/webmdp_pwned_abs.json").exists()


def test_a_cross_site_task_file_is_checked_too(tmp_path: Path) -> None:
    task = json.loads(site_tasks("mail")[0].model_dump_json())
    task.update(site="cross-site", sites=["mail", "../../x"])
    (tmp_path / "bad.jsonl").write_text(json.dumps(task) + "\n")
    res = runner.invoke(app, ["run", "--suite", str(tmp_path / "bad.jsonl"), "--mode",
                              "semantic", "--out", str(tmp_path / "run")])
    assert res.exit_code == 2 and "field 'sites.1'" in res.output, res.output
    assert not (tmp_path / "run").exists()


def test_a_library_task_with_a_bad_id_writes_nothing(tmp_path: Path) -> None:
    """A task built in Python (no file to validate) is checked before the run writes."""
    from webmdp.runner.local import RunConfig, run_tasks

    bad = site_tasks("shopping")[0].model_copy(update={"id": "../../escape"})
    with pytest.raises(UnsafeName, match="task id"):
        run_tasks([bad], tmp_path / "run", RunConfig(agent="oracle"))
    assert not (tmp_path / "run").exists() and _listing(tmp_path) == set()


@pytest.mark.parametrize("key", ["task_id", "agent"])
@pytest.mark.parametrize("value", ["../../../pwned", "/tmp/webmdp_bundle_abs"])
def test_an_imported_bundle_cannot_write_outside(tmp_path: Path, key: str, value: str) -> None:
    src = Path(__file__).resolve().parents[1] / "data" / "webstep-bundles" / "gmail_0001"
    bundle_file = next(src.rglob("*.json"))
    bundle = json.loads(bundle_file.read_text())
    bundle[key] = value
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "b.json").write_text(json.dumps(bundle))
    before = _listing(tmp_path)
    res = runner.invoke(app, ["import", "webstep", str(tmp_path / "in"), "--out",
                              str(tmp_path / "x" / "run")])
    assert "not a plain name" in res.output, res.output
    assert "Traceback" not in res.output
    new = _listing(tmp_path) - before
    assert all(p.startswith("x") for p in new), new  # only inside the run, if anything
    assert not Path("/tmp/webmdp_bundle_abs").exists()


def test_an_exported_screenshot_cannot_come_from_outside(tmp_path: Path) -> None:
    """A trace naming a screenshot outside its run (``../../secret``) is refused, not read."""
    from webmdp.errors import ConfigError
    from webmdp.synth.export import _Images

    run = tmp_path / "run" / "episodes" / "a" / "browser"
    run.mkdir(parents=True)
    (tmp_path / "secret.png").write_bytes(b"x")
    with pytest.raises(ConfigError, match="outside"):
        _Images(tmp_path / "out").place(under(run, "../../../../secret.png"), "a/b/c.png")
    with pytest.raises(ConfigError, match="outside"):
        _Images(tmp_path / "out").place(run / "x.png", "../../escape.png")
    assert not any(p.name == "escape.png" for p in tmp_path.rglob("*"))
    assert sorted(os.listdir(tmp_path)) == ["run", "secret.png"]
