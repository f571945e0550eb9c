"""Team Chat GUI views: every offered action is bound (forms carry a visible input per
agent-typed parameter), thread details stay off the channel and result lists, typed text is
escaped."""

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
from webmdp.sites.chat import vocab as V

SITE = get_site("chat")
VIEWS = Path(views.__file__).parent.parent / "chat" / "views"
XSS = "<script>alert(1)</script>"
_FORM = re.compile(r'<form[^>]*data-action="([A-Za-z]+)" data-params="([^"]*)"[^>]*>(.*?)</form>',
                   re.S)


def _fill(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name == "Search":
        params["query"] = rng.choice([*V.RECURRING[:3], "standup", "zzz nothing"])
    elif any(p.text for p in SITE.action_spec(action.name).params):
        params["text"] = rng.choice(V.NEW_POSTS)
    return Action(action.name, params)


def _walk(world: World, rng: random.Random) -> list[State]:
    return random_walk(SITE, world, rng, 150, lambda a: _fill(a, world, rng))


@cache
def _states() -> tuple[tuple[World, State], ...]:
    out: list[tuple[World, State]] = []
    for task in site_tasks("chat")[::8]:
        world = World.from_dict(task.world)
        state = SITE.initial_state(world)
        out.append((world, state))
        for a in task.oracle_actions():
            state = SITE.step(state, a, world)
            out.append((world, state))
    for seed in (1, 2, 3):
        world = World.from_dict(site_tasks("chat")[seed * 40].world)
        out += [(world, s) for s in _walk(world, random.Random(seed))]
    return tuple(out)


def _html(world: World, state: State, error: str | None = None) -> str:
    return views.render_app("chat", SITE.observe(state, world), error=error)


def test_every_surface_is_reached() -> None:
    assert {s.surface for _, s in _states()} == {x.name for x in SITE.surfaces}


def test_every_available_action_is_bound() -> None:
    for world, state in _states():
        obs = SITE.observe(state, world)
        bound = bound_pairs(_html(world, state))
        offered = {(a.name, json.dumps(a.params, sort_keys=True)) for a in obs.available}
        for a in obs.available:
            assert (a.name, json.dumps(a.params, sort_keys=True)) in bound, (obs.surface, a)
        assert bound <= offered, (obs.surface, sorted(bound - offered)[:3])


def test_forms_have_a_visible_input_per_typed_parameter() -> None:
    seen = set()
    for world, state in _states():
        html = _html(world, state)
        assert "<select" not in html
        for name, _, body in _FORM.findall(html):
            spec = SITE.action_spec(name)
            inputs = set(re.findall(r'<input[^>]*name="([a-z_]+)"', body))
            assert {p.name for p in spec.params if p.text} <= inputs, (name, inputs)
            seen.add(name)
    assert {"Search", "SendMessage", "ReplyInThread", "SendDM", "EditMessage"} <= seen


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


def test_typed_text_and_errors_are_escaped() -> None:
    world = World.from_dict(site_tasks("chat")[0].world)
    s = SITE.step(SITE.initial_state(world), Action("SendMessage", {"text": XSS}), world)
    html = _html(world, s, error=XSS)
    assert XSS not in html and "&lt;script&gt;" in html
    s = SITE.step(s, Action("Search", {"query": XSS}), world)
    assert XSS not in _html(world, s)


def test_views_never_mark_data_safe() -> None:
    for path in VIEWS.glob("*.html"):
        assert "|safe" not in path.read_text(), path.name
