"""The inline backend: episodes run one at a time in the calling process (the library's
``run_tasks`` and ``--workers 0``). No process to kill, so only the step watchdog guards it;
everything else (retries, storage, resume) is the scheduler's, as for the other backends."""

from __future__ import annotations

import threading
from pathlib import Path

from webmdp.runner.events import Event
from webmdp.runner.spec import EpisodeSpec, RunSettings
from webmdp.runner.worker import WorkerContext, execute


class InlinePool:
    reports_start = True

    def __init__(self, root: Path, settings: RunSettings,
                 server_addr: tuple[str, str] | None = None):
        self.ctx = WorkerContext(root, settings, server_addr)
        self.slot = self.ctx.new_slot()
        self._queued: list[EpisodeSpec] = []
        self._stop = threading.Event()
        self.restarts = 0

    def start(self) -> None:
        threading.Thread(target=self.ctx.watch_steps, args=(self._stop,), daemon=True).start()

    def capacity(self) -> int:
        return 1 - len(self._queued)

    def submit(self, spec: EpisodeSpec) -> None:
        self._queued.append(spec)

    def running(self) -> int:
        return len(self._queued)

    def poll(self, timeout: float) -> list[Event]:
        if not self._queued:
            return []
        spec = self._queued.pop()
        out = execute(self.ctx, spec, self.slot)
        return [Event("start", spec), Event(out.status, spec, row=out.row, cause=out.cause,
                                            seconds=out.seconds)]

    def kill_episode(self, key: tuple[str, str, str], cause: str) -> list[Event]:
        return []  # an inline episode has ended by the time the scheduler looks

    def stop(self, *, graceful: bool, timeout_s: float = 30.0) -> None:
        self._stop.set()
        self.slot.close()
        self.ctx.close()
