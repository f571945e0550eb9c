"""A real OpenEnv server on loopback: its endpoints, OpenEnv's own WebSocket client against
the in-process environment, OpenEnv's validator, and the session cap."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from openenv.cli._validation import validate_running_environment
from rl_support import oracle_actions, run, serving

from webmdp.rl.client import WebMDPClient
from webmdp.rl.openenv import WebMDPAction, WebMDPEnvironment
from webmdp.rl.server import build_app
from webmdp.rl.splits import TRAIN

SESSIONS = 16


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serving(build_app(site="shopping", max_sessions=SESSIONS)) as base:
        yield base


def test_endpoints_answer(url: str) -> None:
    assert httpx.get(f"{url}/health").json()["status"] == "healthy"
    schema = httpx.get(f"{url}/schema").json()
    assert {"name", "params"} <= set(schema["action"]["properties"])
    assert {"text", "instruction", "done", "reward"} <= set(schema["observation"]["properties"])
    assert "task_id" in schema["state"]["properties"]
    meta = httpx.get(f"{url}/metadata").json()
    assert meta["name"] == "webmdp"
    splits = httpx.get(f"{url}/webmdp/splits").json()
    assert [s["name"] for s in splits][:2] == [TRAIN, "test"]
    n = httpx.post(f"{url}/webmdp/num_tasks", json={"split": TRAIN}).json()["num_tasks"]
    bad = httpx.post(f"{url}/webmdp/task", json={"split": TRAIN, "index": n})
    assert bad.status_code == 400  # OpenEnv turns get_task's IndexError into a 400
    last = httpx.post(f"{url}/webmdp/task", json={"split": TRAIN, "index": n - 1}).json()
    assert last["task"]["index"] == n - 1


def test_validator_passes(url: str) -> None:
    report = validate_running_environment(url)
    failing = [c for c in report["criteria"] if not c["passed"]]
    assert report["passed"], failing


def test_client_reproduces_in_process_episode(url: str) -> None:
    local = WebMDPEnvironment("shopping")
    task = local.catalog.tasks(TRAIN)[4]
    actions = [WebMDPAction(name="AddToCart"), *oracle_actions(task)]
    want = run(local, task, actions)
    with WebMDPClient(base_url=url).sync() as remote:
        got = [remote.reset(task_id=task.id).observation]
        got += [remote.step(a).observation for a in actions[: len(want) - 1]]
        state = remote.state()
    assert [o.model_dump_json() for o in got] == [o.model_dump_json() for o in want]
    assert state.task_id == task.id and state.step_count == len(want) - 1


def test_sessions_are_isolated_and_capped(url: str) -> None:
    local = WebMDPEnvironment("shopping")
    clients = [WebMDPClient(base_url=url).sync() for _ in range(SESSIONS)]
    try:
        for c in clients:
            c.connect()
        for i, c in enumerate(clients):
            c.reset(split=TRAIN, index=i)
        for i, c in enumerate(clients[::2]):  # half of them move on; the rest stay put
            c.step(WebMDPAction(name="OpenCart"))
            assert c.state().step_count == 1, i
        for i, c in enumerate(clients):
            state = c.state()
            assert state.task_id == local.get_task(TRAIN, i)["id"]
            assert state.step_count == (1 if i % 2 == 0 else 0)
        extra = WebMDPClient(base_url=url).sync()
        with pytest.raises(Exception, match="CAPACITY_REACHED"):
            extra.connect()
            extra.reset()
        extra.close()
    finally:
        for c in clients:
            c.close()


def test_actions_are_described_as_json_schema(url: str) -> None:
    """Any client learns every action's parameters (OpenEnv's own /schema says only
    {name, params}), with the enums and the length bound the site checks."""
    from webmdp.core.spec import MAX_TEXT
    from webmdp.sites import get_site

    got = httpx.get(f"{url}/webmdp/actions").json()
    assert got["mode"] == "semantic" and list(got["sites"]) == ["shopping"]
    actions = {a["name"]: a for a in got["sites"]["shopping"]}
    assert set(actions) == {a.name for a in get_site("shopping").actions} | {"Finish"}
    search = actions["Search"]["parameters"]
    assert search["properties"]["query"] == {"type": "string", "maxLength": MAX_TEXT,
                                             "description": "free text"}
    assert search["required"] == ["query"]
    choices = [p for a in actions.values() for p in a["parameters"]["properties"].values()
               if "enum" in p]
    assert choices and all(p["type"] == "string" and p["enum"] for p in choices)
    assert "/webmdp/actions" in (httpx.get(f"{url}/metadata").json()["readme_content"] or "")


def test_the_task_api_answers_get_with_a_level(url: str) -> None:
    post = httpx.post(f"{url}/webmdp/num_tasks", json={"split": TRAIN}).json()
    assert httpx.get(f"{url}/webmdp/num_tasks", params={"split": TRAIN}).json() == post
    level1 = httpx.get(f"{url}/webmdp/num_tasks", params={"split": TRAIN, "level": "1"})
    assert 0 < level1.json()["num_tasks"] < post["num_tasks"]
    task = httpx.get(f"{url}/webmdp/task", params={"split": TRAIN, "index": 0, "level": "1"})
    assert task.json()["task"]["level"] == 1
    same = httpx.post(f"{url}/webmdp/task", json={"split": TRAIN, "index": 2}).json()
    assert httpx.get(f"{url}/webmdp/task", params={"split": TRAIN, "index": 2}).json() == same
    bad = httpx.get(f"{url}/webmdp/num_tasks", params={"split": "level-1"})
    assert bad.status_code == 400 and "--split train --level 1" in bad.json()["detail"]


def test_success_reaches_a_remote_client(url: str) -> None:
    local = WebMDPEnvironment("shopping")
    task = local.catalog.tasks(TRAIN)[1]
    with WebMDPClient(base_url=url).sync() as remote:
        remote.reset(task_id=task.id)
        for a in oracle_actions(task):
            last = remote.step(a)
        state = remote.state()
    assert last.done and last.observation.metadata["success"] is True
    assert state.success is True
