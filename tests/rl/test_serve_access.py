"""Issue 35 §1: a real OpenEnv server answers only its own origin. On loopback it refuses a
foreign ``Host`` (400) and a foreign ``Origin`` on a WebSocket upgrade or a POST (403, said
once per origin); ``allow_origins`` opens one. With a token (the configuration off loopback)
every request, the upgrade included, needs ``Authorization: Bearer TOKEN`` (401), and
OpenEnv's own client sends it through ``headers=``."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from rl_support import serving
from starlette.applications import Starlette
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from webmdp.errors import ConfigError
from webmdp.rl.client import WebMDPClient
from webmdp.rl.openenv import WebMDPAction
from webmdp.rl.server import ServeLog, build_app
from webmdp.rl.splits import TRAIN
from webmdp.server.origin import MAX_SAID, Access, protect

EVIL = "http://evil.example"
TRAINER = "http://trainer.example:3000"
TOKEN = "s3cret-token"


class Served:
    def __init__(self, url: str, said: list[str]) -> None:
        self.url, self.said = url, said
        self.port = int(url.rsplit(":", 1)[1])
        self.ws = url.replace("http://", "ws://") + "/ws"


@pytest.fixture(scope="module")
def loopback() -> Iterator[Served]:
    said: list[str] = []
    app = build_app(site="shopping", max_sessions=4, warm=False, log=ServeLog(out=said.append),
                    access=Access(allow_origins=(TRAINER,)))
    with serving(app) as url:
        yield Served(url, said)


@pytest.fixture(scope="module")
def with_token() -> Iterator[Served]:
    """The configuration off loopback (bind 0.0.0.0, a token), served on 127.0.0.1."""
    app = build_app(site="shopping", max_sessions=4, warm=False,
                    access=Access(bind="0.0.0.0", token=TOKEN))
    with serving(app) as url:
        yield Served(url, [])


def upgrade(url: str, **headers: str) -> int:
    """The status of a raw WebSocket upgrade request to ``/ws``."""
    key = base64.b64encode(os.urandom(16)).decode()
    ws = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
          "Sec-WebSocket-Key": key}
    return httpx.get(f"{url}/ws", headers={**ws, **headers}, timeout=10).status_code


def play(client: WebMDPClient) -> None:
    """One short episode: a reset, then Finish."""
    with client.sync() as env:
        first = env.reset(split=TRAIN, index=0)
        assert not first.done
        last = env.step(WebMDPAction(name="Finish", params={"answer": "no"}))
        assert last.done


def test_a_websocket_from_another_origin_is_refused(loopback: Served) -> None:
    with pytest.raises(InvalidStatus) as refused:
        connect(loopback.ws, origin=EVIL, open_timeout=10)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    assert upgrade(loopback.url, Origin=EVIL) == 403
    assert upgrade(loopback.url, Origin="null") == 403


def test_no_origin_or_the_servers_own_is_played(loopback: Served) -> None:
    play(WebMDPClient(base_url=loopback.url))  # OpenEnv's client sends no Origin
    for own in (loopback.url, f"http://localhost:{loopback.port}",
                f"http://[::1]:{loopback.port}"):
        play(WebMDPClient(base_url=loopback.url, headers={"Origin": own}))


def test_allow_origin_opens_it(loopback: Served) -> None:
    with connect(loopback.ws, origin=TRAINER, open_timeout=10):  # type: ignore[arg-type]
        pass
    other_port = "http://trainer.example:3001"
    assert upgrade(loopback.url, Origin=other_port) == 403


def test_a_post_from_another_origin_is_refused_a_get_is_not(loopback: Served) -> None:
    body = {"split": TRAIN}
    evil = httpx.post(f"{loopback.url}/webmdp/num_tasks", json=body, headers={"Origin": EVIL})
    assert evil.status_code == 403 and evil.text == f"403: origin {EVIL} is not allowed here\n"
    for origin in (loopback.url, TRAINER):
        ok = httpx.post(f"{loopback.url}/webmdp/num_tasks", json=body,
                        headers={"Origin": origin})
        assert ok.status_code == 200, origin
    assert httpx.get(f"{loopback.url}/health", headers={"Origin": EVIL}).status_code == 200


def test_a_foreign_host_gets_400(loopback: Served) -> None:
    assert httpx.get(f"{loopback.url}/health", headers={"Host": "evil.example"}).status_code \
        == 400
    assert upgrade(loopback.url, Host=f"evil.example:{loopback.port}") == 400
    for name in ("localhost", "127.0.0.1", "[::1]"):
        got = httpx.get(f"{loopback.url}/health", headers={"Host": f"{name}:{loopback.port}"})
        assert got.status_code == 200, name


def test_each_refused_origin_is_said_once(loopback: Served) -> None:
    for _ in range(3):
        upgrade(loopback.url, Origin="http://once.example")
        httpx.post(f"{loopback.url}/reset", json={}, headers={"Origin": "http://once.example"})
    upgrade(loopback.url, Origin="http://twice.example")
    once = [line for line in loopback.said if "once.example" in line]
    assert once == ["refused origin http://once.example: a WebSocket upgrade to /ws from a "
                    "page of another site (later requests from it are refused silently)"]
    assert len([line for line in loopback.said if "twice.example" in line]) == 1


def test_with_a_token_every_request_needs_it(with_token: Served) -> None:
    url = with_token.url
    bare = httpx.get(f"{url}/health")
    assert bare.status_code == 401 and bare.headers["www-authenticate"] == "Bearer"
    wrong = httpx.get(f"{url}/health", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    assert upgrade(url) == 401
    assert upgrade(url, Authorization="Bearer nope") == 401
    with pytest.raises(ConnectionError, match="401"):
        play(WebMDPClient(base_url=url))
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert httpx.get(f"{url}/health", headers=auth).status_code == 200
    # off loopback the Host check accepts any name: the token is the check
    assert httpx.get(f"{url}/health", headers={**auth, "Host": "gpu-box:8000"}).status_code \
        == 200
    play(WebMDPClient(base_url=url, headers=auth))


def test_off_loopback_without_a_token_is_refused() -> None:
    with pytest.raises(ConfigError, match="needs a token"):
        Access(bind="0.0.0.0")
    with pytest.raises(ConfigError, match="not an origin"):
        Access(allow_origins=("evil.example",))
    for token in ("", " padded", "caf\u00e9", "a\nb"):
        with pytest.raises(ConfigError, match="printable ASCII"):
            Access(token=token)
    assert Access(bind="0.0.0.0", token="t").hosts() == ["*"]
    narrowed = Access(bind="10.1.2.3", token="t", allow_hosts=("gpu-box",)).hosts()
    assert narrowed == ["127.0.0.1", "localhost", "[::1]", "10.1.2.3", "gpu-box"]


def test_refusals_are_said_without_control_characters_and_bounded() -> None:
    said: list[str] = []
    app = Starlette()
    protect(app, Access(), say=said.append)
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    assert client.post("/%1b[31mred", headers={"Origin": "http://a.example"}).status_code == 403
    assert said == ["refused origin http://a.example: POST to /?[31mred from a page of another "
                    "site (later requests from it are refused silently)"]
    for i in range(MAX_SAID + 10):
        client.post("/", headers={"Origin": f"http://o{i}.example"})
    assert len(said) == MAX_SAID + 1
    assert said[-1] == f"refused more than {MAX_SAID} origins: refusing the rest silently"
