"""The server over real HTTP on loopback: control token, sessions, dispatch, escaping."""

from __future__ import annotations

import http.client
import time

import httpx
import pytest

from webmdp.errors import ServerError
from webmdp.server.runner import CLIENT_KEEP_ALIVE_S, SERVER_KEEP_ALIVE_S, ServerHandle
from webmdp.tasks import Task


def _session(server: ServerHandle, task: Task) -> tuple[str, str]:
    data = server.control("POST", "/control/sessions", json={"site": task.site,
                                                               "world": task.world})
    return data["session_id"], data["url"]


def _dispatch(server: ServerHandle, sid: str, action: str, **params: object) -> dict:
    r = httpx.post(f"{server.url}/s/{sid}/dispatch", json={"action": action, "params": params})
    r.raise_for_status()
    return r.json()


def test_binds_loopback_only(server: ServerHandle) -> None:
    assert server.url.startswith("http://127.0.0.1:")
    with pytest.raises(ServerError, match="loopback"):
        ServerHandle(host="0.0.0.0")


def test_control_api_needs_the_token(server: ServerHandle, shopping_tasks: list[Task]) -> None:
    body = {"site": "shopping", "world": shopping_tasks[0].world}
    assert httpx.post(f"{server.url}/control/sessions", json=body).status_code == 403
    bad = httpx.post(f"{server.url}/control/sessions", json=body,
                     headers={"X-WebMDP-Token": "wrong"})
    assert bad.status_code == 403
    sid, _ = _session(server, shopping_tasks[0])
    assert httpx.get(f"{server.url}/control/sessions/{sid}/trace").status_code == 403


def test_unknown_site_is_rejected(server: ServerHandle, shopping_tasks: list[Task]) -> None:
    with pytest.raises(ServerError, match="unknown site 'nope'"):
        server.control("POST", "/control/sessions",
                       json={"site": "nope", "world": shopping_tasks[0].world})


def test_dispatch_applies_transitions_and_records_them(server: ServerHandle,
                                                      shopping_tasks: list[Task]) -> None:
    t = shopping_tasks[1]
    sid, _ = _session(server, t)
    out = _dispatch(server, sid, "Search", query=t.params["query"])
    assert out["surface"] == "SearchResults" and out["error"] is None and out["version"] == 1
    assert t.target in out["html"]
    bad = _dispatch(server, sid, "AddToCart")
    assert bad["error"] and "no product open" in bad["error"]
    trace = server.control("GET", f"/control/sessions/{sid}/trace")
    assert [r["action"] for r in trace["transitions"]] == ["Search", "AddToCart"]
    assert trace["transitions"][0]["category"] == "search"
    assert trace["transitions"][1]["error"] and not trace["transitions"][1]["changed"]
    tail = server.control("GET", f"/control/sessions/{sid}/trace", params={"since": 1})
    assert [r["action"] for r in tail["transitions"]] == ["AddToCart"]


def test_sessions_are_isolated(server: ServerHandle, shopping_tasks: list[Task]) -> None:
    a, _ = _session(server, shopping_tasks[0])
    b, _ = _session(server, shopping_tasks[0])
    _dispatch(server, a, "OpenCart")
    sa = server.control("GET", f"/control/sessions/{a}/snapshot")
    sb = server.control("GET", f"/control/sessions/{b}/snapshot")
    assert sa["state"]["surface"] == "Cart" and sb["state"]["surface"] == "Home"


def test_pages_never_contain_token_or_answers(server: ServerHandle,
                                              shopping_tasks: list[Task]) -> None:
    t = shopping_tasks[2]
    sid, url = _session(server, t)
    _dispatch(server, sid, "Search", query=t.params["query"])
    html = httpx.get(server.url + url).text
    assert server.token not in html
    for word in ("hard_negative", "oracle", '"role"', "target"):
        assert word not in html
    assert t.instruction not in html


def test_typed_text_is_escaped(server: ServerHandle, shopping_tasks: list[Task]) -> None:
    sid, url = _session(server, shopping_tasks[0])
    evil = "<script>alert(1)</script>"
    out = _dispatch(server, sid, "Search", query=evil)
    assert evil not in out["html"] and "&lt;script&gt;" in out["html"]
    page = httpx.get(server.url + url).text
    assert evil not in page


def test_reload_renders_the_mdp_state(server: ServerHandle, shopping_tasks: list[Task]) -> None:
    t = shopping_tasks[0]
    sid, url = _session(server, t)
    _dispatch(server, sid, "Search", query=t.params["query"])
    _dispatch(server, sid, "OpenProduct", product_id=t.target)
    r = httpx.get(server.url + url)
    assert 'data-surface="ProductDetail"' in r.text
    assert r.headers["cache-control"] == "no-store"
    back = httpx.post(f"{server.url}/s/{sid}/back").json()
    assert back["surface"] == "SearchResults"
    assert httpx.get(f"{server.url}/s/nosuch/").status_code == 404


def test_static_files(server: ServerHandle) -> None:
    assert httpx.get(f"{server.url}/static/webmdp.js").status_code == 200
    assert httpx.get(f"{server.url}/static/shopping.css").status_code == 200
    assert httpx.get(f"{server.url}/static/..%2Fsecret").status_code == 404


def test_an_idle_connection_outlives_the_clients_reuse_of_it(server: ServerHandle) -> None:
    """The control client reuses an idle connection for CLIENT_KEEP_ALIVE_S; the server keeps
    it open longer, so a call never lands on a connection the server is closing (with both
    at 5 s it failed now and then: "Server disconnected without sending a response")."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", "/static/webmdp.js")
        assert conn.getresponse().read()
        time.sleep(CLIENT_KEEP_ALIVE_S + 1)  # idle past the client's reuse
        conn.request("GET", "/static/webmdp.js")  # the same socket: still served
        assert conn.getresponse().status == 200
    finally:
        conn.close()
    assert SERVER_KEEP_ALIVE_S > CLIENT_KEEP_ALIVE_S + 1
