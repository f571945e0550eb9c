"""Running episodes inside a worker: one function for every backend.

A worker holds the run's tasks, one webmdp server (its own, or the run's shared one) and, per
episode slot (a thread), its own Playwright driver and Chromium. :func:`execute` runs one
episode and stores its trace: a finished episode (any termination the agent is scored on) is
written at once; an infrastructure failure is written only on its last attempt, otherwise the
runner retries it. A step watchdog kills a slot's Chromium when a step hangs, which turns the
hang into an infrastructure failure of that episode alone.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webmdp.agents.base import Agent
from webmdp.agents.registry import make_agent
from webmdp.env.episode import Episode
from webmdp.env.semantic import SemanticEnv
from webmdp.errors import InfrastructureError
from webmdp.redact import register as register_secret
from webmdp.runner.episode import run_episode
from webmdp.runner.spec import EpisodeSpec, RunSettings
from webmdp.runner.store import RunStore, StoreError, TaskLines, summary_row
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace

RUN_MARK = "WEBMDP_RUN_DIR"
"""Environment variable every worker (and so its drivers and Chromiums) carries: the run
directory. It is how a runner finds the processes it started, and only those."""


@dataclass
class Outcome:
    """What a worker reports about one episode attempt.

    ``status``: ``done`` (stored; ``row`` is its summary), ``retry`` (an infrastructure failure
    with attempts left; nothing stored) or ``store_error`` (the trace could not be written).
    """

    status: str
    row: dict[str, Any] | None = None
    cause: str | None = None
    seconds: float = 0.0
    """Wall time the worker spent on the attempt (agent, episode, trace written): the
    parallel part of a run, which the runner sums (``episode_s`` in its invocation)."""


DEAD_GRACE_S = 10.0
"""How long a slot may stay in a Playwright call after its Chromium died before the step
watchdog kills the slot's driver (Playwright does not always notice a dead browser)."""
SEAL_GRACE_S = 5.0
"""How long an episode past its wall-clock limit may take to reach its next step boundary
before its slot's Chromium is killed (which ends a browser step in progress)."""


class EpisodeTimeout(InfrastructureError):
    """An episode ran past ``--episode-timeout``: sealed at its next step boundary."""


class Slot:
    """One episode at a time: the thread's Chromium, and what the step watchdog watches."""

    def __init__(self) -> None:
        self.host: Any = None
        self.busy_since: float | None = None
        self.last_beat = 0.0
        self.killed: str | None = None
        self.expired: str | None = None
        """Set by the watchdog when the episode passed its wall-clock limit."""
        self.dead_seen: tuple[int, float] | None = None  # (browser pid, when seen dead)

    def beat(self, _n: int) -> None:
        self.last_beat = time.monotonic()

    def close(self) -> None:
        if self.host is not None:
            with contextlib.suppress(Exception):
                self.host.close()
            self.host = None


class WorkerContext:
    """What one worker process (or Ray actor) keeps between episodes."""

    def __init__(self, root: Path, settings: RunSettings,
                 server_addr: tuple[str, str] | None = None):
        self.root = Path(root)
        self.settings = settings
        self.store = RunStore(self.root)
        self.tasks = TaskLines(self.root / "tasks.jsonl")
        """The run's tasks by id, each parsed on first use (a worker reads only its own)."""
        self._server_addr = server_addr
        self._server: Any = None
        self._lock = threading.Lock()
        self.slots: list[Slot] = []

    def server(self) -> Any:
        with self._lock:
            if self._server is None:
                from webmdp.server.remote import RemoteServer
                from webmdp.server.runner import ServerHandle

                self._server = (RemoteServer(*self._server_addr) if self._server_addr
                                else ServerHandle().start())
            return self._server

    def new_slot(self) -> Slot:
        slot = Slot()
        with self._lock:
            self.slots.append(slot)
        return slot

    def host(self, slot: Slot) -> Any:
        if slot.host is None:
            from webmdp.env.chromium import BrowserHost

            slot.host = BrowserHost(launch=False)  # seen by the step watchdog while it
            slot.host.launch()  # launches: a Chromium that hangs as it starts is killed too
        return slot.host

    def close(self) -> None:
        with self._lock:
            server, self._server = self._server, None
        if server is not None:
            with contextlib.suppress(Exception):
                server.stop()

    def watch_steps(self, stop: threading.Event) -> None:
        """The step watchdog: a browser step silent for longer than the step timeout gets its
        Chromium and the slot's Playwright driver killed (that slot's only), so the episode
        ends as an infrastructure failure and is retried. So does a slot still waiting on
        Playwright :data:`DEAD_GRACE_S` after its Chromium died, and an episode past its
        wall-clock limit that has not reached a step boundary :data:`SEAL_GRACE_S` later.
        It also marks episodes past that limit (:meth:`_expire`). Runs until ``stop`` is
        set."""
        limit = self.settings.step_timeout_s
        seal_by = self.settings.episode_timeout_s + SEAL_GRACE_S
        while not stop.wait(min(1.0, limit / 4, self.settings.episode_timeout_s / 4)):
            now = time.monotonic()
            for slot in list(self.slots):
                self._expire(slot, now)
                host, busy = slot.host, slot.busy_since
                if busy is None or host is None or slot.killed is not None:
                    slot.dead_seen = None
                    continue
                if now - slot.last_beat > limit:
                    cause = f"step watchdog: no progress for {limit:g} s, Chromium killed"
                elif slot.expired and now - busy > seal_by:
                    cause = f"{slot.expired}; no step boundary {SEAL_GRACE_S:g} s later, " \
                            "its Chromium killed"
                elif self._stuck_on_dead_browser(slot, host, now):
                    cause = (f"step watchdog: Chromium died and Playwright still waited "
                             f"{DEAD_GRACE_S:g} s later; its driver killed")
                else:
                    continue
                slot.killed = cause
                with contextlib.suppress(Exception):
                    host.kill(driver=True)

    def _expire(self, slot: Slot, now: float) -> None:
        """The cooperative episode timeout: mark a slot's episode past its wall-clock limit,
        so that it is sealed at its next step boundary (:func:`execute`), alone; the other
        episodes of the worker go on."""
        started, limit = slot.busy_since, self.settings.episode_timeout_s
        if started is not None and slot.expired is None and now - started > limit:
            slot.expired = f"episode exceeded its {limit:g} s wall-clock limit"

    @staticmethod
    def _stuck_on_dead_browser(slot: Slot, host: Any, now: float) -> bool:
        pid = host.pid
        if pid is None or not host.browser_gone():
            slot.dead_seen = None
            return False
        if slot.dead_seen is None or slot.dead_seen[0] != pid:
            slot.dead_seen = (pid, now)
            return False
        seen = slot.dead_seen[1]
        return now - seen > DEAD_GRACE_S and slot.last_beat < seen


