"""The local backend: worker processes on this machine, each with its own episode slots.

Workers are started with ``spawn``, each in its own session (a Ctrl-C in the terminal reaches
only the runner, which then stops them in order). They talk to the runner over a pipe:
``ready``, ``start``, ``beat`` (a step ended) and ``outcome`` messages. A worker that dies, or
that the runner kills for an episode over its wall-clock limit, takes its Chromium processes
with it (:func:`procs.kill_tree`); its in-flight episodes come back as ``lost``.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import queue
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from webmdp.runner.events import Event
from webmdp.runner.procs import exit_with_parent, kill_tree
from webmdp.runner.spec import EpisodeSpec, RunSettings
from webmdp.runner.worker import Outcome, WorkerContext, execute, mark_process

BEAT_EVERY_S = 1.0
"""At most one ``beat`` message a second per slot (a semantic episode steps every few
milliseconds; a message per step only kept the runner busy)."""
PREFETCH = 1
"""Episodes queued at a worker beyond its slots, so a slot that ends one starts the next
without waiting for the runner's reply (their clock starts when they start)."""


def worker_main(conn: Connection, root: str, settings: RunSettings,
                server_addr: tuple[str, str] | None) -> None:
    """A worker process: ``settings.slots`` threads take episodes from the runner's pipe."""
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    mark_process(Path(root))
    exit_with_parent()
    ctx = WorkerContext(Path(root), settings, server_addr)
    send_lock = threading.Lock()
    jobs: queue.Queue[EpisodeSpec | None] = queue.Queue()

    def send(*msg: Any) -> None:
        with send_lock:
            conn.send(msg)

    def slot_loop() -> None:
        slot = ctx.new_slot()
        try:
            while (spec := jobs.get()) is not None:
                send("start", spec.key)
                key = spec.key
                last = [time.monotonic()]

                def beat(n: int, key: tuple[str, str, str] = key, last: list[float] = last
                         ) -> None:  # the slot's own watchdog sees every step; the runner
                    now = time.monotonic()  # only needs to hear that the worker lives
                    if now - last[0] >= BEAT_EVERY_S:
                        last[0] = now
                        send("beat", key, n)

                try:
                    out = execute(ctx, spec, slot, beat=beat)
                except Exception as exc:  # a bug in the runner itself: report, do not hang
                    out = Outcome("retry" if not spec.final else "store_error",
                                  cause=f"worker error {type(exc).__name__}: {exc}")
                send("outcome", spec.key, out)
        finally:
            slot.close()

    stop_watch = threading.Event()
    threads = [threading.Thread(target=slot_loop, name=f"webmdp-slot-{i}")
               for i in range(settings.slots)]
    try:
        threading.Thread(target=ctx.watch_steps, args=(stop_watch,), daemon=True).start()
        for t in threads:
            t.start()
    except BaseException:  # e.g. "can't start new thread": the slots already started would
        os._exit(70)  # keep a half-made worker alive and deaf; exit, and the runner sees it
    send("ready", os.getpid())
    try:
        while True:
            msg = conn.recv()
            if msg[0] == "run":
                jobs.put(msg[1])
            elif msg[0] == "stop":
                break
    except EOFError:
        pass
    with contextlib.suppress(queue.Empty):  # queued, never started: a resume runs them
        while True:
            jobs.get_nowait()
    for _ in threads:
        jobs.put(None)
    for t in threads:
        t.join()
    stop_watch.set()
    ctx.close()
    with contextlib.suppress(OSError):
        send("bye")
    # every slot has ended and its browser is closed: exit now, without tearing down the
    # interpreter's objects (the run's tasks and worlds), which the runner would wait out
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


@dataclass
class _Worker:
    wid: int
    proc: Any
    conn: Connection
    inflight: dict[tuple[str, str, str], EpisodeSpec] = field(default_factory=dict)
    ready: bool = False


