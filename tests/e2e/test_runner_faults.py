"""Fault tolerance of `webmdp run` in browser mode, with real processes: a killed or hung
Chromium, a runner killed with SIGKILL or stopped with SIGTERM, and the Ray backend. Each
ends with every episode stored exactly once, the verdicts of an uninterrupted run, and no
process of the run left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

from support import shared_dir
from webmdp.runner.procs import run_processes

pytestmark = pytest.mark.browser

WEBMDP = str(Path(sys.executable).parent / "webmdp")
# six episodes over two workers: enough that a fault lands mid-run, few enough to run often
RUN = ("run", "--site", "shopping", "--agent", "oracle", "--agent", "greedy", "--limit", "3",
       "--mode", "browser", "--observation", "axtree", "--workers", "2")


def webmdp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([WEBMDP, *args], capture_output=True, text=True, timeout=400)


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([WEBMDP, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def wait_for(cond: Callable[[], bool], timeout: float = 120, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def traces(out: Path) -> list[Path]:
    return list((out / "episodes").glob("*/browser/*.json"))


def rows(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]


def verdicts(out: Path) -> dict[tuple[str, str], tuple[bool, str, int]]:
    got = {(r["agent"], r["task_id"]): (r["success"], r["termination"], r["gui_steps"])
           for r in rows(out)}
    assert len(got) == len(rows(out)) == len(traces(out))  # none duplicated
    return got


def events(out: Path, kind: str) -> list[dict]:
    path = out / "events.jsonl"
    lines = path.read_text().splitlines() if path.is_file() else []
    return [e for e in map(json.loads, lines) if e["event"] == kind]


def browsers(out: Path) -> list[psutil.Process]:
    """The run's Chromium browser processes (the ones Playwright's driver started)."""
    found = []
    for p in run_processes(out):
        try:
            if p.name() in ("chromium", "chrome", "headless_shell") and \
                    p.parent() is not None and p.parent().name().startswith("node"):
                found.append(p)
        except psutil.Error:
            continue
    return found


def paged(out: Path) -> psutil.Process | None:
    """A browser of the run that renders a page (it has a renderer process), if any."""
    for b in browsers(out):
        try:
            if any("--type=renderer" in " ".join(c.cmdline()) for c in b.children(True)):
                return b
        except psutil.Error:
            continue
    return None


def no_leftovers(out: Path) -> None:
    wait_for(lambda: not run_processes(out), 15, "the run's processes to exit")


def _reference_run(out: Path) -> None:
    res = webmdp(*RUN, "--out", str(out))
    assert res.returncode == 0, res.stderr
    no_leftovers(out)


@pytest.fixture(scope="session")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """An uninterrupted run: the verdicts every faulty run must end with. Made once per
    session, whichever pytest-xdist worker runs a test of this module first."""
    out = shared_dir(tmp_path_factory, "runner-faults-reference", _reference_run)
    got = verdicts(out)
    assert len(got) == 6
    assert all(ok for (agent, _), (ok, _, _) in got.items() if agent == "oracle")
    return got


def test_killed_chromium_is_retried_and_every_task_runs_once(reference, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run"
    proc = start(*RUN, "--out", str(out))
    wait_for(lambda: len(traces(out)) >= 1, what="a first episode")
    for _ in range(5):  # kill a Chromium until an episode was hit mid-way
        wait_for(lambda: bool(browsers(out)) or proc.poll() is not None, what="a Chromium")
        if proc.poll() is not None:
            break
        browsers(out)[0].kill()
        time.sleep(1.5)
        if events(out, "attempt_failed"):
            break
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    failed = events(out, "attempt_failed")
    assert failed and all("BrowserError" in e["cause"] for e in failed)
    assert verdicts(out) == reference
    no_leftovers(out)


def test_hung_chromium_is_killed_by_the_step_watchdog(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = start("run", "--site", "shopping", "--agent", "oracle", "--limit", "5", "--mode",
                 "browser", "--observation", "axtree", "--step-timeout", "8", "--out", str(out))
    # stopped once a page is open (a stop as it launches is tests/runner/test_watchdog.py's);
    # five episodes, so that the stop lands before the last one ends on a loaded machine
    wait_for(lambda: bool(events(out, "start")) and paged(out) is not None,
             what="an episode's page")
    browser = paged(out)
    assert browser is not None
    browser.suspend()  # SIGSTOP: Chromium hangs, Playwright waits
    try:
        _, err = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError(f"the run hung; its events: {events(out, 'start')[-3:]}, "
                             f"{events(out, 'attempt_failed')}") from None
    assert proc.returncode == 0, err
    # the hung episode's attempt fails by the watchdog (on a loaded machine another attempt
    # may fail too, a slow step past the 8 s: it is retried like the hung one)
    failed = events(out, "attempt_failed")
    assert any("step watchdog" in f["cause"] for f in failed), failed
    assert [r["success"] for r in rows(out)] == [True] * 5
    no_leftovers(out)


def test_sigkill_runner_then_resume_equals_an_uninterrupted_run(reference, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run"
    proc = start(*RUN, "--out", str(out))
    wait_for(lambda: len(traces(out)) >= 2, what="two episodes")
    proc.kill()
    proc.wait()
    no_leftovers(out)  # the workers noticed and took their Chromium processes with them
    assert len(traces(out)) < 6
    res = webmdp("run", "--resume", str(out))
    assert res.returncode == 0, res.stderr
    assert verdicts(out) == reference
    no_leftovers(out)


def test_sigterm_stops_gracefully_then_resume_completes(reference, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # twice the reference's tasks: a graceful stop lets the workers finish the tasks they
    # hold, and with three tasks over two workers that can be all of them
    out = tmp_path / "run"
    run = list(RUN)
    run[run.index("--limit") + 1] = "6"
    proc = start(*run, "--out", str(out))
    wait_for(lambda: len(traces(out)) >= 3, what="three episodes")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "webmdp run --resume" in err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["invocations"][-1]["status"] == "interrupted"
    no_leftovers(out)
    assert len(traces(out)) < 12 and all(r["termination"] != "infra_error" for r in rows(out))
    res = webmdp("run", "--resume", str(out))
    assert res.returncode == 0, res.stderr
    got = verdicts(out)
    assert len(got) == 12 and {k: got[k] for k in reference} == reference
    no_leftovers(out)


def test_ray_backend_gives_the_local_results(reference, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("ray")
    out = tmp_path / "run"
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    # the first task (two episodes over two Ray workers): Ray's start is most of the cost
    run = list(RUN)
    run[run.index("--limit") + 1] = "1"
    res = subprocess.run([WEBMDP, *run, "--backend", "ray", "--out", str(out)],
                         capture_output=True, text=True, timeout=400, env=env)
    assert res.returncode == 0, res.stderr
    got = verdicts(out)
    assert len(got) == 2 and {k: reference[k] for k in got} == got
    assert json.loads((out / "manifest.json").read_text())["settings"]["backend"] == "ray"
    no_leftovers(out)
