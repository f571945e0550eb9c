"""Task files: JSONL, one Task per line, with errors that name file, line and field."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from webmdp.errors import TaskFileError
from webmdp.tasks.model import Task


def write_tasks(path: str | Path, tasks: Iterable[Task]) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("w") as fh:
        for t in tasks:
            fh.write(t.model_dump_json() + "\n")
    tmp.replace(path)


def read_tasks(path: str | Path) -> list[Task]:
    """Load a JSONL task file; a bad line raises :class:`TaskFileError` (file, line, field)."""
    path = Path(path)
    if not path.is_file():
        raise TaskFileError(str(path), 0, "-", "no such file")
    out = []
    with path.open() as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise TaskFileError(str(path), lineno, "-", f"invalid JSON ({exc.msg})") from exc
            try:
                out.append(Task.model_validate(data))
            except ValidationError as exc:
                err = exc.errors()[0]
                field = ".".join(str(p) for p in err["loc"]) or "-"
                raise TaskFileError(str(path), lineno, field, err["msg"]) from exc
    return out
