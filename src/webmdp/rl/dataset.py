"""The dataset a trainer reads beside the environment classes: one row per task of a split,
with a conversational ``prompt`` (TRL appends ``reset``'s observation to its last message), the
``task_id`` that ``reset`` reads, and ``site``, ``level`` and ``split`` to filter on (a curriculum
by measured difficulty is one filter on ``level``). For several sites an ``environment`` column
names the class of :func:`webmdp.rl.trl.environment`'s dict that serves the row."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webmdp.rl.splits import ALL, CROSS, Catalog

COLUMNS = ("prompt", "task_id", "site", "level", "split")


def rows(site: str = ALL, split: str = "train", limit: int | None = None) -> list[dict[str, Any]]:
    """The split's rows in its fixed order (at most ``limit``)."""
    tasks = list(Catalog(site).tasks(split))[:limit]
    several = site == ALL
    out = []
    for t in tasks:
        level = t.difficulty.level if t.difficulty is not None else None
        row: dict[str, Any] = {"prompt": [{"role": "user", "content": t.instruction}],
                               "task_id": t.id, "site": t.site,
                               "level": None if level is None else str(level), "split": split}
        if several:
            row["environment"] = t.site
        out.append(row)
    if site == CROSS:
        for r in out:
            r["site"] = CROSS
    return out


def write(path: Path, data: list[dict[str, Any]]) -> None:
    """``.jsonl`` (one JSON object per line) or ``.parquet`` (pyarrow), both of which
    ``datasets.load_dataset`` reads."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(data), path)
        return
    with path.open("w", encoding="utf-8") as fh:
        for r in data:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
