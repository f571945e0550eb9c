"""The viewer's light index of one or more run directories, built once at start-up.

Listing 10,000 episodes must not read 10,000 traces: an episode's row comes from the run's
``results.jsonl`` (the runner's :func:`~webmdp.runner.store.summary_row`), and only a trace
with no row, or written after the table (a run still going), is read to make one. A task's row
is the head of its ``tasks.jsonl`` line: the line up to the world (the world is the last and by
far the largest field a task serialises), with the line's byte offset kept so the full
:class:`Task` is read only when an episode of it is opened. Traces are read lazily too, and a
few are kept in memory.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from webmdp.errors import ConfigError
from webmdp.eval.disagreements import read_recorded
from webmdp.eval.importers.webstep import RecordedValues
from webmdp.runner.store import summary_row
from webmdp.sites.cross.site import NAME as CROSS_SITE
from webmdp.tasks.model import Task
from webmdp.tasks.rubric import is_unjudged
from webmdp.trace import EpisodeTrace

RESULTS = "results.jsonl"
TASKS = "tasks.jsonl"
_WORLD = b',"world":'
_HEAD = frozenset({"id", "site", "template", "instruction", "complexity"})
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class TaskRef:
    """What the task list shows and filters on; ``offset`` locates the full task."""

    id: str
    site: str
    template: str
    instruction: str
    hard_negatives: int
    access_level: str
    oracle_length: int
    run: int
    offset: int


@dataclass(frozen=True, slots=True)
class EpisodeRef:
    """One stored episode, as its results row describes it."""

    run: int
    agent: str
    mode: str
    task_id: str
    success: bool
    termination: str
    infra_error: str | None
    gui_steps: int
    duration_s: float
    prompt_tokens: int
    completion_tokens: int
    trace: Path

    @property
    def label(self) -> str:
        """``agent (mode)``, as the report's tables name an agent."""
        return f"{self.agent} ({self.mode})"

    @property
    def outcome(self) -> str:
        """``success``, ``failure`` (the agent's, scored) or ``error`` (infrastructure)."""
        if self.termination == "infra_error":
            return "error"
        return "success" if self.success else "failure"

    @property
    def key(self) -> tuple[str, str, str]:
        return self.agent, self.mode, self.task_id


class _LRU(Generic[K, V]):
    """A small thread-safe least-recently-used cache (routes run on a thread pool)."""

    def __init__(self, size: int):
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
        value = make()
        with self._lock:
            self._data[key] = value
            while len(self._data) > self.size:
                self._data.popitem(last=False)
        return value


def _task_head(line: bytes) -> dict[str, Any]:
    """The fields of a task line before its world. A cut at a nested ``"world"`` key leaves
    an unclosed brace and fails to parse, so the first cut that parses is the top-level key;
    a line in another key order is parsed whole."""
    start = 0
    while (i := line.find(_WORLD, start)) != -1:
        try:
            head = json.loads(line[:i] + b"}")
        except ValueError:
            start = i + 1
            continue
        if isinstance(head, dict) and head.keys() >= _HEAD:
            return head
        break
    full = json.loads(line)
    if not isinstance(full, dict):
        raise ValueError("not a JSON object")
    return full


def read_task_refs(path: Path, run: int) -> tuple[list[TaskRef], list[tuple[str, str]]]:
    """Task rows of a ``tasks.jsonl`` and the lines that could not be read."""
    refs: list[TaskRef] = []
    bad: list[tuple[str, str]] = []
    offset = 0
    with path.open("rb") as fh:
        for n, line in enumerate(fh, 1):
            at, offset = offset, offset + len(line)
            if not line.strip():
                continue
            try:
                d = _task_head(line)
                cx = d["complexity"]
                refs.append(TaskRef(
                    id=str(d["id"]), site=str(d["site"]), template=str(d["template"]),
                    instruction=str(d["instruction"]),
                    hard_negatives=int(cx["hard_negative_count"]),
                    access_level=str(cx["access_level"]), oracle_length=int(cx["oracle_length"]),
                    run=run, offset=at))
            except (ValueError, KeyError, TypeError) as e:
                bad.append((f"{path}:{n}", f"unreadable task: {e}"))
    return refs, bad


