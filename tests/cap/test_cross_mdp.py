"""The cross-site MDP: member sites under one switcher, each keeping its own exact state."""

from __future__ import annotations

import pytest

from support import site_tasks
from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.errors import ConfigError, InvalidAction
from webmdp.sites import get_site, site_names
from webmdp.sites._common.views import render_app
from webmdp.sites.cross.site import CrossState, compose_world, member_worlds
from webmdp.tracking import Tracker, state_key

CROSS = get_site("cross-site")


def _world(*pairs: tuple[str, int]) -> World:
    return compose_world({s: World.from_dict(site_tasks(s)[i].world) for s, i in pairs})


def test_cross_site_is_not_one_of_the_sites() -> None:
    assert "cross-site" not in site_names()
    assert CROSS.name == "cross-site"


def test_start_page_offers_only_the_tasks_sites() -> None:
    world = _world(("shopping", 0), ("mail", 0))
    state = CROSS.initial_state(world)
    obs = CROSS.observe(state, world)
    assert obs.surface == "Home"
    assert {a.params["site"] for a in obs.available} == {"shopping", "mail"}
    with pytest.raises(InvalidAction, match="not one of this task's sites"):
        CROSS.step(state, Action("OpenSite", {"site": "food"}), world)


def test_switching_keeps_each_sites_state_and_tags_transitions() -> None:
    shop = site_tasks("shopping")[0]
    world = _world(("shopping", 0), ("mail", 0))
    tracker = Tracker(CROSS, world)
    tracker.apply(Action("OpenSite", {"site": "shopping"}))
    for a in shop.oracle_actions():
        rec = tracker.apply(Action(f"shopping.{a.name}", a.params))
        assert rec.error is None and rec.site == "shopping"
    before = tracker.state
    assert isinstance(before, CrossState)
    tracker.apply(Action("OpenSite", {"site": "mail"}))
    assert tracker.state.surface.startswith("mail/")
    rec = tracker.apply(Action("shopping.OpenCart"))  # shopping is not open now
    assert rec.error is not None and "not open" in rec.error and rec.site == "shopping"
    tracker.apply(Action("OpenSite", {"site": "shopping"}))
    assert tracker.state.surface == before.surface  # where the shopping tab was left
    assert tracker.state.part("shopping") == before.part("shopping")
    facts = CROSS.facts(tracker.state)
    member = get_site("shopping").facts(before.part("shopping"))
    assert all(facts[f"shopping.{k}"] == v for k, v in member.items())
    assert facts["open_site"] == "shopping"


def test_state_key_is_stable_and_member_worlds_round_trip() -> None:
    world = _world(("food", 3), ("calendar", 5))
    data = world.to_dict()
    again = World.from_dict(data)
    assert set(member_worlds(again)) == {"food", "calendar"}
    assert state_key(CROSS.initial_state(world)) == state_key(CROSS.initial_state(again))
    assert member_worlds(again)["food"].entities == World.from_dict(
        site_tasks("food")[3].world).entities


def test_unknown_member_site_is_a_clear_error() -> None:
    data = _world(("food", 0), ("mail", 0)).to_dict()
    data["meta"]["parts"]["spreadsheet"] = {"ids": [], "meta": {}}
    with pytest.raises(ConfigError, match="'spreadsheet', which is not installed"):
        CROSS.initial_state(World.from_dict(data))


def test_member_page_is_the_sites_page_with_prefixed_actions_and_a_switcher() -> None:
    world = _world(("mail", 0), ("chat", 0))
    state = CROSS.step(CROSS.initial_state(world), Action("OpenSite", {"site": "mail"}), world)
    obs = CROSS.observe(state, world)
    html = render_app("cross-site", obs)
    assert 'aria-label="Site switcher"' in html
    assert 'data-action="StartPage"' in html and 'data-testid="OpenSite-chat"' in html
    bound = set(__import__("re").findall(r'data-action="([A-Za-z.]+)"', html))
    offered = {a.name for a in obs.available}
    assert bound <= offered
    assert {n for n in bound if n.startswith("mail.")}, "the member's own actions are bound"
    assert not {n for n in bound if "." not in n} - {"OpenSite", "StartPage"}
