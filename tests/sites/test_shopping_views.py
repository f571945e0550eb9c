"""Shopping GUI views: every available action is bound, nothing outside the observation is shown.

States come from generated tasks' oracles (replayed step by step), from seeded random walks over
the available actions, and from a fixed tour that reaches every surface.
"""

from __future__ import annotations

import html as htmllib
import json
import random
import re
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from support import action_key, bindings, oracle_states, random_walk, strings
from webmdp.core.model import Observation, State, World
from webmdp.core.spec import Action
from webmdp.sites import get_site
from webmdp.sites._common import views
from webmdp.tasks import generate_site_tasks, make_task

SITE = get_site("shopping")
SHOP_DIR = Path(views.__file__).parent.parent / "shopping"
SURFACES = {"Home", "SearchResults", "ProductDetail", "Cart", "Checkout", "OrderConfirmation"}
XSS = "<script>alert(1)</script>"


# -- state sources --------------------------------------------------------------------------------
@cache
def _tasks() -> tuple:
    return tuple(generate_site_tasks(SITE, n=24))


def _world(task) -> World:
    return World.from_dict(task.world)


def _fill(action: Action, world: World, rng: random.Random) -> Action:
    """Give a random-walk action the text parameters the agent would type."""
    params = dict(action.params)
    if action.name == "Search":
        title = rng.choice(list(world.entities.values()))["title"]
        words = title.split()
        params["query"] = rng.choice([title, words[-1], words[0], "zzz nothing"])
    elif action.name == "SetPriceRange":
        lo, hi = sorted(rng.sample([10.0, 40.0, 80.0, 150.0, 250.0], 2))
        params.update(rng.choice([{"min": lo, "max": hi}, {"max": hi}, {"min": lo}, {}]))
    elif action.name == "UpdateQuantity":
        params["quantity"] = rng.randint(1, 10)
    return Action(action.name, params)


def _walk_states(world: World, seed: int, steps: int = 80) -> list[State]:
    rng = random.Random(seed)
    return random_walk(SITE, world, rng, steps, lambda a: _fill(a, world, rng))


def _tour_states(world: World) -> list[State]:
    """Every surface, a multi-page listing, filters, both cart states and a placed order."""
    state = SITE.initial_state(world)
    out = [state]

    def go(name: str, **params: Any) -> None:
        nonlocal state
        state = SITE.step(state, Action(name, params), world)
        out.append(state)

    def first_id() -> str:
        return SITE.observe(state, world).entities[0].id

    go("Search", query=next(iter(world.entities.values()))["category"])
    go("ClearSearch")  # every product: several pages
    go("GoToPage", page=SITE.observe(state, world).context["pages"])
    go("PrevPage")
    go("SetDepartment", department="Clothing")
    go("SetMinRating", rating="3")
    go("SortBy", order="price_desc")
    go("TogglePrime")
    go("SetPriceRange", min=20.0, max=300.0)
    go("ClearFilters")
    go("OpenProduct", product_id=first_id())
    go("ShowReviews")
    go("AddToCart")
    go("BackToResults")
    go("OpenProduct", product_id=SITE.observe(state, world).entities[-1].id)
    go("AddToCart")
    go("OpenCart")
    pid = SITE.observe(state, world).context["lines"][0][0]
    go("UpdateQuantity", product_id=pid, quantity=3)
    go("ProceedToCheckout")
    go("SetShippingSpeed", speed="overnight")
    go("PlaceOrder")
    go("ContinueShopping")
    go("OpenCart")  # empty cart
    return out


@cache
def _cases() -> tuple[tuple[str, World, list[State]], ...]:
    return tuple(_iter_cases())


def _iter_cases() -> Iterator[tuple[str, World, list[State]]]:
    for task in _tasks():
        yield task.id, _world(task), oracle_states(SITE, task)
    for i in (0, 8, 16):
        world = _world(_tasks()[i])
        yield f"walk{i}", world, _walk_states(world, seed=i)
    world = _world(_tasks()[0])
    yield "tour", world, _tour_states(world)


CASE_IDS = [t.id for t in _tasks()] + ["walk0", "walk8", "walk16", "tour"]


def _case(case_id: str) -> tuple[World, list[State]]:
    for cid, world, states in _cases():
        if cid == case_id:
            return world, states
    raise KeyError(case_id)


def _render(state: State, world: World, error: str | None = None) -> tuple[Observation, str]:
    obs = SITE.observe(state, world)
    return obs, views.render_app("shopping", obs, error=error)


# -- HTML inspection ------------------------------------------------------------------------------
_VOID = {"input", "br", "hr", "img", "meta", "link", "source", "wbr"}


