"""Code Repo GUI views: every offered action is bound (forms carry a visible field per
agent-typed parameter), detail-only fields stay off the lists, typed text is escaped."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from html import unescape
from pathlib import Path

from support import random_walk, site_tasks
from webmdp.core.check import bound_pairs
from webmdp.core.model import State, World
from webmdp.core.spec import Action
from webmdp.sites import get_site
from webmdp.sites._common import views
from webmdp.sites.repo.state import RepoState

SITE = get_site("repo")
VIEWS = Path(views.__file__).parent.parent / "repo" / "views"
XSS = "<script>alert(1)</script>"
_FORM = re.compile(r'<form[^>]*data-action="([A-Za-z]+)" data-params="([^"]*)"[^>]*>(.*?)</form>',
                   re.S)


def _fill(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name == "Search":
        e = rng.choice([e for e in world.entities.values() if e["id"].startswith("REPO-")])
        params["query"] = rng.choice([e["name"], e["owner"], "api", "zzz nothing"])
    elif action.name == "CreateIssue":
        params.update(title=f"Issue {rng.randint(1, 99)}", label="bug", assignee="gwen-r")
    elif action.name == "AddComment":
        params["body"] = rng.choice(["+1", "Fixed in main."])
    return Action(action.name, params)


def _walk(world: World, rng: random.Random) -> list[State]:
    return random_walk(SITE, world, rng, 150, lambda a: _fill(a, world, rng))


@cache
def _states() -> tuple[tuple[World, State], ...]:
    out: list[tuple[World, State]] = []
    for task in site_tasks("repo")[::7]:
        world = World.from_dict(task.world)
        state = SITE.initial_state(world)
        out.append((world, state))
        for a in task.oracle_actions():
            state = SITE.step(state, a, world)
            out.append((world, state))
    for seed in (1, 2, 3):
        world = World.from_dict(site_tasks("repo")[seed * 40].world)
        out += [(world, s) for s in _walk(world, random.Random(seed))]
    return tuple(out)


def _html(world: World, state: State, error: str | None = None) -> str:
    return views.render_app("repo", SITE.observe(state, world), error=error)


def test_every_surface_is_reached() -> None:
    assert {s.surface for _, s in _states()} == {x.name for x in SITE.surfaces}


def test_every_available_action_is_bound() -> None:
    for world, state in _states():
        obs = SITE.observe(state, world)
        bound = bound_pairs(_html(world, state))
        for a in obs.available:
            assert (a.name, json.dumps(a.params, sort_keys=True)) in bound, (obs.surface, a)
        assert {n for n, _ in bound} <= {a.name for a in obs.available}, obs.surface


def test_forms_have_a_visible_field_per_typed_parameter() -> None:
    seen = set()
    for world, state in _states():
        html = _html(world, state)
        assert "<select" not in html
        for name, _, body in _FORM.findall(html):
            spec = SITE.action_spec(name)
            fields = set(re.findall(r'<input[^>]*name="([a-z_]+)"', body))
            assert {p.name for p in spec.params if p.text} <= fields, (name, fields)
            seen.add(name)
    assert {"Search", "CreateIssue", "AddComment"} <= seen


def test_detail_fields_never_on_the_lists() -> None:
    checked = 0
    for world, state in _states():
        if state.surface not in ("RepoList", "IssueList"):
            continue
        html = unescape(_html(world, state))
        for e in SITE.observe(state, world).entities:
            ent = world.entities[e.id]
            if e.id.startswith("REPO-") and state.surface == "RepoList":
                assert f"{ent['watchers']} watching" not in html
                assert f"{ent['license']} license" not in html
                checked += 1
            elif e.id.startswith("ISS-"):
                assert ent["body"] not in html and ent["milestone"] not in html
                checked += 1
    assert checked > 20


def test_detail_pages_show_the_deciding_fields() -> None:
    shown = set()
    for world, state in _states():
        html = unescape(_html(world, state))
        focus = world.entities.get(state.focus or "", {})
        if state.surface == "RepoDetail":
            assert isinstance(state, RepoState)
            r = world.entities[state.repo]
            assert f"{r['watchers']}" in html and r["license"] in html
            assert r["default_branch"] in html
        elif state.surface == "IssueDetail":
            assert focus["body"] in html and focus["milestone"] in html
        elif state.surface == "PRDetail":
            assert focus["branch"] in html and focus["body"] in html
        shown.add(state.surface)
    assert {"RepoDetail", "IssueDetail", "PRDetail"} <= shown


def test_typed_text_and_errors_are_escaped() -> None:
    world = World.from_dict(site_tasks("repo")[0].world)
    s = SITE.step(SITE.initial_state(world), Action("Search", {"query": XSS}), world)
    html = _html(world, s, error=XSS)
    assert XSS not in html and "&lt;script&gt;" in html


def test_views_never_mark_data_safe() -> None:
    for path in VIEWS.glob("*.html"):
        assert "|safe" not in path.read_text(), path.name
