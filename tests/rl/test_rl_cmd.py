"""`webmdp rl serve`: a bad option is one line and exit status 2, before anything is served."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from rl_support import free_port, until
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.rl.client import WebMDPClient
from webmdp.rl.openenv import WebMDPAction
from webmdp.rl.splits import TRAIN, Catalog


@pytest.mark.parametrize(("args", "words"), [
    (["--reward", "sparse"], "unknown reward 'sparse'"),
    (["--site", "nowhere"], "unknown site 'nowhere'"),
    (["--mode", "pixels"], "unknown mode 'pixels'"),
    (["--max-sessions", "0"], "--max-sessions must be between 1 and 1024"),
    (["--port", "70000"], "--port must be"),
    (["--holdout", "sites"], "unknown holdout 'sites'"),
    (["--step-timeout", "0"], "--step-timeout must be more than 0"),
])
def test_bad_options_exit_2(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["rl", "serve", *args])
    assert result.exit_code == 2
    assert words in " ".join(result.output.split())


def test_a_host_off_loopback_is_served_with_a_token_and_a_warning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEBMDP_RL_TOKEN", raising=False)
    served: list[dict] = []
    monkeypatch.setattr("webmdp.rl.server.serve", lambda _app, **kw: served.append(kw))
    result = CliRunner().invoke(app, ["rl", "serve", "--site", "shopping", "--host", "0.0.0.0",
                                      "--token", "tok-3b9d1f"])
    assert result.exit_code == 0, result.output
    assert [(s["host"], s["port"]) for s in served] == [("0.0.0.0", 8000)]
    said = " ".join(result.output.split())
    assert "not loopback" in said and "plain HTTP, with no TLS" in said
    assert "no authentication" not in said
    quiet = CliRunner().invoke(app, ["rl", "serve", "--site", "shopping"])
    assert quiet.exit_code == 0 and "not loopback" not in quiet.output
    assert (served[-1]["host"], served[-1]["port"]) == ("127.0.0.1", 8000)


def test_off_loopback_without_a_token_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEBMDP_RL_TOKEN", raising=False)
    monkeypatch.setattr("webmdp.rl.server.serve", lambda _app, **kw: pytest.fail("served"))
    for host in ("0.0.0.0", "10.1.2.3"):
        result = CliRunner().invoke(app, ["rl", "serve", "--host", host])
        assert result.exit_code == 2
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and f"--host {host} is not loopback: give a token" in lines[0]


def test_the_token_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    apps: list[FastAPI] = []
    monkeypatch.setattr("webmdp.rl.server.serve", lambda app_, **kw: apps.append(app_))
    monkeypatch.setenv("WEBMDP_RL_TOKEN", "tok-5e0a77")
    result = CliRunner().invoke(app, ["rl", "serve", "--site", "shopping", "--host", "0.0.0.0"])
    assert result.exit_code == 0, result.output
    client = TestClient(apps[0], base_url="http://10.1.2.3:8000")
    assert client.get("/health").status_code == 401
    assert client.get("/health", headers={"Authorization": "Bearer tok-5e0a77"}).status_code \
        == 200


def test_allow_origin_and_allow_host_reach_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    apps: list[FastAPI] = []
    monkeypatch.setattr("webmdp.rl.server.serve", lambda app_, **kw: apps.append(app_))
    result = CliRunner().invoke(app, ["rl", "serve", "--site", "shopping", "--allow-origin",
                                      "http://trainer.example:3000", "--allow-host", "box.lan"])
    assert result.exit_code == 0, result.output
    client = TestClient(apps[0], base_url="http://127.0.0.1:8000")
    body = {"split": TRAIN}
    for origin, status in (("http://trainer.example:3000", 200),
                           ("http://evil.example", 403), ("http://127.0.0.1:8000", 200)):
        got = client.post("/webmdp/num_tasks", json=body, headers={"Origin": origin})
        assert got.status_code == status, origin
    assert client.get("/health", headers={"Host": "box.lan"}).status_code == 200
    assert client.get("/health", headers={"Host": "evil.example"}).status_code == 400
    bad = CliRunner().invoke(app, ["rl", "serve", "--allow-origin", "trainer.example"])
    assert bad.exit_code == 2 and "not an origin" in bad.output


def test_serve_says_what_it_does_then_ready_then_one_line_per_episode(tmp_path: Path) -> None:
    """A real `webmdp rl serve` process on a cache `webmdp cache build` filled: progress while
    it starts (the pools read from the cache), one ready line, one line per finished episode;
    `webmdp cache info` lists what the build stored."""
    env = {**os.environ, "WEBMDP_CACHE_DIR": str(tmp_path)}
    built = subprocess.run([sys.executable, "-m", "webmdp.cli.main", "cache", "build", "--site",
                            "shopping"], env=env, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    assert "building shopping: shopping-180, shopping-dial-L1" in built.stderr
    info = subprocess.run([sys.executable, "-m", "webmdp.cli.main", "cache", "info", "--json"],
                          env=env, capture_output=True, text=True)
    this = [v for v in json.loads(info.stdout)["versions"] if v["this"] and v["kind"] == "tasks"]
    assert sorted(this[0]["entries"]) == ["shopping-180.jsonl", "shopping-dial-L1.jsonl"]
    assert all(size > 0 for size in this[0]["entries"].values())
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "webmdp.cli.main", "rl", "serve", "--site",
                             "shopping", "--port", str(port)], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True, env=env)
    try:
        lines = until(proc, "ready")
        assert any("reading the task pools from the disk cache" in line for line in lines)
        assert lines[-1].startswith(f"ready: webmdp OpenEnv server on http://127.0.0.1:{port}")
        task = Catalog("shopping").tasks(TRAIN)[0]
        with WebMDPClient(base_url=f"http://127.0.0.1:{port}").sync() as client:
            client.reset(task_id=task.id)
            client.step(WebMDPAction(name="Finish", params={"answer": "no"}))
        episode = until(proc, "episode ")[-1]
        assert episode == f"episode {task.id}: 1 steps, reward 0.000, failure"
    finally:
        proc.terminate()
        proc.wait(30)


def test_serve_quiet_says_only_ready() -> None:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "webmdp.cli.main", "rl", "serve", "--site",
                             "shopping", "--port", str(port), "--quiet"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        for _ in range(600):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        task = Catalog("shopping").tasks(TRAIN)[0]
        with WebMDPClient(base_url=f"http://127.0.0.1:{port}").sync() as client:
            client.reset(task_id=task.id)
            client.step(WebMDPAction(name="Finish", params={"answer": "no"}))
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert err.startswith("ready: ")  # the one line scripts wait for stays
    assert "building" not in err and "episode" not in err


def test_sigterm_stops_a_browser_mode_server_and_its_chromium() -> None:
    """An open session's Chromium and Playwright driver go with the server, within 10 s."""
    import signal

    import psutil

    from webmdp.runner.procs import alive

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "webmdp.cli.main", "rl", "serve", "--site",
                             "shopping", "--mode", "browser", "--port", str(port)],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    client = None
    try:
        until(proc, "ready")
        client = WebMDPClient(base_url=f"http://127.0.0.1:{port}").sync()
        client.connect()
        client.reset(task_id=Catalog("shopping").tasks(TRAIN)[0].id)  # starts a Chromium
        started = psutil.Process(proc.pid).children(recursive=True)
        assert any("chrom" in p.name().lower() for p in started)
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        end = time.monotonic() + 10
        while alive(started) and time.monotonic() < end:
            time.sleep(0.1)
        assert not alive(started), [p.pid for p in alive(started)]
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()
        if proc.poll() is None:
            proc.kill()
