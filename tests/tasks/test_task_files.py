"""Task files: JSONL round trip and errors naming file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import site_tasks
from webmdp.errors import TaskFileError
from webmdp.tasks.io import read_tasks, write_tasks


def test_round_trip(tmp_path: Path) -> None:
    tasks = site_tasks("shopping")[:5]
    p = tmp_path / "t.jsonl"
    write_tasks(p, tasks)
    assert read_tasks(p) == tasks
    first = p.read_bytes()
    write_tasks(p, read_tasks(p))
    assert p.read_bytes() == first


def test_bad_json_names_the_line(tmp_path: Path) -> None:
    tasks = site_tasks("shopping")[:2]
    p = tmp_path / "t.jsonl"
    p.write_text(tasks[0].model_dump_json() + "\n{not json\n")
    with pytest.raises(TaskFileError, match=r"t\.jsonl:2: .*invalid JSON"):
        read_tasks(p)


def test_missing_field_names_the_field(tmp_path: Path) -> None:
    data = json.loads(site_tasks("shopping")[0].model_dump_json())
    del data["instruction"]
    p = tmp_path / "t.jsonl"
    p.write_text("\n" + json.dumps(data) + "\n")
    with pytest.raises(TaskFileError) as info:
        read_tasks(p)
    assert (info.value.line, info.value.field) == (2, "instruction")


def test_wrong_type_names_the_nested_field(tmp_path: Path) -> None:
    data = json.loads(site_tasks("shopping")[0].model_dump_json())
    data["complexity"]["oracle_length"] = "long"
    p = tmp_path / "t.jsonl"
    p.write_text(json.dumps(data) + "\n")
    with pytest.raises(TaskFileError, match=r"complexity\.oracle_length"):
        read_tasks(p)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(TaskFileError, match="no such file"):
        read_tasks(tmp_path / "nope.jsonl")
