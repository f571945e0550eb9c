"""The OpenEnv server: :func:`build_app` is OpenEnv's own ``create_app`` over a factory of
:class:`~webmdp.rl.openenv.WebMDPEnvironment`, so every route, the WebSocket session protocol
and the session cap are the library's, not a copy. Beside them, webmdp's own GET routes:
``/webmdp/actions`` (every action with its parameters as JSON Schema) and GET forms of the
task API with query parameters (``/webmdp/num_tasks?split=train&level=1``,
``/webmdp/task?split=train&index=0``), which also take a level. Around them all, the Host,
Origin and token checks of :mod:`webmdp.server.origin`."""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from webmdp.rl import lean  # noqa: F401  (first: OpenEnv loads without its web UI)

# isort: split
from fastapi import FastAPI, HTTPException, Query
from openenv.core.env_server.http_server import create_app

from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.rl.actions import action_union, describe
from webmdp.rl.browser import BrowserCap
from webmdp.rl.openenv import (
    ENV_NAME,
    WebMDPAction,
    WebMDPEnvironment,
    WebMDPObservation,
    WebMDPState,
)
from webmdp.rl.rewards import RewardMode
from webmdp.rl.settings import (
    DEFAULT_MAX_SESSIONS,
    DEFAULT_PORT,
    DEFAULT_STEP_TIMEOUT,
    ServeSettings,
    listen,
)
from webmdp.rl.splits import ALL, CROSS, SPLITS
from webmdp.server.origin import Access, protect

DEFAULT_HOST = "127.0.0.1"
SWITCH_INTERVAL_S = 0.0005
"""How often the server's process hands the interpreter to another thread (Python's default
is 5 ms). Each session steps on its own thread, so a cheap step waits behind the searches of
other sessions' shaped rewards for up to this long per hand-over: at 0.5 ms, a shopping client
beside three dense ones had its worst step at 63 ms against 256 ms at the default, in the same
run (``benchmarks/bench_rl.py``). Set by :func:`serve` and
:func:`webmdp.rl.app.create_app`, in processes that only serve."""
STATS_EVERY_S = 60.0
STOP_GRACE_S = 3
"""Seconds open connections get to close after SIGTERM or SIGINT."""


class ServeLog:
    """What ``rl serve`` says while it serves (stderr): one line per finished episode, and
    every :data:`STATS_EVERY_S` the sessions in use and the success rate so far. ``quiet``
    keeps it silent."""

    def __init__(self, quiet: bool = False, out: Callable[[str], None] | None = None, *,
                 share: Path | None = None) -> None:
        self.quiet = quiet
        self._out = out or (lambda line: print(line, file=sys.stderr, flush=True))
        self._lock = threading.Lock()
        self.open = self.episodes = self.successes = 0
        self._share = None if share is None else share / f"worker-{os.getpid()}.json"

    def _publish(self) -> None:
        """With ``share``: this process's counters, for the parent's merged statistics
        (:func:`merged_stats`); written whole, then renamed, so a reader never sees half."""
        if self._share is None:
            return
        tmp = self._share.with_suffix(".tmp")
        with contextlib.suppress(OSError):
            tmp.write_text(json.dumps({"pid": os.getpid(), "open": self.open,
                                       "episodes": self.episodes,
                                       "successes": self.successes}))
            os.replace(tmp, self._share)

    def ready(self) -> None:
        """The app is built: with ``share``, the parent counts this worker as started."""
        with self._lock:
            self._publish()

    def say(self, line: str) -> None:
        if not self.quiet:
            with self._lock:
                self._out(line)

    def episode(self, task_id: str, steps: int, reward: float, success: bool) -> None:
        with self._lock:
            self.episodes += 1
            self.successes += success
            self._publish()
        self.say(f"episode {task_id}: {steps} steps, reward {reward:.3f}, "
                 f"{'success' if success else 'failure'}")

    def warn(self, line: str) -> None:
        """A line said even when quiet (a refused request)."""
        with self._lock:
            self._out(line)

    def session(self, delta: int) -> None:
        with self._lock:
            self.open += delta
            self._publish()

    def stats(self) -> str:
        with self._lock:
            return stats_line(self.open, self.episodes, self.successes)

    def every(self, seconds: float = STATS_EVERY_S) -> None:
        """Print :meth:`stats` every ``seconds`` from a daemon thread."""
        if self.quiet:
            return

        def loop() -> None:
            while True:
                time.sleep(seconds)
                self.say(self.stats())

        threading.Thread(target=loop, name="webmdp-serve-stats", daemon=True).start()


