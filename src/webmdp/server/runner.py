"""Start the app with uvicorn on a free loopback port in a background thread."""

from __future__ import annotations

import secrets
import socket
import threading
import time
from typing import Any

import httpx
import uvicorn

from webmdp.core.model import State
from webmdp.errors import ServerError
from webmdp.redact import register as register_secret
from webmdp.server.app import create_app

LOOPBACK = "127.0.0.1"


CLIENT_KEEP_ALIVE_S = 5.0
"""How long the control client reuses an idle connection (httpx's default)."""
SERVER_KEEP_ALIVE_S = 60
"""How long the server keeps an idle connection open: longer than the client reuses one.
With both at 5 s (uvicorn's and httpx's defaults) a call made as the server closed the idle
connection failed with "Server disconnected without sending a response" (a level-3 failure
of `validate`, an infrastructure error of a run), on a machine slow enough to idle 5 s
between two calls of an episode."""


class ServerHandle:
    """A running webmdp server: ``url``, control ``token`` and a control-API client."""

    def __init__(self, *, host: str = LOOPBACK, port: int = 0):
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ServerError(f"refusing to bind {host}: the server binds loopback only")
        self.token = secrets.token_urlsafe(24)
        register_secret(self.token)  # a run never writes it (webmdp.redact)
        self.app = create_app(self.token)
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((LOOPBACK, port))
        self.port = self._sock.getsockname()[1]
        self.url = f"http://{LOOPBACK}:{self.port}"
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off",
                                timeout_keep_alive=SERVER_KEEP_ALIVE_S)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run,
                                        kwargs={"sockets": [self._sock]}, daemon=True)
        self.client = httpx.Client(base_url=self.url, headers={"X-WebMDP-Token": self.token},
                                   timeout=30.0,
                                   limits=httpx.Limits(keepalive_expiry=CLIENT_KEEP_ALIVE_S))

    def start(self) -> ServerHandle:
        self._thread.start()
        deadline = time.monotonic() + 15
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise ServerError("webmdp server failed to start")
            time.sleep(0.01)
        return self

    def control(self, method: str, path: str, **kw: Any) -> dict:
        """Call the control API; raises :class:`ServerError` on failure."""
        try:
            r = self.client.request(method, path, **kw)
        except httpx.HTTPError as exc:
            raise ServerError(f"control API unreachable: {exc}") from exc
        if r.status_code >= 400:
            raise ServerError(f"control API {method} {path}: {r.status_code} {r.text}")
        return r.json()

    def transitions_since(self, sid: str, since: int) -> tuple[list[dict[str, Any]], int]:
        """What ``GET /control/sessions/{sid}/trace?since=`` answers (the session's transitions
        from ``since`` on, as JSON-ready dicts, and their total count), read from the app in
        this process under the session's lock: no HTTP round trip."""
        sess = self.app.state.sessions.get(sid)
        if sess is None:
            raise ServerError(f"no session {sid}")
        with sess.lock:
            recs = sess.tracker.transitions[since:]
            return [r.model_dump(mode="json") for r in recs], len(sess.tracker.transitions)

    def session_state(self, sid: str) -> State:
        """A session's current semantic state, read from the app in this process under the
        session's lock (a trainer's shaping reward needs it; no page ever shows it)."""
        sess = self.app.state.sessions.get(sid)
        if sess is None:
            raise ServerError(f"no session {sid}")
        with sess.lock:
            return sess.tracker.state

    def session_seen(self, sid: str) -> frozenset[tuple[str, str]]:
        """The (entity, field) pairs a session's screens have shown so far (its tracker's
        ``seen``, the first screen included), read like :meth:`session_state`: the informed
        shaping potential needs it."""
        sess = self.app.state.sessions.get(sid)
        if sess is None:
            raise ServerError(f"no session {sid}")
        with sess.lock:
            return frozenset(sess.tracker.seen)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self.client.close()
        self._sock.close()

    def __enter__(self) -> ServerHandle:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
