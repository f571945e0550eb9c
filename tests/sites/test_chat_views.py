"""Team Chat GUI views, what is Chat's own: thread details stay off the channel and result
lists, the thread pane shows replies, reactors and files. The checks every site shares are in
test_views_common.py."""

from __future__ import annotations

from html import unescape

import pytest

from view_cases import render, view_states
from webmdp.core.model import State, World
from webmdp.sites import get_site
from webmdp.sites.chat import vocab as V

SITE = get_site("chat")


def _states() -> tuple[tuple[World, State], ...]:
    return view_states("chat")


def _html(world: World, state: State, error: str | None = None) -> str:
    return render("chat", world, state, error)


def test_thread_details_never_on_cards() -> None:
    checked = 0
    for world, state in _states():
        if state.surface not in ("ChannelView", "SearchResults"):
            continue
        html = unescape(_html(world, state))
        for e in SITE.observe(state, world).entities:
            msg = world.entities[e.id]
            for f in msg["thread_files"]:
                assert f not in html
            for _, text, _ in msg["replies"]:
                if text not in V.GENERIC_REPLIES:
                    assert text not in html
            checked += 1
        assert "reacted with" not in html and "Last reply" not in html
    assert checked


def test_thread_pane_shows_replies_reactors_files_and_last_reply() -> None:
    for world, state in _states():
        if state.surface != "ThreadView":
            continue
        msg = world.entities[state.focus or ""]
        if not (msg["replies"] and msg["reactors"] and msg["thread_files"]):
            continue
        html = unescape(_html(world, state))
        assert all(text in html and who in html for who, text, _ in msg["replies"])
        assert all(n in html for _, names in msg["reactors"] for n in names)
        assert all(f in html for f in msg["thread_files"])
        assert "Last reply" in html
        return
    pytest.fail("no thread with replies, reactions and a file reached")