def stats_line(open_: int, episodes: int, successes: int, workers: int | None = None) -> str:
    """The minutely statistics line (one process's, or ``workers`` merged)."""
    rate = "-" if not episodes else f"{successes / episodes:.1%}"
    among = "" if workers is None else f" (over {workers} workers)"
    return f"sessions in use: {open_}; episodes: {episodes}, success rate {rate}{among}"


def merged_stats(share: Path) -> tuple[int, int, int, int]:
    """(sessions open, episodes, successes, workers) summed over the counters the workers of
    one server keep in ``share``: episodes of a worker that died still count; its sessions
    do not (they ended with it)."""
    open_ = episodes = successes = workers = 0
    for path in share.glob("worker-*.json"):
        try:
            c = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        alive = _alive(int(c["pid"]))
        workers += alive
        open_ += int(c["open"]) if alive else 0
        episodes += int(c["episodes"])
        successes += int(c["successes"])
    return open_, episodes, successes, workers


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class _Env(WebMDPEnvironment):
    """The served environment: counts itself in the log's sessions while it lives."""

    log: ServeLog | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._counted = self.log is not None
        if self.log is not None:
            self.log.session(+1)

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self._counted and self.log is not None:
                self._counted = False
                self.log.session(-1)


def build_app(*, site: str = ALL, mode: str = "semantic", reward: RewardMode = "terminal",
              max_sessions: int = DEFAULT_MAX_SESSIONS, step_budget: int = DEFAULT_STEP_BUDGET,
              tasks_file: str | None = None, holdout: str = "task", suite: str = "builtin",
              step_timeout: float | None = DEFAULT_STEP_TIMEOUT,
              log: ServeLog | None = None, warm: bool | str = True,
              access: Access | None = None) -> FastAPI:
    """The FastAPI app; the arguments are checked here, once, by building one environment.
    In browser mode ``max_sessions`` also caps the Chromiums (one per session; a stateless
    HTTP call borrows one for its own lifetime). ``warm``: build the task pools now (from
    the disk cache), so the first ``reset`` answers at once; ``"background"``: on a thread
    while the app already serves. ``access``: who it answers
    (default: loopback names and this server's own origin, no token); refused origins go
    to ``log``'s warnings."""
    browsers = BrowserCap(max_sessions) if mode == "browser" else None
    env_cls = type("WebMDPServedEnvironment", (_Env,), {"log": log})
    factory = functools.partial(env_cls, site, mode=mode, reward=reward,
                                step_budget=step_budget, tasks_file=tasks_file,
                                holdout=holdout, suite=suite, browsers=browsers,
                                step_timeout=step_timeout,
                                on_episode=None if log is None else log.episode)
    probe = factory()  # a bad option fails now, not on the first session

    def read_pools() -> None:
        try:
            if warm:
                for split in probe.list_splits():
                    probe.num_tasks(split)
                settle()
        finally:
            probe.close()

    if warm == "background":  # serve at once; a reset meanwhile reads what it needs itself
        threading.Thread(target=read_pools, name="webmdp-warm", daemon=True).start()
    else:
        read_pools()
    app = create_app(factory, WebMDPAction, WebMDPObservation, env_name=ENV_NAME,
                     max_concurrent_envs=max_sessions, state_cls=WebMDPState)
    _add_routes(app, factory, site, mode)
    protect(app, access or Access(), say=None if log is None else log.warn)
    return app


