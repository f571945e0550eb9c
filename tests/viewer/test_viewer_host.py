"""Issue 35 §1: the viewer answers only loopback Host names (a DNS-rebinding page gets 400),
refuses a state-changing request from another origin (403), and binds loopback only."""

from __future__ import annotations

import httpx
import pytest
from typer.testing import CliRunner
from viewer_runs import Runs

from webmdp.cli.main import app
from webmdp.errors import ConfigError
from webmdp.viewer import RunIndex, ViewerServer, create_app


def test_a_foreign_host_gets_400(live: ViewerServer) -> None:
    assert httpx.get(live.url, headers={"Host": "evil.example"}).status_code == 400
    assert httpx.get(live.url, headers={"Host": f"evil.example:{live.port}"}).status_code \
        == 400
    for name in ("127.0.0.1", "localhost", "[::1]"):
        got = httpx.get(live.url, headers={"Host": f"{name}:{live.port}"})
        assert got.status_code == 200, name


def test_a_post_from_another_origin_is_refused(live: ViewerServer) -> None:
    evil = httpx.post(live.url, headers={"Origin": "http://evil.example"})
    assert evil.status_code == 403
    own = httpx.post(live.url, headers={"Origin": live.url.rstrip("/")})
    assert own.status_code == 405  # the route's own answer: the viewer only reads


def test_the_viewer_binds_loopback_only(index: RunIndex, runs: Runs) -> None:
    with pytest.raises(ConfigError, match="loopback only"):
        ViewerServer(create_app(index), host="0.0.0.0")
    res = CliRunner().invoke(app, ["view", str(runs.semantic), "--host", "0.0.0.0"])
    assert res.exit_code == 2 and "the viewer binds loopback only, not 0.0.0.0" in res.output
