"""Built-in agents on every task in semantic mode: the oracle is perfect, greedy is fooled by
hard negatives, traces are reproducible."""

from __future__ import annotations

import pytest

from support import site_tasks
from webmdp.agents import make_agent
from webmdp.env.semantic import SemanticEnv
from webmdp.eval import episode_metrics
from webmdp.runner.episode import run_episode
from webmdp.sites import site_names

TIMING = {"duration_s": True, "steps": {"__all__": {"agent_s", "env_s"}}}


@pytest.mark.parametrize("site", site_names())
def test_oracle_solves_every_task_and_explores_correctly(site: str) -> None:
    agent = make_agent("oracle")
    for task in site_tasks(site):
        tr = run_episode(SemanticEnv(task, agent="oracle"), agent)
        m = episode_metrics(tr, task)
        assert tr.success and m.exploration_success, task.id
        assert m.safe_pass and m.execution_success


@pytest.mark.parametrize("site", site_names())
def test_greedy_explores_worse_with_hard_negatives(site: str) -> None:
    agent = make_agent("greedy")
    by_hn: dict[bool, list[bool]] = {False: [], True: []}
    for task in site_tasks(site):
        m = episode_metrics(run_episode(SemanticEnv(task, agent="greedy"), agent), task)
        by_hn[task.complexity.hard_negative_count > 0].append(bool(m.exploration_success))
    rate = {k: sum(v) / len(v) for k, v in by_hn.items()}
    assert rate[True] < rate[False]
    assert rate[True] > 0 and rate[False] < 1


def test_random_agent_is_seeded_and_uses_the_budget() -> None:
    task = site_tasks("mail")[3]
    a = run_episode(SemanticEnv(task, agent="random", step_budget=20), make_agent("random"))
    b = run_episode(SemanticEnv(task, agent="random", step_budget=20), make_agent("random"))
    assert a.model_dump(exclude=TIMING) == b.model_dump(exclude=TIMING)
    assert len(a.steps) <= 20 and len(a.transitions()) > 0


@pytest.mark.parametrize("site", site_names())
def test_same_task_same_trace_byte_for_byte(site: str) -> None:
    task = site_tasks(site)[77]
    runs = [run_episode(SemanticEnv(task, agent="oracle"), make_agent("oracle")) for _ in range(2)]
    dumps = [r.model_dump_json(exclude=TIMING) for r in runs]  # type: ignore[arg-type]
    assert dumps[0] == dumps[1]
    assert runs[0].verifier == runs[1].verifier and all(runs[0].verifier.values())