def _trace_files(root: Path) -> dict[str, float]:
    """``episodes/<agent>/<mode>/<task>.json`` relative paths -> modification time."""
    out: dict[str, float] = {}
    base = root / "episodes"
    for agent in _dirs(base):
        for mode in _dirs(Path(agent.path)):
            with os.scandir(mode.path) as it:
                for e in it:
                    if e.name.endswith(".json") and not e.name.startswith(".") and e.is_file():
                        out[f"episodes/{agent.name}/{mode.name}/{e.name}"] = e.stat().st_mtime
    return out


def _dirs(path: Path) -> list[os.DirEntry[str]]:
    if not path.is_dir():
        return []
    with os.scandir(path) as it:
        return sorted((e for e in it if e.is_dir()), key=lambda e: e.name)


def read_rows(root: Path) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """A summary row per trace file of a run: from ``results.jsonl`` where the row is as new
    as the trace, else from the trace itself. Rows of missing traces are dropped."""
    files = _trace_files(root)
    table = root / RESULTS
    rows: dict[str, dict[str, Any]] = {}
    bad: list[tuple[str, str]] = []
    if table.is_file():
        written = table.stat().st_mtime
        with table.open("rb") as fh:
            for line in fh:
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                    rel = row["trace"]
                except (ValueError, KeyError, TypeError):
                    continue  # the table is derived: the trace file is read instead
                mtime = files.get(rel)
                if mtime is not None and mtime <= written:
                    rows[rel] = row
    for rel in sorted(set(files) - set(rows)):
        path = root / rel
        try:
            trace = EpisodeTrace.model_validate_json(path.read_bytes())
        except (OSError, ValueError) as e:
            bad.append((str(path), f"corrupt trace: {str(e).splitlines()[0]}"))
            continue
        rows[rel] = summary_row(trace, Path(rel))
    return [rows[k] for k in sorted(rows)], bad


def _episode(row: dict[str, Any], root: Path, run: int) -> EpisodeRef:
    return EpisodeRef(
        run=run, agent=str(row["agent"]), mode=str(row["mode"]), task_id=str(row["task_id"]),
        success=bool(row["success"]), termination=str(row["termination"]),
        infra_error=row.get("infra_error"), gui_steps=int(row.get("gui_steps") or 0),
        duration_s=float(row.get("duration_s") or 0.0),
        prompt_tokens=int(row.get("prompt_tokens") or 0),
        completion_tokens=int(row.get("completion_tokens") or 0), trace=root / row["trace"])


