"""Write ``docs/data/grid.json``: the grid suite's task-set hash and WebForge's Tables 7 and 8
for it (what `webmdp tasks stats --suite grid --json` prints), which docs/difficulty.md shows
(the docs hook renders it) and ``tests/forge/test_grid_slow.py`` checks against a fresh build.

``python scripts/grid_stats.py`` (a few CPU minutes with a cold task cache).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PATH = Path(__file__).resolve().parents[1] / "docs" / "data" / "grid.json"


def grid_stats() -> dict[str, Any]:
    from webmdp.forge.grid import PER_CELL, table8
    from webmdp.runner.manifest import HASH_BASIS, task_set_hash
    from webmdp.sites import site_names
    from webmdp.tasks.difficulty import counts
    from webmdp.tasks.select import select_tasks

    tasks = select_tasks("all", suite="grid")
    sites = list(site_names())
    total = counts(tasks)
    return {"per_cell": PER_CELL, "tasks": len(tasks),
            "task_set_hash": task_set_hash(tasks), "hash_basis": HASH_BASIS,
            "level": total["level"], "dimension": total["dimension"],
            "table8": table8(tasks, sites)}


def main() -> None:
    PATH.parent.mkdir(parents=True, exist_ok=True)
    PATH.write_text(json.dumps(grid_stats(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