class _Scan(HTMLParser):
    """Bound elements (tag, attrs, text), forms with their inputs, labels and all inputs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[dict] = []
        self.bound: list[tuple[str, dict, str]] = []
        self.forms: list[dict] = []
        self.inputs: list[dict] = []
        self.label_for: set[str] = set()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        self.tags.append(tag)
        if tag == "label" and "for" in a:
            self.label_for.add(a["for"])
        if tag in ("input", "button", "select", "textarea"):
            self.inputs.append({"tag": tag, **a})
            for frame in reversed(self.stack):
                if frame["tag"] == "form":
                    frame["controls"].append({"tag": tag, **a})
                    break
        if tag in _VOID:
            if "data-action" in a:
                self.bound.append((tag, a, ""))
            return
        self.stack.append({"tag": tag, "attrs": a, "text": [], "controls": []})

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            frame = self.stack.pop()
            if "data-action" in frame["attrs"]:
                self.bound.append((frame["tag"], frame["attrs"], "".join(frame["text"])))
            if frame["tag"] == "form":
                self.forms.append(frame)
            if frame["tag"] == tag:
                break

    def handle_data(self, data: str) -> None:
        for frame in self.stack:
            frame["text"].append(data)


def _scan(html: str) -> _Scan:
    scan = _Scan()
    scan.feed(html)
    scan.close()
    return scan


# -- conformance over many states -----------------------------------------------------------------
@pytest.mark.parametrize("case_id", CASE_IDS)
def test_a_binding_not_offered_as_is_presets_typed_parameters(case_id: str) -> None:
    """Binding and stepping are checked for every site (test_views_common.py); here: a
    binding beyond the offered actions only fills in typed (text) parameters, as the price
    ranges and brand searches do."""
    world, states = _case(case_id)
    for state in states:
        obs, html = _render(state, world)
        avail = {action_key(a.name, a.params) for a in obs.available}
        for name, params in bindings(html):
            if action_key(name, params) not in avail:
                text = {p.name for p in SITE.action_spec(name).params if p.text}
                rest = {k: v for k, v in params.items() if k not in text}
                assert action_key(name, rest) in avail, \
                    f"{obs.surface}: {name}{params} not available"


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_nothing_outside_the_observation_is_rendered(case_id: str) -> None:
    world, states = _case(case_id)
    for state in states:
        obs, html = _render(state, world)
        text = htmllib.unescape(html)
        revealed = obs.revealed()
        shown = {e.id for e in obs.entities} | {ln[0] for ln in obs.context.get("lines", [])}
        allowed = "\n".join([*(s for e in obs.entities for s in strings(e.fields)),
                             *strings(obs.context)])
        for eid, ent in world.entities.items():
            if eid not in shown:
                assert not re.search(rf"{re.escape(eid)}(?!\d)", text), \
                    f"{obs.surface}: hidden entity {eid} rendered"
            for field, value in ent.items():
                if field == "id" or (eid, field) in revealed:
                    continue
                for s in strings(value):
                    if len(s) >= 5 and s not in allowed:
                        assert s not in text, f"{obs.surface}: {eid}.{field}={s!r} rendered"


def test_all_surfaces_are_covered() -> None:
    seen = set()
    for _, world, states in _cases():
        seen |= {SITE.observe(s, world).surface for s in states}
    assert seen == SURFACES


# -- specific behaviour ---------------------------------------------------------------------------
def test_detail_only_fields_not_on_search_results() -> None:
    task = make_task(SITE, 0, "find_product_extract", 2)
    world = _world(task)
    state = SITE.step(SITE.initial_state(world), task.oracle_actions()[0], world)
    obs, html = _render(state, world)
    assert obs.surface == "SearchResults" and obs.entities
    for e in obs.entities:
        p = world.entities[e.id]
        assert p["title"] in htmllib.unescape(html)
        for field in ("seller", "model_number", "dimensions", "return_policy"):
            assert p[field] not in htmllib.unescape(html), field
    state = SITE.step(state, Action("OpenProduct", {"product_id": obs.entities[0].id}), world)
    _, detail = _render(state, world)
    p = world.entities[obs.entities[0].id]
    for field in ("seller", "model_number", "dimensions", "material", "weight"):
        assert p[field] in htmllib.unescape(detail), field
    assert f"{p['warranty_months']} months" in detail


def test_query_is_escaped() -> None:
    world = _world(_tasks()[0])
    state = SITE.step(SITE.initial_state(world), Action("Search", {"query": XSS}), world)
    obs, html = _render(state, world)
    page = views.render_page("shopping", obs, title="Shopwise", base="/s/x", version=1)
    for out in (html, page):
        assert XSS not in out
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "alert(1)" in htmllib.unescape(html)


def test_error_banner_is_escaped_and_optional() -> None:
    world = _world(_tasks()[0])
    state = SITE.initial_state(world)
    obs = SITE.observe(state, world)
    assert "error-banner" not in views.render_app("shopping", obs)
    assert "error-banner" not in views.render_app("shopping", obs, error=None)
    html = views.render_app("shopping", obs, error="Bad <b>thing</b>")
    assert 'class="error-banner"' in html and "Bad &lt;b&gt;thing&lt;/b&gt;" in html


def test_reviews_only_after_show_reviews() -> None:
    tasks = [t for t in _tasks() if t.template == "review_extract"]
    assert tasks
    checked_open = checked_closed = 0
    for task in tasks:
        world = _world(task)
        for state in oracle_states(SITE, task):
            obs, html = _render(state, world)
            if obs.surface != "ProductDetail":
                continue
            texts = [r["text"] for r in world.entities[state.focus]["reviews"]]
            text = htmllib.unescape(html)
            if obs.context["reviews_open"]:
                checked_open += 1
                assert all(t in text for t in texts)
                assert 'data-action="ShowReviews"' not in html
            else:
                checked_closed += 1
                assert not any(t in text for t in texts)
                assert 'data-action="ShowReviews"' in html and "See all reviews" in html
    assert checked_open and checked_closed


def test_forms_controls_and_names() -> None:
    """Forms carry the typed inputs; clickable bound elements are links or buttons with a name."""
    seen_forms: set[str] = set()
    for _, world, states in _cases():
        for state in states:
            obs, html = _render(state, world)
            scan = _scan(html)
            assert "select" not in scan.tags, "controls must dispatch on click, not <select>"
            for form in scan.forms:
                action = form["attrs"].get("data-action")
                if not action:
                    continue
                seen_forms.add(action)
                named = {c.get("name"): c for c in form["controls"] if c.get("name")}
                assert any(c["tag"] == "button" and c.get("type") == "submit"
                           for c in form["controls"]), action
                if action == "Search":
                    assert "query" in named
                elif action == "SetPriceRange":
                    assert named["min"]["data-type"] == named["max"]["data-type"] == "float"
                elif action == "UpdateQuantity":
                    assert named["quantity"]["data-type"] == "int"
            for tag, attrs, text in scan.bound:
                if tag == "form":
                    continue
                assert tag in ("a", "button"), f"{obs.surface}: bound <{tag}>"
                if tag == "a":
                    assert "href" in attrs, f"{obs.surface}: <a> without href"
                name = text.strip() or attrs.get("aria-label", "").strip()
                assert name, f"{obs.surface}: unnamed {attrs.get('data-testid')}"
            for c in scan.inputs:
                if c["tag"] == "input":
                    assert c.get("aria-label") or c.get("id") in scan.label_for, c
    assert {"Search", "SetPriceRange", "UpdateQuantity"} <= seen_forms


def test_product_links_are_named_by_title() -> None:
    world = _world(_tasks()[0])
    state = SITE.step(SITE.initial_state(world), Action("SetDepartment",
                                                       {"department": "Clothing"}), world)
    obs, html = _render(state, world)
    scan = _scan(html)
    for e in obs.entities:
        names = [t.strip() or a.get("aria-label") for tag, a, t in scan.bound
                 if a.get("data-action") == "OpenProduct"
                 and json.loads(a["data-params"]) == {"product_id": e.id}]
        assert names and all(n == e.fields["title"] for n in names)


def test_selected_options_are_highlighted() -> None:
    task = next(t for t in _tasks() if t.template == "checkout_with_options")
    world = _world(task)
    state = oracle_states(SITE, task)[-1]
    state = SITE.step(state, Action("ContinueShopping"), world)
    state = SITE.step(state, task.oracle_actions()[0], world)
    pid = SITE.observe(state, world).entities[0].id
    state = SITE.step(state, Action("OpenProduct", {"product_id": pid}), world)
    colors = world.entities[pid]["colors"]
    state = SITE.step(state, Action("SelectOption", {"option": "color", "value": colors[-1]}),
                      world)
    _, html = _render(state, world)
    pressed = [a for _, a, _ in _scan(html).bound if a.get("aria-pressed") == "true"]
    values = {json.loads(a["data-params"])["value"] for a in pressed}
    assert colors[-1] in values and all(c == colors[-1] or c not in values for c in colors)


def test_templates_are_self_contained_and_never_mark_data_safe() -> None:
    for path in (SHOP_DIR / "views").glob("*.html"):
        src = path.read_text()
        assert not re.search(r"\|\s*safe", src), path.name
        assert "http://" not in src and "https://" not in src, path.name
        assert "<script" not in src and "<img" not in src, path.name
    css = (SHOP_DIR / "static" / "shopping.css").read_text()
    assert "@import" not in css and "@font-face" not in css and "url(" not in css
