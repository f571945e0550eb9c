"""The Ray backend: the same episodes, slots and outcomes as the local one, on Ray actors.

Each worker is an actor (a process on some node of the cluster) with ``slots`` threads, so it
keeps its server and its Chromium processes between episodes as a local worker does; each
episode is one actor task, whose result streams back as soon as it ends. Traces are written
by the actor into the run directory, which on a cluster must be shared storage. The address
comes from ``--ray-address``, else ``RAY_ADDRESS``, else a local Ray instance is started for the
run (and shut down after it). An actor that dies, or that is killed for an episode over its
wall-clock limit, is replaced; its episodes come back as ``lost``, as with the local backend.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import Any

from webmdp.errors import ConfigError
from webmdp.plugins import ENV as PLUGINS_ENV
from webmdp.runner.events import Event
from webmdp.runner.limits import check_workers, usable_cpus
from webmdp.runner.spec import EpisodeSpec, RunSettings
from webmdp.runner.worker import Outcome, Slot, WorkerContext, execute, mark_process


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise ConfigError("the Ray backend needs Ray: pip install 'webmdp[ray]'") from exc
    return ray


class EpisodeWorker:
    """The actor's body (wrapped with ``ray.remote`` at start, so importing this module does
    not need Ray)."""

    def __init__(self, root: str, settings: RunSettings) -> None:
        from webmdp.runner.procs import exit_with_parent

        mark_process(Path(root))
        exit_with_parent()
        self.ctx = WorkerContext(Path(root), settings)
        self._local = threading.local()
        self._stop = threading.Event()
        threading.Thread(target=self.ctx.watch_steps, args=(self._stop,), daemon=True).start()

    def run(self, spec: EpisodeSpec) -> Outcome:
        slot: Slot | None = getattr(self._local, "slot", None)
        if slot is None:
            slot = self._local.slot = self.ctx.new_slot()
        try:
            return execute(self.ctx, spec, slot)
        except Exception as exc:  # a bug in the runner itself: report it, do not hang
            return Outcome("store_error" if spec.final else "retry",
                           cause=f"worker error {type(exc).__name__}: {exc}")

    def pid(self) -> int:
        return os.getpid()

    def close(self) -> None:
        """Close this thread's browser and the server. Chromium of the other slot threads is
        closed when the actor exits (their drivers see the pipe close)."""
        self._stop.set()
        slot = getattr(self._local, "slot", None)
        if slot is not None:
            slot.close()
        self.ctx.close()


class RayPool:
    def __init__(self, root: Path, settings: RunSettings):
        self.root = Path(root).resolve()
        self.settings = settings
        self.restarts = 0
        self._started_ray = False
        self._actor_cls: Any = None
        self._actors: dict[int, Any] = {}
        self._load: dict[int, int] = {}
        self._refs: dict[Any, tuple[int, EpisodeSpec]] = {}
        self._next = 0

    def start(self) -> None:
        ray = _ray()
        address = self.settings.ray_address or os.environ.get("RAY_ADDRESS")
        if not ray.is_initialized():
            kw: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "configure_logging": False}
            if os.environ.get(PLUGINS_ENV):  # names registered at run time reach the actors
                kw["runtime_env"] = {"env_vars": {PLUGINS_ENV: os.environ[PLUGINS_ENV]}}
            if address:
                ray.init(address=address, **kw)
            else:
                check_workers(self.settings.workers)
                ray.init(num_cpus=max(usable_cpus(), self.settings.workers), **kw)
                self._started_ray = True
        if address:  # a cluster: its own CPUs bound the workers, known once connected
            check_workers(self.settings.workers, ray.cluster_resources().get("CPU", 1),
                          where="the Ray cluster")
        self._actor_cls = ray.remote(EpisodeWorker)
        for _ in range(self.settings.workers):
            self._spawn()

    def _spawn(self) -> None:
        actor = self._actor_cls.options(num_cpus=1, max_concurrency=self.settings.slots,
                                        max_restarts=0).remote(str(self.root), self.settings)
        self._actors[self._next] = actor
        self._load[self._next] = 0
        self._next += 1

    def capacity(self) -> int:
        return sum(self.settings.slots - n for n in self._load.values())

    def running(self) -> int:
        return len(self._refs)

    def submit(self, spec: EpisodeSpec) -> None:
        aid = min(self._load, key=lambda a: self._load[a])
        ref = self._actors[aid].run.remote(spec)
        self._refs[ref] = (aid, spec)
        self._load[aid] += 1

    def poll(self, timeout: float) -> list[Event]:
        if not self._refs:
            threading.Event().wait(min(timeout, 0.05))
            return []
        ray = _ray()
        ready, _ = ray.wait(list(self._refs), num_returns=len(self._refs), timeout=timeout)
        events: list[Event] = []
        for ref in ready:
            if ref not in self._refs:
                continue  # its actor died in this same poll
            aid, spec = self._refs.pop(ref)
            self._load[aid] -= 1
            try:
                out: Outcome = ray.get(ref)
            except ray.exceptions.RayActorError as exc:
                events.append(Event("lost", spec, cause=f"Ray actor died: {_short(exc)}"))
                events.extend(self._replace(aid, cause=None))
                continue
            except ray.exceptions.RayError as exc:
                events.append(Event("lost", spec, cause=f"Ray task failed: {_short(exc)}"))
                continue
            events.append(Event(out.status, spec, row=out.row, cause=out.cause,
                                seconds=out.seconds))
        return events

    def _replace(self, aid: int, cause: str | None,
                 culprit: tuple[str, str, str] | None = None) -> list[Event]:
        """Kill actor ``aid``; its in-flight episodes are lost (``cause`` for ``culprit``)."""
        actor = self._actors.pop(aid, None)
        if actor is None:
            return []
        self._load.pop(aid, None)
        with contextlib.suppress(Exception):
            _ray().kill(actor, no_restart=True)
        events = []
        for ref, (owner, spec) in list(self._refs.items()):
            if owner == aid:
                del self._refs[ref]
                events.append(Event("lost", spec, cause=cause if spec.key == culprit else None))
        self._spawn()
        self.restarts += 1
        return events

    def kill_episode(self, key: tuple[str, str, str], cause: str) -> list[Event]:
        aid = next((a for a, s in self._refs.values() if s.key == key), None)
        return [] if aid is None else self._replace(aid, cause, culprit=key)

    def stop(self, *, graceful: bool, timeout_s: float = 30.0) -> None:
        ray = _ray()
        if graceful:
            with contextlib.suppress(Exception):
                ray.get([a.close.remote() for a in self._actors.values()], timeout=timeout_s)
        for actor in self._actors.values():
            with contextlib.suppress(Exception):
                ray.kill(actor, no_restart=True)
        self._actors.clear()
        self._refs.clear()
        if self._started_ray:
            ray.shutdown()


def _short(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
