"""Aggregate, breakdown and skill invocation maths."""

from __future__ import annotations

import pytest

from webmdp.eval import EpisodeMetrics, aggregate, breakdown, episode_metrics, skill_invocation
from webmdp.eval.aggregate import length_bucket
from webmdp.tasks import Task
from webmdp.trace import EpisodeTrace


@pytest.fixture
def rows(task: Task, good: EpisodeTrace, premature: EpisodeTrace, safe: EpisodeTrace,
         rejected: EpisodeTrace, infra: EpisodeTrace) -> list[EpisodeMetrics]:
    return [episode_metrics(t, task) for t in (good, premature, safe, rejected, infra)]


def test_aggregate_excludes_infra_errors(rows: list[EpisodeMetrics]) -> None:
    a = aggregate(rows)
    assert (a.episodes, a.infra_errors) == (4, 1)
    assert a.terminal_sr == 0.25  # good
    assert a.safe_pass_sr == 0.5  # good, safe
    assert a.exploration_sr == 0.5  # good, safe
    assert a.execution_sr == 0.5  # of good, safe only good succeeds
    assert a.coverage_at_commit == pytest.approx((0.8 + 0.6 + 0.6 + 0.4) / 4)
    assert a.gui_steps == pytest.approx((7 + 5 + 3 + 5) / 4)
    assert a.semantic_steps == pytest.approx((5 + 5 + 3 + 2) / 4)
    assert a.gui_semantic_ratio == pytest.approx((1.4 + 1.0 + 1.0 + 2.5) / 4)
    assert set(a.model_dump()) == {
        "terminal_sr", "safe_pass_sr", "exploration_sr", "execution_sr", "coverage_at_commit",
        "gui_steps", "semantic_steps", "gui_semantic_ratio", "episodes", "infra_errors"}


def test_aggregate_undefined_rates(rows: list[EpisodeMetrics]) -> None:
    a = aggregate([rows[1], rows[4]])  # premature + infra: nothing explored
    assert a.execution_sr is None and a.exploration_sr == 0.0 and a.episodes == 1
    empty = aggregate([rows[4]])
    assert empty.episodes == 0 and empty.infra_errors == 1
    assert empty.terminal_sr is None and empty.gui_steps is None


def test_breakdown_by_agent_and_mode(rows: list[EpisodeMetrics]) -> None:
    by_agent = breakdown(rows, "agent")
    assert list(by_agent) == ["a", "b"]
    assert by_agent["a"].terminal_sr == 0.5 and by_agent["a"].exploration_sr == 0.5
    b = by_agent["b"]
    assert (b.episodes, b.infra_errors, b.safe_pass_sr, b.execution_sr) == (2, 1, 0.5, 0.0)
    assert b.gui_semantic_ratio == pytest.approx(1.75)
    assert list(breakdown(rows, "agent_mode")) == ["a (browser)", "a (semantic)", "b (semantic)"]
    assert list(breakdown(rows, "site")) == ["shopping"]
    assert breakdown(rows, "template")["find_product_extract"] == aggregate(rows)


@pytest.mark.parametrize(("n", "bucket"), [(0, "1-3"), (1, "1-3"), (3, "1-3"), (4, "4-6"),
                                           (6, "4-6"), (7, "7-9"), (9, "7-9"), (10, "10+"),
                                           (25, "10+")])
def test_length_bucket(n: int, bucket: str) -> None:
    assert length_bucket(n) == bucket


def test_breakdown_complexity_groups_in_natural_order(rows: list[EpisodeMetrics]) -> None:
    base = rows[0]  # explored successfully
    fail = rows[1]  # exploration failure
    made = [
        base.model_copy(update={"hard_negative_count": 10, "oracle_length": 12,
                                "access_level": "card"}),
        fail.model_copy(update={"hard_negative_count": 2, "oracle_length": 2,
                                "access_level": "filter"}),
        base.model_copy(update={"hard_negative_count": 2, "oracle_length": 5}),
        fail.model_copy(update={"hard_negative_count": 0, "oracle_length": 3}),
        base.model_copy(update={"hard_negative_count": 0, "oracle_length": 8}),
    ]
    hn = breakdown(made, "hard_negative_count")
    assert list(hn) == ["0", "2", "10"]
    assert [a.exploration_sr for a in hn.values()] == [0.5, 0.5, 1.0]
    ol = breakdown(made, "oracle_length")
    assert list(ol) == ["1-3", "4-6", "7-9", "10+"]
    assert [(a.episodes, a.exploration_sr) for a in ol.values()] == [
        (2, 0.0), (1, 1.0), (1, 1.0), (1, 1.0)]
    al = breakdown(made, "access_level")
    assert list(al) == ["card", "filter", "detail"]
    assert al["detail"].episodes == 3 and al["detail"].exploration_sr == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="unknown breakdown"):
        breakdown(made, "colour")


def test_skill_invocation_rates(rows: list[EpisodeMetrics]) -> None:
    # S* = {search, inspect, navigate, commit} for every row; navigate and commit are
    # invoked by good and premature only; the infra row is excluded.
    assert skill_invocation(rows) == {"search": 1.0, "filter": None, "inspect": 1.0,
                                      "navigate": 0.5, "commit": 0.5}
