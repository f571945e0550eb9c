"""Exact step grades (issue 18): the fixed 0-10 mapping from goal distances, on traces the real
semantic environment records."""

from __future__ import annotations

import pytest

from support import site_tasks
from webmdp.core import Action
from webmdp.env.semantic import SemanticEnv
from webmdp.sites import site_names
from webmdp.synth.exact import ExactGrader, Graded, step_grade
from webmdp.tasks import Task
from webmdp.tasks.distance import Reach, distance_to_goal, state_after
from webmdp.trace import EpisodeTrace, GUIStep

FINISH = Action("Finish")


def record(task: Task, actions: list[Action]) -> EpisodeTrace:
    env = SemanticEnv(task, step_budget=200)
    env.reset()
    for a in actions:
        env.step(a)
    return env.trace


def grades(task: Task, trace: EpisodeTrace) -> list[Graded]:
    return ExactGrader().grades(trace, task)


def one_per_template(site: str) -> list[Task]:
    seen: dict[str, Task] = {}
    for t in site_tasks(site):
        seen.setdefault(t.template, t)
    return list(seen.values())


@pytest.mark.parametrize("site", site_names())
def test_every_oracle_step_is_kept(site: str) -> None:
    for task in one_per_template(site):
        trace = record(task, [*task.oracle_actions(), FINISH])
        assert trace.success, task.id
        got = grades(task, trace)
        assert len(got) == len(task.oracle_actions()) + 1
        assert all(g.grade is not None and g.grade > 5 for g in got), (task.id, got)
        assert got[-1] == Graded(10, "finish_pass")


def _reply_task() -> Task:
    return next(t for t in site_tasks("mail") if t.template == "reply_after_expanding")


def test_a_wrong_irreversible_commit_is_zero_and_a_failed_finish_too() -> None:
    task = _reply_task()
    wrong = [Action("Compose"), Action("AddRecipient", {"address": "alex.doe@example.com"}),
             Action("Send"), FINISH]
    got = grades(task, record(task, wrong))
    assert got[2] == Graded(0, "irreversible", got[2].d_before, None)
    assert got[2].d_before is not None and got[2].d_before > 0
    assert got[3] == Graded(0, "finish_fail")


def test_a_repeated_no_op_is_not_kept() -> None:
    task = _reply_task()
    noop = Action("ClearFilters")  # nothing to clear: rejected, the state stays
    trace = record(task, [noop, noop, noop, *task.oracle_actions()])
    got = grades(task, trace)
    assert [g.grade for g in got[:3]] == [5, 5, 5]
    assert {g.why for g in got[:3]} == {"no_change"}
    assert all(g.grade is not None and g.grade > 5 for g in got[3:])


def _wrong_filter(task: Task, prefix: list[Action]) -> Action:
    """A filter offered after ``prefix`` that moves the goal further away."""
    from webmdp.tasks.distance import candidate_actions

    start = state_after(task, prefix)
    d0 = distance_to_goal(task, start)
    assert d0 is not None
    for a in candidate_actions(task, start):
        if a.name in ("SetMinRating", "TogglePrime", "ToggleBrand", "SetDepartment"):
            d1 = distance_to_goal(task, state_after(task, [*prefix, a]))
            if d1 is not None and d1 > d0:
                return a
    raise AssertionError(f"{task.id}: no filter moves the goal away")


def test_undoing_a_wrong_filter_is_kept_and_the_filter_is_a_detour() -> None:
    task = next(t for t in site_tasks("shopping") if t.template == "find_product_extract"
                and t.hard_negatives)
    search = task.oracle_actions()[0]
    assert search.name == "Search"
    wrong = _wrong_filter(task, [search])
    trace = record(task, [search, wrong, Action("ClearFilters")])
    got = grades(task, trace)
    assert got[1].grade == 2 and got[1].why == "detour"
    assert got[1].d_after is not None and got[1].d_before is not None
    assert got[1].d_after > got[1].d_before
    assert got[2].grade == 10 and got[2].why == "closer"


def test_gui_steps_take_the_grade_of_the_action_they_prepare() -> None:
    """Browser-style steps with no semantic change: a click and typing before a search take
    the search's grade; a repeated identical click is not preparation; a stray scroll before
    a finish is 5."""
    task = _reply_task()
    trace = record(task, [*task.oracle_actions(), FINISH])
    first = trace.steps[0]
    click = {"kind": "click", "x": 10, "y": 20}
    steps = [GUIStep(index=0, action=click), GUIStep(index=1, action=click),
             GUIStep(index=2, action={"kind": "type", "text": "hello"}),
             first.model_copy(update={"index": 3}),
             *[s.model_copy(update={"index": i + 4}) for i, s in enumerate(trace.steps[1:-1])],
             GUIStep(index=len(trace.steps) + 2, action={"kind": "scroll", "direction": "down"}),
             trace.steps[-1].model_copy(update={"index": len(trace.steps) + 3})]
    got = grades(task, trace.model_copy(update={"steps": steps}))
    assert got[0] == Graded(5, "no_change")
    assert got[1].grade == got[2].grade == got[3].grade == 10
    assert got[1].why == got[2].why == "prepares"
    assert got[-2] == Graded(5, "no_change") and got[-1] == Graded(10, "finish_pass")


def test_the_mapping_is_fixed() -> None:
    assert step_grade(Reach(3), Reach(2)).grade == 10
    assert step_grade(Reach(3), Reach(3)).grade == 5
    assert step_grade(Reach(3), Reach(4)).grade == 2
    assert step_grade(Reach(3), Reach(None, True)).grade == 0
    assert step_grade(Reach(3), Reach(5), informs=True).grade == 10
    unknown = step_grade(Reach(None), Reach(2))
    assert unknown.grade is None and unknown.why == "unknown_distance"
    assert step_grade(Reach(2), Reach(None)).grade is None
    assert step_grade(Reach(None, True), Reach(None, True)).grade == 5


def test_a_budget_that_runs_out_leaves_steps_ungraded_never_zero() -> None:
    task = next(t for t in site_tasks("shopping") if t.template == "checkout_with_options")
    wander = [Action("Search", {"query": "zzz"}), Action("ClearSearch")]
    trace = record(task, [*wander, FINISH])
    got = ExactGrader(budget=1).grades(trace, task)
    assert any(g.grade is None and g.why == "unknown_distance" for g in got[:2])
    assert all(g.grade != 0 for g in got[:2])
