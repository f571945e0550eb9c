"""The OpenEnv environment in process: SemanticEnv's transitions, deterministic task choice,
the task API's errors, the reward modes and what an observation may not carry."""

from __future__ import annotations

import pytest
from rl_support import assert_no_leak, oracle_actions, run

from support import site_tasks
from webmdp.agents.llm.observe import ObservationConfig, model_view
from webmdp.env.semantic import SemanticEnv
from webmdp.rl.episode import observation_text
from webmdp.rl.openenv import WebMDPAction, WebMDPEnvironment
from webmdp.rl.rewards import potential
from webmdp.rl.splits import LEVELS, TEST, TRAIN, split_of
from webmdp.sites import site_names
from webmdp.tasks.distance import state_after


def test_transitions_match_semantic_env(shopping_env: WebMDPEnvironment) -> None:
    task = shopping_env.catalog.tasks(TRAIN)[2]
    actions = [WebMDPAction(name="AddToCart"), *oracle_actions(task)]  # first one is invalid
    got = run(shopping_env, task, actions)
    ref = SemanticEnv(task)
    obs, _ = ref.reset()
    assert obs["text"] == model_view(obs, ObservationConfig()).text  # the run agents' text
    assert got[0].text == observation_text(obs, "shopping")  # with the parameters named
    assert got[0].instruction == task.instruction and got[0].reward is None
    for a, o in zip(actions, got[1:], strict=True):
        obs, reward, term, trunc, info = ref.step({"name": a.name, "params": a.params})
        assert (o.text, o.reward, o.done, o.error) == (observation_text(obs, "shopping"),
                                                       reward, term or trunc, info["error"])
    assert got[1].error and got[1].reward == 0.0 and not got[1].done  # the site's own words
    assert got[-1].reward == 1.0 and got[-1].done
    assert shopping_env.state.step_count == len(actions)


def test_reset_is_deterministic(shopping_env: WebMDPEnvironment) -> None:
    env = shopping_env
    n = env.num_tasks(TRAIN)
    a = env.reset(seed=n + 3)
    first = env.state.task_id
    assert env.reset(split=TRAIN, index=3) == a and env.state.task_id == first
    assert first == env.get_task(TRAIN, 3)["id"]
    assert env.reset(task_id=first) == a
    env.reset()
    assert env.state.task_id == env.get_task(TRAIN, 0)["id"]  # seed None counts as 0
    other = WebMDPEnvironment("shopping")
    assert other.reset(seed=n + 3) == a
    other.reset(split=TEST, index=1)
    assert other.state.task_id == env.get_task(TEST, 1)["id"]


def test_bad_choices_raise(shopping_env: WebMDPEnvironment) -> None:
    with pytest.raises(ValueError, match="unknown task id"):
        shopping_env.reset(task_id="shopping_9999")
    with pytest.raises(ValueError, match="unknown split"):
        shopping_env.reset(split="validation")
    with pytest.raises(ValueError, match="unknown split"):
        shopping_env.num_tasks("nope")
    n = shopping_env.num_tasks(TEST)
    with pytest.raises(IndexError):
        shopping_env.get_task(TEST, n)
    with pytest.raises(IndexError):
        shopping_env.get_task(TEST, -1)
    with pytest.raises(ValueError, match="unknown reward"):
        WebMDPEnvironment("shopping", reward="sparse")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown site"):
        WebMDPEnvironment("nowhere")


def test_splits_partition_the_tasks(shopping_env: WebMDPEnvironment) -> None:
    env = shopping_env
    assert env.list_splits() == [TRAIN, TEST]
    train = {t["id"] for t in env.list_tasks(TRAIN)}
    test = {t["id"] for t in env.list_tasks(TEST)}
    built_in = {t.id for t in site_tasks("shopping")}
    assert not train & test and built_in <= train | test
    assert all(split_of(i) == TRAIN for i in train) and 0 < len(test) < len(train)
    dial = {i for i in train | test if "_L1_" in i}  # the dial's level-1 pool, assigned too
    assert len(dial) > 100 and dial & train and dial & test
    assert len(train | test) == len(built_in) + len(dial)
    for level in LEVELS:  # a level only narrows a split
        narrowed = env.list_tasks(TRAIN, level)
        assert {t["id"] for t in narrowed} <= train
        assert all(t["level"] == (None if level == "none" else level) for t in narrowed)
    assert env.num_tasks(TRAIN, 1) == len(env.list_tasks(TRAIN, "1")) > 0
    assert env.get_task_range(TRAIN, 2, 5) == [env.get_task(TRAIN, i) for i in (2, 3, 4)]
    spec = env.get_task(TRAIN, 0)
    assert not {"verifier", "target", "answer", "oracle"} & set(spec)
    with pytest.raises(ValueError, match="--split train --level 1"):
        env.num_tasks("level-1")


