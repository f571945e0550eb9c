"""The image's steps (`scripts/image_setup.sh`, what the Dockerfile runs) in a fresh
virtualenv: it installs webmdp and OpenEnv from the registry, finds a Chromium, fills the task
cache; the app then serves an oracle episode from uvicorn's workers, its first reset reading
the cache (issue 43). Installing from the registry is slow: `make test-image` (and
`make test-slow`). Where a container engine runs, the image itself is built and played."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from webmdp.rl.client import WebMDPClient
from webmdp.rl.openenv import WebMDPAction
from webmdp.rl.splits import TRAIN, Catalog

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _oracle_episode(port: int) -> tuple[float | None, bool]:
    task = Catalog("shopping").tasks(TRAIN)[0]
    with WebMDPClient(base_url=f"http://127.0.0.1:{port}").sync() as client:
        client.reset(task_id=task.id)
        for a in task.oracle_actions():
            r = client.step(WebMDPAction(name=a.name, params=dict(a.params)))
        r = client.step(WebMDPAction(name="Finish", params={"answer": task.answer or "done"}))
    return r.reward, r.done


def _wait_healthy(port: int, proc: subprocess.Popen[str] | None, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        assert proc is None or proc.poll() is None, "the server exited"
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                return
        time.sleep(0.2)
    raise AssertionError("never healthy")


def test_the_image_steps_install_and_serve_from_a_fresh_venv(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    env = {**os.environ, "PYTHON": str(py), "WEBMDP_CACHE_DIR": str(tmp_path / "cache")}
    setup = subprocess.run(["bash", str(ROOT / "scripts" / "image_setup.sh"), str(ROOT),
                            "shopping"], env=env, capture_output=True, text=True, timeout=1500)
    assert setup.returncode == 0, setup.stderr[-3000:]
    assert "building shopping" in setup.stderr
    port = free_port()
    served = {**env, "WEBMDP_RL_SITE": "shopping"}
    proc = subprocess.Popen([str(venv / "bin" / "uvicorn"), "webmdp.rl.app:create_app",
                             "--factory", "--workers", "2", "--port", str(port)], env=served,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _wait_healthy(port, proc, 120)
        assert _oracle_episode(port) == (1.0, True)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert "gradio" not in err


def test_the_image_builds_and_serves_where_a_container_engine_runs() -> None:
    engine = shutil.which("docker") or shutil.which("podman")
    if engine is None or subprocess.run([engine, "info"], capture_output=True).returncode:
        pytest.skip("no container engine runs here")
    tag = "webmdp-test-image"
    subprocess.run([engine, "build", "-t", tag, str(ROOT)], check=True, timeout=3000)
    port = free_port()
    cid = subprocess.run([engine, "run", "-d", "--rm", "-p", f"127.0.0.1:{port}:8000", "-e",
                          "WEBMDP_RL_SITE=shopping", tag], check=True, capture_output=True,
                         text=True).stdout.strip()
    try:
        _wait_healthy(port, None, 120)
        assert _oracle_episode(port) == (1.0, True)
    finally:
        subprocess.run([engine, "stop", "-t", "10", cid], capture_output=True)
