"""The whole grid suite (``make test-slow``): the docs' tables are what a fresh build gives,
and every task measures at its cell's level when measured again. (`make test-slow` also
replays every grid oracle in Chromium: `webmdp validate --suite grid`.)"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from webmdp.forge.grid import grid_site
from webmdp.sites import site_names
from webmdp.tasks.difficulty import measure

pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]
ROOT = Path(__file__).resolve().parents[2]


def test_the_docs_show_the_grid_a_fresh_build_gives() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from grid_stats import PATH, grid_stats

    assert json.loads(PATH.read_text()) == json.loads(json.dumps(grid_stats()))


@pytest.mark.parametrize("site", site_names())
def test_every_grid_task_measures_at_its_level(site: str) -> None:
    for task in grid_site(site):
        assert task.difficulty is not None
        assert measure(task) == task.difficulty, task.id
