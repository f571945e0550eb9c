"""SIGTERM to `webmdp validate --workers 2` stops it and every process it started (workers,
Playwright drivers, Chromium) within 10 s."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import psutil

from webmdp.runner.procs import alive


def _chromium(p: psutil.Process) -> bool:
    try:
        return "chrom" in p.name().lower()
    except psutil.Error:
        return False


def test_sigterm_stops_validate_and_its_browsers() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "webmdp.cli.main", "validate", "--site",
                             "shopping", "--workers", "2", "--limit", "12"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen: dict[int, psutil.Process] = {}
    end = time.monotonic() + 120
    while time.monotonic() < end:
        for p in psutil.Process(proc.pid).children(recursive=True):
            seen[p.pid] = p
        if sum(_chromium(p) for p in alive(seen.values())) >= 2:
            break
        time.sleep(0.2)
    else:
        proc.kill()
        raise AssertionError("validate never started its browsers")
    proc.send_signal(signal.SIGTERM)
    t0 = time.monotonic()
    while time.monotonic() - t0 < 10 and (proc.poll() is None or alive(seen.values())):
        time.sleep(0.1)
    assert proc.poll() is not None, "validate did not exit within 10 s of SIGTERM"
    assert not alive(seen.values()), [(p.pid, p.name()) for p in alive(seen.values())]
