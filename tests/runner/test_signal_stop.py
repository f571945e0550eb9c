"""SIGTERM to a browser-mode run with four workers stops every process it started (workers,
Playwright drivers, Chromium) within 10 s, and `--resume` then finishes every episode with
none lost or doubled."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from webmdp.runner.procs import alive

pytestmark = pytest.mark.slow


def _descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _name(p: psutil.Process) -> str:
    try:
        return p.name()
    except psutil.Error:
        return ""


def test_sigterm_stops_every_process_and_resume_loses_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "webmdp.cli.main", "run", "--site", "shopping", "--mode",
            "browser", "--workers", "4", "--limit", "8", "--agent", "oracle", "--observation",
            "axtree", "--out", str(out)]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen: dict[int, psutil.Process] = {}
    end = time.monotonic() + 120
    while time.monotonic() < end:  # until the four workers each drive a Chromium
        for p in _descendants(proc.pid):
            seen[p.pid] = p
        if sum("chrom" in _name(p).lower() for p in alive(list(seen.values()))) >= 4:
            break
        time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("the run never started its browsers")
    proc.send_signal(signal.SIGTERM)
    t0 = time.monotonic()
    while time.monotonic() - t0 < 10 and (proc.poll() is None or alive(list(seen.values()))):
        for p in _descendants(proc.pid):
            seen[p.pid] = p
        time.sleep(0.1)
    left = alive(list(seen.values()))
    assert proc.poll() is not None, "the run did not exit within 10 s of SIGTERM"
    assert not left, [(p.pid, _name(p)) for p in left]
    assert proc.returncode == 128 + signal.SIGTERM

    again = subprocess.run([sys.executable, "-m", "webmdp.cli.main", "run", "--resume",
                            str(out), "--workers", "2"], capture_output=True, text=True,
                           timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(r["task_id"] for r in rows) == sorted(
        json.loads((out / "manifest.json").read_text())["task_set"]["ids"])
