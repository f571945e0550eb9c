"""Shared fixtures: generated tasks, one real server and one real Chromium per test session."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
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


HEAVIEST = (
    "tests/docs/test_examples.py::test_page_examples_run[docs/evaluate.md]",
    "tests/e2e/test_validate.py::test_parallel_validation_equals_the_sequential_one",
    "tests/rl/test_serve_scale.py::test_openenv_validate_passes_on_the_repository_and_on_a_",
    "tests/docs/test_examples.py::test_page_examples_run[docs/cross-site.md]",
    "tests/rl/test_rl_cmd.py::test_serve_says_what_it_does_then_ready_then_one_line_per_episode",
    "tests/docs/test_examples.py::test_page_examples_run[README.md]",
    "tests/docs/test_examples.py::test_page_examples_run[docs/difficulty.md]",
    "tests/eval/test_demo_summary.py::test_the_browser_demo_opens_the_viewer_on_an_episode_",
    "tests/forge/test_forge.py::test_forge_validates_in_chromium_and_prints_table_8",
    "tests/e2e/test_runner_faults.py::test_ray_backend_gives_the_local_results",
    "tests/sites/test_visual.py::test_pixel_agent_solves_and_text_agent_only_guesses[shopping]",
    "tests/docs/test_examples.py::test_page_examples_run[docs/agents.md]",
    "tests/cap/test_cross_run.py::test_oracles_replay_in_chromium_across_sites",
    "tests/cli/test_secret_canary.py::test_no_secret_reaches_a_file_or_the_terminal[forge ",
    "tests/gym/test_gym_browser.py::test_check_env_passes_in_browser_mode",
    "tests/eval/test_bifurcation.py::test_alignment_state_is_a_behavioural_equivalence[mail]",
    "tests/rl/test_serve_scale.py::test_browser_mode_workers_play_the_gui_oracle_and_stop_",
    "tests/forge/test_forge.py::test_forge_fills_cells_with_tasks_of_their_measured_level",
    "tests/runner/test_run.py::test_resume_runs_what_is_missing_and_refuses_another_run",
    "tests/e2e/test_runner_faults.py::test_sigkill_runner_then_resume_equals_an_uninterrupted",
    "tests/e2e/test_validate.py::test_validate_sample[accommodation]",
    "tests/tasks/test_variants.py::test_stream_segments_turn_the_knobs_and_names_resolve",
    "tests/docs/test_examples.py::test_page_examples_run[docs/training-data.md]",
    "tests/runner/test_run_safety.py::test_an_episode_past_its_limit_is_sealed_alone",
    "tests/e2e/test_runner_faults.py::test_sigterm_stops_gracefully_then_resume_completes",
    "tests/runner/test_signal_validate.py::test_sigterm_stops_validate_and_its_browsers",
    "tests/e2e/test_runner_faults.py::test_killed_chromium_is_retried_and_every_task_runs_once",
    "tests/packaging/test_wheel.py::test_installed_webmdp_demo_runs_outside_the_repo",
    "tests/rl/test_serve_settle.py::test_a_warm_server_freezes_its_pools_and_a_cold_one_does_",
    "tests/plugins/test_site_plugin.py::test_ray_workers_find_the_plugin",
)
"""The suite's slowest tests, slowest first (``--durations``; node-id prefixes). Under
pytest-xdist each worker's first share of the collection starts with its turn of them, so
none is left for the end, where the other workers would sit idle beside it. A stale entry
only costs time."""


def _heaviness(nodeid: str) -> int | None:
    """The test's place in :data:`HEAVIEST`, or None."""
    return next((i for i, p in enumerate(HEAVIEST) if nodeid.startswith(p)), None)


@pytest.hookimpl(trylast=True)  # after `-m "not slow"` deselects: the shares are of what runs
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Deal :data:`HEAVIEST` round the workers, at the front of each one's first share (the
    worksteal scheduler hands each worker an equal contiguous share of the collection)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0") or 0)
    if workers < 2:
        return
    rank = {id(it): r for it in items if (r := _heaviness(it.nodeid)) is not None}
    heavy = sorted((it for it in items if id(it) in rank), key=lambda it: rank[id(it)])
    rest = [it for it in items if id(it) not in rank]
    ordered: list[pytest.Item] = []
    left = len(items)
    for w in range(workers):  # the scheduler's shares: len(pending) // nodes_remaining
        share = left // (workers - w)
        mine = heavy[w::workers]
        take = max(share - len(mine), 0)
        ordered += mine + rest[:take]
        rest = rest[take:]
        left -= share
    items[:] = ordered + rest


_BESIDE: list[tuple[str, IO[str], subprocess.Popen[bytes]]] = []
"""The command run beside the suite (``WEBMDP_TEST_BESIDE``), its output and its process."""


def _stop(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    proc.wait()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Wait for the command run beside the suite; the run fails if it failed. An
    interrupted run stops it (its process group) instead of waiting for it."""
    for command, log, proc in _BESIDE:
        if session.exitstatus == pytest.ExitCode.INTERRUPTED:
            _stop(proc)
        try:
            proc.wait()
        except KeyboardInterrupt:  # interrupted while waiting for it
            _stop(proc)
            raise
        if proc.returncode != 0 and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        log.seek(0)
        out = session.config.pluginmanager.get_plugin("terminalreporter")
        text = f"\n== {command} (ran beside the suite): exit {proc.returncode}\n{log.read()}"
        if out is not None:
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
