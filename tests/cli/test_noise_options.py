"""`--noise` of run and validate: an unknown level, or noise in semantic mode, is one line and
exit status 2 before anything runs; a run stores its noise level and a resume keeps it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.runner.spec import RunSettings


@pytest.mark.parametrize("args,message", [
    (("run", "--out", "{out}", "--noise", "real", "--mode", "semantic"),
     "--noise real needs --mode browser: noise lives in the browser page, the semantic MDP "
     "has none"),
    (("run", "--out", "{out}", "--noise", "light"),  # semantic is the default mode
     "--noise light needs --mode browser: noise lives in the browser page, the semantic MDP "
     "has none"),
    (("run", "--out", "{out}", "--noise", "loud", "--mode", "browser"),
     "unknown noise level 'loud'; valid choices: light, none, real, real-time"),
    (("validate", "--site", "mail", "--noise", "loud"),
     "unknown noise level 'loud'; valid choices: light, none, real, real-time"),
])
def test_bad_noise_is_one_line_exit_2(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    argv = [a.format(out=tmp_path / "out") for a in args]
    res = CliRunner().invoke(app, argv, env={"COLUMNS": "200"})
    assert res.exit_code == 2, res.output
    assert res.output.strip() == f"error: {message}", res.output
    assert not (tmp_path / "out").exists()


def test_noise_is_part_of_a_runs_identity_only_when_on() -> None:
    assert "noise" not in RunSettings().identity()  # runs made before noise still resume
    assert RunSettings(noise="real").identity()["noise"] == "real"


def test_help_names_the_levels() -> None:
    for cmd in ("run", "validate"):
        out = CliRunner().invoke(app, [cmd, "--help"], env={"COLUMNS": "200"}).output
        assert "--noise" in out and "real-time" in out


def test_a_resume_keeps_the_stored_noise(tmp_path: Path) -> None:
    """The manifest stores the level (identity and settings); `--resume` without --noise
    runs the same noise, so nothing differs and nothing is refused."""
    out = tmp_path / "run"
    argv = ["run", "--out", str(out), "--mode", "browser", "--noise", "light", "--task",
            "shopping_0000", "--workers", "0", "--observation", "axtree"]
    res = CliRunner().invoke(app, argv, env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["identity"]["noise"] == manifest["settings"]["noise"] == "light"
    trace = json.loads(next((out / "episodes").rglob("shopping_0000.json")).read_text())
    assert trace["noise"] == "light" and trace["success"]
    res = CliRunner().invoke(app, ["run", "--resume", str(out)], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "0 episodes run (1 resumed)" in res.output, res.output
    res = CliRunner().invoke(app, ["run", "--resume", str(out), "--noise", "real"],
                             env={"COLUMNS": "200"})
    assert res.exit_code == 2 and "noise" in res.output
