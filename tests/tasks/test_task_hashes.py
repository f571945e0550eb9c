"""Every site's generated task file is byte-identical to the one recorded in
tests/data/task_hashes.json (sha256 of `webmdp tasks generate --site SITE` output). A change
that alters a world, an oracle or an instruction must re-record the hash on purpose, and say
why in its note; refactors of the sites must not move it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from support import site_tasks
from webmdp.sites import site_names
from webmdp.tasks.io import write_tasks

RECORDED = json.loads((Path(__file__).parents[1] / "data" / "task_hashes.json").read_text())


def test_every_site_is_recorded() -> None:
    assert sorted(RECORDED) == site_names()


@pytest.mark.parametrize("site", site_names())
def test_generated_tasks_are_unchanged(site: str, tmp_path: Path) -> None:
    out = tmp_path / f"{site}.jsonl"
    write_tasks(out, site_tasks(site))
    assert hashlib.sha256(out.read_bytes()).hexdigest() == RECORDED[site]
