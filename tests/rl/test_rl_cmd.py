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
