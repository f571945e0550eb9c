"""A worker that dies is noticed: its episodes are retried, then stored as infra errors, and
the run ends with exit status 4 (every episode one); it never hangs and leaves nothing
running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from webmdp.runner.procs import run_processes

WEBMDP = str(Path(sys.executable).parent / "webmdp")
DYING = '''
import os

from webmdp.agents.builtin import OracleAgent


class DyingAgent(OracleAgent):
    """Kills its worker process the moment an episode builds it."""

    def __init__(self, *args, **kwargs):
        os._exit(9)
'''


def test_a_worker_that_dies_mid_run_is_noticed_and_the_run_ends(tmp_path: Path) -> None:
    (tmp_path / "dying_agent.py").write_text(DYING)
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    out = tmp_path / "run"
    res = subprocess.run([WEBMDP, "run", "--site", "mail", "--agent", "dying_agent:DyingAgent",
                          "--limit", "2", "--workers", "2", "--retries", "1", "--out", str(out)],
                         capture_output=True, text=True, timeout=300, env=env)
    assert res.returncode == 4, res.stdout + res.stderr
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and all(r["termination"] == "infra_error" for r in rows)
    assert all("exited unexpectedly" in r["infra_error"] for r in rows), rows
    assert not run_processes(out)
