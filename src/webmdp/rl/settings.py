"""``rl serve``'s options as one value, :class:`ServeSettings`, and as the ``WEBMDP_RL_*``
environment variables :func:`webmdp.rl.app.create_app` reads (the table is there); with the
listening socket every serving path binds the same way. Light: no OpenEnv import."""

from __future__ import annotations

import math
import os
import socket
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.errors import ConfigError

PREFIX = "WEBMDP_RL_"
STATS_DIR_ENV = f"{PREFIX}STATS_DIR"
"""Set by ``rl serve --workers``: where each worker keeps its counters for the merged
minutely statistics (:class:`webmdp.rl.server.ServeLog`)."""
DEFAULT_MAX_SESSIONS = 16
"""At least a trainer's generation batch: OpenEnv's default of 1 stalls training."""
DEFAULT_PORT = 8000
DEFAULT_STEP_TIMEOUT = 30.0
"""Seconds one browser-mode step may take: one action in a local browser."""
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
    suite: str = "builtin"
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


def listen(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound here so a port of 0 is known before uvicorn (or
    its workers, which inherit it) serves."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host.strip("[]"), port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock
