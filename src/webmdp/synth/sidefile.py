"""Side files of a run's synthesized data: ``RUN/synth/grades-<source>.jsonl`` and
``RUN/synth/thoughts-<source>.jsonl``. Each row is keyed by run label (``agent``, with
``@sN``), ``mode``, ``task_id`` and ``step``; each file is written whole and atomically (a
temporary file renamed over it), so an interrupted command never leaves half a file."""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from webmdp.errors import ConfigError
from webmdp.redact import scrubbed_line

Row = dict[str, Any]
RowKey = tuple[str, str, str, int, int]
_SOURCE = re.compile(r"^[A-Za-z0-9_.:-]+$")


def row_key(row: Row) -> RowKey:
    """(run label, mode, task id, step, sample): ``sample`` tells apart the repeated gradings
    of one step (``--samples k``); it is 0 when absent."""
    return (str(row["agent"]), str(row["mode"]), str(row["task_id"]), int(row["step"]),
            int(row.get("sample", 0)))


def step_key(row: Row) -> tuple[str, str, str, int]:
    """The step a row is about, whatever its sample."""
    return row_key(row)[:4]  # type: ignore[return-value]


def synth_dir(run: Path) -> Path:
    return run / "synth"


def source_name(source: str) -> str:
    """The file-name part of a grade source: ``steprm:/path/model`` -> ``steprm``."""
    name = source.split(":", 1)[0] if source.startswith("steprm:") else source
    if not _SOURCE.match(name):
        raise ConfigError(f"grade source {source!r}: use letters, digits, '.', '_', ':' or '-'")
    return name


def grades_path(run: Path, source: str) -> Path:
    return synth_dir(run) / f"grades-{source_name(source)}.jsonl"


def thoughts_path(run: Path, source: str) -> Path:
    return synth_dir(run) / f"thoughts-{source_name(source)}.jsonl"


def episode_key(row: Row) -> tuple[str, str, str]:
    """(run label, mode, task id): the key of a per-trajectory row (trajectories.jsonl)."""
    return (str(row["agent"]), str(row["mode"]), str(row["task_id"]))


def write_rows(path: Path, rows: Iterable[Row], key: Callable[[Row], Any] = row_key) -> int:
    """Write ``rows`` sorted by ``key``, atomically; returns how many."""
    ordered = sorted(rows, key=key)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for row in ordered:
                fh.write(scrubbed_line(row))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(ordered)


def read_rows(path: Path, key: Callable[[Row], Any] = row_key) -> list[Row]:
    """Rows of a side file (or of a human-labelled JSONL file with the same keys); every row
    must carry the fields ``key`` reads."""
    if not path.is_file():
        raise ConfigError(f"{path}: no such file")
    out: list[Row] = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                key(row)
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
                fields = "agent, mode, task_id" + (", step" if key is row_key else "")
                raise ConfigError(f"{path}:{n}: not a row with {fields} "
                                  f"({type(e).__name__}: {e})") from None
            out.append(row)
    return out


def grade_rows(run: Path, source: str) -> list[Row]:
    """The rows of a grade source stored in ``run`` (exact, model, steprm), or of a JSONL file
    given by path (e.g. human labels); a one-line error naming the command that makes them."""
    if source.endswith(".jsonl") or "/" in source:
        return read_rows(Path(source))
    path = grades_path(run, source)
    if not path.is_file():
        how = f"webmdp synth grade {run}" + ("" if source == "exact" else f" --grader {source}")
        raise ConfigError(f"{run}: no {source} grades yet (run `{how}`)")
    return read_rows(path)
