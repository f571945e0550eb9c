"""Mail GUI views: every available action is bound exactly once, nothing unavailable is bound,
text parameters come from named inputs, and world / agent text is escaped."""

from __future__ import annotations

import html as htmllib
import json
import random
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

from support import random_walk
from webmdp.core.model import State, World
from webmdp.core.spec import Action
from webmdp.sites import get_site
from webmdp.sites._common import views
from webmdp.tasks import Task, generate_site_tasks
from webmdp.tasks.replay import replay

SITE = get_site("mail")
XSS = "<script>alert(1)</script>"
TEXT = {"query": ["Priya Patel", "budget", "from:david", "zzz"], "address": ["a@b.com", "bad"],
        "subject": ["Hi", ""], "body": ["Hello", XSS]}


class _Bound(HTMLParser):
    """Bound elements as (action, params, testid, tag, attrs, names of inputs inside a form)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.bound: list[dict] = []
        self.form: dict | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag in ("input", "textarea") and self.form is not None and "name" in a:
            self.form["inputs"].append(a["name"])
        if "data-action" in a:
            item = {"action": a["data-action"], "params": json.loads(a["data-params"]),
                    "testid": a["data-testid"], "tag": tag, "attrs": a, "inputs": []}
            self.bound.append(item)
            if tag == "form":
                self.form = item
        elif tag == "form":
            self.form = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None


@cache
def _tasks() -> tuple[Task, ...]:
    return tuple(generate_site_tasks(SITE, n=36))


def _walk(world: World, seed: int, steps: int = 120) -> list[State]:
    rng = random.Random(seed)

    def fill(act: Action) -> Action:
        params = dict(act.params)
        for p in SITE.action_spec(act.name).params:
            if p.text:
                params[p.name] = rng.choice(TEXT[p.name])
        return Action(act.name, params)

    return random_walk(SITE, world, rng, steps, fill)


def _tour(world: World) -> list[State]:
    """Deterministic states that reach every action: paging, bulk toolbar, expansion, cc."""
    state = SITE.initial_state(world)
    out = [state]

    def go(name: str, **params: object) -> None:
        nonlocal state
        state = SITE.step(state, Action(name, params), world)
        out.append(state)

    go("SearchEmails", query="hi")  # every thread outside Trash / Spam: two pages
    go("NextPage")
    go("PrevPage")
    ids = [e.id for e in SITE.observe(state, world).entities]
    go("SelectThread", thread_id=ids[0])
    go("SelectAll")
    go("BulkMarkUnread")
    deep = next(i for i in ids if len(world.entities[i]["messages"]) >= 2)
    go("OpenThread", thread_id=deep)
    go("ExpandMessage", index=0)
    go("ExpandAll")
    go("CollapseAll")
    go("ReplyAll")
    go("AddCc", address="cc@example.com")
    go("AddRecipient", address="to@example.com")
    go("RemoveCc", address="cc@example.com")
    go("DiscardDraft")
    return out


def _cases() -> list[tuple[str, World, list[State]]]:
    tour_world = World.from_dict(_tasks()[3].world)
    out = [("tour", tour_world, _tour(tour_world))]
    for t in _tasks():
        world = World.from_dict(t.world)
        out.append((t.id, world, replay(SITE, world, t.oracle_actions()).states))
    for i in (0, 7, 19, 30):
        world = World.from_dict(_tasks()[i].world)
        out.append((f"walk{i}", world, _walk(world, seed=i)))
    return out


CASES = _cases()


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_available_actions_bound_exactly(case: tuple[str, World, list[State]]) -> None:
    _, world, states = case
    for state in states:
        obs = SITE.observe(state, world)
        html = views.render_app("mail", obs)
        scan = _Bound()
        scan.feed(html)
        avail = {views.testid(a.name, a.params): a for a in obs.available}
        bound = {b["testid"]: b for b in scan.bound}
        assert {a.name for a in obs.available} <= views.bound_actions(html)
        assert set(avail) <= set(bound), (obs.surface, set(avail) - set(bound))
        assert set(bound) <= set(avail), (obs.surface, set(bound) - set(avail))
        testids = [b["testid"] for b in scan.bound]
        assert len(testids) == len(set(testids)), obs.surface
        for b in scan.bound:
            spec = SITE.action_spec(b["action"])
            assert b["params"] == avail[b["testid"]].params
            for p in (p for p in spec.params if p.text):
                if b["tag"] == "form":
                    assert p.name in b["inputs"], (b["action"], b["inputs"])
                else:
                    assert b["attrs"].get("name") == p.name and "data-quiet" in b["attrs"]


def test_every_action_is_bound_somewhere() -> None:
    seen: set[str] = set()
    for _, world, states in CASES:
        for state in states:
            seen |= views.bound_actions(views.render_app("mail", SITE.observe(state, world)))
    unbound = {a.name for a in SITE.actions} - seen
    assert not unbound, unbound


def test_text_is_escaped() -> None:
    t = _tasks()[0]
    data = json.loads(json.dumps(t.world))
    ent = data["entities"][0]
    ent["subject"] = XSS
    ent["body"] = XSS
    ent["from_name"] = "Eve <img src=x onerror=alert(1)>"
    world = World.from_dict(data)
    s = SITE.initial_state(world)
    s = s.replace(query=XSS)
    list_html = views.render_app("mail", SITE.observe(s.replace(query=""), world))
    s2 = SITE.step(SITE.initial_state(world), Action("SearchEmails", {"query": XSS}), world)
    for html in (list_html, views.render_app("mail", SITE.observe(s2, world))):
        assert "<script>" not in html and "<img src=x" not in html
    view = SITE.initial_state(world).replace(surface="ThreadView", focus=ent["id"])
    compose = SITE.step(view, Action("Reply"), world)
    compose = SITE.step(compose, Action("SetBody", {"body": XSS}), world)
    for st in (view, compose):
        html = views.render_app("mail", SITE.observe(st, world))
        assert "<script>" not in html and htmllib.escape(XSS) in html


def test_page_links_mail_stylesheet() -> None:
    world = World.from_dict(_tasks()[0].world)
    obs = SITE.observe(SITE.initial_state(world), world)
    page = views.render_page("mail", obs, title="Mailbox", base="/s/x", version=3, error="Oops")
    assert 'href="/static/mail.css"' in page and "Oops" in page
    css = Path(views.__file__).parent.parent / "mail" / "static" / "mail.css"
    assert css.is_file() and ".gm-row" in css.read_text()


def test_compose_backdrop_is_inert() -> None:
    world = World.from_dict(_tasks()[0].world)
    s = SITE.step(SITE.initial_state(world), Action("Compose"), world)
    html = views.render_app("mail", SITE.observe(s, world))
    assert views.bound_actions(html) == {a.name for a in SITE.observe(s, world).available}
    assert 'role="dialog"' in html and "gm-scrim" in html
