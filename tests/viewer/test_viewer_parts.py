"""The viewer's pure parts: the action overlay of every GUI action kind, per-step coverage
against the metrics' trajectory, and the alignment rows against the report's bifurcation."""

from __future__ import annotations

import pytest
from viewer_runs import Runs

from webmdp.env.actions import GUIAction
from webmdp.eval.bifurcation import find_bifurcation, oracle_trajectory, trajectory
from webmdp.eval.metrics import episode_metrics
from webmdp.viewer import RunIndex
from webmdp.viewer.app import breakable
from webmdp.viewer.replay import SCROLL_ARROW_PX, marks, step_coverage, summary
from webmdp.viewer.trajectory import anchors, compare

SIZE = (1440, 900)


def _marks(**action: object) -> list:  # type: ignore[type-arg]
    return marks(GUIAction.model_validate(action).to_dict(), (100.0, 50.0), SIZE)


def test_each_action_kind_is_drawn_where_it_acted() -> None:
    [click] = _marks(kind="double_click", x=300, y=200)
    assert (click.kind, click.x, click.y, click.text) == ("point", 300.0, 200.0, "double click")
    [hover] = _marks(kind="move", x=10, y=20)
    assert (hover.kind, hover.x, hover.y) == ("hover", 10.0, 20.0)
    [drag] = _marks(kind="drag", x=10, y=20, x2=400, y2=220)
    assert (drag.kind, drag.x, drag.y, drag.x2, drag.y2) == ("path", 10.0, 20.0, 400.0, 220.0)
    [down] = _marks(kind="scroll", direction="down", amount=5)
    assert down.kind == "arrow" and (down.x, down.y) == (720.0, 450.0)  # no point: centre
    assert (down.x2, down.y2) == (720.0, 450.0 + SCROLL_ARROW_PX) and down.text == "scroll 500px"
    [left] = _marks(kind="scroll", x=500, y=300, dx=-80)
    assert (left.x2, left.y2) == (500.0 - SCROLL_ARROW_PX, 300.0)
    [typed] = _marks(kind="type", text="hello\n")
    assert (typed.kind, typed.x, typed.y, typed.text) == ("text", 100.0, 50.0, "hello\n")
    [key] = _marks(kind="key", key="ctrl+a")
    assert (key.kind, key.text) == ("label", "key Control+a")
    [element] = _marks(kind="click", element=7)
    assert (element.kind, element.text) == ("label", "click #7")
    assert marks({"name": "Search", "params": {}}, None, SIZE) == []


def test_summaries_name_semantic_and_gui_actions() -> None:
    assert summary({"name": "Search", "params": {"query": "a \"b\""}}) == \
        'Search(query="a \\"b\\"")'
    assert summary(GUIAction(kind="drag", x=1, y=2, x2=3, y2=4).to_dict()) == \
        "drag (1, 2) \u2192 (3, 4)"
    assert summary({"kind": "finish", "answer": "42"}) == 'finish "42"'


def test_step_coverage_follows_the_metrics(runs: Runs, index: RunIndex) -> None:
    checked = 0
    for ep in index.episodes.values():
        if ep.run != 0:  # the semantic run: oracle, greedy and random
            continue
        trace, task = index.trace(ep), index.task(ep.task_id)
        per_step = step_coverage(trace, task)
        m = episode_metrics(trace, task)
        assert len(per_step) == len(trace.steps)
        assert per_step[-1] == pytest.approx(m.coverage_final)
        assert all(len(s.transitions) <= 1 for s in trace.steps)  # semantic mode
        valid = [i for i, s in enumerate(trace.steps)
                 if s.transitions and s.transitions[0].error is None]
        assert [per_step[i] for i in valid] == pytest.approx(m.coverage_trajectory)
        for i in set(range(1, len(per_step))) - set(valid):  # rejected or finish: unchanged
            assert per_step[i] == per_step[i - 1]
        checked += 1
    assert checked == 36


def test_rows_align_every_shared_state_and_end_at_the_bifurcation(runs: Runs,
                                                                  index: RunIndex) -> None:
    failures = 0
    for ep in index.episodes.values():
        if ep.run != 0 or ep.success:
            continue
        trace, task = index.trace(ep), index.task(ep.task_id)
        mine, ref = trajectory(trace, task), oracle_trajectory(task)
        view = compare(trace, task, [(trace, task)], "oracle")
        point = find_bifurcation(mine, ref)
        found = anchors(mine.states, ref.states)
        assert view.error is None and view.shared == len(found)
        if point is not None:
            assert found[-1][0] == point.index  # the last shared state is the point
            marked = [r for r in view.rows if r.bifurcation]
            assert marked and (marked[0].agent is None or marked[0].agent.n == point.index)
            assert all(r.kind == "after" for r in view.rows[view.rows.index(marked[0]):])
        agent_moves = [r.agent for r in view.rows if r.agent is not None]
        ref_moves = [r.ref for r in view.rows if r.ref is not None]
        assert [m.n for m in agent_moves] == list(range(len(mine.moves)))
        assert [m.n for m in ref_moves] == list(range(len(ref.moves)))
        failures += 1
    assert failures >= 10


def test_breakable_escapes_before_adding_breaks() -> None:
    assert str(breakable("a_<b>-c")) == "a_<wbr>&lt;b&gt;-<wbr>c"