def execute(ctx: WorkerContext, spec: EpisodeSpec, slot: Slot,
            beat: Callable[[int], None] | None = None) -> Outcome:
    """Run one episode attempt in ``slot`` and store it (see the module docstring); the
    outcome carries the seconds it took."""
    t0 = time.perf_counter()
    out = _execute(ctx, spec, slot, beat)
    out.seconds = time.perf_counter() - t0
    return out


def _execute(ctx: WorkerContext, spec: EpisodeSpec, slot: Slot,
             beat: Callable[[int], None] | None) -> Outcome:
    task = ctx.tasks[spec.task_id]
    label = spec.agent.label()
    register_secret(getattr(spec.agent.model, "api_key", None))  # never written (redact)
    # built before the clock starts: a model agent's first construction imports its SDK
    # (0.5-0.7 s, several seconds on a loaded machine), which is the worker's cost, not the
    # episode's; the runner's own last resort still counts it
    agent = make_agent(spec.agent.name, seed=spec.agent.seed, config=spec.agent.model)
    slot.killed, slot.expired, slot.busy_since = None, None, time.monotonic()
    slot.last_beat = slot.busy_since

    def on_step(n: int) -> None:
        slot.beat(n)
        if beat is not None:
            beat(n)
        if slot.expired:  # the step boundary: seal the episode here
            raise EpisodeTimeout(f"{slot.expired}; sealed after step {n}")

    try:
        trace = _run(ctx, spec, task, agent, label, slot, on_step)
    finally:
        slot.busy_since = None
    if trace.termination == "infra_error" and slot.killed and not slot.expired:
        trace.infra_error = f"{slot.killed}; then {trace.infra_error}"
    elif trace.termination == "infra_error" and slot.expired and \
            not (trace.infra_error or "").startswith("EpisodeTimeout"):
        trace.infra_error = f"EpisodeTimeout: {slot.expired}; then {trace.infra_error}"
    if trace.termination == "infra_error" and not spec.final and not _model_failure(trace):
        return Outcome("retry", cause=trace.infra_error)
    if trace.termination == "infra_error" and spec.attempt > 0:  # as the runner words it
        trace.infra_error = f"{trace.infra_error} (after {spec.attempt + 1} attempts)"
    try:
        path = ctx.store.write_trace(trace)
    except StoreError as exc:
        return Outcome("store_error", cause=str(exc))
    return Outcome("done", row=summary_row(trace, path.relative_to(ctx.root)))


def _run(ctx: WorkerContext, spec: EpisodeSpec, task: Task, agent: Agent, label: str,
         slot: Slot, beat: Callable[[int], None]) -> EpisodeTrace:
    s = ctx.settings
    if spec.mode == "semantic":
        return run_episode(SemanticEnv(task, agent=label, step_budget=s.step_budget), agent,
                           beat)
    from webmdp.env.browser import BrowserConfig, BrowserEnv  # the browser, only when asked

    shots = ctx.store.episode_dir(label, "browser") / "shots" if s.screenshots else None
    cfg = BrowserConfig(step_budget=s.step_budget, screenshot_dir=shots,
                        observation=s.observation, noise=s.noise)  # type: ignore[arg-type]
    try:
        env = BrowserEnv(task, agent=label, server=ctx.server(), host=ctx.host(slot),
                         config=cfg)
    except InfrastructureError as exc:
        return infra_trace(task, label, spec.mode, f"{type(exc).__name__}: {exc}")
    try:
        return run_episode(env, agent, beat)
    finally:
        env.close()


def _model_failure(trace: EpisodeTrace) -> bool:
    """A model endpoint that failed after its client's own retries (with backoff): the
    runner does not retry the episode; it is stored with its cause (and a later ``--resume``
    runs it again, e.g. once the endpoint is back)."""
    return (trace.infra_error or "").startswith("ModelEndpointError")


def infra_trace(task: Task, label: str, mode: str, cause: str) -> EpisodeTrace:
    """The trace of an episode that never got to run (or whose worker was killed)."""
    episode = Episode(task, agent=label, mode=mode, step_budget=0)  # type: ignore[arg-type]
    return episode.close({}, termination="infra_error", infra_error=cause)


def mark_process(root: Path) -> None:
    """Tag this process (and every process it starts) as the run's."""
    os.environ[RUN_MARK] = str(Path(root).resolve())