def test_reset_draws_from_a_level_of_a_split(shopping_env: WebMDPEnvironment) -> None:
    env = shopping_env
    env.reset(split=TRAIN, level=1, seed=5)
    task = env.catalog.task(env.state.task_id or "")
    assert split_of(task.id) == TRAIN and task.difficulty and task.difficulty.level == 1
    assert env.state.task_id == env.get_task(TRAIN, 5 % env.num_tasks(TRAIN, 1), level=1)["id"]
    with pytest.raises(ValueError, match="unknown level"):
        env.reset(split=TRAIN, level=4)


def _two_per_site() -> list[object]:
    """Two oracles per site: the first in `make test`, the second (the same path on the same
    site; an A* potential per step) in `make test-slow`."""
    return [pytest.param(s, i, marks=(pytest.mark.slow,) if i else ())
            for s in site_names() for i in (0, 1)]


@pytest.mark.parametrize(("site", "index"), _two_per_site())
def test_oracle_rewards(site: str, index: int) -> None:
    """Terminal: the oracle earns 1. Dense: the rewards sum to terminal - Φ(s₀)."""
    terminal, dense = WebMDPEnvironment(site), WebMDPEnvironment(site, reward="dense")
    task = [t for t in site_tasks(site) if split_of(t.id) == TRAIN][index]
    got = run(terminal, task, oracle_actions(task))
    assert got[-1].done and got[-1].reward == 1.0
    assert got[-1].metadata["success"] is True and terminal.state.success is True
    assert all("success" not in o.metadata for o in got[:-1])
    assert all(o.reward == 0.0 for o in got[1:-1])
    shaped = run(dense, task, oracle_actions(task))
    assert [o.text for o in shaped] == [o.text for o in got]
    phi0 = potential(task, state_after(task, []))
    total = sum(o.reward or 0.0 for o in shaped[1:])
    assert abs(total - (1.0 - phi0)) < 1e-9
    assert_no_leak(task, shaped)
    assert all(o.screenshot is None for o in shaped)


def test_over_budget_ends_the_episode() -> None:
    env = WebMDPEnvironment("shopping", step_budget=3)
    env.reset(index=0)
    seen = [env.step(WebMDPAction(name="GoHome")) for _ in range(3)]
    assert [o.done for o in seen] == [False, False, True]
    assert seen[-1].metadata["truncated"] and seen[-1].reward == 0.0
    assert seen[-1].metadata["success"] is False and env.state.success is False
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(WebMDPAction(name="GoHome"))
    env.reset(index=0)
    assert env.state.success is None


def test_an_invalid_action_counts_against_the_budget() -> None:
    """A refused action is a step: an over-long query too, refused by its declared bound."""
    env = WebMDPEnvironment("shopping", step_budget=2)
    env.reset(index=0)
    first = env.step(WebMDPAction(name="Search", params={"query": "a" * 1_000_000}))
    assert first.error and "at most 2000" in first.error and len(first.error) < 200
    assert "aaaa" not in first.text and env.state.step_count == 1
    assert env.step(WebMDPAction(name="GoHome")).done


def test_the_action_list_names_each_parameter(shopping_env: WebMDPEnvironment) -> None:
    obs = shopping_env.reset(split=TRAIN, index=0)
    assert "  Search(query: str)" in obs.text.splitlines()
    assert "  SetDepartment(department='Books')" in obs.text.splitlines()


def test_rubric_reward_is_the_rubric_root() -> None:
    """A cross-site episode cut short: the reward is the rubric root SemanticEnv judged."""
    env = WebMDPEnvironment("cross-site", reward="rubric")
    assert env.list_splits() == [TRAIN, TEST, "cross-site"]
    task = env.catalog.tasks("cross-site")[0]
    actions = oracle_actions(task)
    actions = [*actions[: len(actions) // 2], actions[-1]]
    got = run(env, task, actions)
    ref = SemanticEnv(task)
    ref.reset()
    for a in actions:
        ref.step({"name": a.name, "params": a.params})
    assert ref.trace.rubric is not None and got[-1].done
    assert got[-1].reward == ref.trace.rubric.root
    assert all(o.reward == 0.0 for o in got[1:-1])


def test_a_dial_task_of_level_1_runs_by_its_name(shopping_env: WebMDPEnvironment) -> None:
    """Level 1 goes on with the dial's SITE_L1_NNNN tasks; reset takes their names."""
    task = shopping_env.catalog.task("shopping_L1_0004")
    assert task.difficulty is not None and task.difficulty.level == 1
    got = run(shopping_env, task, oracle_actions(task))
    assert got[0].metadata["task_id"] == "shopping_L1_0004"
    assert got[-1].done and got[-1].reward == 1.0
