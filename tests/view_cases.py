"""How the view tests sample each site's rendered states: the text an agent would type into a
site's forms, which oracle trajectories and random walks to render, the forms those states must
show, and the actions that carry agent text into a page (tests/sites/test_views_common.py)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from support import random_walk, site_tasks
from webmdp.conformance import fill as example_fill
from webmdp.core.model import State, World
from webmdp.core.spec import Action
from webmdp.sites import get_site
from webmdp.sites._common import views
from webmdp.sites.calendar import clock
from webmdp.sites.chat import vocab as chat_vocab
from webmdp.sites.jobs import vocab as jobs_vocab

XSS = "<script>alert(1)</script>"
Fill = Callable[[Action, World, random.Random], Action]


def _examples(site: str) -> Fill:
    return lambda action, _world, _rng: example_fill(get_site(site), action)


def _food(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name == "Search":
        e = rng.choice(list(world.entities.values()))
        params["query"] = rng.choice([e["name"], e["name"].split()[0], "zzz nothing"])
    elif action.name in ("AddToCart", "UpdateQuantity"):
        params["quantity"] = rng.randint(1, 4)
    elif action.name == "PlaceOrder":
        params.update(address=f"{rng.randint(1, 99)} Main St", tip=rng.choice(["15%", "20%"]))
    return Action(action.name, params)


def _calendar(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name == "SearchEvents":
        e = rng.choice(list(world.entities.values()))
        params["query"] = rng.choice([e["title"], e["location"], "zzz nothing"])
    elif action.name == "SaveEvent":
        d = clock.shift(world.meta["today"], rng.randint(-3, 10))
        h = rng.randint(8, 17)
        params.update(title=rng.choice(["Lunch", "Focus time"]), date=d, start=f"{h}:00",
                      end=f"{h + 1}:30", attendees=rng.choice(["", "Priya Patel, Tom Becker"]))
    return Action(action.name, params)


def _chat(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name == "Search":
        params["query"] = rng.choice([*chat_vocab.RECURRING[:3], "standup", "zzz nothing"])
    elif any(p.text for p in get_site("chat").action_spec(action.name).params):
        params["text"] = rng.choice(chat_vocab.NEW_POSTS)
    return Action(action.name, params)


def _qa(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name == "Search":
        e = world.entities[rng.choice([k for k in world.entities if k.startswith("QST")])]
        params["query"] = rng.choice([e["topic"], e["tag"], e["author"], "zzz nothing"])
    elif action.name in ("PostAnswer", "PostComment"):
        params["body"] = rng.choice(["Try a clean build.", XSS])
    return Action(action.name, params)


def _repo(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name == "Search":
        e = rng.choice([e for e in world.entities.values() if e["id"].startswith("REPO-")])
        params["query"] = rng.choice([e["name"], e["owner"], "api", "zzz nothing"])
    elif action.name == "CreateIssue":
        params.update(title=f"Issue {rng.randint(1, 99)}", label="bug", assignee="gwen-r")
    elif action.name == "AddComment":
        params["body"] = rng.choice(["+1", "Fixed in main."])
    return Action(action.name, params)


def _jobs(action: Action, world: World, rng: random.Random) -> Action:
    params = dict(action.params)
    if action.name in ("SearchJobs", "SearchPeople"):
        e = rng.choice(list(world.entities.values()))
        params["query"] = rng.choice([e.get("title") or e["name"], e["company"], "zzz nothing"])
    elif action.name == "SubmitApplication":
        params.update(phone="415-555-0100", resume=rng.choice(jobs_vocab.RESUMES), years=3)
    elif action.name == "SendInvitation":
        params["note"] = rng.choice(jobs_vocab.NOTES)
    elif action.name == "SendMessage":
        params["text"] = rng.choice(jobs_vocab.MESSAGES)
    return Action(action.name, params)


@dataclass(frozen=True)
class ViewCase:
    """One site's sample: the oracle states of every ``stride``-th task, then a random walk of
    ``steps`` from the world of task ``seed * seed_stride`` for each seed."""

    fill: Fill
    xss: tuple[Action, ...]
    """Steps from the start state, each typing ``XSS`` into the page."""
    forms: frozenset[str] = frozenset()
    """Forms the sampled states must show."""
    stride: int = 9
    seeds: tuple[int, ...] = (1, 2)
    seed_stride: int = 40
    steps: int = 120
    untyped: frozenset[str] = field(default_factory=frozenset)
    """Typed parameters a form may leave out (the site's own tests say when)."""
    exact_bindings: bool = False
    """Every binding is an offered action with the same parameters (else: the same name, as
    quick picks bind an offered form's action with its typed values filled in)."""
    refusals: frozenset[str] = field(default_factory=frozenset)
    """Offered actions whose transition may refuse in a sampled state: a form's own validation
    (sending a draft without a recipient), which the agent sees as an error."""


def _search(name: str = "Search") -> tuple[Action, ...]:
    return (Action(name, {"query": XSS}),)


CASES: dict[str, ViewCase] = {
    "shopping": ViewCase(_examples("shopping"), _search(), frozenset({"Search"})),
    "mail": ViewCase(_examples("mail"), _search("SearchEmails"), frozenset({"SearchEmails"}),
                     refusals=frozenset({"Send"})),
    "accommodation": ViewCase(_examples("accommodation"), _search(), frozenset({"Search"}),
                              exact_bindings=True),
    "housing": ViewCase(_examples("housing"), _search(), frozenset({"Search"}),
                        exact_bindings=True),
    "food": ViewCase(_food, _search(), frozenset({"Search", "AddToCart", "UpdateQuantity",
                                                  "PlaceOrder"}), untyped=frozenset({"address"})),
    "calendar": ViewCase(_calendar, _search("SearchEvents"),
                         frozenset({"SearchEvents", "SaveEvent"}), seeds=(1, 2, 3), steps=150),
    "chat": ViewCase(_chat, (Action("SendMessage", {"text": XSS}), *_search()),
                     frozenset({"Search", "SendMessage", "ReplyInThread", "SendDM",
                                "EditMessage"}), stride=8, seeds=(1, 2, 3), steps=150,
                     exact_bindings=True),
    "qa": ViewCase(_qa, _search(), frozenset({"Search", "PostAnswer", "PostComment"})),
    "repo": ViewCase(_repo, _search(), frozenset({"Search", "CreateIssue", "AddComment"}),
                     stride=7, seeds=(1, 2, 3), steps=150),
    "jobs": ViewCase(_jobs, _search("SearchPeople"),
                     frozenset({"SearchJobs", "SearchPeople", "SubmitApplication",
                                "SendInvitation", "SendMessage"}), stride=8, seed_stride=45,
                     steps=150),
}


@cache
def view_states(site_name: str) -> tuple[tuple[World, State], ...]:
    """The (world, state) pairs a site's view tests render."""
    site, case = get_site(site_name), CASES[site_name]
    out: list[tuple[World, State]] = []
    for task in site_tasks(site_name)[::case.stride]:
        world = World.from_dict(task.world)
        state = site.initial_state(world)
        out.append((world, state))
        for a in task.oracle_actions():
            state = site.step(state, a, world)
            out.append((world, state))
    for seed in case.seeds:
        world = World.from_dict(site_tasks(site_name)[seed * case.seed_stride].world)
        rng = random.Random(seed)
        out += [(world, s) for s in random_walk(site, world, rng, case.steps,
                                                lambda a, w=world, r=rng: case.fill(a, w, r))]
    return tuple(out)


def render(site_name: str, world: World, state: State, error: str | None = None) -> str:
    """The app fragment a site's server would send for ``state``."""
    return views.render_app(site_name, get_site(site_name).observe(state, world), error=error)


FORM = re.compile(r'<form[^>]*data-action="([A-Za-z]+)" data-params="([^"]*)"[^>]*>(.*?)</form>',
                  re.S)
"""A bound form: (action, params attribute, body)."""
