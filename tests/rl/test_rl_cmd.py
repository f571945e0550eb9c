"""`webmdp rl serve`: a bad option is one line and exit status 2, before anything is served."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.rl.client import WebMDPClient
from webmdp.rl.openenv import WebMDPAction
from webmdp.rl.splits import TRAIN, Catalog


@pytest.mark.parametrize(("args", "words"), [
    (["--reward", "sparse"], "unknown reward 'sparse'"),
    (["--site", "nowhere"], "unknown site 'nowhere'"),
    (["--mode", "pixels"], "unknown mode 'pixels'"),
    (["--max-sessions", "0"], "--max-sessions must be at least 1"),
    (["--port", "70000"], "--port must be"),
    (["--holdout", "sites"], "unknown holdout 'sites'"),
    (["--step-timeout", "0"], "--step-timeout must be more than 0"),
])
def test_bad_options_exit_2(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["rl", "serve", *args])
    assert result.exit_code == 2
    assert words in " ".join(result.output.split())


def test_a_host_off_loopback_is_served_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    served: list[dict] = []
    monkeypatch.setattr("webmdp.rl.server.serve", lambda _app, **kw: served.append(kw))
    result = CliRunner().invoke(app, ["rl", "serve", "--site", "shopping", "--host", "0.0.0.0"])
    assert result.exit_code == 0, result.output
    assert [(s["host"], s["port"]) for s in served] == [("0.0.0.0", 8000)]
    assert "not loopback" in result.output and "no authentication" in result.output
    quiet = CliRunner().invoke(app, ["rl", "serve", "--site", "shopping"])
    assert quiet.exit_code == 0 and "not loopback" not in quiet.output
    assert (served[-1]["host"], served[-1]["port"]) == ("127.0.0.1", 8000)


def test_serve_says_what_it_does_then_ready_then_one_line_per_episode(tmp_path: Path) -> None:
    """A real `webmdp rl serve` process: progress while it starts, one ready line, a first
    reset that needs no pool build, one line per finished episode; --quiet says nothing."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "webmdp.cli.main", "rl", "serve", "--site",
                             "shopping", "--port", str(port)], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True)
    try:
        lines = _until(proc, "ready")
        assert any("building the task pools" in line for line in lines)
        assert lines[-1].startswith(f"ready: webmdp OpenEnv server on http://127.0.0.1:{port}")
        task = Catalog("shopping").tasks(TRAIN)[0]
        with WebMDPClient(base_url=f"http://127.0.0.1:{port}").sync() as client:
            client.reset(task_id=task.id)
            client.step(WebMDPAction(name="Finish", params={"answer": "no"}))
        episode = _until(proc, "episode ")[-1]
        assert episode == f"episode {task.id}: 1 steps, reward 0.000, failure"
    finally:
        proc.terminate()
        proc.wait(30)


def test_serve_quiet_says_only_ready() -> None:
    port = _free_port()
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _until(proc: subprocess.Popen[str], prefix: str) -> list[str]:
    """stderr lines up to the first that starts with ``prefix``."""
    assert proc.stderr is not None
    lines: list[str] = []
    for line in proc.stderr:
        lines.append(line.rstrip("\n"))
        if line.startswith(prefix):
            return lines
    raise AssertionError(f"the server exited before '{prefix}': {lines}")
