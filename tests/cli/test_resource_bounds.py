"""Every resource option has a bound (issue 35, part 2): a value past it is one line naming
the bound and exit status 2, before any process, thread or directory is made."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.runner.limits import WORKERS_PER_CPU, usable_cpus

runner = CliRunner()


def _refused(argv: list[str], needle: str) -> None:
    res = runner.invoke(app, argv, env={"COLUMNS": "300"})
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert needle in " ".join(res.output.split()), res.output


def test_workers_are_bounded_by_the_cpus_this_process_may_use(tmp_path: Path) -> None:
    bound = WORKERS_PER_CPU * usable_cpus()
    out = tmp_path / "run"
    _refused(["run", "--site", "shopping", "--limit", "3", "--workers", "100000", "--out",
              str(out)], f"--workers 100000 is more than {bound}")
    assert not out.exists()
    _refused(["validate", "--site", "shopping", "--workers", str(bound + 1)],
             f"is more than {bound}")
    _refused(["demo", "--out", str(out), "--workers", str(bound + 1)], f"more than {bound}")
    ok = runner.invoke(app, ["run", "--site", "shopping", "--limit", "1", "--workers",
                             str(bound), "--out", str(out)])
    assert ok.exit_code == 0, ok.output


@pytest.mark.parametrize(("argv", "needle"), [
    (["run", "--slots", "100000"], "--slots must be between 1 and 256, got 100000"),
    (["run", "--concurrency", "257"], "--concurrency must be between 1 and 256"),
    (["rl", "serve", "--max-sessions", "1025"], "--max-sessions must be between 1 and 1024"),
    (["rl", "serve", "--mode", "browser", "--max-sessions", "65"],
     "--max-sessions must be between 1 and 64"),
])
def test_static_bounds(tmp_path: Path, argv: list[str], needle: str) -> None:
    _refused([*argv, *(["--out", str(tmp_path / "r")] if argv[0] == "run" else [])], needle)
