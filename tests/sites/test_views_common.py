"""What every site's GUI views must do, checked on each registered site's sampled states
(tests/view_cases.py): every offered action is bound and every binding is offered, each form has
a visible field per agent-typed parameter and no native <select>, agent text and errors are
escaped, no template marks data safe. A site's own test file holds only what is its own."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from support import site_tasks
from view_cases import CASES, FORM, XSS, render, view_states
from webmdp.conformance import bound_pairs
from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.errors import InvalidAction
from webmdp.sites import get_site, site_names
from webmdp.sites._common import views

SITES = site_names()


def test_every_site_has_a_view_case() -> None:
    assert set(CASES) == set(SITES)


@pytest.mark.parametrize("site_name", SITES)
def test_every_surface_is_reached(site_name: str) -> None:
    site = get_site(site_name)
    assert {s.surface for _, s in view_states(site_name)} == {x.name for x in site.surfaces}


@pytest.mark.parametrize("site_name", SITES)
def test_every_offered_action_is_bound_and_every_binding_is_offered(site_name: str) -> None:
    site = get_site(site_name)
    for world, state in view_states(site_name):
        obs = site.observe(state, world)
        bound = bound_pairs(render(site_name, world, state))
        offered = bound_pairs("".join(
            f'data-action="{a.name}" data-params="{_attr(a.params)}"' for a in obs.available))
        assert offered <= bound, (obs.surface, sorted(offered - bound)[:3])
        if CASES[site_name].exact_bindings:
            assert bound <= offered, (obs.surface, sorted(bound - offered)[:3])
        assert {n for n, _ in bound} <= {a.name for a in obs.available}, obs.surface


@pytest.mark.parametrize("site_name", SITES)
def test_every_complete_binding_steps(site_name: str) -> None:
    """A control whose parameters are all in the page (a form adds the typed ones) must take
    its transition in that state: a dead control would be a trap for an agent."""
    site, refusals = get_site(site_name), CASES[site_name].refusals
    stepped = 0
    for world, state in view_states(site_name):
        for name, raw in sorted(bound_pairs(render(site_name, world, state))):
            params = json.loads(raw)
            if all(p.optional or p.name in params for p in site.action_spec(name).params):
                try:
                    site.step(state, Action(name, params), world)
                except InvalidAction as exc:
                    assert name in refusals, f"dead control in {state.surface}: {exc}"
                stepped += 1
    assert stepped > 0


def _attr(params: dict) -> str:
    return html.escape(json.dumps(params), quote=True)


@pytest.mark.parametrize("site_name", SITES)
def test_forms_have_a_visible_field_per_typed_parameter(site_name: str) -> None:
    site, case = get_site(site_name), CASES[site_name]
    seen = set()
    for world, state in view_states(site_name):
        page = render(site_name, world, state)
        assert "<select" not in page
        for name, _, body in FORM.findall(page):
            fields = set(re.findall(r'<(?:input|textarea)[^>]*name="([a-z_]+)"', body))
            typed = {p.name for p in site.action_spec(name).params if p.text}
            assert typed - case.untyped <= fields, (name, fields)
            seen.add(name)
    assert case.forms <= seen


@pytest.mark.parametrize("site_name", SITES)
def test_typed_text_and_errors_are_escaped(site_name: str) -> None:
    site = get_site(site_name)
    world = World.from_dict(site_tasks(site_name)[0].world)
    state = site.initial_state(world)
    for action in CASES[site_name].xss:
        state = site.step(state, action, world)
        page = render(site_name, world, state, error=XSS)
        assert XSS not in page and "&lt;script&gt;" in page, action


@pytest.mark.parametrize("site_name", SITES)
def test_views_never_mark_data_safe(site_name: str) -> None:
    paths = list((Path(views.__file__).parent.parent / site_name / "views").glob("*.html"))
    assert paths
    for path in paths:
        assert "|safe" not in path.read_text().replace(" ", ""), path.name
