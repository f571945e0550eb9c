"""The baselines (``greedy``, ``random``) decide from the instruction and the observations
alone: given a task whose oracle, target, hard negatives and answer are replaced by wrong ones,
they act exactly as on the real task. The oracle, which reads the task by design, does not
(so the swap is one an agent could notice)."""

from __future__ import annotations

from typing import Any

import pytest

from support import site_tasks
from webmdp.agents import make_agent
from webmdp.agents.base import AgentOutput
from webmdp.agents.fitness import BaselineFit, baseline_fit
from webmdp.agents.registry import READS_TASK
from webmdp.env.semantic import SemanticEnv
from webmdp.runner.episode import run_episode
from webmdp.sites import get_site, site_names
from webmdp.tasks import Task
from webmdp.trace import Mode

PER_SITE = 6


def _wrong(task: Task, other: Task) -> Task:
    """``task`` with ``other``'s oracle and a filler as target; hard negatives and answer
    wrong too. The world, instruction and verifier stay, so the pages are the same."""
    fillers = [f for f in task.fillers if f != task.target]
    return task.model_copy(update={
        "oracle": other.oracle, "target": fillers[0] if fillers else "nothing",
        "hard_negatives": fillers[1:3], "answer": "a wrong answer",
        "info_constraints": other.info_constraints})


class _Told:
    """An agent told ``task`` whatever episode it plays."""

    def __init__(self, agent: str, task: Task):
        self.agent, self.task, self.log = make_agent(agent), task, None

    def reset(self, _task: Task, mode: Mode) -> None:
        self.agent.reset(self.task, mode)

    def bind(self, env: Any) -> None:
        self.agent.bind(env)

    def act(self, obs: dict[str, Any]) -> AgentOutput:
        return self.agent.act(obs)


def _actions(task: Task, agent: str, judged: Task) -> list[str]:
    """The actions ``agent`` takes when told ``task`` while the pages come from ``judged``."""
    env = SemanticEnv(judged, agent=agent, step_budget=30)
    return [str(s.action) for s in run_episode(env, _Told(agent, task)).steps]


@pytest.mark.parametrize("site", site_names())
def test_baselines_never_read_the_oracle_target_or_negatives(site: str) -> None:
    tasks = site_tasks(site)
    picked = tasks[:: len(tasks) // PER_SITE][:PER_SITE]
    changed = 0
    for i, task in enumerate(picked):
        wrong = _wrong(task, picked[(i + 1) % len(picked)])
        for agent in ("greedy", "random"):
            assert _actions(wrong, agent, task) == _actions(task, agent, task), (agent, task.id)
        changed += _actions(wrong, "oracle", task) != _actions(task, "oracle", task)
    assert changed == len(picked)  # the swap is visible to an agent that reads the task


def test_agents_that_read_the_task_are_named() -> None:
    assert set(READS_TASK) == {"oracle", "pixel", "axtext"}
    assert "greedy" not in READS_TASK and "random" not in READS_TASK


def test_check_names_what_greedy_lacks() -> None:
    shopping = baseline_fit(get_site("shopping"), site_tasks("shopping")[:12])
    assert shopping.meaningful and shopping.solved > 0 and shopping.opened == 12
    assert shopping.lines()[0].startswith("greedy: opened a result in 12/12 tasks")
    blind = BaselineFit(tasks=4, opened=0, committed=0, solved=0, plain=2, plain_solved=0,
                        can_search=True)
    assert not blind.meaningful and "never opened a result" in blind.lines()[1]
    mute = BaselineFit(tasks=4, opened=0, committed=0, solved=0, plain=2, plain_solved=0,
                       can_search=False)
    assert mute.lines()[0].startswith("greedy cannot search")
