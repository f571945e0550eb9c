"""Statistics of a cross-site task set (CAP Table 2): per category, the distinct types across
all tasks and the per-task average, minimum and maximum."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from webmdp.tasks.model import Task

_ROWS: dict[str, Callable[[Task], list[str]]] = {
    "Clusters": lambda t: sorted(set(t.cross.clusters)) if t.cross else [],
    "Websites": lambda t: sorted(set(t.sites or ())),
    "Functions": lambda t: sorted(set(t.cross.functions)) if t.cross else [],
    "Execution": lambda t: [str(p.type_id) for p in t.cross.covered if p.kind == "action"]
    if t.cross else [],
    "Perception": lambda t: [str(p.type_id) for p in t.cross.covered
                             if p.kind == "perception" and p.type_id] if t.cross else [],
}


def table2(tasks: Sequence[Task]) -> dict[str, Any]:
    """``{"n", "table2": {row: {types, avg, min, max}}, "patterns", "sites_per_task",
    "site_tasks"}``. Execution and perception count covered points per task and distinct
    CAP types across tasks."""
    rows: dict[str, dict[str, float | int]] = {}
    for name, items in _ROWS.items():
        per = [items(t) for t in tasks]
        sizes = [len(x) for x in per] or [0]
        rows[name] = {"types": len({i for x in per for i in x}),
                      "avg": round(sum(sizes) / len(sizes), 2), "min": min(sizes),
                      "max": max(sizes)}
    return {
        "n": len(tasks), "table2": rows,
        "patterns": dict(sorted(Counter(t.template for t in tasks).items())),
        "sites_per_task": dict(sorted(Counter(len(t.sites or ()) for t in tasks).items())),
        "site_tasks": dict(sorted(Counter(s for t in tasks for s in t.sites or ()).items())),
    }
