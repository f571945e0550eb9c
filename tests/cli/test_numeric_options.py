"""Every numeric option of run, demo, view, validate, tasks and report refuses a value out of its
range with one line naming the option and the range, exit status 2 and no traceback, before
anything runs (the `webmdp` app in this process: a subprocess per case cost a minute)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app


@pytest.mark.parametrize("args,message", [
    (("view", "{run}", "--port", "99999"), "--port must be between 0 and 65535, got 99999"),
    (("view", "{run}", "--port", "-1"), "--port must be between 0 and 65535, got -1"),
    (("view", "{run}", "--page-size", "0"), "--page-size must be between 1 and 1000, got 0"),
    (("view", "{run}", "--page-size", "5000"),
     "--page-size must be between 1 and 1000, got 5000"),
    (("demo", "--out", "{out}", "--per-site", "0"), "--per-site must be at least 1, got 0"),
    (("demo", "--out", "{out}", "--per-site", "-2"), "--per-site must be at least 1, got -2"),
    (("demo", "--out", "{out}", "--workers", "-1"), "--workers must be at least 0, got -1"),
    (("validate", "--site", "mail", "--limit", "0"), "--limit must be at least 1, got 0"),
    (("validate", "--site", "mail", "--workers", "0"), "--workers must be at least 1, got 0"),
    (("tasks", "list", "--limit", "-1"), "--limit must be at least 1, got -1"),
    (("tasks", "generate", "--out", "{out}.jsonl", "--limit", "0"),
     "--limit must be at least 1, got 0"),
    (("report", "{run}", "--window", "0"), "--window must be at least 1, got 0"),
    (("report", "{run}", "--window", "-5"), "--window must be at least 1, got -5"),
    (("run", "--out", "{out}", "--limit", "0"), "--limit must be at least 1, got 0"),
    (("run", "--out", "{out}", "--workers", "-1"), "--workers must be at least 0, got -1"),
    (("run", "--out", "{out}", "--slots", "0"), "--slots must be between 1 and 256, got 0"),
    (("run", "--out", "{out}", "--retries", "-1"), "--retries must be at least 0, got -1"),
    (("run", "--out", "{out}", "--step-budget", "0"), "--step-budget must be at least 1, got 0"),
    (("run", "--out", "{out}", "--episode-timeout", "0"),
     "--episode-timeout must be more than 0 seconds, got 0"),
    (("run", "--out", "{out}", "--concurrency", "0"),
     "--concurrency must be between 1 and 256, got 0"),
    (("run", "--out", "{out}", "--price-in", "-1"), "--price-in cannot be negative, got -1"),
])
def test_out_of_range_is_one_line_exit_2(tmp_path: Path, args: tuple[str, ...],
                                         message: str) -> None:
    argv = [a.format(run=tmp_path, out=tmp_path / "out") for a in args]
    res = CliRunner().invoke(app, argv, env={"COLUMNS": "200"})
    assert res.exit_code == 2, res.output
    assert res.output.strip() == f"error: {message}", res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert not (tmp_path / "out").exists()  # refused before anything ran


def test_the_viewer_server_refuses_a_port_out_of_range_as_a_config_error() -> None:
    from webmdp.errors import ConfigError
    from webmdp.viewer.serve import ViewerServer

    with pytest.raises(ConfigError, match=r"cannot bind 127\.0\.0\.1:70000"):
        ViewerServer(None, port=70000)  # type: ignore[arg-type]
