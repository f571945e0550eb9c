"""Job Network GUI views: every offered action is bound (forms carry a visible input per
agent-typed parameter), detail-only fields stay off the lists, dialogs make the page inert,
typed text is escaped."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from html import unescape
from pathlib import Path

import pytest

from support import random_walk, site_tasks
from webmdp.core.check import bound_pairs
from webmdp.core.model import State, World
from webmdp.core.spec import Action
from webmdp.sites import get_site
from webmdp.sites._common import views
from webmdp.sites.jobs import vocab as V

SITE = get_site("jobs")
VIEWS = Path(views.__file__).parent.parent / "jobs" / "views"
XSS = "<script>alert(1)</script>"
_FORM = re.compile(r'<form[^>]*data-action="([A-Za-z]+)" data-params="([^"]*)"[^>]*>(.*?)</form>',
                   re.S)


def _fill(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name in ("SearchJobs", "SearchPeople"):
        e = rng.choice(list(world.entities.values()))
        params["query"] = rng.choice([e.get("title") or e["name"], e["company"], "zzz nothing"])
    elif action.name == "SubmitApplication":
        params.update(phone="415-555-0100", resume=rng.choice(V.RESUMES), years=3)
    elif action.name == "SendInvitation":
        params["note"] = rng.choice(V.NOTES)
    elif action.name == "SendMessage":
        params["text"] = rng.choice(V.MESSAGES)
    return Action(action.name, params)


def _walk(world: World, rng: random.Random) -> list[State]:
    return random_walk(SITE, world, rng, 150, lambda a: _fill(a, world, rng))


@cache
def _states() -> tuple[tuple[World, State], ...]:
    out: list[tuple[World, State]] = []
    for task in site_tasks("jobs")[::8]:
        world = World.from_dict(task.world)
        state = SITE.initial_state(world)
        out.append((world, state))
        for a in task.oracle_actions():
            state = SITE.step(state, a, world)
            out.append((world, state))
    for seed in (1, 2):
        world = World.from_dict(site_tasks("jobs")[seed * 45].world)
        out += [(world, s) for s in _walk(world, random.Random(seed))]
    return tuple(out)


def _html(world: World, state: State, error: str | None = None) -> str:
    return views.render_app("jobs", SITE.observe(state, world), error=error)


def test_every_surface_and_dialog_is_reached() -> None:
    states = [s for _, s in _states()]
    assert {s.surface for s in states} == {x.name for x in SITE.surfaces}
    assert {getattr(s, "dialog", "") for s in states} >= {"apply", "connect"}


def test_every_available_action_is_bound() -> None:
    for world, state in _states():
        obs = SITE.observe(state, world)
        bound = bound_pairs(_html(world, state))
        for a in obs.available:
            assert (a.name, json.dumps(a.params, sort_keys=True)) in bound, (obs.surface, a)
        assert {n for n, _ in bound} <= {a.name for a in obs.available}, obs.surface


def test_forms_have_a_visible_input_per_parameter() -> None:
    seen = set()
    for world, state in _states():
        html = _html(world, state)
        assert "<select" not in html
        for name, _, body in _FORM.findall(html):
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


def test_typed_text_and_errors_are_escaped() -> None:
    world = World.from_dict(site_tasks("jobs")[0].world)
    s = SITE.step(SITE.initial_state(world), Action("SearchPeople", {"query": XSS}), world)
    html = _html(world, s, error=XSS)
    assert XSS not in html and "&lt;script&gt;" in html


def test_views_never_mark_data_safe() -> None:
    for path in VIEWS.glob("*.html"):
        assert "|safe" not in path.read_text(), path.name
