"""`rl serve` beyond one process (issue 43): the app factory run by uvicorn's own workers,
`rl serve --workers`, the actions in /schema, a killed worker, SIGTERM."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest
from fastapi.testclient import TestClient
from rl_support import free_port, oracle_actions, until
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosedError

from webmdp.cli.main import app
from webmdp.errors import ConfigError
from webmdp.rl.client import WebMDPClient
from webmdp.rl.openenv import NO_EPISODE, WebMDPEnvironment
from webmdp.rl.server import build_app
from webmdp.rl.settings import ServeSettings
from webmdp.rl.splits import TRAIN, Catalog
from webmdp.runner.procs import alive

Played = list[tuple[float | None, bool, str]]


def _local(task_id: str, reward: str = "terminal") -> Played:
    """The oracle episode in this process: what every server must answer."""
    task = Catalog("shopping").task(task_id)
    env = WebMDPEnvironment("shopping", reward=reward)  # type: ignore[arg-type]
    out = [_seen(env.reset(task_id=task_id))]
    out += [_seen(env.step(a)) for a in oracle_actions(task)]
    env.close()
    return out


def _seen(obs: Any) -> tuple[float | None, bool, str]:
    return obs.reward, obs.done, obs.text


def _remote(port: int, task_id: str) -> Played:
    task = Catalog("shopping").task(task_id)
    with WebMDPClient(base_url=f"http://127.0.0.1:{port}").sync() as client:
        out = [_seen(client.reset(task_id=task_id).observation)]
        for a in oracle_actions(task):
            r = client.step(a)
            out.append((r.reward, r.done, r.observation.text))
    return out


def _serve(*args: str, env: dict[str, str] | None = None
           ) -> tuple[subprocess.Popen[str], int, list[str]]:
    proc = subprocess.Popen([sys.executable, "-m", "webmdp.cli.main", "rl", "serve", "--site",
                             "shopping", "--port", "0", *args], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True, env=env)
    lines = until(proc, "ready")
    found = re.search(r"http://127\.0\.0\.1:(\d+) ", lines[-1])
    assert found, lines
    return proc, int(found.group(1)), lines


def _workers(proc: subprocess.Popen[str]) -> list[psutil.Process]:
    """The server's live worker processes (not multiprocessing's resource tracker)."""
    out = []
    for p in psutil.Process(proc.pid).children():
        with contextlib.suppress(psutil.Error):  # a dead worker not reaped yet
            if p.status() != psutil.STATUS_ZOMBIE and "spawn_main" in " ".join(p.cmdline()):
                out.append(p)
    return out


def _stop(proc: subprocess.Popen[str]) -> str:
    started = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=10)
    end = time.monotonic() + 10
    while alive(started) and time.monotonic() < end:
        time.sleep(0.1)
    assert not alive(started), [p.cmdline() for p in alive(started)]
    return err


def test_settings_travel_through_the_environment() -> None:
    s = ServeSettings(site="shopping", reward="dense", max_sessions=5, tasks="/x/t.jsonl",
                      allow_origin=("http://a.example:3000", "http://b.example"), quiet=True,
                      token="tok-1")
    assert ServeSettings.from_env(s.env()) == s
    assert ServeSettings.from_env({}) == ServeSettings()
    assert s.per_worker(2).max_sessions == 3 and s.per_worker(5).max_sessions == 1
    with pytest.raises(ConfigError, match="WEBMDP_RL_MAX_SESSIONS must be a number"):
        ServeSettings.from_env({"WEBMDP_RL_MAX_SESSIONS": "many"})
    with pytest.raises(ConfigError, match="WEBMDP_RL_QUIET must be 1 or 0"):
        ServeSettings.from_env({"WEBMDP_RL_QUIET": "maybe"})


@pytest.mark.parametrize(("args", "words"), [
    (["--workers", "0"], "--workers must be at least 1"),
    (["--workers", "100000"], "--workers 100000 is more than"),
    (["--backend", "k8s"], "--backend must be local or ray"),
    (["--backend", "ray", "--port", "0"], "--backend ray needs a fixed --port"),
])
def test_bad_scale_options_are_one_line(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["rl", "serve", "--site", "shopping", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output


def test_schema_names_every_action_with_its_parameters() -> None:
    """verifiers' OpenEnv bridge reads /schema's action into every prompt: it must say which
    actions exist and what they take, and stay small for one site."""
    client = TestClient(build_app(site="shopping", warm=False), base_url="http://127.0.0.1")
    schema = client.get("/schema").json()
    variants = schema["action"]["anyOf"]
    served = client.get("/webmdp/actions").json()["sites"]["shopping"]
    assert [v["properties"]["name"]["const"] for v in variants] == [a["name"] for a in served]
    by_name = {v["properties"]["name"]["const"]: v for v in variants}
    assert by_name["Search"]["properties"]["params"]["properties"]["query"]["maxLength"] > 0
    assert by_name["Finish"]["required"] == ["name"]
    assert len(json.dumps(schema["action"])) < 12_000
    assert {"observation", "reset_observation", "state"} <= set(schema)


def test_uvicorn_runs_the_app_factory_with_its_own_workers() -> None:
    """What OpenEnv's providers and the image run: uvicorn's command line, options from the
    environment; episodes are those of one in-process environment, byte for byte."""
    port = free_port()
    env = {**os.environ, **ServeSettings(site="shopping", reward="dense-state",
                                         port=port).env()}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "webmdp.rl.app:create_app",
                             "--factory", "--workers", "2", "--port", str(port),
                             "--log-level", "warning"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                    break
            time.sleep(0.1)
        tasks = [t.id for t in Catalog("shopping").tasks(TRAIN)[:2]]
        for task_id in tasks:
            assert _remote(port, task_id) == _local(task_id, "dense-state")
        refused = httpx.get(f"http://127.0.0.1:{port}/health", headers={"Host": "evil.example"})
        assert refused.status_code == 400  # the access checks come with the factory
    finally:
        _stop(proc)


def test_rl_serve_workers_serves_sessions_in_every_worker_and_merges_their_log() -> None:
    proc, port, lines = _serve("--workers", "2", "--max-sessions", "16")
    try:
        assert "workers=2" in lines[-1]
        assert len(_workers(proc)) == 2
        tasks = [t.id for t in Catalog("shopping").tasks(TRAIN)[:6]]
        with ThreadPoolExecutor(6) as pool:
            played = list(pool.map(lambda t: _remote(port, t), tasks))
        assert played == [_local(t) for t in tasks]
    finally:
        err = _stop(proc)
    episodes = [line for line in err.splitlines() if line.startswith("episode ")]
    assert sorted(episodes) == sorted(f"episode {t}: {len(played[k]) - 1} steps, reward "
                                      "1.000, success" for k, t in enumerate(tasks))
    assert err.splitlines()[-1] == ("stopped: sessions in use: 0; episodes: 6, success rate "
                                    "100.0%")


def test_a_cold_cache_is_ready_at_once_and_builds_the_pool_on_first_reset(tmp_path: Any) -> None:
    proc, port, lines = _serve("--workers", "2",
                               env={**os.environ, "WEBMDP_CACHE_DIR": str(tmp_path)})
    try:
        assert any("not in the disk cache: each is built on its first use" in line
                   for line in lines)
        task = Catalog("shopping").tasks(TRAIN)[0].id
        assert _remote(port, task) == _local(task)
    finally:
        _stop(proc)


def test_a_killed_worker_ends_only_its_own_sessions() -> None:
    """SIGKILL one worker while six sessions are open: its sessions' next step fails (the
    connection dropped, or, once the client reconnected to the other worker, one line saying
    the episode is lost), the other worker's finish, and uvicorn replaces the dead worker."""
    proc, port, _ = _serve("--workers", "2")
    clients = []
    try:
        tasks = Catalog("shopping").tasks(TRAIN)[:6]
        for t in tasks:
            c = WebMDPClient(base_url=f"http://127.0.0.1:{port}").sync()
            c.connect()
            c.reset(task_id=t.id)
            clients.append(c)
        held = {w.pid: _established(w) for w in _workers(proc)}
        assert sum(held.values()) == len(tasks)
        victim = max(held, key=lambda pid: held[pid])
        os.kill(victim, signal.SIGKILL)
        outcomes = []
        for c, t in zip(clients, tasks, strict=True):
            try:
                for a in oracle_actions(t):
                    r = c.step(a)
                outcomes.append("success" if r.reward == 1.0 and r.done else "wrong")
            except ConnectionClosedError:  # the dead worker sent no close frame
                outcomes.append("lost")
            except RuntimeError as exc:  # the client had reconnected, to the other worker
                assert NO_EPISODE in str(exc)
                outcomes.append("lost")
        assert outcomes.count("lost") == held[victim]
        assert outcomes.count("success") == len(tasks) - held[victim]
        end = time.monotonic() + 30
        while (len(_workers(proc)) < 2 or victim in {w.pid for w in _workers(proc)}) \
                and time.monotonic() < end:
            time.sleep(0.2)
        assert victim not in {w.pid for w in _workers(proc)} and len(_workers(proc)) == 2
        for t in tasks[:2]:
            assert _remote(port, t.id) == _local(t.id)
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                c.close()
        _stop(proc)


