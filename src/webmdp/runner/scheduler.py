"""The scheduler: one loop, whatever the backend, that keeps workers busy and nothing lost.

It hands episodes to the backend while it has free slots, stores each outcome's row, retries
infrastructure failures (``--retries``; a worker killed for running past ``--episode-timeout``
counts as one), and records an episode as an infrastructure error with its cause only after
its last attempt. The first SIGINT / SIGTERM stops handing out work and lets in-flight
episodes finish for :data:`SIGNAL_GRACE_S` (a second, or the end of that grace, abandons
them; an abandoned episode stores nothing, so a resume runs it). A trace that cannot be
written, or a disk running full, stops the run loudly.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from webmdp.runner.events import Event
from webmdp.runner.spec import EpisodeSpec, RunSettings
from webmdp.runner.store import MIN_FREE_MB, RunStore, summary_row
from webmdp.runner.worker import infra_trace
from webmdp.tasks.model import Task

DISK_CHECK_S = 15.0
GRACE_S = 120.0
"""How long a graceful stop (after an error, e.g. a full disk) waits for in-flight episodes
before abandoning them."""
SIGNAL_GRACE_S = 5.0
"""After SIGINT or SIGTERM: in-flight episodes that end within this are stored, the rest are
abandoned (their workers and Chromium killed) and run again by ``--resume``, so every process
the run started is gone within 10 s of the signal."""


def last_resort_s(limit: float) -> float:
    """How long past its wall-clock limit an episode may run before its whole worker is
    killed: half the limit, between 5 s and 60 s."""
    return min(60.0, max(5.0, limit / 2))


class Pool(Protocol):
    """A backend. One with ``reports_start`` (a class attribute, true) sends a ``start``
    event when a worker takes an episode, and may queue episodes beyond its slots: their
    clock starts then, not when submitted."""

    restarts: int

    def start(self) -> None: ...
    def capacity(self) -> int: ...
    def submit(self, spec: EpisodeSpec) -> None: ...
    def running(self) -> int: ...
    def poll(self, timeout: float) -> list[Event]: ...
    def kill_episode(self, key: tuple[str, str, str], cause: str) -> list[Event]: ...
    def stop(self, *, graceful: bool, timeout_s: float = 30.0) -> None: ...


@dataclass
class Tally:
    """Counts for the live display and the run summary (this invocation only)."""

    total: int = 0
    skipped: int = 0
    done: int = 0
    success: int = 0
    infra_errors: int = 0
    retries: int = 0
    running: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    episode_s: float = 0.0
    """Seconds workers spent on this invocation's episode attempts, as they measured them
    (the run's parallel part; the rest of its wall time is the runner's own)."""
    started: float = field(default_factory=time.monotonic)

    def add(self, row: dict[str, Any]) -> None:
        self.done += 1
        self.success += bool(row.get("success"))
        self.infra_errors += row.get("termination") == "infra_error"
        self.prompt_tokens += row.get("prompt_tokens") or 0
        self.completion_tokens += row.get("completion_tokens") or 0

    def per_minute(self) -> float:
        minutes = (time.monotonic() - self.started) / 60
        return self.done / minutes if minutes > 0 else 0.0


@dataclass
class FinalState:
    """The run's episodes as stored after an invocation (all invocations together)."""

    episodes: int = 0
    """Episodes the run consists of (agents x seeds x tasks)."""
    stored: int = 0
    infra_errors: int = 0
    causes: dict[str, int] = field(default_factory=dict)
    """Infrastructure causes, most common first (the cause's first clause)."""

    @property
    def exit_code(self) -> int:
        """0, or 3 when some of the run's episodes ended ``infra_error`` and 4 when all did."""
        if self.infra_errors == 0:
            return 0
        return 4 if self.infra_errors >= self.episodes else 3


@dataclass
class Outcome:
    status: str  # completed | interrupted | failed
    tally: Tally
    signal: int | None = None
    error: str | None = None
    final: FinalState = field(default_factory=FinalState)


