"""`webmdp report` says each run's state from its manifest, without ever writing it: a run
whose owning process died while it was "running" reads "interrupted (owner gone)"."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from support import site_tasks
from webmdp.eval.analysis import analyse
from webmdp.eval.load import load_runs
from webmdp.eval.runs import run_state
from webmdp.runner import manifest as mf
from webmdp.runner.local import RunConfig, run_tasks

WEBMDP = str(Path(sys.executable).parent / "webmdp")


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def write_manifest(root: Path, *statuses: str) -> bytes:
    """A manifest with one invocation per status; a ``running`` one is owned by a process
    that has exited. Returns the bytes written."""
    invs = [{"started": "2024-01-01T00:00:00+0000", "status": s, "argv": ["run"]}
            for s in statuses]
    if invs and invs[-1]["status"] == "running":
        invs[-1].update(pid=dead_pid(), host=socket.gethostname(), pid_started=1.0)
    data = json.dumps({"format": 1, "identity": {}, "invocations": invs}, indent=1).encode()
    (root / mf.MANIFEST).write_bytes(data)
    return data


@pytest.fixture
def killed_run(tmp_path: Path) -> tuple[Path, bytes]:
    """A finished run whose last invocation still says ``running``; its owner is gone."""
    out = tmp_path / "killed"
    run_tasks(site_tasks("shopping")[:2], out, RunConfig(agent="oracle"))
    return out, write_manifest(out, "completed", "running")


def test_report_shows_owner_gone_and_leaves_the_manifest_alone(
        killed_run: tuple[Path, bytes], tmp_path: Path) -> None:
    run, before = killed_run
    other = tmp_path / "other"
    run_tasks(site_tasks("shopping")[:2], other, RunConfig(agent="greedy"))  # no manifest
    res = subprocess.run([WEBMDP, "report", str(run), str(other), "--out", str(tmp_path / "r")],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    md = (tmp_path / "r" / "report.md").read_text()
    assert f"`{run}`: **{mf.OWNER_GONE}**, 2 invocations" in md
    assert f"`{other}`: no manifest" in md
    assert mf.OWNER_GONE in res.stdout  # the printed Markdown
    html = (tmp_path / "r" / "report.html").read_text()
    assert f"<code>{run}</code>: <strong>{mf.OWNER_GONE}</strong>, 2 invocations" in html
    rep = json.loads((tmp_path / "r" / "report.json").read_text())
    assert rep["runs"] == [{"path": str(run), "state": mf.OWNER_GONE, "invocations": 2},
                           {"path": str(other), "state": "no manifest", "invocations": 0}]
    assert (run / mf.MANIFEST).read_bytes() == before


@pytest.mark.parametrize("statuses,state", [
    (("completed",), "completed"), (("running", "interrupted"), "interrupted"),
    (("failed",), "failed"), ((), "not started")])
def test_run_state_follows_the_last_invocation(tmp_path: Path, statuses: tuple[str, ...],
                                               state: str) -> None:
    write_manifest(tmp_path, *statuses)
    assert run_state(tmp_path).as_json() == {"path": str(tmp_path), "state": state,
                                             "invocations": len(statuses)}


@pytest.mark.parametrize("text", ["{", "[]", '{"invocations": [3]}', "\xff"])
def test_an_unreadable_manifest_is_said_not_fatal(tmp_path: Path, text: str) -> None:
    (tmp_path / mf.MANIFEST).write_bytes(text.encode("latin-1"))
    assert run_state(tmp_path).state == "unreadable manifest"


def test_analysis_keeps_the_states(killed_run: tuple[Path, bytes]) -> None:
    run, _ = killed_run
    a = analyse(load_runs([run]))
    assert [(s.path, s.state) for s in a.runs] == [(str(run), mf.OWNER_GONE)]
