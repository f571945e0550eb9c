"""One owner per run directory: invocations started together on one run (three runs and two
resumes) let exactly one proceed, the others exit 2 naming the owner, and every episode is
stored once; a soak of kill -9 and resume leaves every episode stored once."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from webmdp.runner.lock import RunLocked, owned
from webmdp.testing.model_server import Reply, ScriptedModelServer

WEBMDP = str(Path(sys.executable).parent / "webmdp")
FINISH = '{"thought": "done", "action": {"name": "Finish", "params": {}}}'


def test_a_second_owner_is_refused_and_named(tmp_path: Path) -> None:
    refused = pytest.raises(RunLocked, match=rf"in use by pid {os.getpid()} on ")
    with owned(tmp_path / "run"), refused, owned(tmp_path / "run"):
        pass
    with owned(tmp_path / "run"):  # released at the end of the block
        pass


def _starts(run: Path) -> Counter[tuple[str, ...]]:
    events = [json.loads(x) for x in (run / "events.jsonl").read_text().splitlines()]
    return Counter(tuple(e["episode"]) for e in events if e["event"] == "start")


def test_three_runs_and_two_resumes_at_once_one_proceeds(tmp_path: Path) -> None:
    run = tmp_path / "run"
    slow = Reply(FINISH, delay_s=0.7)  # each episode takes a while: the invocations overlap
    with ScriptedModelServer(lambda _r: slow) as srv:
        cmd = [WEBMDP, "run", "--site", "mail", "-n", "4", "-a", "step", "--model",
               "vllm/m", "--base-url", srv.base_url, "--no-preflight",
               "--workers", "0", "--mode", "semantic", "--out", str(run)]
        env = {**os.environ, "VLLM_API_KEY": "k"}
        procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env=env) for _ in range(3)]
        deadline = time.monotonic() + 60  # the owner has written its manifest: resumable
        while not (run / "manifest.json").is_file() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(p.poll() is None or p.returncode == 2 for p in procs)
        procs += [subprocess.Popen([WEBMDP, "run", "--resume", str(run)], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                  for _ in range(2)]
        results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    codes = sorted(rc for rc, _, _ in results)
    assert codes == [0, 2, 2, 2, 2], [(rc, err[-300:]) for rc, _, err in results]
    for rc, _, err in results:
        if rc == 2:
            assert "in use by pid" in " ".join(err.split()) and "Traceback" not in err
    starts = _starts(run)
    assert len(starts) == 4 and set(starts.values()) == {1}, starts
    traces = list((run / "episodes").glob("*/*/*.json"))
    assert len(traces) == 4


@pytest.mark.slow
def test_kill_9_and_resume_ten_times_stores_every_episode_once(tmp_path: Path) -> None:
    """The soak: 100 semantic episodes of a model agent (a scripted endpoint that answers
    after 50 ms, so a run lasts long enough to be cut), killed with SIGKILL at a random moment
    of its episodes and resumed, ten times; then every episode is stored exactly once and the
    manifest is valid JSON."""
    run = tmp_path / "run"
    rng = random.Random(7)
    env = {**os.environ, "VLLM_API_KEY": "k"}
    kills, t0 = 0, time.monotonic()
    with ScriptedModelServer(lambda _r: Reply(FINISH, delay_s=0.05)) as srv:
        cmd = [WEBMDP, "run", "--site", "all", "-n", "100", "-a", "step", "--model", "vllm/m",
               "--base-url", srv.base_url, "--no-preflight", "--mode", "semantic",
               "--workers", "1", "--out", str(run)]
        for _ in range(10):
            resumable = (run / "manifest.json").is_file() and (run / "tasks.jsonl").is_file()
            events = _size(run / "events.jsonl")
            proc = subprocess.Popen([WEBMDP, "run", "--resume", str(run)] if resumable
                                    else cmd, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, env=env)
            deadline = time.monotonic() + 60  # into its episodes, then a random moment
            while _size(run / "events.jsonl") == events and proc.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(rng.uniform(0.2, 2.5))
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                kills += 1
            proc.wait()
            deadline = time.monotonic() + 30  # its worker leaves with it
            while time.monotonic() < deadline:
                try:
                    with owned(run):
                        break
                except RunLocked:
                    time.sleep(0.2)
        final = subprocess.run([WEBMDP, "run", "--resume", str(run)], capture_output=True,
                               text=True, timeout=600, env=env)
    assert final.returncode == 0, final.stderr[-2000:]
    manifest = json.loads((run / "manifest.json").read_text())
    traces = list((run / "episodes").glob("*/*/*.json"))
    keys = Counter((p.parent.parent.name, p.stem) for p in traces)
    assert len(keys) == 100 and set(keys.values()) == {1}
    rows = [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]
    assert len({(r["agent"], r["task_id"]) for r in rows}) == 100
    assert kills >= 5
    print(f"soak: {kills} kills, {len(manifest['invocations'])} invocations, "
          f"{time.monotonic() - t0:.0f} s")


def _size(path: Path) -> int:
    return path.stat().st_size if path.is_file() else 0
