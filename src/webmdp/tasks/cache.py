"""A disk cache of generated task sets, shared by every process on the machine.

Generating a site's 180 tasks replays and checks 180 oracles (2-6 s a site; the 350 cross-site
tasks take about a minute); reading them back takes a tenth of a second. Every process that
needs a built-in set (a ``webmdp run`` in a fresh shell, a runner worker, a test's subprocess)
therefore reads it from ``$WEBMDP_CACHE_DIR`` (default ``~/.cache/webmdp``, or under
``$XDG_CACHE_HOME``), and the first one to build it writes it there.

An entry is keyed by the content of the installed ``webmdp`` package (every file of it, so any
change to a site, a template or the generator makes a new key), the Python version and the
set's own name. Generation is deterministic, so a hit gives the tasks a build would, byte for
byte. ``WEBMDP_CACHE_DIR=off`` turns the cache off; an unwritable directory or an unreadable
entry is a miss, never an error. Writing under a new key removes all but the
:data:`KEEP` most recent other keys' entries; deleting the directory is always safe.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import mmap
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import orjson

from webmdp.plugins import plugin_roots
from webmdp.tasks.io import parse_lines, paused_gc
from webmdp.tasks.model import Task

T = TypeVar("T")
CACHE_ENV = "WEBMDP_CACHE_DIR"
KEEP = 3
"""Package versions (keys) whose entries are kept."""
_PACKAGE = Path(__file__).resolve().parents[1]


def cache_dir() -> Path | None:
    """Where entries live, or ``None`` when the cache is off."""
    given = os.environ.get(CACHE_ENV)
    if given is not None:
        return None if given.strip().lower() in ("", "off", "0", "none") else Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "webmdp"


@cache
def code_key() -> str:
    """A digest of every file of the installed package and of every installed plugin's
    package (:func:`webmdp.plugins.plugin_roots`), with the Python version: editing a plugin's
    site makes a new key, so its tasks are never served stale."""
    h = hashlib.sha256(f"{sys.version_info.major}.{sys.version_info.minor}".encode())
    _digest(h, _PACKAGE)
    for name, root in _plugin_roots():
        h.update(b"\0plugin\0" + name.encode() + b"\0")
        _digest(h, root)
    return h.hexdigest()[:20]


@cache
def _plugin_roots() -> tuple[tuple[str, Path], ...]:
    """The plugin packages this process's key covers, read once (as the key is)."""
    return tuple(plugin_roots())


def covers(module: str) -> bool:
    """Whether :func:`code_key` covers ``module``'s code: webmdp's own, or a module of an
    installed plugin's package (so its generated tasks may be cached)."""
    top = module.split(".")[0]
    return top == _PACKAGE.name or any(top == name for name, _ in _plugin_roots())


def _digest(h: Any, root: Path) -> None:
    files = [root] if root.is_file() else sorted(root.rglob("*"))
    for path in files:
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            h.update(str(path.relative_to(root.parent)).encode() + b"\0")
            h.update(path.read_bytes())


def _entry(name: str, kind: str = "tasks", suffix: str = ".jsonl") -> Path | None:
    root = cache_dir()
    return None if root is None else root / kind / code_key() / f"{name}{suffix}"


def cached_tasks(name: str, build: Callable[[], Sequence[Task]]) -> tuple[Task, ...]:
    """The task set ``name`` from the cache, or built by ``build`` and stored."""
    return _cached(_entry(name), _read, lambda: tuple(build()), tasks_text)


def cached_json(kind: str, name: str, build: Callable[[], T], dump: Callable[[T], Any],
                load: Callable[[Any], T]) -> T:
    """Any value derived from the package alone (a site card), under ``kind/``: read with
    ``load`` from the JSON ``dump`` gave, or built and stored. Keyed, pruned and failing
    like task sets (a bad entry is a miss)."""
    return _cached(_entry(name, kind, ".json"), lambda e: load(orjson.loads(e.read_bytes())),
                   build, lambda value: orjson.dumps(dump(value)).decode())


def _cached(entry: Path | None, read: Callable[[Path], T], build: Callable[[], T],
            text: Callable[[T], str]) -> T:
    """Read ``entry``; on a miss, build under the entry's lock (so processes that miss at once,
    such as test workers, build it once: the others wait, then read) and store it."""
    if entry is None:
        return build()
    hit = _try(read, entry)
    if hit is not None:
        return hit
    with _lock(entry):
        hit = _try(read, entry)
        if hit is not None:
            return hit
        value = build()
        _store(entry, text(value))
    return value


def _try(read: Callable[[Path], T], entry: Path) -> T | None:
    """A hit, or ``None``: a miss, an entry cut short, one another version wrote."""
    try:
        return read(entry)
    except (OSError, ValueError, KeyError, TypeError):
        return None


