"""WebForge's Refine stage, as exact checks on a task and the pages its oracle sees.

Each check returns the reasons a task fails it (empty: it passes):

- ``unique``: the target is the only entity the task accepts: the oracle passes the verifier,
  and the state its commit would leave on each hard negative instead (its final facts with
  the target's id swapped for the hard negative's) does not.
- ``links``: every link leads somewhere: each navigation a page on the oracle path offers
  (an action that commits nothing, with all its parameters) is a valid transition of the
  MDP, and every ``href`` stays on our server.
- ``no_alert``: nothing blocks the page with ``alert()``, ``confirm()`` or ``prompt()``, in
  its HTML or the scripts it loads.
- ``noise``: under a noise level other than ``none``, the episode's noise schedule shows
  something.
- ``no_plaintext``: no answer in plaintext: the gold code and the verifier's values never
  appear outside a page's visible content (not in hidden attributes or scripts).
"""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from webmdp.core.model import Observation, World
from webmdp.errors import InvalidAction
from webmdp.server.app import code_banner
from webmdp.sites import get_site
from webmdp.sites._common import views
from webmdp.tasks.codes import Coder, gold_code
from webmdp.tasks.model import Task
from webmdp.tasks.replay import replay
from webmdp.tasks.verifier import verify
from webmdp.tracking import Tracker

CHECKS = ("unique", "links", "no_alert", "noise", "no_plaintext")
_BLOCKING = re.compile(r"\b(?:window\.)?(alert|confirm|prompt)\s*\(")
_CONTROL = {"data-action", "data-params", "data-testid", "value", "class", "id", "name", "type",
            "role", "for", "rel", "lang", "style"}
"""A control's own action and parameters (what the page offers: every option) and markup
vocabulary: not hidden information."""
_PRESENTED = {"placeholder", "aria-label", "alt", "title"}


class _Split(HTMLParser):
    """A page's visible text (with the attributes users or the accessibility tree are shown),
    apart from hidden attribute values and script / style text; also its ``href`` targets."""

    def __init__(self) -> None:
        super().__init__()
        self.visible: list[str] = []
        self.hidden: list[str] = []
        self.hrefs: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in ("script", "style")
        for k, v in attrs:
            if not v:
                continue
            if k == "href":
                self.hrefs.append(v)
            if k in _PRESENTED:
                self.visible.append(v)
            elif k not in _CONTROL:
                self.hidden.append(v)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        (self.hidden if self._skip else self.visible).append(data)


def _oracle_path(task: Task) -> tuple[World, list[Observation], list[str]]:
    """The observations and pages (app HTML, with the code banner after a commit, as the
    server draws it) along the oracle path."""
    site = get_site(task.site)
    world = World.from_dict(task.world)
    tracker = Tracker(site, world, Coder.of(task).code)
    observed: list[Observation] = []
    pages: list[str] = []
    for action in [None, *task.oracle_actions()]:
        if action is not None:
            tracker.apply(action)
        obs = site.observe(tracker.state, world)
        html = views.render_app(task.site, obs, error=None)
        observed.append(obs)
        pages.append(html if tracker.code is None else code_banner(tracker.code) + html)
    return world, observed, pages


def check_unique(task: Task) -> list[str]:
    site = get_site(task.site)
    world = World.from_dict(task.world)
    facts = site.facts(replay(site, world, task.oracle_actions()).final)
    if not all(verify(task.verifier, facts).values()):
        return ["the oracle does not pass the verifier"]
    if not task.verifier:  # a direct answer: the value generation checked unique is judged
        return [] if task.answer is not None else ["no verifier condition and no answer"]
    # the oracle's final facts with the target's id swapped for each hard negative's: the
    # state the same commit on that entity leaves; the verifier must refuse it
    return [f"hard negative {hn} also passes the verifier" for hn in task.hard_negatives
            if all(verify(task.verifier, _swap(facts, task.target, hn)).values())]


def _swap(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, dict):
        return {_swap(k, old, new): _swap(v, old, new) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_swap(v, old, new) for v in value)
    return value


def check_links(task: Task) -> list[str]:
    site = get_site(task.site)
    world, observed, pages = _oracle_path(task)
    state = site.initial_state(world)
    states = [state]
    for a in task.oracle_actions():
        state = site.step(state, a, world)
        states.append(state)
    out = []
    for s, obs, html in zip(states, observed, pages, strict=True):
        for offered in obs.available:
            spec = site.action_spec(offered.name)
            if spec.changes_state or any(p.name not in offered.params and not p.optional
                                         for p in spec.params):
                continue  # a commit (its form may be incomplete) or a field: not a link
            try:
                site.step(s, offered, world)
            except InvalidAction as exc:
                out.append(f"{obs.surface}: {offered.name} leads nowhere ({exc})")
        split = _Split()
        split.feed(html)
        out += [f"{obs.surface}: link to {h} leaves the site" for h in split.hrefs
                if re.match(r"^[a-z]+://", h) or h.startswith("//")]
    return sorted(set(out))


@cache
def _static_scripts() -> str:
    folder = Path(views.__file__).parent / "static"
    return "\n".join(p.read_text() for p in sorted(folder.glob("*.js")))


def check_no_alert(task: Task) -> list[str]:
    texts = [*_oracle_path(task)[2], _static_scripts()]
    return sorted({f"{m.group(1)}() would block the page" for t in texts
                   for m in _BLOCKING.finditer(t)})


def check_noise(task: Task, level: str) -> list[str]:
    if level == "none":
        return []
    from webmdp.env.noise import schedule

    return [] if schedule(level, task.seed).active else [f"noise {level!r} shows nothing"]


def check_no_plaintext(task: Task) -> list[str]:
    gold = gold_code(task)
    ids = {e["id"] for e in task.world["entities"]}
    values = {str(c.value) for c in task.verifier
              if isinstance(c.value, (str, int, float)) and not isinstance(c.value, bool)
              and str(c.value) not in ids and len(str(c.value)) >= 4}
    out = []
    _, observed, pages = _oracle_path(task)
    for i, (obs, html) in enumerate(zip(observed, pages, strict=True)):
        split = _Split()
        split.feed(html)
        visible, hidden = " ".join(split.visible), " ".join(split.hidden)
        if gold in hidden or (gold in html and i < len(pages) - 1 and gold not in visible):
            out.append(f"{obs.surface}: the gold code is in the page's hidden content")
        out += [f"{obs.surface}: {v!r} only in hidden content" for v in values
                if v in hidden and v not in visible]
    return sorted(set(out))


def refine(task: Task, noise: str = "none") -> dict[str, list[str]]:
    """Every Refine check's failures (check name -> reasons; empty lists: it passes)."""
    return {"unique": check_unique(task), "links": check_links(task),
            "no_alert": check_no_alert(task), "noise": check_noise(task, noise),
            "no_plaintext": check_no_plaintext(task)}
