"""Faults in browser mode: a crash or a hang becomes an infra-error episode; the run goes on."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from webmdp.agents import OracleAgent
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.runner.episode import run_episode
from webmdp.runner.store import RunStore

pytestmark = pytest.mark.browser


class _Saboteur(OracleAgent):
    """The oracle, but runs ``harm(env)`` before its ``at``-th action."""

    def __init__(self, env: BrowserEnv, at: int, harm) -> None:  # type: ignore[no-untyped-def]
        super().__init__()
        self.env, self.at, self.harm, self.n = env, at, harm, 0

    def act(self, obs):  # type: ignore[no-untyped-def]
        self.n += 1
        if self.n == self.at:
            self.harm(self.env)
        return super().act(obs)


def _kill_browser(env: BrowserEnv) -> None:
    pid = env.host.browser_pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)


def _hang_page(env: BrowserEnv) -> None:
    env.page.evaluate("window.__webmdp.pending = 99")


def test_crash_is_an_infra_error_and_the_run_goes_on(  # type: ignore[no-untyped-def]
        server, shopping_tasks, tmp_path: Path) -> None:
    store = RunStore(tmp_path)
    with BrowserHost() as host:
        env = BrowserEnv(shopping_tasks[0], agent="oracle", server=server, host=host,
                         config=BrowserConfig(observation="axtree", action_timeout_s=5))
        tr = run_episode(env, _Saboteur(env, 2, _kill_browser))
        env.close()
        store.save(tr)
        assert tr.termination == "infra_error" and tr.infra_error
        assert "BrowserError" in tr.infra_error
        assert len(tr.steps) >= 1  # what happened before the crash is kept
        # the next episode relaunches Chromium and succeeds
        env2 = BrowserEnv(shopping_tasks[1], agent="oracle", server=server, host=host,
                          config=BrowserConfig(observation="axtree"))
        tr2 = run_episode(env2, OracleAgent())
        env2.close()
        store.save(tr2)
        assert tr2.success
    rows = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [r["termination"] for r in rows] == ["infra_error", "finished"]
    # the crashed episode's trace is kept, but it is not a result: resume runs it again
    assert store.trace_path("oracle", "browser", shopping_tasks[0].id).is_file()
    assert not store.has("oracle", "browser", shopping_tasks[0].id)
    assert store.has("oracle", "browser", shopping_tasks[1].id)


def test_hang_is_an_infra_error(server, host, shopping_tasks) -> None:  # type: ignore[no-untyped-def]
    env = BrowserEnv(shopping_tasks[0], agent="oracle", server=server, host=host,
                     config=BrowserConfig(observation="axtree", action_timeout_s=1))
    tr = run_episode(env, _Saboteur(env, 2, _hang_page))
    env.close()
    assert tr.termination == "infra_error"
    assert "Timeout" in tr.infra_error or "timeout" in tr.infra_error
