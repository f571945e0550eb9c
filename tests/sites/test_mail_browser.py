"""Mail in a real Chromium: the oracle's GUI run reproduces the semantic MDP trace exactly."""

from __future__ import annotations

import pytest

from webmdp.agents import OracleAgent
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.semantic import SemanticEnv
from webmdp.runner.episode import run_episode
from webmdp.runner.validate import semantic_signature

pytestmark = pytest.mark.browser


# one task per template, hard-negative counts 0..3 among them
@pytest.mark.parametrize("index", [1, 34, 63, 94, 123, 155])
def test_mail_oracle_gui_trace_equals_mdp_trace(server, host, mail_tasks, index) -> None:  # type: ignore[no-untyped-def]
    task = mail_tasks[index]
    want = run_episode(SemanticEnv(task), OracleAgent())
    env = BrowserEnv(task, agent="test", server=server, host=host,
                     config=BrowserConfig(observation="axtree"))
    try:
        got = run_episode(env, OracleAgent())
    finally:
        env.close()
    assert got.success, (task.id, got.verifier, [t.action for t in got.transitions()])
    assert semantic_signature(got) == semantic_signature(want)
    assert not [t for t in got.transitions() if t.error]
