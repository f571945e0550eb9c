"""Code Repo GUI views, what is Repo's own: detail-only fields stay off the lists, detail pages
show the deciding fields. The checks every site shares are in test_views_common.py."""

from __future__ import annotations

from html import unescape

from view_cases import render, view_states
from webmdp.core.model import State, World
from webmdp.sites import get_site
from webmdp.sites.repo.state import RepoState

SITE = get_site("repo")


def _states() -> tuple[tuple[World, State], ...]:
    return view_states("repo")


def _html(world: World, state: State, error: str | None = None) -> str:
    return render("repo", world, state, error)


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
