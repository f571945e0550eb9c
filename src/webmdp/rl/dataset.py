"""The dataset a trainer reads beside the environment classes: one row per task of a split,
with a conversational ``prompt`` (TRL appends ``reset``'s observation to its last message), the
``task_id`` that ``reset`` reads, and ``site``, ``template``, ``level`` (1-3 or null),
``split``, ``holdout`` and ``split_version`` to filter on and to cite. For several sites an
``environment`` column names the class of :func:`webmdp.rl.trl.environment`'s dict that
serves the row."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webmdp.rl.splits import (
    ALL,
    CROSS,
    FILE,
    SPLIT_VERSION,
    Catalog,
    default_split,
    level_of,
    resolve_path,
)

COLUMNS = ("prompt", "task_id", "site", "template", "level", "split", "holdout",
           "split_version")


def rows(site: str = ALL, split: str | None = None, limit: int | None = None, *,
         level: int | str | None = None, holdout: str = "task",
         tasks: str | Path | None = None, suite: str = "builtin") -> list[dict[str, Any]]:
    """The rows of ``split`` (narrowed to ``level``) under ``holdout``, in its fixed order
    (at most ``limit``), from ``suite`` (``builtin``, ``cross-site`` or ``grid``); ``tasks``:
    a task file, whose tasks are the split ``file``, the default split when a file is given
    (else ``train``). A file with another split named raises ValueError: the file would be
    ignored."""
    if tasks is not None and split not in (None, FILE):
        raise ValueError(f"tasks {tasks} are the split 'file' (the file's own tasks); split "
                         f"{split!r} would ignore them: drop the split, or the file")
    split = default_split(split, tasks)
    catalog = Catalog(site, resolve_path(tasks), holdout, suite)  # type: ignore[arg-type]
    chosen = list(catalog.tasks(split, level))[:limit]
    several = site == ALL
    out = []
    for t in chosen:
        row: dict[str, Any] = {"prompt": [{"role": "user", "content": t.instruction}],
                               "task_id": t.id, "site": CROSS if t.sites else t.site,
                               "template": t.template, "level": level_of(t), "split": split,
                               "holdout": str(catalog.holdout),
                               "split_version": SPLIT_VERSION}
        if several:
            row["environment"] = row["site"]
        out.append(row)
    return out


def write(path: Path, data: list[dict[str, Any]]) -> None:
    """``.jsonl`` (one JSON object per line) or ``.parquet`` (pyarrow), both of which
    ``datasets.load_dataset`` reads."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        schema = None
        if data:  # level is an integer column even when a slice holds only nulls
            table = pa.Table.from_pylist(data)
            schema = table.schema.set(table.schema.get_field_index("level"),
                                      pa.field("level", pa.int64()))
        pq.write_table(pa.Table.from_pylist(data, schema=schema), path)
        return
    with path.open("w", encoding="utf-8") as fh:
        for r in data:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