def settle() -> None:
    """Move what the process holds now (the task pools, half a million objects for every
    site) out of the garbage collector's way: they live as long as the server, and a full
    collection walking them paused any step for 0.2-1 s (bench_rl.py)."""
    gc.collect()
    gc.freeze()


def app_for(settings: ServeSettings, *, log: ServeLog | None, warm: bool | str,
            access: Access | None = None) -> FastAPI:
    """:func:`build_app` with ``rl serve``'s options as one value (what ``rl serve`` and the
    app factory both build); ``access`` defaults to the one ``settings`` describes."""
    return build_app(site=settings.site, mode=settings.mode,
                     reward=settings.reward,  # type: ignore[arg-type]
                     max_sessions=settings.max_sessions, step_budget=settings.step_budget,
                     tasks_file=settings.tasks, holdout=settings.holdout, suite=settings.suite,
                     step_timeout=settings.step_timeout, log=log, warm=warm,
                     access=access or settings.access())


def _add_routes(app: FastAPI, factory: Callable[[], WebMDPEnvironment], site: str,
                mode: str) -> None:
    from webmdp.rl.splits import site_choices

    sites = ([s for s in site_choices() if s not in (ALL, CROSS)] + [CROSS]
             if site == ALL else [site])
    actions = describe(sites, mode)
    schema = {"action": {**WebMDPAction.model_json_schema(),
                         "anyOf": action_union(actions)},
              "observation": WebMDPObservation.model_json_schema(),
              "reset_observation": WebMDPObservation.model_json_schema(),
              "state": WebMDPState.model_json_schema()}
    app.router.routes[:] = [r for r in app.router.routes if getattr(r, "path", "") != "/schema"]

    @app.get("/schema", tags=["Schema"])
    def get_schema() -> dict[str, Any]:
        """OpenEnv's combined schemas, the action's naming every action the server takes:
        ``anyOf`` one object per action, its ``name`` a constant and its ``params`` the
        action's parameters (types, enums, length bounds), as ``/webmdp/actions``."""
        return schema

    @app.get(f"/{ENV_NAME}/actions", tags=["webmdp"])
    def list_actions() -> dict[str, Any]:
        """Every action with its description and parameters as JSON Schema."""
        return actions

    def call(fn: Callable[[WebMDPEnvironment], Any]) -> Any:
        env = factory()
        try:
            return fn(env)
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        except IndexError as exc:
            raise HTTPException(400, str(exc)) from None
        finally:
            env.close()

    @app.get(f"/{ENV_NAME}/num_tasks", tags=["webmdp"])
    def num_tasks(split: str = Query(SPLITS[0]), level: str | None = Query(None)
                  ) -> dict[str, Any]:
        """The GET form of OpenEnv's task count, with an optional level (1-3 or none)."""
        return {"num_tasks": call(lambda e: e.num_tasks(split, level))}

    @app.get(f"/{ENV_NAME}/task", tags=["webmdp"])
    def get_task(split: str = Query(SPLITS[0]), index: int = Query(0),
                 level: str | None = Query(None)) -> dict[str, Any]:
        """The GET form of OpenEnv's task lookup, with an optional level."""
        return {"task": call(lambda e: e.get_task(split, index, level))}


def serve(app: FastAPI, *, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          on_ready: Callable[[int], None] | None = None) -> None:
    """Run the app with uvicorn until interrupted; ``on_ready`` gets the port (port 0 picks a
    free one) once it accepts connections."""
    import uvicorn

    sock = listen(host, port)
    bound = int(sock.getsockname()[1])

    class _Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started and on_ready is not None:
                on_ready(bound)

    sys.setswitchinterval(SWITCH_INTERVAL_S)
    # SIGTERM / SIGINT: uvicorn stops; open sessions get STOP_GRACE_S to end, then every
    # session's Chromium goes with the process (webmdp.rl.browser's exit hook)
    try:
        _Server(uvicorn.Config(app, log_level="warning",
                               timeout_graceful_shutdown=STOP_GRACE_S)).run(sockets=[sock])
    finally:
        sock.close()
