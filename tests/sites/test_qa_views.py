"""Coding Q&A GUI views: every offered action is bound (forms carry a visible field per
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

SITE = get_site("qa")
VIEWS = Path(views.__file__).parent.parent / "qa" / "views"
XSS = "<script>alert(1)</script>"
_FORM = re.compile(r'<form[^>]*data-action="([A-Za-z]+)" data-params="([^"]*)"[^>]*>(.*?)</form>',
                   re.S)


def _fill(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name == "Search":
        e = world.entities[rng.choice([k for k in world.entities if k.startswith("QST")])]
        params["query"] = rng.choice([e["topic"], e["tag"], e["author"], "zzz nothing"])
    elif action.name in ("PostAnswer", "PostComment"):
        params["body"] = rng.choice(["Try a clean build.", XSS])
    return Action(action.name, params)


@cache
def _states() -> tuple[tuple[World, State], ...]:
    out: list[tuple[World, State]] = []
    for task in site_tasks("qa")[::9]:
        world = World.from_dict(task.world)
        state = SITE.initial_state(world)
        out.append((world, state))
        for a in task.oracle_actions():
            state = SITE.step(state, a, world)
            out.append((world, state))
    for seed in (1, 2):
        world = World.from_dict(site_tasks("qa")[seed * 40].world)
        rng = random.Random(seed)
        out += [(world, s) for s in random_walk(SITE, world, rng, 120,
                                                lambda a, w=world, r=rng: _fill(a, w, r))]
    return tuple(out)


def _html(world: World, state: State, error: str | None = None) -> str:
    return views.render_app("qa", SITE.observe(state, world), error=error)


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
            fields = set(re.findall(r'<(?:input|textarea)[^>]*name="([a-z_]+)"', body))
            assert {p.name for p in spec.params if p.text} <= fields, (name, fields)
            seen.add(name)
    assert {"Search", "PostAnswer", "PostComment"} <= seen


def test_one_comment_form_per_page() -> None:
    opened = 0
    for world, state in _states():
        if state.surface != "QuestionDetail":
            continue
        forms = [n for n, _, _ in _FORM.findall(_html(world, state)) if n == "PostComment"]
        assert len(forms) == (1 if getattr(state, "commenting", "") else 0)
        opened += len(forms)
    assert opened


def test_detail_fields_never_on_the_lists() -> None:
    checked = 0
    for world, state in _states():
        if state.surface not in ("QuestionList", "TagPage", "UserProfile"):
            continue
        html = unescape(_html(world, state))
        for e in SITE.observe(state, world).entities:
            if e.id.startswith("QST"):
                q = world.entities[e.id]
                assert q["error"] not in html and q["body"] not in html
                assert q["title"] in html
                checked += 1
    assert checked > 50


def test_question_page_shows_its_detail_fields_and_answers() -> None:
    for world, state in _states():
        if state.surface != "QuestionDetail":
            continue
        q = world.entities[state.focus or ""]
        html = unescape(_html(world, state))
        assert q["body"] in html and q["error"] in html and q["environment"] in html
        assert q["code"].splitlines()[0] in html
        assert all(text in html for _, text in q["comments"])
        for a in SITE.observe(state, world).context["answers"]:
            assert world.entities[a]["body"] in html


def test_typed_text_and_errors_are_escaped() -> None:
    world = World.from_dict(site_tasks("qa")[0].world)
    s = SITE.step(SITE.initial_state(world), Action("Search", {"query": XSS}), world)
    html = _html(world, s, error=XSS)
    assert XSS not in html and "&lt;script&gt;" in html
    q = next(e.id for e in SITE.observe(SITE.initial_state(world), world).entities
             if e.id.startswith("QST"))
    s = SITE.step(SITE.initial_state(world), Action("OpenQuestion", {"question_id": q}), world)
    s = SITE.step(s, Action("PostAnswer", {"body": XSS}), world)
    s = SITE.step(s, Action("OpenCommentBox", {"post_id": q}), world)
    s = SITE.step(s, Action("PostComment", {"post_id": q, "body": XSS}), world)
    html = _html(world, s)
    assert XSS not in html and html.count("&lt;script&gt;") == 2


def test_views_never_mark_data_safe() -> None:
    for path in VIEWS.glob("*.html"):
        assert "|safe" not in path.read_text(), path.name
