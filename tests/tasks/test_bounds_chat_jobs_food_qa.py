"""The admissible distance bounds of chat, jobs, food and qa (``sites/<site>/bound.py``).

A bound must never exceed the true distance over the whole search action space, or A* can
return a wrong distance. Checked against the independent breadth-first search of
``test_distance``: on every oracle prefix of one task per template, and on states a seeded
walk reaches off the oracle path (wrong commits included), the A* distance equals the
brute-force one and the bound is at most it.
"""

from __future__ import annotations

import collections
import math
import random

import pytest
from test_distance import _prefix_states, _successors, agent_actions, assert_exact, brute_force

from support import site_tasks
from webmdp.core import Action
from webmdp.sites import get_site
from webmdp.tasks import Task
from webmdp.tasks.distance import (
    clear_cache,
    distance_to_goal,
    lower_bound,
    reach,
    state_after,
)

SITES = ("chat", "jobs", "food", "qa")


def _per_template(site: str) -> list[Task]:
    """One task per template, with a hard negative where the template has one."""
    out: dict[str, Task] = {}
    for t in site_tasks(site):
        best = out.get(t.template)
        if best is None or (best.complexity.hard_negative_count != 1
                            and t.complexity.hard_negative_count == 1):
            out[t.template] = t
    assert set(out) == set(get_site(site).templates)
    return list(out.values())


@pytest.mark.parametrize(("site", "cap"), [
    ("chat", 2), ("jobs", 2), ("food", 2), ("qa", 2),
    pytest.param("chat", 3, marks=pytest.mark.slow), pytest.param("qa", 3, marks=pytest.mark.slow)])
def test_equals_brute_force_on_every_oracle_prefix(site: str, cap: int) -> None:
    """The BFS to depth 2 on every site in `make test`; Chat and QA also to depth 3 in
    `make test-slow`."""
    far = 0
    for task in _per_template(site):
        for state in _prefix_states(task):
            d = assert_exact(task, state, cap)
            far += d is not None and d >= 2
    assert far >= 10  # the search had real work to do


@pytest.mark.parametrize("site", SITES)
def test_bound_is_below_the_distance_on_every_oracle_prefix(site: str) -> None:
    """Every template and hard-negative count; the bound is not the trivial one."""
    sample = {(t.template, t.complexity.hard_negative_count): t for t in site_tasks(site)}
    for task in sample.values():
        clear_cache()
        states = _prefix_states(task)
        for k, state in enumerate(states):
            d = distance_to_goal(task, state)
            assert d is not None and d <= len(states) - 1 - k, (task.id, k)
            assert lower_bound(task, state) <= d, (task.id, k)
        start = distance_to_goal(task, states[0])
        assert start is not None and lower_bound(task, states[0]) >= min(2, start), task.id


@pytest.mark.parametrize(("site", "cap", "stride", "steps"),
                         [("chat", 2, 15, 6), ("jobs", 2, 15, 6), ("food", 2, 15, 6),
                          ("qa", 2, 15, 6)])
def test_equals_brute_force_along_seeded_walks(site: str, cap: int, stride: int,
                                               steps: int) -> None:
    """Off-path states: a seeded walk that prefers commits and actions on the task's own
    entities (hard negatives replied to, saved, added, voted...), then any action."""
    rng = random.Random(f"bounds:{site}")
    seen: collections.Counter[int | None] = collections.Counter()
    site_obj = get_site(site)
    for task in site_tasks(site)[::stride]:
        own = {task.target, *task.hard_negatives, *task.companions}
        state = state_after(task, [])
        for _ in range(steps):
            truth = brute_force(task, state, cap)
            clear_cache()
            d, bound = distance_to_goal(task, state), lower_bound(task, state)
            if truth is not None:
                assert bound <= truth and d == truth, (task.id, state, bound, d, truth)
            else:
                assert d is None or d > cap, (task.id, state, d)
                assert bound <= (math.inf if d is None else d), (task.id, state)
            seen[d] += 1
            moves = [a for a in agent_actions(task, state)
                     if own & {v for v in a.params.values() if isinstance(v, str)}
                     or site_obj.action_spec(a.name).changes_state]
            preferred = _successors(task, state, moves) if rng.random() < 0.7 else []
            state = rng.choice(preferred or _successors(task, state))
    assert len(seen) >= 3, seen  # near and far states occurred


def _first(site: str, template: str) -> Task:
    return next(t for t in site_tasks(site)
                if t.template == template and t.complexity.hard_negative_count >= 1)


def _dead_ends() -> list[tuple[Task, list[Action]]]:
    reply = _first("chat", "reply_latest_thread")
    hn = reply.hard_negatives[0]
    chat_wrong = [*reply.oracle_actions()[:2], Action("CloseThread"),
                  Action("OpenThread", {"message_id": hn}),
                  Action("ReplyInThread", {"text": "Sounds good, thanks!"})]
    apply = _first("jobs", "apply_by_company_size")
    submit = apply.oracle_actions()[-1]
    jobs_wrong = [*apply.oracle_actions()[:-1],
                  Action(submit.name, {**submit.params, "years": submit.params["years"] + 1})]
    answer = _first("qa", "answer_unanswered")
    qa_wrong = [*answer.oracle_actions()[:3], Action("PostAnswer", {"body": "Try again."})]
    return [(reply, chat_wrong), (apply, jobs_wrong), (answer, qa_wrong)]


@pytest.mark.parametrize("case", range(3))
def test_a_final_wrong_commit_is_a_proven_dead_end(case: int) -> None:
    """A reply to a hard negative, an application with a wrong answer, an answer on a hard
    negative: facts no action undoes, so the bound is infinite and the search says so."""
    task, actions = _dead_ends()[case]
    state = state_after(task, actions)
    clear_cache()
    assert lower_bound(task, state) == math.inf
    assert reach(task, state).unreachable
    assert brute_force(task, state, 2) is None
