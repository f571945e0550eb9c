"""Shared fixtures: generated tasks, one real server and one real Chromium per test session."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import IO

import pytest

from support import site_tasks
from webmdp.env.chromium import BrowserHost
from webmdp.server.runner import ServerHandle
from webmdp.tasks import Task

# The disk cache of generated task sets and site cards (webmdp.tasks.cache): a fresh one per
# test run, so every run generates each set once (in whichever process needs it first; the
# entry's lock makes the others wait for it) and its subprocesses (`webmdp run`, runner
# workers) read it instead of generating it again. Under pytest-xdist the controller makes it
# before it starts its workers, which inherit it (WEBMDP_TEST_CACHE) and share it; the
# controller removes it at exit.
if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("WEBMDP_TEST_CACHE"):
    _CACHE = os.environ["WEBMDP_TEST_CACHE"]
else:
    _CACHE = tempfile.mkdtemp(prefix="webmdp-test-cache-")
    os.environ["WEBMDP_TEST_CACHE"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, True)
os.environ["WEBMDP_CACHE_DIR"] = _CACHE


PREBUILT_POOLS = ("shopping", "food", "mail")
"""The sites whose dial pool ``make test`` builds before its workers start: the ones its tests
read (a pool is the site's whole dial stream; the tests over every site's pool, ``rl splits
--site all``, are in ``make test-slow``)."""
PREBUILT_GRIDS = ("shopping",)
"""The sites whose grid suite it builds (tests/forge/test_grid.py)."""


def pytest_configure(config: pytest.Config) -> None:
    """``make test`` (``WEBMDP_TEST_PREBUILD=1``): before the xdist workers start, the
    controller fills the fresh cache on every core (the built-in sets, the cross-site suite,
    the dial pools of :data:`PREBUILT_POOLS` and the grids of :data:`PREBUILT_GRIDS`), so no
    test builds a set while the other workers wait on its lock or sit idle behind it."""
    if os.environ.get("PYTEST_XDIST_WORKER") or os.environ.get("WEBMDP_TEST_PREBUILD") != "1":
        return
    t0 = time.monotonic()
    code = ("from webmdp.sites import site_names; from webmdp.tasks.sources import "
            "build_parallel; from webmdp.runner.limits import usable_cpus; "
            f"build_parallel(site_names(), cross=True, dial={PREBUILT_POOLS!r}, "
            f"grid={PREBUILT_GRIDS!r}, workers=usable_cpus())")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    print(f"task cache built on every core in {time.monotonic() - t0:.0f} s", flush=True)
    beside = os.environ.get("WEBMDP_TEST_BESIDE")
    if beside:  # make test: the integration suite, beside the workers (it waits on subprocesses)
        log = tempfile.TemporaryFile("w+")  # noqa: SIM115 (read when the session ends)
        env = {k: v for k, v in os.environ.items() if not k.startswith("WEBMDP_TEST")}
        _BESIDE.append((beside, log, subprocess.Popen(
            beside, shell=True, stdout=log, stderr=subprocess.STDOUT, env=env,
            start_new_session=True)))


_BESIDE: list[tuple[str, IO[str], subprocess.Popen[bytes]]] = []
"""The command run beside the suite (``WEBMDP_TEST_BESIDE``), its output and its process."""


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Wait for the command run beside the suite; the run fails if it failed."""
    for command, log, proc in _BESIDE:
        if proc.wait() != 0 and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        log.seek(0)
        out = session.config.pluginmanager.get_plugin("terminalreporter")
        text = f"== {command} (ran beside the suite): exit {proc.returncode}\n{log.read()}"
        if out is not None:
            out.ensure_newline()
            out.write_line(text)
        else:
            print(text, flush=True)


@pytest.fixture(scope="session")
def shopping_tasks() -> list[Task]:
    return site_tasks("shopping")


@pytest.fixture(scope="session")
def mail_tasks() -> list[Task]:
    return site_tasks("mail")


@pytest.fixture(scope="session")
def server() -> Iterator[ServerHandle]:
    with ServerHandle() as srv:
        yield srv


@pytest.fixture(scope="session")
def host() -> Iterator[BrowserHost]:
    with BrowserHost() as h:
        yield h
