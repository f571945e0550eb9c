"""The confirm-dialogs knob (webmdp.core.dialog): a commit opens a dialog that only Confirm or
Cancel closes; facts never see it; WebForge's risk falls from unwarned (L3) to confirmed (L2);
pages draw it over an inert page; the oracle replays through it in Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from webmdp.core import Action, World, dialog
from webmdp.errors import InvalidAction
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.runner.validate import validate_site
from webmdp.sites import get_site
from webmdp.sites._common import views
from webmdp.tasks.dial import segments
from webmdp.tasks.generate import make_task
from webmdp.tasks.model import Task
from webmdp.tracking import state_key


def _task(confirm: bool, site: str = "jobs", template: str = "apply_remote_with_skill") -> Task:
    return make_task(get_site(site), 40_000, template, 1, confirm=confirm)


def test_a_commit_waits_in_a_dialog_until_confirmed_or_cancelled() -> None:
    task = _task(True)
    site, world = get_site("jobs"), World.from_dict(task.world)
    assert "SubmitApplication" in world.meta[dialog.META]
    actions = task.oracle_actions()
    i = next(k for k, a in enumerate(actions) if a.name == "SubmitApplication")
    assert actions[i + 1] == Action(dialog.CONFIRM)  # the oracle confirms each dialog
    state = site.initial_state(world)
    for a in actions[:i]:
        state = site.step(state, a, world)
    before = state
    waiting = site.step(before, actions[i], world)
    assert waiting.pending is not None and site.facts(waiting) == site.facts(before)
    obs = site.observe(waiting, world)
    assert [a.name for a in obs.available] == ["Confirm", "Cancel"]
    assert obs.context["confirm_dialog"] == "Submit application?"
    assert obs.surface == site.observe(before, world).surface  # over the same page
    with pytest.raises(InvalidAction, match="a confirmation dialog is open"):
        site.step(waiting, actions[0], world)
    cancelled = site.step(waiting, Action(dialog.CANCEL), world)
    assert cancelled == before and state_key(cancelled) == state_key(before)
    done = site.step(waiting, Action(dialog.CONFIRM), world)
    plain = site.transition(before, actions[i], world)
    assert done == plain and site.facts(done) != site.facts(before)
    with pytest.raises(InvalidAction, match="no confirmation dialog is open"):
        site.step(done, Action(dialog.CONFIRM), world)
    # a state's canonical form leaves ``pending`` out unless a dialog is open
    assert "pending" not in before.to_dict() and "pending" in waiting.to_dict()


def test_without_the_knob_nothing_asks() -> None:
    task = _task(False)
    assert dialog.META not in task.world.get("meta", {})
    assert "Confirm" not in [a.name for a in task.oracle_actions()]


def test_the_dialog_lowers_measured_risk_from_unwarned_to_confirmed() -> None:
    plain, asked = _task(False), _task(True)
    assert plain.difficulty is not None and asked.difficulty is not None
    assert plain.difficulty.measures["risk"] == "unwarned" and plain.difficulty.of("risk") == 3
    assert asked.difficulty.measures["risk"] == "confirmed" and asked.difficulty.of("risk") == 2
    # the same draft and world: only the dialog differs
    assert plain.target == asked.target and plain.instruction == asked.instruction


def test_the_page_under_the_dialog_is_inert() -> None:
    task = _task(True, "mail", "email_reply_to_address")
    site, world = get_site("mail"), World.from_dict(task.world)
    state = site.initial_state(world)
    for a in task.oracle_actions()[:-1]:  # up to the open dialog (the last step confirms)
        state = site.step(state, a, world)
    assert state.pending is not None
    html = views.render_app("mail", site.observe(state, world))
    assert views.bound_actions(html) == {"Confirm", "Cancel"}
    assert 'role="alertdialog"' in html and "Send?" in html
    assert "data-inert-action=" in html and "data-drag=" not in html


def test_the_dial_has_a_confirm_segment() -> None:
    seg = next(s for s in segments(get_site("shopping")) if s.confirm)
    assert (seg.name, seg.confirm, seg.catalogue) == ("confirm-dialogs", True, None)


def test_agents_run_through_dialogs_and_the_oracle_replays_in_chromium(tmp_path: Path) -> None:
    tasks = [_task(True, "shopping", "checkout_with_options"),
             _task(True, "mail", "email_reply_to_address")]
    runs = run_tasks(tasks, tmp_path / "r", RunConfig(agent="oracle"))
    assert [r.success for r in runs] == [True, True]
    for agent in ("greedy", "random"):  # they meet the dialogs too, and runs complete
        other = run_tasks(tasks, tmp_path / agent, RunConfig(agent=agent))
        assert all(r.infra_error is None for r in other)
    rep = validate_site("shopping", tasks[:1], conformance=False)
    assert rep.ok, (rep.level2[:3], rep.level3[:3])
    rep = validate_site("mail", tasks[1:], conformance=False)
    assert rep.ok, (rep.level2[:3], rep.level3[:3])
