"""Browser mode for trainers: one webmdp server per process, and a Chromium per session.

Playwright's sync API binds a browser to the thread that launched it, while a trainer calls an
environment from whatever thread it likes (OpenEnv runs a WebSocket session on a thread of its
own, but a stateless HTTP call resets on a pool thread and closes on the event loop's). So each
session holds a :class:`BrowserSeat`: its own :class:`~webmdp.env.chromium.BrowserHost` and
the one thread that ever touches it (:meth:`BrowserSeat.run`), both started on the session's
first ``reset``; each episode gets a fresh browser context. A :class:`BrowserCap` bounds
how many live at once (``webmdp rl serve --max-sessions``); the server that renders every
site is shared and started once, on first use.
"""

from __future__ import annotations

import atexit
import base64
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from webmdp.env.chromium import BrowserHost
from webmdp.server.runner import ServerHandle

T = TypeVar("T")
_SERVER: ServerHandle | None = None
_SERVER_LOCK = threading.Lock()
WAIT_S = 60.0
"""How long a call waits for a browser slot before it is refused."""


def shared_server() -> ServerHandle:
    """The process's webmdp server (loopback), started on first use."""
    global _SERVER
    with _SERVER_LOCK:
        if _SERVER is None:
            _SERVER = ServerHandle().start()
            atexit.register(_SERVER.stop)
        return _SERVER


class StepTimeout(RuntimeError):
    """A browser-mode call ran past its time; the seat was recycled."""


class BrowserCap:
    """At most ``limit`` Chromium processes at once (None: no bound)."""

    def __init__(self, limit: int | None = None) -> None:
        if limit is not None and limit < 1:
            raise ValueError(f"the browser cap must be at least 1, got {limit}")
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit) if limit is not None else None

    def acquire(self) -> None:
        if self._slots is not None and not self._slots.acquire(timeout=WAIT_S):
            raise RuntimeError(f"all {self.limit} browsers are in use (waited {WAIT_S:g} s); "
                               "raise --max-sessions or close a session")

    def release(self) -> None:
        if self._slots is not None:
            self._slots.release()


_SEATS: weakref.WeakSet[BrowserSeat] = weakref.WeakSet()
"""Every live seat, so the process's exit kills each one's Chromium and driver (a session
left open at SIGTERM would otherwise leave them running)."""


@atexit.register
def _kill_seats() -> None:
    for seat in list(_SEATS):
        host = seat._host
        if host is not None:
            host.kill(driver=True)


class BrowserSeat:
    """A session's Chromium and its thread: :meth:`run` calls a function on the seat's own
    thread, where :meth:`host` launches the browser on first use, holding one slot of ``cap``
    until :meth:`close`."""

    def __init__(self, cap: BrowserCap | None = None) -> None:
        self.cap = cap or BrowserCap()
        self._host: BrowserHost | None = None
        self._thread: ThreadPoolExecutor | None = None
        _SEATS.add(self)

    def run(self, fn: Callable[..., T], *args: Any, timeout: float | None = None,
            **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` on the seat's thread (every Playwright call goes there).
        Past ``timeout`` seconds the seat is recycled (:meth:`recycle`) and
        :class:`StepTimeout` raised."""
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="webmdp-seat")
        future = self._thread.submit(fn, *args, **kwargs)
        try:
            return future.result(timeout=timeout)
        except FutureTimeout:
            self.recycle()
            raise StepTimeout(f"the step ran past {timeout:g} s: the episode ended and its "
                              "browser was recycled") from None

    def recycle(self) -> None:
        """Kill the seat's Chromium and Playwright driver from here (the seat's thread may be
        stuck in a call), give back its slot and leave the thread; the next :meth:`host`
        launches a fresh browser on a fresh thread."""
        host, thread = self._host, self._thread
        self._host = self._thread = None
        if host is not None:
            host.kill(driver=True)
            self.cap.release()
        if thread is not None:
            thread.shutdown(wait=False, cancel_futures=True)

    def host(self) -> BrowserHost:
        """The seat's browser (call it inside :meth:`run`)."""
        if self._host is None:
            self.cap.acquire()
            try:
                self._host = BrowserHost()
            except BaseException:
                self.cap.release()
                raise
        self._host.ensure()
        return self._host

    def close(self) -> None:
        """Close the browser on its thread, give back the slot, end the thread."""
        if self._host is not None:
            try:
                self.run(self._host.close)
            except RuntimeError:  # at interpreter exit the thread is gone: kill what it started
                self._host.kill(driver=True)
            finally:
                self._host = None
                self.cap.release()
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None


def screenshot_b64(obs: dict[str, Any]) -> str | None:
    """The observation's PNG as base64 text (what a JSON observation carries)."""
    shot = obs.get("screenshot")
    return base64.b64encode(shot).decode("ascii") if shot else None
