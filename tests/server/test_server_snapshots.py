"""Control API snapshots and restores over real HTTP: state, log, version, token, errors."""

from __future__ import annotations

import httpx
import pytest

from webmdp.errors import ServerError
from webmdp.server.runner import ServerHandle
from webmdp.tasks import Task


def _session(server: ServerHandle, task: Task) -> str:
    data = server.control("POST", "/control/sessions", json={"site": task.site,
                                                               "world": task.world})
    return data["session_id"]


def _dispatch(server: ServerHandle, sid: str, action: str, **params: object) -> dict:
    r = httpx.post(f"{server.url}/s/{sid}/dispatch", json={"action": action, "params": params})
    r.raise_for_status()
    return r.json()


def _trace(server: ServerHandle, sid: str) -> dict:
    return server.control("GET", f"/control/sessions/{sid}/trace")


def test_restore_brings_back_the_snapshot_state(server: ServerHandle,
                                                shopping_tasks: list[Task]) -> None:
    t = shopping_tasks[0]
    sid = _session(server, t)
    _dispatch(server, sid, "Search", query=t.params["query"])
    searched = _trace(server, sid)["transitions"][-1]["state_key"]
    state = server.control("GET", f"/control/sessions/{sid}/snapshot")
    snap = server.control("POST", f"/control/sessions/{sid}/snapshots")
    assert snap["state_key"] == searched and snap["surface"] == "SearchResults"
    _dispatch(server, sid, "OpenProduct", product_id=t.target)
    opened = _trace(server, sid)["transitions"][-1]
    _dispatch(server, sid, "AddToCart")
    log = _trace(server, sid)
    out = server.control("POST", f"/control/sessions/{sid}/restore",
                         json={"snapshot_id": snap["snapshot_id"]})
    assert out["state_key"] == searched and out["surface"] == "SearchResults"
    assert out["url"] == f"/s/{sid}/searchresults" and out["version"] == log["version"] + 1
    after = server.control("GET", f"/control/sessions/{sid}/snapshot")
    assert after["state"] == state["state"] and after["facts"] == state["facts"]
    assert _trace(server, sid)["transitions"] == log["transitions"]  # append-only, no entry
    assert 'data-surface="SearchResults"' in httpx.get(f"{server.url}/s/{sid}/").text
    # the same action again reaches the same state, and reveals nothing already seen
    _dispatch(server, sid, "OpenProduct", product_id=t.target)
    again = _trace(server, sid)["transitions"][-1]
    assert again["state_key"] == opened["state_key"] and opened["revealed"]
    assert again["revealed"] == []


def test_snapshots_are_numbered_per_session(server: ServerHandle,
                                            shopping_tasks: list[Task]) -> None:
    a, b = _session(server, shopping_tasks[0]), _session(server, shopping_tasks[0])
    ids = [server.control("POST", f"/control/sessions/{a}/snapshots")["snapshot_id"]
           for _ in range(2)]
    assert ids == ["snap-1", "snap-2"]
    _dispatch(server, b, "OpenCart")
    assert server.control("POST", f"/control/sessions/{b}/snapshots")["surface"] == "Cart"
    # restoring one session's snapshot leaves the other alone
    server.control("POST", f"/control/sessions/{a}/restore", json={"snapshot_id": "snap-1"})
    assert server.control("GET", f"/control/sessions/{b}/snapshot")["state"]["surface"] == "Cart"


def test_restore_needs_the_token_and_a_known_snapshot(server: ServerHandle,
                                                      shopping_tasks: list[Task]) -> None:
    sid = _session(server, shopping_tasks[0])
    base = f"{server.url}/control/sessions/{sid}"
    assert httpx.post(f"{base}/snapshots").status_code == 403
    server.control("POST", f"/control/sessions/{sid}/snapshots")
    body = {"snapshot_id": "snap-1"}
    assert httpx.post(f"{base}/restore", json=body).status_code == 403
    wrong = httpx.post(f"{base}/restore", json=body, headers={"X-WebMDP-Token": "nope"})
    assert wrong.status_code == 403
    missing = server.client.post(f"/control/sessions/{sid}/restore",
                                 json={"snapshot_id": "snap-7"})
    assert missing.status_code == 404
    assert "unknown snapshot 'snap-7'" in missing.json()["detail"]
    assert "took 1 snapshot(s)" in missing.json()["detail"]
    with pytest.raises(ServerError, match=r"404.*no such session"):
        server.control("POST", "/control/sessions/nosuch/restore", json=body)
    assert _trace(server, sid)["version"] == 0  # refused restores changed nothing


def test_session_seen_is_the_trackers_seen_set(server: ServerHandle,
                                               shopping_tasks: list[Task]) -> None:
    """What the informed shaping potential reads in browser mode: the first screen's pairs,
    then every pair a transition revealed; a restore keeps it."""
    t = shopping_tasks[0]
    sid = _session(server, t)
    first = set(server.session_seen(sid))
    _dispatch(server, sid, "Search", query=t.params["query"])
    snap = server.control("POST", f"/control/sessions/{sid}/snapshots")["snapshot_id"]
    _dispatch(server, sid, "OpenProduct", product_id=t.target)
    revealed = {tuple(p) for r in _trace(server, sid)["transitions"] for p in r["revealed"]}
    assert server.session_seen(sid) == first | revealed and (t.target, "material") in revealed
    server.control("POST", f"/control/sessions/{sid}/restore", json={"snapshot_id": snap})
    assert server.session_seen(sid) == first | revealed
    with pytest.raises(ServerError):
        server.session_seen("nope")
