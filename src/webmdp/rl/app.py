"""The OpenEnv server as an importable app: :func:`create_app` is a factory uvicorn calls in
each worker (``uvicorn webmdp.rl.app:create_app --factory --workers N``), configured by
environment variables with the same options as ``webmdp rl serve``. One mechanism serves
``rl serve --workers``, the image (``Dockerfile``), OpenEnv's providers (``openenv.yaml``'s
``app``) and Ray Serve (:mod:`webmdp.rl.scale`).

==========================  ==========================================================
variable                    ``rl serve`` option (default)
==========================  ==========================================================
``WEBMDP_RL_SITE``          ``--site`` (all)
``WEBMDP_RL_MODE``          ``--mode`` (semantic)
``WEBMDP_RL_REWARD``        ``--reward`` (terminal)
``WEBMDP_RL_MAX_SESSIONS``  ``--max-sessions``, per process (16)
``WEBMDP_RL_STEP_BUDGET``   ``--step-budget`` (50)
``WEBMDP_RL_STEP_TIMEOUT``  ``--step-timeout`` (30)
``WEBMDP_RL_HOLDOUT``       ``--holdout`` (task)
``WEBMDP_RL_TASKS``         ``--tasks`` (none)
``WEBMDP_RL_HOST``          ``--host``: the address clients reach (127.0.0.1)
``WEBMDP_RL_PORT``          ``--port`` (8000)
``WEBMDP_RL_TOKEN``         ``--token`` (none; required when the host is not loopback)
``WEBMDP_RL_ALLOW_ORIGIN``  ``--allow-origin``, comma-separated
``WEBMDP_RL_ALLOW_HOST``    ``--allow-host``, comma-separated
``WEBMDP_RL_QUIET``         ``--quiet`` (0)
``WEBMDP_RL_WARM``          build the task pools before serving: 1, 0, or auto (default:
                            only when the disk cache holds them; else each on first use)
==========================  ==========================================================

``WEBMDP_RL_HOST`` is the host the access checks are for (:mod:`webmdp.server.origin`), not
necessarily the socket's: in a container uvicorn binds 0.0.0.0 while clients reach it as
``localhost`` through a published port, and the loopback policy (Host names, origins) holds.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.errors import ConfigError

PREFIX = "WEBMDP_RL_"
STATS_DIR_ENV = f"{PREFIX}STATS_DIR"
"""Set by ``rl serve --workers``: where each worker keeps its counters for the merged
minutely statistics (:class:`webmdp.rl.server.ServeLog`)."""
DEFAULT_MAX_SESSIONS = 16
DEFAULT_PORT = 8000
DEFAULT_STEP_TIMEOUT = 30.0
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


@dataclass(frozen=True)
class ServeSettings:
    """What one server process serves and whom it answers: ``rl serve``'s options."""

    site: str = "all"
    mode: str = "semantic"
    reward: str = "terminal"
    max_sessions: int = DEFAULT_MAX_SESSIONS
    step_budget: int = DEFAULT_STEP_BUDGET
    step_timeout: float = DEFAULT_STEP_TIMEOUT
    holdout: str = "task"
    tasks: str | None = None
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    token: str | None = None
    allow_origin: tuple[str, ...] = field(default=())
    allow_host: tuple[str, ...] = field(default=())
    quiet: bool = False
    warm: str = "auto"

    def __post_init__(self) -> None:
        if self.warm not in ("auto", "1", "0"):
            raise ConfigError(f"{PREFIX}WARM must be 1, 0 or auto, got {self.warm!r}")

    def env(self) -> dict[str, str]:
        """These settings as the environment variables :meth:`from_env` reads."""
        out = {}
        for name, value in asdict(self).items():
            if value is None:
                continue
            if isinstance(value, bool):
                value = int(value)
            elif isinstance(value, tuple):
                value = ",".join(value)
            out[f"{PREFIX}{name.upper()}"] = str(value)
        return out

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServeSettings:
        """The settings the environment gives (defaults for those it does not); a malformed
        value is a :class:`ConfigError` naming its variable."""
        environ = os.environ if environ is None else environ
        given: dict[str, Any] = {}
        for f in fields(cls):
            var = f"{PREFIX}{f.name.upper()}"
            raw = environ.get(var)
            if raw is None:
                continue
            given[f.name] = _parse(var, raw.strip(), f.default)
        return cls(**given)

    def per_worker(self, workers: int) -> ServeSettings:
        """The settings of one of ``workers`` processes: ``max_sessions`` divided, rounded up
        (each process caps its own sessions, and its own Chromiums in browser mode)."""
        return _replace(self, max_sessions=math.ceil(self.max_sessions / workers))

    def access(self) -> Any:
        from webmdp.server.origin import Access

        return Access(bind=self.host, token=self.token, allow_origins=self.allow_origin,
                      allow_hosts=self.allow_host)


def _replace(s: ServeSettings, **changes: Any) -> ServeSettings:
    return ServeSettings(**{**asdict(s), **changes})


def _parse(var: str, raw: str, default: Any) -> Any:
    if isinstance(default, bool):
        if raw.lower() not in (*_TRUE, *_FALSE):
            raise ConfigError(f"{var} must be 1 or 0, got {raw!r}")
        return raw.lower() in _TRUE
    if isinstance(default, tuple):
        return tuple(p.strip() for p in raw.split(",") if p.strip())
    if isinstance(default, int | float):
        try:
            return type(default)(raw)
        except ValueError:
            raise ConfigError(f"{var} must be a number, got {raw!r}") from None
    return raw or None if default is None else raw


def create_app() -> Any:
    """The FastAPI app of the settings in the environment (uvicorn's ``--factory``)."""
    from webmdp.rl.server import SWITCH_INTERVAL_S, ServeLog, build_app
    from webmdp.tasks.sources import pools_cached

    settings = ServeSettings.from_env()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    shared = os.environ.get(STATS_DIR_ENV)
    log = ServeLog(settings.quiet, share=Path(shared) if shared else None)
    warm = settings.warm == "1" or (settings.warm == "auto" and pools_cached(settings.site))
    app = build_app(site=settings.site, mode=settings.mode, reward=settings.reward,  # type: ignore[arg-type]
                    max_sessions=settings.max_sessions, step_budget=settings.step_budget,
                    tasks_file=settings.tasks, holdout=settings.holdout,
                    step_timeout=settings.step_timeout, log=log, warm=warm,
                    access=settings.access())
    if shared is None:
        log.every()  # a worker of rl serve --workers leaves them to the parent, which merges
    log.ready()
    return app
