"""BrowserEnv snapshot / restore: the page re-renders the restored MDP state, in Chromium."""

from __future__ import annotations

import httpx
import pytest

from webmdp.core import Action
from webmdp.env.actions import GUIAction
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.env.semantic import SemanticEnv
from webmdp.errors import ConfigError
from webmdp.server.runner import ServerHandle
from webmdp.tasks import Task
from webmdp.trace import Restore

pytestmark = pytest.mark.browser


def _click(env: BrowserEnv, action: str, **params: str) -> str:
    """Click the element bound to ``action``; the state key of the transition it caused."""
    node = next(n for n in env._last_obs["nodes"] if n.get("id") and n.get("action") == action
                and all(f'"{v}"' in (n.get("params") or "") for v in params.values()))
    env.step(GUIAction(kind="click", element=node["id"]))
    (rec,) = env.trace.steps[-1].transitions
    assert rec.action == action and rec.error is None
    return rec.state_key


def _mdp_surface(env: BrowserEnv) -> str:
    snap = env.server.control("GET", f"/control/sessions/{env.session_id}/snapshot")
    return snap["state"]["surface"]


def test_restore_rerenders_the_snapshot_and_replays_the_same(  # type: ignore[no-untyped-def]
        server, host, shopping_tasks) -> None:
    task: Task = shopping_tasks[1]  # two products opened before the right one
    env = BrowserEnv(task, agent="test", server=server, host=host,
                     config=BrowserConfig(observation="axtree"))
    try:
        obs, _ = env.reset()
        home = env.snapshot()
        box = next(n for n in obs["nodes"] if n.get("field") == "query")
        results_obs, *_ = env.step(GUIAction(kind="type", element=box["id"],
                                             text=task.params["query"] + "\n"))
        results_key = env.trace.steps[-1].transitions[0].state_key
        results = env.snapshot()
        first, second = [a.params["product_id"] for a in task.oracle_actions()
                         if a.name == "OpenProduct"]
        opened = _click(env, "OpenProduct", product_id=first)
        carted = _click(env, "AddToCart")
        assert env.page.evaluate("document.body.dataset.surface") == "ProductDetail"
        n_steps, n_log = len(env.trace.steps), env._seen

        obs = env.restore(results, node=3)
        assert env.page.evaluate("document.body.dataset.surface") == "SearchResults"
        assert _mdp_surface(env) == "SearchResults"
        assert obs["axtree"] == results_obs["axtree"]
        assert env.trace.restores == [Restore(before_step=n_steps, snapshot=results, node=3,
                                              state_key=results_key)]
        log = server.control("GET", f"/control/sessions/{env.session_id}/trace")
        assert log["count"] == n_log  # a restore is not a transition
        # the same clicks from the restored state reach the same states as the first time
        assert _click(env, "OpenProduct", product_id=first) == opened
        assert _click(env, "AddToCart") == carted

        obs = env.restore(home)
        assert env.page.evaluate("document.body.dataset.surface") == _mdp_surface(env) == "Home"
        assert "Search Shopwise" in obs["axtree"] and obs["url"].endswith("/home")
        assert env.trace.restores[-1].before_step == n_steps + 2
        # Back crosses into the page before the restore, which renders the session as it is
        env.step(GUIAction(kind="go_back"))
        assert env.trace.steps[-1].transitions == []
        assert env.page.evaluate("document.body.dataset.surface") == _mdp_surface(env) == "Home"
        assert not env.page.url.endswith("/home")
        # the restored page is live: its controls dispatch from the restored state
        env.restore(results)
        assert _click(env, "OpenProduct", product_id=second) != opened
        assert env.trace.restores[-1].node is None
        env.step(GUIAction(kind="go_back"))  # within the restored page: the semantic Back
        assert [t.action for t in env.trace.steps[-1].transitions] == ["BackToResults"]
    finally:
        env.close()


def test_restore_matches_semantic_mode_and_refuses_bad_requests(  # type: ignore[no-untyped-def]
        server: ServerHandle, host: BrowserHost, shopping_tasks) -> None:
    task: Task = shopping_tasks[0]
    sem = SemanticEnv(task)
    sem.reset()
    sem_snap = sem.snapshot()
    sem.step(Action("OpenCart"))
    sem.restore(sem_snap)
    env = BrowserEnv(task, agent="test", server=server, host=host,
                     config=BrowserConfig(observation="axtree"))
    try:
        env.reset()
        snap = env.snapshot()
        assert snap == sem_snap
        _click(env, "OpenCart")
        env.restore(snap)
        assert env.trace.restores == sem.trace.restores
        with pytest.raises(ConfigError, match="unknown snapshot 'snap-5'"):
            env.restore("snap-5")
        url = f"{server.url}/control/sessions/{env.session_id}/restore"
        assert httpx.post(url, json={"snapshot_id": snap}).status_code == 403
        missing = httpx.post(url, json={"snapshot_id": "snap-5"},
                             headers={"X-WebMDP-Token": server.token})
        assert missing.status_code == 404 and "unknown snapshot" in missing.text
        assert len(env.trace.restores) == 1
    finally:
        env.close()
