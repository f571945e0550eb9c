"""Serve the viewer with uvicorn on a socket bound before the server starts, so port 0 (a free
port) is known, and printed, before the first request. The viewer binds loopback only and
answers only loopback Host names (a DNS-rebinding page is refused with 400): it has no token,
and a browser could not send one."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn
from fastapi import FastAPI

from webmdp.errors import ConfigError
from webmdp.server.origin import Access, is_loopback, protect

LOOPBACK = "127.0.0.1"


def check_loopback(host: str) -> None:
    """Refuse a bind off loopback: the viewer has no authentication."""
    if not is_loopback(host):
        raise ConfigError(f"the viewer binds loopback only, not {host}: it has no "
                          "authentication; from another machine, tunnel to it (ssh -L "
                          "8765:127.0.0.1:8765 THIS-MACHINE)")


class ViewerServer:
    """``app`` on ``host:port`` (a loopback address), behind the Host and Origin checks of
    :mod:`webmdp.server.origin`; :meth:`serve` blocks (the CLI), :meth:`start` runs it on a
    daemon thread (tests, notebooks) until :meth:`stop`."""

    def __init__(self, app: FastAPI, *, host: str = LOOPBACK, port: int = 0):
        check_loopback(host)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._sock = socket.socket(family, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self._sock.bind((host, port))
        except (OSError, OverflowError) as exc:  # OverflowError: a port outside 0..65535
            self._sock.close()
            raise ConfigError(f"cannot bind {host}:{port}: {exc}") from exc
        self._sock.listen()  # connections wait in the backlog until uvicorn accepts them
        protect(app, Access(bind=host))
        self.host, self.port = host, self._sock.getsockname()[1]
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        self.url = f"http://{shown}:{self.port}/"
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    def serve(self) -> None:
        """Serve until interrupted (Ctrl-C or SIGTERM), then return."""
        try:
            self._server.run(sockets=[self._sock])
        except KeyboardInterrupt:
            pass  # uvicorn re-raises the interrupt it handled: the shutdown was clean
        finally:
            self._sock.close()

    def start(self) -> ViewerServer:
        self._thread = threading.Thread(target=self._server.run,
                                        kwargs={"sockets": [self._sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 15
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise ConfigError("the viewer failed to start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._sock.close()

    def __enter__(self) -> ViewerServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
