"""SemanticEnv: snapshot / restore for backtracking agents, invalid steps and step notes."""

from __future__ import annotations

import pytest

from webmdp.core import Action
from webmdp.env.semantic import SemanticEnv
from webmdp.errors import ConfigError
from webmdp.tasks import Task
from webmdp.trace import ModelCall, Restore, StepNotes
from webmdp.tracking import state_key


def _key(env: SemanticEnv) -> str:
    assert env.tracker is not None
    return state_key(env.tracker.state)


def test_restore_returns_to_the_snapshot_and_replays_deterministically(
        mail_tasks: list[Task]) -> None:
    task = mail_tasks[2]
    env = SemanticEnv(task)
    env.reset()
    first, *rest = task.oracle_actions()
    obs, *_ = env.step(first)
    snap, at = env.snapshot(), _key(env)
    keys = []
    for a in rest[:3]:
        env.step(a)
        keys.append(env.trace.steps[-1].transitions[0].state_key)
    assert _key(env) != at
    n_steps, n_transitions = len(env.trace.steps), len(env.trace.transitions())
    back = env.restore(snap, node=7)
    assert back["text"] == obs["text"] and _key(env) == at
    assert env.trace.restores == [Restore(before_step=n_steps, snapshot=snap, node=7,
                                          state_key=at)]
    assert len(env.trace.steps) == n_steps and len(env.trace.transitions()) == n_transitions
    again = []
    for a in rest[:3]:
        _, _, term, trunc, info = env.step(a)
        assert info["error"] is None and not (term or trunc)
        again.append(env.trace.steps[-1].transitions[0].state_key)
    assert again == keys


def test_snapshots_stack_and_unknown_ones_are_refused(shopping_tasks: list[Task]) -> None:
    env = SemanticEnv(shopping_tasks[0])
    obs0, _ = env.reset()
    home = env.snapshot()
    env.step(Action("OpenCart"))
    cart = env.snapshot()
    assert (home, cart) == ("snap-1", "snap-2")
    assert "Surface: Home" in env.restore(home)["text"]
    assert "Surface: Cart" in env.restore(cart)["text"]
    assert env.restore(home)["text"] == obs0["text"]
    assert [r.before_step for r in env.trace.restores] == [1, 1, 1]
    with pytest.raises(ConfigError, match="unknown snapshot 'snap-9'"):
        env.restore("snap-9")
    assert len(env.trace.restores) == 3


def test_invalid_steps_and_notes(shopping_tasks: list[Task]) -> None:
    env = SemanticEnv(shopping_tasks[0], step_budget=3)
    obs0, _ = env.reset()
    notes = StepNotes(thought="search first", plan_step=1,
                      model_calls=[ModelCall(provider="openai", model="m", raw="??")])
    obs, reward, term, trunc, info = env.record_invalid("no action found", raw_output="??",
                                                        agent_s=0.5, notes=notes)
    assert obs["text"] == obs0["text"] and (reward, term, trunc) == (0.0, False, False)
    assert info == {"error": "no action found", "steps": 1, "done": False}
    step = env.trace.steps[0]
    assert step.action == {"kind": "invalid"} and step.transitions == []
    assert (step.raw_output, step.agent_s, step.notes) == ("??", 0.5, notes)
    env.step(Action("OpenCart"), notes=StepNotes(node=2))
    assert env.trace.steps[1].notes == StepNotes(node=2) and env.trace.steps[1].error is None
    _, _, term, trunc, info = env.step({"params": {}}, raw_output="{}")
    assert "malformed action" in info["error"] and (term, trunc) == (False, True)
    assert env.trace.steps[2].action == {"kind": "invalid"}
    assert env.trace.termination == "budget" and env.trace.truncated
    with pytest.raises(RuntimeError):
        env.record_invalid("late")


@pytest.mark.parametrize("ending", ["unparseable", "repeated_action"])
def test_stop_rules_are_agent_endings(shopping_tasks: list[Task], ending: str) -> None:
    env = SemanticEnv(shopping_tasks[0])
    env.reset()
    env.record_invalid("garbled")
    trace = env.seal(ending)  # type: ignore[arg-type]
    assert trace.termination == ending and trace.terminated and not trace.truncated
    assert not trace.success and "cart" in str(trace.final_facts).lower()
