"""The task list's header says each run's state from its manifest, read-only: a run whose
owning process died while it was "running" reads "interrupted (owner gone)"."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from support import site_tasks
from webmdp.runner import manifest as mf
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.viewer import RunIndex, create_app


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _states(page: str) -> list[tuple[str, str]]:
    """(run path, state) of each run the page's header lists."""
    return re.findall(r'<li class="run-state[^"]*"><code>([^<]+)</code> '
                      r'<span class="state">([^<]+)</span>', page)


def test_task_list_shows_each_runs_state_and_never_writes_it(tmp_path: Path) -> None:
    killed, done, bare = tmp_path / "killed", tmp_path / "done", tmp_path / "bare"
    for out, agent in ((killed, "oracle"), (done, "greedy"), (bare, "random")):
        run_tasks(site_tasks("mail")[:2], out, RunConfig(agent=agent))
    invs = {"killed": [{"status": "completed"}, {"status": "running", "pid": _dead_pid(),
                                                 "host": socket.gethostname(),
                                                 "pid_started": 1.0}],
            "done": [{"status": "running"}, {"status": "completed"}]}
    before = {}
    for name, inv in invs.items():
        data = json.dumps({"format": 1, "invocations": inv}, indent=1).encode()
        (tmp_path / name / mf.MANIFEST).write_bytes(data)
        before[name] = data
    with TestClient(create_app(RunIndex.load([killed, done, bare]))) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert _states(page.text) == [(str(killed), mf.OWNER_GONE), (str(done), "completed"),
                                      (str(bare), "no manifest")]
        assert "2 invocations" in page.text
        (done / mf.MANIFEST).write_bytes(json.dumps({"invocations": [
            {"status": "failed"}]}).encode())  # read per request: a run's state moves on
        assert _states(client.get("/").text)[1] == (str(done), "failed")
    assert (killed / mf.MANIFEST).read_bytes() == before["killed"]
    assert not list(tmp_path.glob("*/.manifest.json.tmp"))