def _established(worker: psutil.Process) -> int:
    return sum(c.status == psutil.CONN_ESTABLISHED for c in worker.net_connections("tcp"))


def test_openenv_validate_passes_on_the_repository_and_on_a_running_server() -> None:
    """`openenv validate`: the manifest (openenv.yaml) passes its static check (the runtime
    checks of a package build an image, which needs a container engine), and a running
    `rl serve` passes every check of the running-server profile."""
    openenv = [sys.executable, "-m", "openenv.cli"]
    root = Path(__file__).resolve().parents[2]
    static = subprocess.run([*openenv, "validate", "--skip-build", "--json"], cwd=root,
                            capture_output=True, text=True, timeout=300)
    report = json.loads(static.stdout)
    checks = {r["check_id"]: r["status"] for r in report["results"]}
    assert checks["static.manifest"] == "pass"
    assert report["manifest"]["capabilities"]["task_api"] is True
    assert "fail" not in checks.values()
    proc, port, _ = _serve("--workers", "2")
    try:
        running = subprocess.run([*openenv, "validate", "--url", f"http://127.0.0.1:{port}",
                                  "--json"], capture_output=True, text=True, timeout=300)
    finally:
        _stop(proc)
    criteria = json.loads(running.stdout)["criteria"]
    assert len(criteria) >= 5 and all(c["passed"] for c in criteria), criteria


