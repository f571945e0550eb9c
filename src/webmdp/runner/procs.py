"""Process hygiene: find and kill only the processes a run started.

Every worker carries ``WEBMDP_RUN_DIR`` in its environment, and so does everything it starts
(the Playwright driver, Chromium and Chromium's helpers), so a run can sweep its own leftovers
without touching another run's or the user's browser.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterable
from pathlib import Path

import psutil

from webmdp.runner.worker import RUN_MARK


def kill_tree(*pids: int, timeout_s: float = 5.0) -> int:
    """SIGKILL each of ``pids`` and all their descendants, all at once, and wait (at most
    ``timeout_s``) until each is gone or a zombie; returns how many were signalled.

    A zombie counts as gone: a killed Chromium whose parent, the Playwright driver, was
    killed too waits to be reaped by whoever adopts it, which is not this process."""
    procs: list[psutil.Process] = []
    for pid in pids:
        try:
            root = psutil.Process(pid)
            procs += [*root.children(recursive=True), root]
        except psutil.NoSuchProcess:
            continue
    _kill_and_wait(procs, timeout_s)
    return len(procs)


def alive(procs: Iterable[psutil.Process]) -> list[psutil.Process]:
    """Those of ``procs`` still running; a zombie counts as gone."""
    out = []
    for p in procs:
        with contextlib.suppress(psutil.Error):
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
    return out


def _kill_and_wait(procs: list[psutil.Process], timeout_s: float = 5.0) -> None:
    """SIGKILL ``procs``, then wait (at most ``timeout_s``) until none is :func:`alive`."""
    for p in procs:
        with contextlib.suppress(psutil.Error):
            p.kill()
    end = time.monotonic() + timeout_s
    while time.monotonic() < end and alive(procs):
        time.sleep(0.05)


def run_processes(root: Path) -> list[psutil.Process]:
    """Live processes started for the run in ``root`` (found by their environment)."""
    mark = str(Path(root).resolve())
    found = []
    me = os.getpid()
    for p in psutil.process_iter(["pid"]):
        if p.pid == me:
            continue
        with contextlib.suppress(psutil.Error):
            if p.status() != psutil.STATUS_ZOMBIE and p.environ().get(RUN_MARK) == mark:
                found.append(p)
    return found


def sweep(root: Path) -> int:
    """Kill whatever the run in ``root`` left running; returns how many."""
    procs = run_processes(root)
    _kill_and_wait(procs)
    return len(procs)


def exit_with_parent(interval_s: float = 0.5) -> None:
    """In a worker: a daemon thread that, once the runner that started this process is gone
    (even by ``kill -9``), kills this worker's descendants (drivers, Chromium) and exits."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            threading.Event().wait(interval_s)
            if os.getppid() != parent:
                with contextlib.suppress(psutil.Error):
                    for child in psutil.Process().children(recursive=True):
                        with contextlib.suppress(psutil.Error):
                            child.kill()
                os._exit(3)

    threading.Thread(target=watch, name="webmdp-parent-watch", daemon=True).start()
