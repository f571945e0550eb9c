"""Run directory layout: manifest, tasks, one JSON trace per episode, results tables.

    DIR/manifest.json                                config, versions, task-set hash, invocations
    DIR/tasks.jsonl                                  one Task per line
    DIR/episodes/<agent>/<mode>/<task_id>.json       EpisodeTrace (written atomically)
    DIR/episodes/<agent>/<mode>/shots/               screenshots (browser mode, optional)
    DIR/events.jsonl                                 starts, retries, worker restarts, stops
    DIR/results.jsonl                                one summary row per stored episode
    DIR/episodes.parquet                             the same rows, rebuilt from the traces

The traces are the source of truth: ``results.jsonl`` grows as episodes end and both tables are
rebuilt from the traces when a run ends, so a killed run never leaves a wrong table behind.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from webmdp.errors import ConfigError
from webmdp.paths import check_name, under
from webmdp.redact import scrub, strict_dumps
from webmdp.tasks.cache import task_lines
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace

MIN_FREE_MB = 200
"""A run refuses to start (and stops) with less free space than this in its directory."""


class StoreError(ConfigError):
    """The run directory cannot hold results (unwritable, full): the run stops loudly."""


class RunStore:
    def __init__(self, root: Path):
        self.root = Path(root)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create run directory {self.root}: {exc}") from exc

    def episode_dir(self, agent: str, mode: str) -> Path:
        d = under(self.root, "episodes", check_name(agent, "agent"), check_name(mode, "mode"))
        d.mkdir(parents=True, exist_ok=True)
        return d

    def trace_path(self, agent: str, mode: str, task_id: str) -> Path:
        return under(self.episode_dir(agent, mode), f"{check_name(task_id, 'task id')}.json")

    def has(self, agent: str, mode: str, task_id: str) -> bool:
        """Whether a finished episode is stored: one that ended in ``infra_error`` (a browser,
        server or model endpoint fault, not the agent's doing) is run again on resume."""
        return _finished(under(self.root, "episodes", check_name(agent, "agent"),
                               check_name(mode, "mode"),
                               f"{check_name(task_id, 'task id')}.json"))

    def finished(self) -> set[tuple[str, str, str]]:
        """Keys ``(agent, mode, task_id)`` of every finished episode stored."""
        out = set()
        for path in (self.root / "episodes").glob("*/*/*.json"):
            if _finished(path):
                out.add((path.parent.parent.name, path.parent.name, path.stem))
        return out

    def add_tasks(self, tasks: list[Task], *, replace: bool = False) -> None:
        """Merge ``tasks`` into DIR/tasks.jsonl by id: existing lines are kept, or with
        ``replace`` overwritten by the new task of the same id. A task read from the disk
        cache is written as the bytes the cache holds (:func:`webmdp.tasks.cache.task_lines`),
        which are its JSON: no task is dumped again."""
        path = self.root / "tasks.jsonl"
        known: dict[str, bytes] = {}
        if path.is_file():
            known = dict(TaskLines(path).lines())
        for t, line in zip(tasks, task_lines(tasks), strict=True):
            if replace or t.id not in known:
                known[t.id] = line
        tmp = path.with_name(f".{path.name}.tmp")
        with tmp.open("wb") as fh:
            for line in known.values():
                fh.write(line.rstrip(b"\n") + b"\n")
        os.replace(tmp, path)

    def write_trace(self, trace: EpisodeTrace) -> Path:
        """Write the trace atomically (a temporary file beside it, then a rename): a reader
        or a resume never sees half a trace. Secrets are scrubbed (:mod:`~webmdp.redact`)."""
        path = self.trace_path(trace.agent, trace.mode, trace.task_id)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            tmp.write_text(scrub(trace.model_dump_json(indent=1)))
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise StoreError(f"cannot write {path}: {exc}") from exc
        return path

    def save(self, trace: EpisodeTrace) -> Path:
        """Write the trace atomically, then append its summary row."""
        path = self.write_trace(trace)
        self.append_row(summary_row(trace, path.relative_to(self.root)))
        return path

    def append_row(self, row: dict[str, Any]) -> None:
        self._append("results.jsonl", row)

    def log_event(self, event: str, **fields: Any) -> None:
        self._append("events.jsonl", {"t": round(time.time(), 3), "event": event, **fields})

    def _append(self, name: str, row: dict[str, Any]) -> None:
        try:
            with (self.root / name).open("a") as fh:
                fh.write(scrub(strict_dumps(row)) + "\n")
        except OSError as exc:
            raise StoreError(f"cannot write {self.root / name}: {exc}") from exc

    def check_space(self, min_free_mb: int = MIN_FREE_MB) -> None:
        """Fail loudly, before an episode runs, if the run directory cannot take results:
        a test write, then the free space."""
        probe = self.root / f".probe.{os.getpid()}"
        try:
            probe.write_text("ok")
            probe.unlink()
        except OSError as exc:
            raise StoreError(f"run directory {self.root} is not writable: {exc}") from exc
        free_mb = shutil.disk_usage(self.root).free // 2**20
        if free_mb < min_free_mb:
            raise StoreError(f"only {free_mb} MB free in {self.root} (need {min_free_mb} MB; "
                             "free space or choose another --out)")

    def clean_tmp(self) -> int:
        """Remove temporary trace files a killed writer left; returns how many."""
        stale = list((self.root / "episodes").glob("*/*/.*.tmp"))
        for p in stale:
            p.unlink(missing_ok=True)
        return len(stale)

    def rebuild_tables(self) -> list[dict[str, Any]]:
        """Rewrite ``results.jsonl`` and ``episodes.parquet`` from the traces; returns their
        rows (one per episode)."""
        rows = []
        for path in sorted((self.root / "episodes").glob("*/*/*.json")):
            row = _trace_row(path, path.relative_to(self.root))
            if row is not None:  # else not a trace (a torn file cannot exist: writes are atomic)
                rows.append(row)
        tmp = self.root / ".results.jsonl.tmp"
        tmp.write_text("".join(strict_dumps(r) + "\n" for r in rows))
        os.replace(tmp, self.root / "results.jsonl")
        _write_parquet(self.root / "results.jsonl", self.root / "episodes.parquet")
        return rows


def _finished(path: Path) -> bool:
    if not path.is_file():
        return False
    try:
        return json.loads(path.read_text()).get("termination") != "infra_error"
    except (OSError, ValueError):
        return False  # an unreadable trace is not a result


def summary_row(trace: EpisodeTrace, trace_file: Path) -> dict[str, Any]:
    """The ``results.jsonl`` row of an episode whose trace is at ``trace_file`` (relative to
    the run directory)."""
    calls = [c for s in trace.steps if s.notes for c in s.notes.model_calls]
    return {"task_id": trace.task_id, "site": trace.site, "template": trace.template,
            "agent": trace.agent, "mode": trace.mode, "success": trace.success,
            "termination": trace.termination, "gui_steps": len(trace.steps),
            "infra_error": trace.infra_error, "duration_s": round(trace.duration_s, 3),
            "prompt_tokens": sum(c.prompt_tokens or 0 for c in calls),
            "completion_tokens": sum(c.completion_tokens or 0 for c in calls),
            "model_calls": len(calls), "trace": str(trace_file)}


def _trace_row(path: Path, trace_file: Path) -> dict[str, Any] | None:
    """:func:`summary_row` of the trace stored at ``path``, read as JSON (orjson) rather than
    validated as an :class:`EpisodeTrace`: a run's end reads every trace, and validating a
    thousand of them was most of its time. The same row; ``None`` for a file that is no
    trace."""
    try:
        d = orjson.loads(path.read_bytes())
        steps = d.get("steps") or []
        calls = [c for s in steps if s.get("notes")
                 for c in s["notes"].get("model_calls") or []]
        return {"task_id": d["task_id"], "site": d["site"], "template": d["template"],
                "agent": d["agent"], "mode": d["mode"], "success": bool(d.get("success", False)),
                "termination": d.get("termination", "finished"), "gui_steps": len(steps),
                "infra_error": d.get("infra_error"),
                "duration_s": round(float(d.get("duration_s", 0.0)), 3),
                "prompt_tokens": sum(c.get("prompt_tokens") or 0 for c in calls),
                "completion_tokens": sum(c.get("completion_tokens") or 0 for c in calls),
                "model_calls": len(calls), "trace": str(trace_file)}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


_ID = re.compile(rb'^\{(?:"version":\d+,)?"id":"([^"\\]*)"')


class TaskLines:
    """A run's ``tasks.jsonl`` by id, each task parsed when first asked for: a worker reads
    only the tasks it runs. Ids come from the line's start, as webmdp writes it, else from the
    parsed line."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._lines: dict[str, bytes] | None = None
        self._tasks: dict[str, Task] = {}
        self._lock = threading.Lock()

    def lines(self) -> Iterator[tuple[str, bytes]]:
        """(id, JSON line) in file order."""
        return iter(self._index().items())

    def _index(self) -> dict[str, bytes]:
        if self._lines is None:
            data = self.path.read_bytes() if self.path.is_file() else b""
            out = {}
            for line in data.splitlines():
                if not line.strip():
                    continue
                m = _ID.match(line)
                out[m.group(1).decode() if m else orjson.loads(line)["id"]] = line
            self._lines = out
        return self._lines

    def __contains__(self, task_id: object) -> bool:
        return task_id in self._index()

    def __getitem__(self, task_id: str) -> Task:
        with self._lock:
            if task_id not in self._tasks:
                self._tasks[task_id] = Task.model_validate(orjson.loads(self._index()[task_id]))
            return self._tasks[task_id]


def _write_parquet(jsonl: Path, path: Path) -> None:
    """``episodes.parquet`` from the ``results.jsonl`` just written, read by Arrow's own JSON
    reader: building the table from Python rows made pyarrow import pandas (0.5-1 s) in every
    run's parent."""
    import pyarrow as pa
    import pyarrow.json as pj
    import pyarrow.parquet as pq

    s, i = pa.string(), pa.int64()
    schema = pa.schema([("task_id", s), ("site", s), ("template", s), ("agent", s),
                        ("mode", s), ("success", pa.bool_()), ("termination", s),
                        ("gui_steps", i), ("infra_error", s), ("duration_s", pa.float64()),
                        ("prompt_tokens", i), ("completion_tokens", i), ("model_calls", i),
                        ("trace", s)])  # explicit: a column empty in one run is still typed
    if jsonl.stat().st_size == 0:
        table = schema.empty_table()
    else:
        table = pj.read_json(jsonl, parse_options=pj.ParseOptions(
            explicit_schema=schema, unexpected_field_behavior="ignore")).select(schema.names)
    tmp = path.with_name(f".{path.name}.tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)
