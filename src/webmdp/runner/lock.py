"""One owner per run directory: an exclusive OS lock on ``DIR/.lock``.

Two invocations writing one run (three ``webmdp run --out R`` started together, two
``--resume R``, a judge and a grader on the same run, two reports into one folder) would each
run every episode or interleave their rows. The manifest's "running" mark cannot stop that:
it is written after the first check, so simultaneous starts all pass it. An ``fcntl.flock``
taken before the first write and held to the end can: the kernel gives it to one process, and
releases it when that process ends, however it ends (``kill -9`` included), so a lock is never
stale. The holder writes its host, pid and start time into the file, and a refused invocation
names them.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from webmdp.errors import ConfigError

LOCK = ".lock"


class RunLocked(ConfigError):
    """The directory is owned by another invocation."""


@contextlib.contextmanager
def owned(root: Path | str, what: str = "run directory") -> Iterator[None]:
    """Hold the lock of ``root`` (created if need be) for the block; :class:`RunLocked`,
    naming the owner, when another process holds it."""
    root = Path(root)
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd = os.open(root / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise ConfigError(f"cannot lock {what} {root}: {exc}") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunLocked(f"{root}: this {what} is in use by {_owner(fd)}; wait for it to "
                            "end (or stop it) and try again") from None
        owner = json.dumps({"host": socket.gethostname(), "pid": os.getpid(),
                            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}).encode()
        os.pwrite(fd, owner, 0)  # written, then cut to length: never empty once written
        os.ftruncate(fd, len(owner))
        yield
    finally:
        os.close(fd)  # releases the lock


def _owner(fd: int, wait_s: float = 1.0) -> str:
    """Who holds the lock, as its file says; an owner that took the lock an instant ago has
    not written itself yet, so an unreadable file is read again for up to ``wait_s``."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            data = json.loads(os.pread(fd, 4096, 0) or b"{}")
            return f"pid {data['pid']} on {data['host']} (started {data['started']})"
        except (OSError, ValueError, KeyError, TypeError):
            if time.monotonic() >= deadline:
                return "another process (starting up)"
            time.sleep(0.02)