class Scheduler:
    def __init__(self, pool: Pool, store: RunStore, settings: RunSettings,
                 specs: list[EpisodeSpec], tasks: dict[str, Task],
                 on_change: Callable[[Tally], None] | None = None,
                 on_record: Callable[[dict[str, Any]], None] | None = None,
                 min_free_mb: int = MIN_FREE_MB):
        self.pool, self.store, self.settings = pool, store, settings
        self.tasks = tasks
        self.pending: deque[EpisodeSpec] = deque(specs)
        self.inflight: dict[tuple[str, str, str], tuple[EpisodeSpec, float | None]] = {}
        self._queues = bool(getattr(pool, "reports_start", False))
        self.tally = Tally(total=len(specs))
        self.on_change = on_change or (lambda _t: None)
        self.on_record = on_record or (lambda _r: None)
        self.min_free_mb = min_free_mb
        self.stopping: int | None = None  # the signal that asked to stop
        self.abandon = False
        self.error: str | None = None

    def run(self) -> Outcome:
        with self._signals():
            self.pool.start()
            try:
                self._loop()
            finally:
                self.pool.stop(graceful=not self.abandon)
        if self.error:
            return Outcome("failed", self.tally, error=self.error)
        if self.pending or self.inflight:
            return Outcome("interrupted", self.tally, signal=self.stopping)
        return Outcome("completed", self.tally)

    # -- the loop --------------------------------------------------------------------------------
    def _loop(self) -> None:
        next_disk = time.monotonic() + DISK_CHECK_S
        deadline: float | None = None
        self.on_change(self.tally)
        while self.inflight or (self.pending and self._accepting()):
            while self._accepting() and self.pending and self.pool.capacity() > 0:
                spec = self.pending.popleft()
                self.pool.submit(spec)
                self.inflight[spec.key] = (spec, None if self._queues else time.monotonic())
            for ev in self.pool.poll(0.25):
                self._handle(ev)
            self._check_timeouts()
            now = time.monotonic()
            if now > next_disk:
                next_disk = now + DISK_CHECK_S
                self._check_disk()
            if not self._accepting():
                deadline = deadline or now + (GRACE_S if self.stopping is None
                                              else SIGNAL_GRACE_S)
                if self.abandon or now > deadline:
                    self.abandon = True
                    return
            self.tally.running = len(self.inflight)
            self.on_change(self.tally)

    def _accepting(self) -> bool:
        return self.stopping is None and self.error is None

    def _handle(self, ev: Event) -> None:
        spec = ev.spec
        if spec is None or spec.key not in self.inflight:
            return
        key = spec.key
        self.tally.episode_s += ev.seconds
        if ev.kind == "start":
            self.inflight[key] = (spec, time.monotonic())  # the clock starts when it runs
            self.store.log_event("start", episode=list(key), attempt=spec.attempt)
        elif ev.kind == "beat":
            return
        elif ev.kind == "done":
            del self.inflight[key]
            assert ev.row is not None
            self._record(ev.row)
        elif ev.kind == "store_error":
            del self.inflight[key]
            self.error = ev.cause or "a trace could not be written"
            self.store.log_event("store_error", episode=list(key), cause=self.error)
        elif ev.kind in ("retry", "lost"):
            del self.inflight[key]
            if ev.kind == "lost" and ev.cause is None:  # a bystander: again, at no cost
                self.pending.appendleft(spec)
                return
            self._failed(spec, ev.cause or "unknown infrastructure failure")

    def _failed(self, spec: EpisodeSpec, cause: str) -> None:
        """An attempt failed for infrastructure reasons: retry, or record after the last."""
        self.store.log_event("attempt_failed", episode=list(spec.key), attempt=spec.attempt,
                             cause=cause)
        if spec.attempt < self.settings.retries:
            self.tally.retries += 1
            self.pending.appendleft(spec.retry(final=spec.attempt + 1 >= self.settings.retries))
            return
        trace = infra_trace(self.tasks[spec.task_id], spec.agent.label(), spec.mode,
                            f"{cause} (after {spec.attempt + 1} attempts)")
        try:
            path = self.store.write_trace(trace)
        except Exception as exc:
            self.error = str(exc)
            return
        self._record(summary_row(trace, path.relative_to(self.store.root)))

    def _record(self, row: dict[str, Any]) -> None:
        try:
            self.store.append_row(row)
        except Exception as exc:
            self.error = str(exc)
        self.tally.add(row)
        self.on_record(row)

    def _check_timeouts(self) -> None:
        """The last resort: an episode past its wall-clock limit is sealed by its worker at
        its next step boundary (only its Chromium is ever killed); a worker that has not
        sealed it :func:`last_resort_s` later has a stuck agent thread and is killed."""
        limit = self.settings.episode_timeout_s
        now = time.monotonic()
        for key, (_spec, t0) in list(self.inflight.items()):
            if key in self.inflight and t0 is not None and \
                    now - t0 > limit + last_resort_s(limit):
                cause = (f"episode exceeded its {limit:g} s wall-clock limit and was not "
                         "sealed at a step boundary (agent stuck); worker killed")
                for ev in self.pool.kill_episode(key, cause):
                    self._handle(ev)

    def _check_disk(self) -> None:
        free_mb = shutil.disk_usage(self.store.root).free // 2**20
        if free_mb < self.min_free_mb:
            self.error = (f"only {free_mb} MB left in {self.store.root} (need "
                          f"{self.min_free_mb} MB); stopped before results could be lost")

    # -- signals ---------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def handler(signum: int, _frame: Any) -> None:
            if self.stopping is None:
                self.stopping = signum
            else:
                self.abandon = True

        old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for s, h in old.items():
                signal.signal(s, h)
