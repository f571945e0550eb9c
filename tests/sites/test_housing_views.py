"""Housing GUI views: every available action is bound, every binding works, nothing outside the
observation is rendered, forms carry visible typed inputs, agent text is escaped.

States come from generated tasks' oracles, seeded random walks and a tour of every surface."""

from __future__ import annotations

import html as htmllib
import random
import re
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from typing import Any

import pytest

from support import oracle_states, random_walk, site_tasks, strings
from webmdp.core.model import Observation, State, World
from webmdp.core.spec import Action
from webmdp.sites import get_site
from webmdp.sites._common import views

SITE = get_site("housing")
SURFACES = {"SearchResults", "PropertyDetail", "SavedHomes", "TourRequest"}
XSS = "<script>alert(1)</script>"
_TYPED = {"date": "2025-06-20", "time": "2:00 PM", "name": "Riley Okonkwo",
          "phone": "206-555-0190", "message": "Is the garage heated?"}


def _world(task: Any) -> World:
    return World.from_dict(task.world)


def _fill(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name == "Search":
        e = rng.choice(list(world.entities.values()))
        params["query"] = rng.choice([e["city"], e["address"], "zzz nowhere"])
    elif action.name in ("SetPriceRange", "SetSqftRange"):
        lo, hi = sorted(rng.sample([500.0, 1500.0, 3000.0, 400000.0, 800000.0], 2))
        params.update(rng.choice([{"min": lo, "max": hi}, {"max": hi}, {"min": lo}, {}]))
    else:
        for p in SITE.action_spec(action.name).params:
            if p.name in _TYPED:
                params[p.name] = _TYPED[p.name]
    return Action(action.name, params)


def _tour_states(world: World) -> list[State]:
    state = SITE.initial_state(world)
    out = [state]

    def go(action: str, **params: Any) -> None:
        nonlocal state
        state = SITE.step(state, Action(action, params), world)
        out.append(state)

    go("GoToPage", page=SITE.observe(state, world).context["pages"])
    go("PrevPage")
    go("Search", query=next(iter(world.entities.values()))["city"])
    go("ToggleHomeType", home_type="House")
    go("SetSqftRange", min=1000.0, max=4000.0)
    go("TogglePetsAllowed")
    go("SortBy", order="sqft")
    go("ClearFilters")
    go("OpenProperty", property_id=SITE.observe(state, world).entities[0].id)
    go("ShowListingAgent")
    go("ContactAgent", name="Alex Morgan", phone="303-555-0111", message="Still available?")
    go("RequestTour")
    go("SubmitTourRequest", **{k: _TYPED[k] for k in ("date", "time", "name", "phone")})
    go("OpenSavedHomes")
    go("CompareHomes")
    go("UnsaveHome", property_id=SITE.observe(state, world).entities[0].id)
    return out


@cache
def _cases() -> tuple[tuple[str, World, tuple[State, ...]], ...]:
    return tuple(_iter_cases())


def _iter_cases() -> Iterator[tuple[str, World, tuple[State, ...]]]:
    tasks = site_tasks("housing")
    for task in tasks[::8]:
        yield task.id, _world(task), tuple(oracle_states(SITE, task))
    for i in (0, 60, 120):
        world = _world(tasks[i])
        rng = random.Random(i)
        yield f"walk{i}", world, tuple(random_walk(SITE, world, rng, 80,
                                                   lambda a, w=world, r=rng: _fill(a, w, r)))
    yield "tour", _world(tasks[0]), tuple(_tour_states(_world(tasks[0])))


CASE_IDS = [c[0] for c in _cases()]


def _case(case_id: str) -> tuple[World, tuple[State, ...]]:
    return next((w, s) for cid, w, s in _cases() if cid == case_id)


def _render(state: State, world: World, error: str | None = None) -> tuple[Observation, str]:
    obs = SITE.observe(state, world)
    return obs, views.render_app("housing", obs, error=error)


class _Forms(HTMLParser):
    """Forms bound to an action with their named controls; every tag seen."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[tuple[str, list[dict]]] = []
        self.tags: list[str] = []
        self._open: list[tuple[str, list[dict]]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.append(tag)
        if tag == "form":
            self._open.append((a.get("data-action", ""), []))
        elif tag in ("input", "textarea", "button") and self._open:
            self._open[-1][1].append({"tag": tag, **a})

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._open:
            self.forms.append(self._open.pop())


def _forms(html: str) -> _Forms:
    p = _Forms()
    p.feed(html)
    p.close()
    return p


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_nothing_outside_the_observation_is_rendered(case_id: str) -> None:
    world, states = _case(case_id)
    for state in states:
        obs, html = _render(state, world)
        text = htmllib.unescape(html)
        shown = {e.id for e in obs.entities}
        allowed = "\n".join([*(s for e in obs.entities for s in strings(e.fields)),
                             *strings(obs.context),
                             *(s for a in obs.available for s in strings(a.params))])
        revealed = obs.revealed()
        for eid, ent in world.entities.items():
            if eid not in shown:
                assert not re.search(rf"{re.escape(eid)}(?!\d)", text), eid
            for field, value in ent.items():
                if field == "id" or (eid, field) in revealed:
                    continue
                for s in strings(value):
                    if len(s) >= 5 and s not in allowed:
                        assert s not in text, f"{obs.surface}: {eid}.{field}={s!r} rendered"


def test_all_surfaces_are_covered() -> None:
    seen = {SITE.observe(s, w).surface for _, w, states in _cases() for s in states}
    assert seen == SURFACES


def test_forms_have_visible_named_inputs_and_no_select() -> None:
    seen: set[str] = set()
    for _, world, states in _cases():
        for state in states:
            _, html = _render(state, world)
            page = _forms(html)
            assert "select" not in page.tags
            for action, controls in page.forms:
                if not action:
                    continue
                seen.add(action)
                named = {c["name"] for c in controls if c.get("name") and c["tag"] != "button"}
                typed = {p.name for p in SITE.action_spec(action).params if p.text}
                assert named == typed, (action, named)
                assert any(c["tag"] == "button" and c.get("type") == "submit" for c in controls)
                assert all(c.get("type") != "hidden" for c in controls)
                if controls and controls[-1]["tag"] == "button":
                    fields = [c for c in controls if c["tag"] != "button"]
                    assert fields[-1]["tag"] == "input", f"{action}: Enter must submit"
    assert {"Search", "SetPriceRange", "SetSqftRange", "SubmitTourRequest",
            "ContactAgent"} <= seen


def test_detail_fields_absent_from_cards_present_on_the_page() -> None:
    task = site_tasks("housing")[0]
    world = _world(task)
    state = SITE.step(SITE.initial_state(world), Action("Search", {"query": task.params["city"]}),
                      world)
    obs, html = _render(state, world)
    text = htmllib.unescape(html)
    for e in obs.entities:
        ent = world.entities[e.id]
        assert ent["address"] in text
        assert ent["heating"] not in text and f"Built in {ent['year_built']}" not in text
    pid = obs.entities[0].id
    state = SITE.step(state, Action("OpenProperty", {"property_id": pid}), world)
    _, detail = _render(state, world)
    ent = world.entities[pid]
    text = htmllib.unescape(detail)
    assert ent["heating"] in text and ent["parking"] in text and ent["pet_policy"] in text
    assert f"{ent['school_rating']}<small>/10" in detail
    assert ent["agent_name"] not in text and "Show listing agent" in text


def test_typed_text_is_escaped() -> None:
    world = _world(site_tasks("housing")[0])
    state = SITE.step(SITE.initial_state(world), Action("Search", {"query": XSS}), world)
    obs, html = _render(state, world)
    page = views.render_page("housing", obs, title="Homestead", base="/s/x", version=1)
    for out in (html, page):
        assert XSS not in out and "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    state = SITE.step(state, Action("ClearSearch"), world)
    pid = SITE.observe(state, world).entities[0].id
    state = SITE.step(state, Action("OpenProperty", {"property_id": pid}), world)
    state = SITE.step(state, Action("ContactAgent", {"name": XSS, "phone": "512-555-0100",
                                                     "message": "hi"}), world)
    _, html = _render(state, world, error=XSS)
    assert XSS not in html and html.count("&lt;script&gt;") >= 2


