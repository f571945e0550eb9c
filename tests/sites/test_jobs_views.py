"""Job Network GUI views, what is Jobs' own: both dialogs are reached, every form field is an
input (no textarea), detail-only fields stay off the lists, dialogs make the page inert. The
checks every site shares are in test_views_common.py."""

from __future__ import annotations

import re
from html import unescape

import pytest

from view_cases import FORM, render, view_states
from webmdp.conformance import bound_pairs
from webmdp.core.model import State, World
from webmdp.sites import get_site

SITE = get_site("jobs")


def _states() -> tuple[tuple[World, State], ...]:
    return view_states("jobs")


def _html(world: World, state: State, error: str | None = None) -> str:
    return render("jobs", world, state, error)


def test_every_surface_and_dialog_is_reached() -> None:
    states = [s for _, s in _states()]
    assert {s.surface for s in states} == {x.name for x in SITE.surfaces}
    assert {getattr(s, "dialog", "") for s in states} >= {"apply", "connect"}


def test_forms_have_a_visible_input_per_parameter() -> None:
    seen = set()
    for world, state in _states():
        html = _html(world, state)
        assert "<select" not in html
        for name, _, body in FORM.findall(html):
            spec = SITE.action_spec(name)
            inputs = re.findall(r'<input[^>]*name="([a-z_]+)"', body)
            agent_typed = [p.name for p in spec.params if p.type != "entity"]
            assert set(agent_typed) <= set(inputs), (name, inputs)
            assert "textarea" not in body  # Enter in the last input submits the form
            seen.add(name)
    assert {"SearchJobs", "SearchPeople", "SubmitApplication", "SendInvitation",
            "SendMessage"} <= seen


def test_detail_fields_never_on_the_lists() -> None:
    checked = 0
    for world, state in _states():
        if state.surface not in ("JobList", "ConnectionList"):
            continue
        html = unescape(_html(world, state))
        for e in SITE.observe(state, world).entities:
            ent = world.entities[e.id]
            hidden = ([ent["description"], *ent["benefits"]] if e.id.startswith("JOB")
                      else [ent["school"]])
            assert not any(h in html for h in hidden), (state.surface, e.id)
            checked += 1
    assert checked


def test_job_page_shows_every_detail_field() -> None:
    for world, state in _states():
        if state.surface != "JobDetail":
            continue
        job = world.entities[state.focus or ""]
        html = unescape(_html(world, state))
        for f in ("description", "job_type", "experience", "company_size"):
            assert str(job[f]) in html, f
        assert all(s in html for s in job["skills"] + job["benefits"])
        return
    pytest.fail("no job page reached")


def test_dialog_makes_the_page_behind_inert() -> None:
    for world, state in _states():
        if not getattr(state, "dialog", ""):
            continue
        html = _html(world, state)
        assert 'role="dialog"' in html and "is-behind" in html
        assert {n for n, _ in bound_pairs(html)} <= {"SubmitApplication", "SendInvitation",
                                                     "CloseDialog"}
