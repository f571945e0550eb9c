"""Bad input, one line (issue 35, part 4): a world whose entities lack a field the site
declares, a long id, two tasks with one id, a bundle with a bad site or template, two bundles
of one episode. Each ends in one ``error:`` line and exit status 2, before any run exists."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from support import site_tasks
from webmdp.cli.main import app
from webmdp.core.entities import world_problem
from webmdp.sites import get_site, site_names
from webmdp.tasks.cache import tasks_text

runner = CliRunner()
BUNDLES = Path(__file__).resolve().parents[1] / "data" / "webstep-bundles"


def _one_line_error(argv: list[str], needle: str) -> str:
    res = runner.invoke(app, argv, env={"COLUMNS": "300"})
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    lines = res.output.strip().splitlines()
    assert lines[-1].startswith("error:") and needle in lines[-1], res.output
    return lines[-1]


@pytest.mark.parametrize("site", site_names())
def test_every_generated_world_carries_its_sites_declared_fields(site: str) -> None:
    declared = get_site(site).entity_fields
    assert declared, f"{site} declares no entity fields"
    for t in site_tasks(site):
        assert world_problem(t.world, declared) is None, t.id


def _file(tmp_path: Path, tasks: list) -> Path:  # type: ignore[type-arg]
    path = tmp_path / "t.jsonl"
    path.write_text(tasks_text(tasks))
    return path


def test_a_world_missing_a_field_is_one_line_naming_its_path(tmp_path: Path) -> None:
    good, bad = site_tasks("shopping")[:2]
    world = json.loads(json.dumps(bad.world))
    del world["entities"][3]["title"]
    path = _file(tmp_path, [good, bad.model_copy(update={"world": world})])
    out = tmp_path / "run"
    _one_line_error(["run", "--tasks", str(path), "--out", str(out)],
                    f"{path}:2: world.entities[3].title: missing")
    assert not out.exists()


def test_a_world_field_of_the_wrong_type_is_one_line(tmp_path: Path) -> None:
    task = site_tasks("food")[0]
    world = json.loads(json.dumps(task.world))
    world["entities"][0]["rating"] = "five"
    path = _file(tmp_path, [task.model_copy(update={"world": world})])
    _one_line_error(["tasks", "stats", "--suite", str(path)],
                    "world.entities[0].rating: must be number, got 'five'")


def test_a_long_task_id_is_refused_before_any_run(tmp_path: Path) -> None:
    task = site_tasks("shopping")[0]
    raw = json.loads(task.model_dump_json())
    raw["id"] = "shopping_" + "x" * 300
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(raw) + "\n")
    out = tmp_path / "run"
    _one_line_error(["run", "--tasks", str(path), "--out", str(out)], "at most 128")
    assert not out.exists()


def test_two_tasks_with_one_id_name_both_lines(tmp_path: Path) -> None:
    a, b = site_tasks("mail")[:2]
    path = _file(tmp_path, [a, b, b.model_copy(update={"instruction": "Something else."})])
    _one_line_error(["run", "--tasks", str(path), "--out", str(tmp_path / "run")],
                    f"{path}:3: task id '{b.id}' is also the id of line 2")


def _bundle(tmp_path: Path, name: str, **changes: str) -> Path:
    data = json.loads((BUNDLES / "gmail_0001" / "fara.json").read_text())
    data.update(changes)
    path = tmp_path / "bundles" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("key", "value"), [("site", "gm ail/.."), ("template", "bad one!")])
def test_a_bundles_bad_site_or_template_is_one_line(tmp_path: Path, key: str,
                                                    value: str) -> None:
    path = _bundle(tmp_path, "a.json", **{key: value})
    res = runner.invoke(app, ["import", "webstep", str(path), "--out", str(tmp_path / "o")],
                        env={"COLUMNS": "300"})
    assert res.exit_code == 2
    skipped = [line for line in res.output.splitlines() if line.startswith("skipped")]
    assert skipped == [f"skipped {path}: '{key}': {value!r} is not a plain name (letters, "
                       "digits and _ . : @ -, starting with a letter or digit)"]
    assert "validation error" not in res.output


def test_two_bundles_of_one_episode_are_refused_naming_both(tmp_path: Path) -> None:
    first = _bundle(tmp_path, "a.json")
    second = tmp_path / "bundles" / "b.json"
    shutil.copy(first, second)
    line = _one_line_error(["import", "webstep", str(tmp_path / "bundles"), "--out",
                            str(tmp_path / "o")], "is also the episode of")
    assert str(first) in line and str(second) in line
    assert not (tmp_path / "o").exists()
