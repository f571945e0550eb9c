"""The ``dense`` reward's potential counts the evidence the oracle gathers: on tasks whose
oracle rules out a hard negative, every oracle step (Finish included) earns a positive shaped
reward, where the state-only potential (``dense-state``) charges the visit to the negative."""

from __future__ import annotations

from functools import cache

import pytest

from support import site_tasks
from webmdp.core import World
from webmdp.rl.rewards import REWARD_MODES, SHAPED_MODES, RewardMode, potential
from webmdp.sites import get_site
from webmdp.tasks import Task
from webmdp.tracking import Tracker

CASES = (("shopping", "shopping_0001"), ("jobs", "jobs_0091"), ("calendar", "calendar_0001"),
         ("repo", "repo_0065"))


@cache
def _task(site: str, task_id: str) -> Task:
    return next(t for t in site_tasks(site) if t.id == task_id)


def _oracle_rewards(task: Task, mode: RewardMode) -> tuple[list[float], float]:
    """The shaped rewards of the oracle's steps and its Finish (terminal 1, Φ = 0 after it),
    as RLEpisode computes them, and Φ(s₀)."""
    tracker = Tracker(get_site(task.site), World.from_dict(task.world))
    phi0 = before = potential(task, tracker.state, tracker.seen, mode=mode)
    rewards = []
    for action in task.oracle_actions():
        tracker.apply(action)
        after = potential(task, tracker.state, tracker.seen, mode=mode)
        rewards.append(after - before)
        before = after
    return [*rewards, 1.0 + 0.0 - before], phi0


@pytest.mark.parametrize(("site", "task_id"), CASES)
def test_every_oracle_step_earns_a_positive_dense_reward(site: str, task_id: str) -> None:
    task = _task(site, task_id)
    assert task.hard_negatives
    rewards, phi0 = _oracle_rewards(task, "dense")
    assert all(r > 0 for r in rewards), rewards
    assert sum(rewards) == pytest.approx(1.0 - phi0)
    assert 0 < phi0 < 1 / 2


@pytest.mark.parametrize(("site", "task_id"), CASES)
def test_the_state_only_potential_charges_the_visit_to_a_hard_negative(
        site: str, task_id: str) -> None:
    task = _task(site, task_id)
    rewards, phi0 = _oracle_rewards(task, "dense-state")
    assert min(rewards) < 0, rewards
    assert sum(rewards) == pytest.approx(1.0 - phi0)


def test_the_issue_example_and_the_modes() -> None:
    """The oracle's rewards the issue quotes, under the state-only potential; both shaped modes
    are reward modes, and a mode without a potential is refused."""
    task = _task("shopping", "shopping_0001")
    old, _ = _oracle_rewards(task, "dense-state")
    assert [round(r, 3) for r in old] == [0.083, -0.083, 0.083, 0.167, 0.5, 0.0]
    assert set(SHAPED_MODES) <= set(REWARD_MODES)
    with pytest.raises(ValueError, match="no potential"):
        potential(task, Tracker(get_site("shopping"), World.from_dict(task.world)).state,
                  mode="terminal")


@pytest.mark.parametrize("mode", ["semantic", "browser"])
def test_the_environment_pays_the_informed_shaping(mode: str) -> None:
    """Through the OpenEnv environment (semantic mode, and browser mode, where the seen set
    is the server session's): the oracle's rewards are positive at every step and sum to
    1 - Φ(s₀); `dense-state` gives today's negative step."""
    from rl_support import gui_oracle, oracle_actions, run

    from webmdp.rl.openenv import WebMDPEnvironment

    task = _task("shopping", "shopping_0001")
    env = WebMDPEnvironment("shopping", mode=mode, reward="dense")
    try:
        actions = gui_oracle(task) if mode == "browser" else oracle_actions(task)
        got = run(env, task, actions)
        rewards = [o.reward or 0.0 for o in got[1:]]
        _, phi0 = _oracle_rewards(task, "dense")
        assert got[-1].done and got[-1].metadata["success"] is True
        assert sum(rewards) == pytest.approx(1.0 - phi0)
        if mode == "semantic":  # one GUI step may change nothing on the MDP: reward 0
            assert all(r > 0 for r in rewards), rewards
        else:
            assert all(r >= 0 for r in rewards) and min(rewards) >= 0, rewards
    finally:
        env.close()
    if mode == "semantic":
        old = run(WebMDPEnvironment("shopping", reward="dense-state"), task,
                  oracle_actions(task))
        assert min(o.reward or 0.0 for o in old[1:]) < 0