@contextlib.contextmanager
def _lock(entry: Path) -> Iterator[None]:
    """An exclusive lock on ``entry``'s lock file (a new key's folder pruned and made first);
    where no lock can be taken, the build goes ahead without one."""
    try:
        if not entry.parent.is_dir():
            _prune(entry.parent.parent)
        entry.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(entry.parent / f".{entry.name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _read(entry: Path) -> tuple[Task, ...]:
    """An entry's tasks (a malformed entry is still a miss). Each task remembers where its
    line is (:func:`task_lines`, :func:`canonical_lines` read the stored bytes back)."""
    tasks = parse_tasks(entry.read_bytes())
    with _ORIGIN_LOCK:
        for k, t in enumerate(tasks):
            _ORIGIN[id(t)] = (t, entry, k)
            _AT.setdefault((entry, k), t)
    return tasks


def cached_path(name: str) -> Path | None:
    """The entry of the task set ``name`` if the cache holds it (nothing is read)."""
    entry = _entry(name)
    return entry if entry is not None and entry.is_file() else None


# -- the stored bytes of tasks read from the cache ------------------------------------------------
_ORIGIN: dict[int, tuple[Task, Path, int]] = {}
"""``id(task)`` -> (the task, its entry, its line): the tasks this process read from the
cache (the task is held, so its id is never reused)."""
_ORIGIN_LOCK = threading.Lock()
_AT: dict[tuple[Path, int], Task] = {}
"""(entry, line) -> the task this process read there (a line is validated once)."""


def task_lines(tasks: Sequence[Task]) -> list[bytes]:
    """Each task's JSON line (``model_dump_json``): the entry's stored bytes for a task read
    from the cache, which are exactly that (tasks are written so and generation is
    deterministic), else dumped now."""
    return _lines(tasks, "", lambda t: t.model_dump_json().encode())


def canonical_lines(tasks: Sequence[Task], kind: str,
                    canon: Callable[[dict[str, Any]], bytes]) -> list[bytes]:
    """``canon`` of each task's JSON object (a run's task-set hash: its canonical form). For
    a task read from the cache, from a sidecar of its entry (``<entry>.<kind>``) computed
    once from the stored bytes and kept beside it; else from ``model_dump(mode="json")``.
    ``kind`` names the form (a new form, a new name)."""
    return _lines(tasks, kind, lambda t: canon(t.model_dump(mode="json")),
                  lambda line: canon(orjson.loads(line)))


def _lines(tasks: Sequence[Task], kind: str, fallback: Callable[[Task], bytes],
           derive: Callable[[bytes], bytes] | None = None) -> list[bytes]:
    out: list[bytes | None] = [None] * len(tasks)
    by_entry: dict[Path, list[tuple[int, int]]] = {}
    for k, t in enumerate(tasks):
        origin = _ORIGIN.get(id(t))
        if origin is not None and origin[0] is t:
            by_entry.setdefault(origin[1], []).append((k, origin[2]))
    for entry, wanted in by_entry.items():
        lines = _entry_lines(entry, kind, derive, sorted({i for _, i in wanted}))
        for k, i in wanted:
            out[k] = None if lines is None else lines.get(i)
    return [line if line is not None else fallback(t) for line, t in zip(out, tasks, strict=True)]


def _entry_lines(entry: Path, kind: str, derive: Callable[[bytes], bytes] | None,
                 wanted: list[int]) -> dict[int, bytes] | None:
    """Lines ``wanted`` (their numbers) of the entry, or of its ``kind`` sidecar (built from
    the entry's lines when missing or not line for line); None when unreadable (the caller
    falls back). Only the wanted lines are copied out of the mapped files."""
    try:
        with _mapped(entry) as raw:
            spans = _spans(raw)
            if derive is None:
                return {i: raw[spans[i][0]:spans[i][1]] for i in wanted if i < len(spans)}
            if not kind:  # derived for this call only, kept nowhere
                with paused_gc():
                    return {i: derive(raw[spans[i][0]:spans[i][1]]) for i in wanted
                            if i < len(spans)}
            side = entry.with_name(f"{entry.name}.{kind}")
            with contextlib.suppress(OSError, ValueError), _mapped(side) as mm:
                found = _spans(mm)
                if len(found) == len(spans):
                    return {i: mm[found[i][0]:found[i][1]] for i in wanted if i < len(found)}
            with paused_gc():
                lines = [derive(raw[a:b]) for a, b in spans]
    except (OSError, ValueError):
        return None
    _store(side, "".join(line.decode() + "\n" for line in lines))
    return {i: lines[i] for i in wanted if i < len(lines)}


@contextlib.contextmanager
def _mapped(path: Path) -> Iterator[bytes]:
    """``path``'s bytes, mapped (read-only) rather than read: an empty file gives ``b""``."""
    with path.open("rb") as fh:
        if os.fstat(fh.fileno()).st_size == 0:
            yield b""
            return
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            yield mm  # type: ignore[misc]


def _spans(data: Any) -> list[tuple[int, int]]:
    """(start, end) of each line of ``data`` (as ``bytes.splitlines`` splits the JSONL an
    entry holds, whose lines hold no carriage return), found without copying."""
    spans = []
    pos, size = 0, len(data)
    while pos < size:
        end = data.find(b"\n", pos)
        if end < 0:
            end = size
        stop = end - 1 if end > pos and data[end - 1:end] == b"\r" else end
        spans.append((pos, stop))
        pos = end + 1
    return spans


# -- an entry's index: the light rows selection filters, and where each line lies ----------------
INDEX = "index1"
"""The index sidecar's suffix (``<entry>.index1``); a new layout, a new name."""


@dataclass(frozen=True)
class RowComplexity:
    hard_negative_count: int
    access_level: str


@dataclass(frozen=True, eq=False)
class TaskRow:
    """A cached task as selection sees it: the fields its filters and messages read (named
    as on :class:`Task`), and where its line lies in its entry (:func:`load_rows` validates
    that line only)."""

    id: str
    site: str
    template: str
    complexity: RowComplexity
    entry: Path
    line: int
    offset: int
    size: int


def entry_rows(entry: Path) -> list[TaskRow] | None:
    """The rows of ``entry``, one per task in its order, from its index sidecar (computed once
    from the stored bytes and kept beside it, rebuilt when it does not match the entry's
    size); ``None`` when the entry cannot be read."""
    side = entry.with_name(f"{entry.name}.{INDEX}")
    try:
        size = entry.stat().st_size
    except OSError:
        return None
    index = _try(lambda p: orjson.loads(p.read_bytes()), side)
    if not isinstance(index, dict) or index.get("size") != size:
        index = _try(_index, entry)
        if index is None:
            return None
        _store(side, orjson.dumps(index).decode())
    return [TaskRow(i, site, tpl, RowComplexity(hn, access), entry, k, off, n)
            for k, (i, site, tpl, hn, access, off, n) in enumerate(index["rows"])]


def _index(entry: Path) -> dict[str, Any]:
    """An entry's index: its size and, per line, (id, site, template, hard-negative count,
    access level, byte offset, byte length)."""
    data = entry.read_bytes()
    rows = []
    pos = 0
    with paused_gc():
        for line in data.splitlines(keepends=True):
            d = orjson.loads(line)
            c = d["complexity"]
            rows.append((d["id"], d["site"], d["template"], c["hard_negative_count"],
                         c["access_level"], pos, len(line.rstrip(b"\r\n"))))
            pos += len(line)
    return {"size": len(data), "rows": rows}


def load_rows(rows: Sequence[TaskRow]) -> list[Task]:
    """The tasks of ``rows``: each line read and validated once per process (a task this
    process already read from its entry is that task), remembered as read from the cache."""
    out: dict[tuple[Path, int], Task] = {}
    todo = [r for r in rows if (r.entry, r.line) not in _AT]
    with paused_gc():
        for entry in dict.fromkeys(r.entry for r in todo):
            with entry.open("rb") as fh:
                for r in (r for r in todo if r.entry == entry):
                    fh.seek(r.offset)
                    out[(entry, r.line)] = Task.model_validate(orjson.loads(fh.read(r.size)))
    with _ORIGIN_LOCK:
        for (entry, k), t in out.items():
            t = _AT.setdefault((entry, k), t)
            _ORIGIN[id(t)] = (t, entry, k)
        return [_AT[(r.entry, r.line)] for r in rows]


def parse_tasks(data: bytes) -> tuple[Task, ...]:
    """Tasks from JSONL that webmdp wrote itself. The JSON is parsed by orjson with the garbage
    collector paused and validated from Python objects (a task's world is ``dict[str, Any]``,
    so pydantic checks its top level only): 0.5 s for the 1,800 built-in tasks, where
    ``model_validate_json`` took 4 s; the tasks are then frozen out of the collector."""
    with paused_gc(keep=True):
        return tuple(Task.model_validate(d) for _, d in parse_lines(data))


def tasks_text(tasks: Sequence[Task]) -> str:
    """The JSONL an entry holds."""
    return "".join(t.model_dump_json() + "\n" for t in tasks)


def cached_hit(name: str) -> tuple[Task, ...] | None:
    """The task set ``name`` if the cache holds it, else ``None`` (nothing is built)."""
    entry = _entry(name)
    return None if entry is None else _try(_read, entry)


def store_text(name: str, text: str) -> tuple[Task, ...]:
    """Store a task set built elsewhere (a worker process, as its JSONL) and return it."""
    entry = _entry(name)
    if entry is not None:
        with _lock(entry):
            _store(entry, text)
    return parse_tasks(text.encode())


def _store(entry: Path, text: str) -> None:
    """Write atomically (a reader never sees half an entry); failing to write is a miss."""
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=f".{entry.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, entry)
    except OSError:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _prune(root: Path) -> None:
    """Remove the entries of all but the :data:`KEEP` - 1 most recently written other keys."""
    try:
        keys = sorted((d for d in root.iterdir() if d.is_dir()), key=lambda d: d.stat().st_mtime)
    except OSError:
        return
    for old in keys[:max(0, len(keys) - (KEEP - 1))]:
        shutil.rmtree(old, ignore_errors=True)
