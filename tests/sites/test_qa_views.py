"""Coding Q&A GUI views, what is Q&A's own: one comment form per page, detail-only fields stay
off the lists, answers and comments are escaped. The checks every site shares are in
test_views_common.py."""

from __future__ import annotations

from html import unescape

from support import site_tasks
from view_cases import FORM, XSS, render, view_states
from webmdp.core.model import State, World
from webmdp.core.spec import Action
from webmdp.sites import get_site

SITE = get_site("qa")


def _states() -> tuple[tuple[World, State], ...]:
    return view_states("qa")


def _html(world: World, state: State, error: str | None = None) -> str:
    return render("qa", world, state, error)


def test_one_comment_form_per_page() -> None:
    opened = 0
    for world, state in _states():
        if state.surface != "QuestionDetail":
            continue
        forms = [n for n, _, _ in FORM.findall(_html(world, state)) if n == "PostComment"]
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


def test_answers_and_comments_are_escaped() -> None:
    world = World.from_dict(site_tasks("qa")[0].world)
    q = next(e.id for e in SITE.observe(SITE.initial_state(world), world).entities
             if e.id.startswith("QST"))
    s = SITE.step(SITE.initial_state(world), Action("OpenQuestion", {"question_id": q}), world)
    s = SITE.step(s, Action("PostAnswer", {"body": XSS}), world)
    s = SITE.step(s, Action("OpenCommentBox", {"post_id": q}), world)
    s = SITE.step(s, Action("PostComment", {"post_id": q, "body": XSS}), world)
    html = _html(world, s)
    assert XSS not in html and html.count("&lt;script&gt;") == 2