@dataclass
class RunIndex:
    """Every episode of the loaded runs, by task, with lazily read tasks and traces."""

    runs: list[Path]
    tasks: dict[str, TaskRef] = field(default_factory=dict)
    episodes: dict[tuple[str, str, str], EpisodeRef] = field(default_factory=dict)
    by_task: dict[str, list[EpisodeRef]] = field(default_factory=dict)
    agents: list[str] = field(default_factory=list)
    common: set[str] = field(default_factory=set)
    """Tasks every run with episodes covers (what ``webmdp report`` analyses)."""
    differing: bool = False
    """Whether the runs cover different task sets."""
    skipped: list[tuple[str, str]] = field(default_factory=list)
    _task_cache: _LRU[str, Task] = field(default_factory=lambda: _LRU(256))
    _trace_cache: _LRU[tuple[str, str, str], EpisodeTrace] = field(
        default_factory=lambda: _LRU(64))
    _recorded: dict[int, dict[tuple[str, str, str], RecordedValues]] = field(
        default_factory=dict)
    _rubric: dict[tuple[str, str, str], float | None] = field(default_factory=dict)

    @classmethod
    def load(cls, run_dirs: Sequence[str | Path]) -> RunIndex:
        """Index ``run_dirs``. A directory without ``tasks.jsonl`` is a :class:`ConfigError`;
        an unreadable task or trace, a trace of an unknown task and the same episode in a
        second run are skipped and named (the first run's is kept, as in ``webmdp report``)."""
        index = cls(runs=[Path(r) for r in run_dirs])
        for run, root in enumerate(index.runs):
            if not (root / TASKS).is_file():
                raise ConfigError(f"{root}: not a run directory (no {TASKS})")
            refs, bad = read_task_refs(root / TASKS, run)
            index.skipped += bad
            own = {r.id for r in refs}
            for ref in refs:
                index.tasks.setdefault(ref.id, ref)
            rows, bad = read_rows(root)
            index.skipped += bad
            for row in rows:
                try:
                    ep = _episode(row, root, run)
                except (KeyError, TypeError, ValueError) as e:
                    index.skipped.append((str(root / str(row.get("trace"))), f"bad row: {e}"))
                    continue
                index._add(ep, own)
        order = {tid: i for i, tid in enumerate(index.tasks)}
        index.by_task = {tid: sorted(eps, key=lambda e: e.label) for tid, eps in sorted(
            index.by_task.items(), key=lambda kv: order[kv[0]])}
        index.agents = sorted({e.label for e in index.episodes.values()})
        per_run: dict[int, set[str]] = {}
        for ep in index.episodes.values():
            per_run.setdefault(ep.run, set()).add(ep.task_id)
        sets = list(per_run.values())
        index.common = set.intersection(*sets) if sets else set()
        index.differing = any(s != index.common for s in sets)
        return index

    def _add(self, ep: EpisodeRef, own: set[str]) -> None:
        if ep.task_id not in own:
            self.skipped.append((str(ep.trace), f"task '{ep.task_id}' is not in "
                                                f"{self.runs[ep.run] / TASKS}"))
        elif ep.key in self.episodes:
            self.skipped.append((str(ep.trace), "duplicate episode (kept the first run's)"))
        else:
            self.episodes[ep.key] = ep
            self.by_task.setdefault(ep.task_id, []).append(ep)

    # -- lazy reads ------------------------------------------------------------------------
    def episode(self, agent: str, mode: str, task_id: str) -> EpisodeRef | None:
        return self.episodes.get((agent, mode, task_id))

    def task(self, task_id: str) -> Task:
        """The full task (world included), read from its line of ``tasks.jsonl``."""
        ref = self.tasks[task_id]

        def read() -> Task:
            with (self.runs[ref.run] / TASKS).open("rb") as fh:
                fh.seek(ref.offset)
                return Task.model_validate_json(fh.readline())
        return self._task_cache.get(task_id, read)

    def trace(self, ep: EpisodeRef) -> EpisodeTrace:
        """The episode's full trace (raises ``OSError`` / ``ValueError`` when unreadable)."""
        return self._trace_cache.get(
            ep.key, lambda: EpisodeTrace.model_validate_json(ep.trace.read_bytes()))

    def recorded(self, ep: EpisodeRef) -> RecordedValues | None:
        """What an imported bundle recorded for the episode (its run's ``recorded.jsonl``)."""
        if ep.run not in self._recorded:
            self._recorded[ep.run] = read_recorded(self.runs[ep.run])[0]
        return self._recorded[ep.run].get(ep.key)

    def screenshot(self, ep: EpisodeRef, rel: str) -> Path | None:
        """The screenshot file a step of ``ep`` names (relative to its trace), or None unless
        it is a regular ``.png`` file inside the episode's run directory (links resolved): a
        trace cannot make the viewer read anything else."""
        path = (ep.trace.parent / rel).resolve()
        if not path.is_relative_to(self.runs[ep.run].resolve()) or \
                path.suffix.lower() != ".png" or not path.is_file():
            return None
        return path

    def rubric_root(self, ep: EpisodeRef) -> float | None:
        """A cross-site episode's rubric root score (CAP eq. 2), NaN when unjudged; None for
        a single-site episode or an unreadable trace. Read when a page shows the episode (its
        trace, once), not when the index is built."""
        ref = self.tasks.get(ep.task_id)
        if ref is None or ref.site != CROSS_SITE:
            return None
        if ep.key not in self._rubric:
            from webmdp.eval.cap_section import rubric_of

            try:
                result = rubric_of(self.trace(ep), self.task(ep.task_id))
            except (OSError, ValueError):
                result = None
            self._rubric[ep.key] = None if result is None else result.root
        return self._rubric[ep.key]

    def rubric_label(self, ep: EpisodeRef) -> str | None:
        """What the task list shows beside a cross-site episode's mark: its root score
        (``0.63``) or ``unjudged``; None for a single-site episode."""
        root = self.rubric_root(ep)
        if root is None:
            return None
        return "unjudged" if is_unjudged(root) else f"{root:.2f}"

    def values(self, attr: str) -> list[str]:
        """Distinct values of a task attribute over the indexed tasks with episodes."""
        return sorted({str(getattr(self.tasks[t], attr)) for t in self.by_task})

    def siblings(self, task_id: str) -> Iterable[EpisodeRef]:
        """Every agent's episode of the task."""
        return self.by_task.get(task_id, [])