@pytest.mark.browser
def test_browser_mode_workers_play_the_gui_oracle_and_stop_their_chromiums() -> None:
    """`--mode browser --workers 2`: two sessions at once, each a Chromium in some worker,
    earn the oracle's reward; SIGTERM takes every worker, Chromium and driver with it."""
    from rl_support import gui_oracle

    tasks = Catalog("shopping").tasks(TRAIN)[:2]
    plans = {t.id: gui_oracle(t) for t in tasks}
    proc, port, lines = _serve("--mode", "browser", "--workers", "2", "--max-sessions", "4")

    def play(task_id: str) -> tuple[float | None, bool]:
        with WebMDPClient(base_url=f"http://127.0.0.1:{port}").sync() as client:
            client.reset(task_id=task_id)
            for a in plans[task_id]:
                r = client.step(a)
                if r.done:
                    break
        return r.reward, r.done

    try:
        assert "mode=browser" in lines[-1] and "workers=2" in lines[-1]
        with ThreadPoolExecutor(2) as pool:
            assert list(pool.map(play, plans)) == [(1.0, True), (1.0, True)]
        assert any("chrom" in p.name().lower()
                   for p in psutil.Process(proc.pid).children(recursive=True))
    finally:
        _stop(proc)  # asserts every child (workers, Chromiums, drivers) is gone within 10 s