class LocalPool:
    """``settings.workers`` worker processes; the :class:`Scheduler` drives it."""

    reports_start = True
    """Episodes are queued at workers (:data:`PREFETCH`): each one's clock starts at its
    ``start`` message."""

    def __init__(self, root: Path, settings: RunSettings,
                 server_addr: tuple[str, str] | None = None):
        self.root = Path(root)
        self.settings = settings
        self.server_addr = server_addr
        self._mp = mp.get_context("spawn")
        self._workers: dict[int, _Worker] = {}
        self._next = 0
        self.restarts = 0

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> None:
        for _ in range(self.settings.workers):
            self._spawn()

    def _spawn(self) -> _Worker:
        parent, child = self._mp.Pipe()
        proc = self._mp.Process(target=worker_main, name=f"webmdp-worker-{self._next}",
                                args=(child, str(self.root), self.settings, self.server_addr),
                                daemon=False)
        proc.start()
        child.close()
        w = _Worker(self._next, proc, parent)
        self._workers[w.wid] = w
        self._next += 1
        return w

    def capacity(self) -> int:
        return sum(self._room(w) for w in self._workers.values())

    def _room(self, w: _Worker) -> int:
        return self.settings.slots + PREFETCH - len(w.inflight)

    def submit(self, spec: EpisodeSpec) -> None:
        w = max(self._workers.values(), key=self._room)
        w.inflight[spec.key] = spec
        w.conn.send(("run", spec))

    def running(self) -> int:
        return sum(len(w.inflight) for w in self._workers.values())

    # -- events ----------------------------------------------------------------------------------
    def poll(self, timeout: float) -> list[Event]:
        by_conn = {w.conn: w for w in self._workers.values()}
        by_sentinel = {w.proc.sentinel: w for w in self._workers.values()}
        events: list[Event] = []
        for ready in wait([*by_conn, *by_sentinel], timeout):
            if ready in by_conn:
                w = by_conn[ready]
                try:
                    while w.conn.poll():
                        events.extend(self._message(w, w.conn.recv()))
                except (EOFError, OSError):
                    events.extend(self._died(w))
            elif ready in by_sentinel and by_sentinel[ready].wid in self._workers:
                events.extend(self._died(by_sentinel[ready]))
        return events

    def _message(self, w: _Worker, msg: tuple) -> list[Event]:
        kind = msg[0]
        if kind == "ready":
            w.ready = True
            return []
        if kind in ("start", "beat"):
            spec = w.inflight.get(msg[1])
            return [Event(kind, spec, n=msg[2] if kind == "beat" else 0)] if spec else []
        if kind == "outcome":
            spec = w.inflight.pop(msg[1], None)
            out: Outcome = msg[2]
            return [Event(out.status, spec, row=out.row, cause=out.cause,
                          seconds=out.seconds)] if spec else []
        return []

    def _died(self, w: _Worker) -> list[Event]:
        """A worker exited unexpectedly: its episodes are lost (and retried); start another."""
        if w.wid not in self._workers:
            return []
        w.proc.join(timeout=1)
        code = w.proc.exitcode
        kill_tree(w.proc.pid)
        del self._workers[w.wid]
        cause = f"worker process exited unexpectedly (exit code {code})"
        events = [Event("lost", spec, cause=cause) for spec in w.inflight.values()]
        self._spawn()
        self.restarts += 1
        return events

    # -- control ---------------------------------------------------------------------------------
    def kill_episode(self, key: tuple[str, str, str], cause: str) -> list[Event]:
        """Kill the worker running ``key`` (and its Chromium); ``key`` is lost with ``cause``,
        the worker's other episodes are lost through no fault of their own."""
        w = next((w for w in self._workers.values() if key in w.inflight), None)
        if w is None:
            return []
        kill_tree(w.proc.pid)
        w.proc.join(timeout=5)
        del self._workers[w.wid]
        events = [Event("lost", spec, cause=cause if k == key else None)
                  for k, spec in w.inflight.items()]
        self._spawn()
        self.restarts += 1
        return events

    def stop(self, *, graceful: bool, timeout_s: float = 30.0) -> None:
        """Graceful: workers finish their in-flight episodes and exit; otherwise (or past
        ``timeout_s``) they are killed with their Chromium processes."""
        if graceful:
            for w in self._workers.values():
                with contextlib.suppress(OSError):
                    w.conn.send(("stop",))
            for w in self._workers.values():
                w.proc.join(timeout=timeout_s)
        # every worker still alive, with its drivers and Chromium, killed at once
        kill_tree(*(w.proc.pid for w in self._workers.values() if w.proc.is_alive()))
        for w in self._workers.values():
            w.proc.join(timeout=5)
            w.conn.close()
        self._workers.clear()

    def drain(self) -> list[Event]:
        """Outcomes already sent but not yet read (after a graceful stop)."""
        events: list[Event] = []
        for w in list(self._workers.values()):
            with contextlib.suppress(EOFError, OSError):
                while w.conn.poll():
                    events.extend(self._message(w, w.conn.recv()))
        return events
