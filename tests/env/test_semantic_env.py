"""SemanticEnv: gymnasium shape, invalid steps, terminated vs truncated, the env registry."""

from __future__ import annotations

import pytest

import webmdp
from webmdp.core import Action
from webmdp.env.semantic import SemanticEnv
from webmdp.errors import ConfigError
from webmdp.sites import site_names
from webmdp.tasks import Task


def test_oracle_episode_terminates_with_success(shopping_tasks: list[Task]) -> None:
    t = shopping_tasks[5]
    env = SemanticEnv(t, agent="oracle")
    obs, info = env.reset()
    assert info["instruction"] == t.instruction and "Surface: Home" in obs["text"]
    for a in t.oracle_actions():
        obs, reward, term, trunc, _ = env.step(a)
        assert (reward, term, trunc) == (0.0, False, False)
    obs, reward, term, trunc, _ = env.step(Action("Finish", {"answer": "done"}))
    assert (reward, term, trunc) == (1.0, True, False)
    tr = env.trace
    assert tr.success and tr.terminated and not tr.truncated and tr.final_answer == "done"
    assert [x.action for x in tr.transitions()] == [a.name for a in t.oracle_actions()]


def test_invalid_action_is_recorded_and_episode_goes_on(shopping_tasks: list[Task]) -> None:
    env = SemanticEnv(shopping_tasks[0])
    env.reset()
    _, _, term, trunc, info = env.step({"name": "AddToCart", "params": {}})
    assert not term and not trunc and "no product open" in info["error"]
    _, _, _, _, info = env.step(Action("OpenCart"))
    assert info["error"] is None
    steps = env.trace.steps
    assert steps[0].error and steps[1].error is None
    assert steps[0].transitions[0].changed is False


def test_budget_truncates(shopping_tasks: list[Task]) -> None:
    env = SemanticEnv(shopping_tasks[0], step_budget=3)
    env.reset()
    results = [env.step(Action("OpenCart")) for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True]
    assert [r[2] for r in results] == [False, False, False]
    assert env.trace.truncated and not env.trace.terminated and env.trace.termination == "budget"
    with pytest.raises(RuntimeError):
        env.step(Action("OpenCart"))


def test_make_by_id() -> None:
    env = webmdp.make("shopping/review_extract-v1", index=2)
    assert env.task.template == "review_extract"
    assert "shopping/find_product_extract-v1" in webmdp.env_ids()
    env2 = webmdp.make("shopping-v1", task_id="shopping_0007")
    assert env2.task.id == "shopping_0007"


@pytest.mark.parametrize("env_id,match", [
    ("nosite-v1", f"unknown site 'nosite'; valid choices: {', '.join(site_names(plugins=True))}"),
    ("shopping/nope-v1", "unknown template 'nope'"),
    ("garbage", "unknown environment id"),
])
def test_make_unknown_names_choices(env_id: str, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        webmdp.make(env_id)


def test_make_unknown_mode() -> None:
    with pytest.raises(ConfigError, match="valid choices: browser, semantic"):
        webmdp.make("shopping-v1", mode="vr")
