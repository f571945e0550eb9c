"""The step watchdog against a Chromium that dies while Playwright never says so.

Playwright 1.65 can wait for ever in a call (``new_page``) when its browser dies at the wrong
moment. Here that is made certain: the slot's driver is stopped (SIGSTOP, so it reports
nothing) and its Chromium killed, then the slot calls Playwright. The watchdog must notice the
dead browser, kill the driver, and the slot must get an error and go on with a new driver.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from webmdp.env import chromium
from webmdp.env.chromium import BrowserHost
from webmdp.runner import worker
from webmdp.runner.spec import RunSettings
from webmdp.runner.worker import WorkerContext

pytestmark = pytest.mark.browser


def _in_a_slot(ctx: WorkerContext, body: Callable[[dict[str, Any]], None], stuck: str
               ) -> dict[str, Any]:
    """Run ``body`` in a slot's own thread (so its own Playwright driver) beside the step
    watchdog; what it records, after checking it neither hung nor raised."""
    stop = threading.Event()
    threading.Thread(target=ctx.watch_steps, args=(stop,), daemon=True).start()
    seen: dict[str, Any] = {}

    def run() -> None:
        try:
            body(seen)
        except BaseException as exc:  # report it to the test
            seen["failure"] = repr(exc)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(120)
    stop.set()
    assert not t.is_alive(), stuck
    assert "failure" not in seen, seen.get("failure")
    return seen


def test_a_call_left_waiting_by_a_dead_chromium_is_ended(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(worker, "DEAD_GRACE_S", 1.0)
    (tmp_path / "tasks.jsonl").write_text("")
    ctx = WorkerContext(tmp_path, RunSettings(step_timeout_s=600.0))
    slot = ctx.new_slot()

    def body(seen: dict[str, Any]) -> None:
        host = slot.host = BrowserHost()
        page = host.browser.new_page()
        driver_pid = host._driver_proc[0]  # type: ignore[index]
        os.kill(driver_pid, signal.SIGSTOP)  # Playwright will hear nothing from now on
        os.killpg(host.pid, signal.SIGKILL)  # type: ignore[arg-type]  # a crash
        slot.busy_since = slot.last_beat = time.monotonic()
        t0 = time.monotonic()
        try:
            page.evaluate("1 + 1")
        except Exception as exc:  # the driver's death ends the call
            seen["error"] = type(exc).__name__
        seen["waited"] = time.monotonic() - t0
        slot.busy_since = None
        seen["old_driver"] = driver_pid
        host.ensure()  # a new driver and a new Chromium, in the same thread
        page = host.browser.new_page()
        page.set_content("<p>back</p>")
        seen["after"] = page.inner_text("p")
        seen["new_driver"] = host._driver_proc[0]  # type: ignore[index]
        host.close()

    seen = _in_a_slot(ctx, body, "the slot stayed stuck")
    assert seen["error"] and seen["waited"] >= 1.0  # ended by the watchdog, after its grace
    assert slot.killed is not None and "Chromium died" in slot.killed
    assert seen["after"] == "back"
    assert seen["new_driver"] != seen["old_driver"]
    assert chromium._start_time(seen["old_driver"]) is None  # the stopped driver was killed


def test_a_chromium_that_hangs_as_it_starts_is_killed(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The slot's host is watched while it launches: a browser stopped before it answers
    Playwright (here a wrapper that stops itself, then would exec Chromium) is killed with
    the driver, the launch fails at once, and the next launch in the slot works."""
    real = chromium.browser_binary()
    pidfile = tmp_path / "wrapper.pid"
    wrapper = tmp_path / "chromium-that-hangs"
    wrapper.write_text(f'#!/bin/sh\necho $$ > {pidfile}\nkill -STOP $$\nexec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("WEBMDP_CHROMIUM", str(wrapper))
    (tmp_path / "tasks.jsonl").write_text("")
    ctx = WorkerContext(tmp_path, RunSettings(step_timeout_s=2.0))
    slot = ctx.new_slot()

    def body(seen: dict[str, Any]) -> None:
        slot.busy_since = slot.last_beat = time.monotonic()
        try:
            ctx.host(slot)
        except Exception as exc:
            seen["error"] = f"{type(exc).__name__}: {exc}"
        slot.busy_since = None
        monkeypatch.setenv("WEBMDP_CHROMIUM", real)
        host = ctx.host(slot)
        host.ensure()  # what an episode does first: a new driver and a new Chromium
        page = host.browser.new_page()
        page.set_content("<p>back</p>")
        seen["after"] = page.inner_text("p")
        slot.close()

    seen = _in_a_slot(ctx, body, "the slot stayed stuck in the launch")
    assert seen["error"].startswith("BrowserError"), seen["error"]
    assert "Timeout" not in seen["error"]  # ended by the kill, not by Playwright's own timeout
    assert slot.killed is not None and "step watchdog" in slot.killed
    assert chromium._start_time(int(pidfile.read_text())) is None  # the stopped one is gone
    assert seen["after"] == "back"
