"""episode_metrics on hand-built traces with hand-computed values."""

from __future__ import annotations

import pytest
from eval_builders import H1, H2, T, steps, tr, trace

from webmdp.eval.metrics import coverage, detail_visits, episode_metrics, valid_transitions
from webmdp.sites import get_site
from webmdp.tasks import Task
from webmdp.trace import EpisodeTrace


def test_search_hard_negative_back_target_commit(task: Task, good: EpisodeTrace) -> None:
    m = episode_metrics(good, task)
    assert (m.task_id, m.agent, m.mode, m.site) == ("shopping_0000", "a", "browser", "shopping")
    assert m.terminal_success and m.safe_pass and not m.infra_error
    assert m.commit_step == 4
    assert m.visits_before_commit == [H1, T] == m.detail_visits
    assert m.exploration_success and m.execution_success is True
    assert m.constraint_count == 5
    assert m.coverage_trajectory == pytest.approx([0.4, 0.6, 0.6, 0.8, 0.8])
    assert m.coverage_at_commit == pytest.approx(0.8)
    assert m.coverage_final == pytest.approx(0.8)
    assert (m.gui_steps, m.semantic_steps, m.invalid_steps) == (7, 5, 0)
    assert m.gui_semantic_ratio == pytest.approx(1.4)
    assert (m.hard_negative_count, m.oracle_length, m.access_level) == (2, 7, "detail")
    assert m.oracle_skills == ["search", "inspect", "navigate", "commit"]
    assert m.agent_skills == ["search", "inspect", "navigate", "commit"]
    assert m.skills_invoked == {"search": True, "inspect": True, "navigate": True, "commit": True}


def test_premature_commit_on_hard_negative(task: Task, premature: EpisodeTrace) -> None:
    m = episode_metrics(premature, task)
    assert m.commit_step == 2
    assert m.visits_before_commit == [H1]
    assert m.detail_visits == [H1, T]
    assert not m.exploration_success and m.execution_success is None
    assert not m.terminal_success and not m.safe_pass  # committed, so no safe pass
    assert m.coverage_trajectory == pytest.approx([0.4, 0.6, 0.6, 0.6, 0.8])
    assert m.coverage_at_commit == pytest.approx(0.6)  # T.material seen only after the commit
    assert m.coverage_final == pytest.approx(0.8)
    assert (m.gui_steps, m.semantic_steps, m.gui_semantic_ratio) == (5, 5, 1.0)


def test_safe_pass_without_commit(task: Task, safe: EpisodeTrace) -> None:
    m = episode_metrics(safe, task)
    assert m.commit_step is None
    assert m.detail_visits == [T]  # ShowReviews stays on T's page: no new visit
    assert m.exploration_success and m.execution_success is False
    assert m.safe_pass and not m.terminal_success
    assert m.coverage_trajectory == pytest.approx([0.4, 0.6, 0.6])
    assert m.coverage_at_commit == m.coverage_final == pytest.approx(0.6)
    assert (m.gui_steps, m.semantic_steps) == (3, 3)
    assert m.skills_invoked == {"search": True, "inspect": True, "navigate": False,
                                "commit": False}


def test_no_safe_pass_when_target_info_missing(task: Task) -> None:
    t = trace("b", "semantic", steps(
        tr("Search", "SearchResults", revealed=((T, "category"),)),  # department never seen
        tr("OpenProduct", "ProductDetail", T, revealed=((T, "material"),)),
    ), success=False)
    m = episode_metrics(t, task)
    assert m.exploration_success and not m.safe_pass
    assert m.coverage_final == pytest.approx(0.4)


def test_no_safe_pass_when_last_visit_is_not_target(task: Task) -> None:
    t = trace("b", "semantic", steps(
        tr("Search", "SearchResults", revealed=((T, "category"), (T, "department"))),
        tr("OpenProduct", "ProductDetail", T, revealed=((T, "material"),)),
        tr("BackToResults", "SearchResults"),
        tr("OpenProduct", "ProductDetail", H1, revealed=((H1, "material"),)),
    ), success=False)
    m = episode_metrics(t, task)
    assert m.detail_visits == [T, H1]
    assert not m.exploration_success and not m.safe_pass


def test_rejected_transitions_are_ignored(task: Task, rejected: EpisodeTrace) -> None:
    m = episode_metrics(rejected, task)
    assert m.commit_step is None  # the rejected AddToCart is no commit
    assert m.detail_visits == [H2] and not m.exploration_success
    assert m.coverage_trajectory == pytest.approx([0.2, 0.2, 0.4])
    assert m.coverage_at_commit == pytest.approx(0.4)
    assert (m.gui_steps, m.semantic_steps, m.invalid_steps) == (5, 2, 2)
    assert m.gui_semantic_ratio == pytest.approx(2.5)
    assert m.agent_skills == ["search", "inspect"]
    assert not m.safe_pass and m.termination == "budget"


def test_infra_error_flag(task: Task, infra: EpisodeTrace) -> None:
    m = episode_metrics(infra, task)
    assert m.infra_error and m.termination == "infra_error"


def test_revisits_and_initial_reveals(task: Task) -> None:
    t = trace("a", "semantic", steps(
        tr("Search", "SearchResults"),
        tr("OpenProduct", "ProductDetail", T),
        tr("ShowReviews", "ProductDetail", T),
        tr("BackToResults", "SearchResults"),
        tr("OpenProduct", "ProductDetail", T),
        tr("OpenProduct", "ProductDetail", H2),  # detail -> detail with a new focus
    ), success=False, initial_revealed=[(T, "category"), (T, "department")])
    valid = valid_transitions(t)
    assert detail_visits(valid, get_site("shopping")) == [(1, T), (4, T), (5, H2)]
    m = episode_metrics(t, task)
    assert m.coverage_trajectory == pytest.approx([0.4] * 6)
    assert m.semantic_steps == 6 and m.gui_semantic_ratio == 1.0


def test_empty_constraints_and_empty_trace(task: Task) -> None:
    assert coverage([], set()) == 1.0
    bare = task.model_copy(update={"info_constraints": []})
    m = episode_metrics(trace("a", "semantic", [], success=False), bare)
    assert m.coverage_trajectory == [] and m.coverage_at_commit == m.coverage_final == 1.0
    assert m.visits_before_commit == [] and not m.exploration_success
    assert (m.gui_steps, m.semantic_steps, m.gui_semantic_ratio) == (0, 0, 0.0)
    m = episode_metrics(trace("a", "semantic", [], success=False), task)
    assert m.coverage_final == 0.0 and not m.safe_pass
