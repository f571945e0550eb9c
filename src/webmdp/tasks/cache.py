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
import hashlib
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from webmdp.tasks.model import Task

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
    """A digest of every file of the installed package, with the Python version."""
    h = hashlib.sha256(f"{sys.version_info.major}.{sys.version_info.minor}".encode())
    for path in sorted(_PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            h.update(str(path.relative_to(_PACKAGE)).encode() + b"\0")
            h.update(path.read_bytes())
    return h.hexdigest()[:20]


def _entry(name: str) -> Path | None:
    root = cache_dir()
    return None if root is None else root / "tasks" / code_key() / f"{name}.jsonl"


def cached_tasks(name: str, build: Callable[[], Sequence[Task]]) -> tuple[Task, ...]:
    """The task set ``name`` from the cache, or built by ``build`` and stored."""
    entry = _entry(name)
    if entry is not None:
        try:
            return tuple(Task.model_validate_json(line)
                         for line in entry.read_text(encoding="utf-8").splitlines())
        except (OSError, ValueError):
            pass  # a miss, or an entry cut short: build it again
    tasks = tuple(build())
    if entry is not None:
        _store(entry, tasks)
    return tasks


def _store(entry: Path, tasks: Sequence[Task]) -> None:
    """Write atomically (a reader never sees half an entry); failing to write is a miss."""
    tmp = ""
    try:
        if not entry.parent.is_dir():
            _prune(entry.parent.parent)
        entry.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=f".{entry.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(t.model_dump_json() + "\n" for t in tasks))
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
