"""The runs the synth tests share, each built once per session by a fixture of
tests/synth/conftest.py (whichever pytest-xdist worker asks first builds it)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from webmdp.cli.main import app

GRADED_SITES = ("mail", "shopping", "food", "housing", "repo", "qa", "jobs", "chat")


def _webmdp(*args: str) -> None:
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output


def build_graded_run(out: Path) -> None:
    """Oracle, random and greedy on 8 tasks of each of :data:`GRADED_SITES`, seeds 0 and 1,
    12 steps at most, in semantic mode, then ``synth grade --budget 50``."""
    _webmdp("run", "--site", ",".join(GRADED_SITES), "-a", "oracle", "-a", "random",
            "-a", "greedy", "--seeds", "0,1", "-n", "8", "--step-budget", "12",
            "--out", str(out))
    _webmdp("synth", "grade", str(out), "--budget", "50")


def build_recorded_run(out: Path) -> None:
    """One browser-mode run with screenshots: oracle and random on two Shopping tasks, the
    random agent cut at 8 steps."""
    _webmdp("run", "--site", "shopping", "--mode", "browser", "--screenshots", "-a", "oracle",
            "-a", "random", "-n", "2", "--step-budget", "8", "--out", str(out))


def build_semantic_run(out: Path) -> None:
    """The oracle on two Shopping tasks in semantic mode (no screenshots)."""
    _webmdp("run", "--site", "shopping", "-a", "oracle", "-n", "2", "--out", str(out))
