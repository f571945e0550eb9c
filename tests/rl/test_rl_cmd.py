"""`webmdp rl serve`: a bad option is one line and exit status 2, before anything is served."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app


@pytest.mark.parametrize(("args", "words"), [
    (["--reward", "sparse"], "unknown reward 'sparse'"),
    (["--site", "nowhere"], "unknown site 'nowhere'"),
    (["--mode", "pixels"], "unknown mode 'pixels'"),
    (["--max-sessions", "0"], "--max-sessions must be at least 1"),
    (["--port", "70000"], "--port must be"),
])
def test_bad_options_exit_2(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["rl", "serve", *args])
    assert result.exit_code == 2
    assert words in " ".join(result.output.split())


def test_a_host_off_loopback_is_served_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    served: list[dict] = []
    monkeypatch.setattr("webmdp.rl.server.serve", lambda _app, **kw: served.append(kw))
    result = CliRunner().invoke(app, ["rl", "serve", "--site", "shopping", "--host", "0.0.0.0"])
    assert result.exit_code == 0, result.output
    assert served == [{"host": "0.0.0.0", "port": 8000}]
    assert "not loopback" in result.output and "no authentication" in result.output
    quiet = CliRunner().invoke(app, ["rl", "serve", "--site", "shopping"])
    assert quiet.exit_code == 0 and "not loopback" not in quiet.output
    assert served[-1] == {"host": "127.0.0.1", "port": 8000}
