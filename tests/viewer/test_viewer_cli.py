"""`webmdp view`: its help, its refusals, and the real command serving on loopback."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
from typer.testing import CliRunner
from viewer_runs import Runs

from webmdp.cli.main import app

WEBMDP = str(Path(sys.executable).parent / "webmdp")


def test_help_explains_every_option() -> None:
    res = CliRunner().invoke(app, ["view", "--help"], env={"COLUMNS": "200"})
    assert res.exit_code == 0
    for needle in ("RUN...", "--host", "--port", "0 picks a free one", "--page-size",
                   "--open", "loopback", "j / k", "bifurcation", "recorded vs recomputed"):
        assert needle in " ".join(res.output.split()), needle


def test_a_missing_run_directory_is_refused(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["view", str(tmp_path / "nope")])
    assert res.exit_code == 2 and "no run directory" in res.output
    res = CliRunner().invoke(app, ["view", str(tmp_path)])
    assert res.exit_code == 2 and "not a run directory" in res.output


def test_view_serves_the_runs_on_loopback_and_prints_its_url(runs: Runs) -> None:
    proc = subprocess.Popen([WEBMDP, "view", str(runs.semantic), str(runs.model), "--port",
                             "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.fullmatch(r"webmdp viewer: (http://127\.0\.0\.1:(\d+)/)\n", line)
        assert m is not None, line
        page = httpx.get(m.group(1) + "?site=mail", timeout=10)
        assert page.status_code == 200 and "mail_0000" in page.text
        assert "shopping_0000" not in page.text
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=15)
    assert "indexed 38 episodes of 14 tasks (4 agents)" in err
    assert proc.returncode == 0
