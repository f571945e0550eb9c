"""Site cards (CAP 3.1): ``s_w = <F, A, P>``, derived from a site's declarations and its
rendered views rather than annotated by hand.

* F, the functions: one per skill the site declares (Table 7 of WebSTEP), with its actions and
  the surfaces the crawl found them offered on.
* A, the execution items ``<component, action type, function>``: every element of every
  crawled page that binds an action, classified by :data:`webmdp.cap.rules.ACTION_RULES`; the
  function is the bound action's skill. A page control (``data-page-control``: a carousel's
  arrows, a legend entry, an image preview's zoom) changes only page state; it binds no action
  and serves the function of its surface, as perception items do. Bound controls no rule
  types (links, radio pills, search boxes) are kept apart as :attr:`SiteCard.plain`.
* P, the perception items ``<component, perception type, function>``: elements matched by
  :data:`webmdp.cap.rules.PERCEPTION_RULES`; the function is the skill of the action that
  leads to the surface.

The crawl is the conformance checker's (start states from one task per template, dial
templates included, all visited first, then breadth-first with novel actions first), bounded
in states; a page
is rendered only for an observation unlike those before it (surface, offered actions, shown
fields, context switches), and an element is classified once per shape and surface (see
:func:`webmdp.cap.rules.shape`), which keeps ten sites to a few seconds. Cards are cached per
process and on disk (:func:`site_card`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from webmdp.cap.dom import Element, parse
from webmdp.cap.rules import PageInfo, Rule, classify_action, classify_perception, shape
from webmdp.cap.taxonomy import (
    ACTION_CATEGORIES,
    ACTION_TYPES,
    PERCEPTION_CATEGORIES,
    PERCEPTION_TYPES,
)
from webmdp.core.model import Observation, State, World
from webmdp.core.site import Site, fill
from webmdp.core.spec import SurfaceKind
from webmdp.errors import InvalidAction, WebMDPError

MAX_STATES = 150
"""States a card's crawl visits per site (every site reaches all its actions well before)."""
SAMPLES = 2
"""Transitions kept per action to learn where it leads (a detail page, a modal)."""


@dataclass(frozen=True, slots=True)
class Function:
    """A user-facing function: a declared skill, its actions, where they are offered."""

    name: str
    category: str
    actions: tuple[str, ...]
    surfaces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ExecutionItem:
    """``<component, action type, function>``; ``type_id`` None for a plain control."""

    component: str
    type_id: str | None
    function: str
    actions: tuple[str, ...]
    surfaces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PerceptionItem:
    """``<component, perception type, function>``."""

    component: str
    type_id: str
    function: str
    surfaces: tuple[str, ...]


@dataclass(frozen=True)
class SiteCard:
    site: str
    functions: tuple[Function, ...]
    execution: tuple[ExecutionItem, ...]
    plain: tuple[ExecutionItem, ...]
    perception: tuple[PerceptionItem, ...]
    states: int
    pages: int

    def action_type_ids(self) -> set[str]:
        return {i.type_id for i in self.execution if i.type_id}

    def perception_type_ids(self) -> set[str]:
        return {i.type_id for i in self.perception}

    def bound_actions(self) -> set[str]:
        """Actions some classified element binds (typed or plain)."""
        return {a for i in (*self.execution, *self.plain) for a in i.actions}

    def to_dict(self) -> dict[str, Any]:
        return {
            "site": self.site,
            "states": self.states,
            "pages": self.pages,
            "functions": [_asdict(f) for f in self.functions],
            "execution_items": [_asdict(i) for i in self.execution],
            "plain_controls": [_asdict(i) for i in self.plain],
            "perception_items": [_asdict(i) for i in self.perception],
            "action_types": sorted(self.action_type_ids()),
            "perception_types": sorted(self.perception_type_ids()),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SiteCard:
        """The card :meth:`to_dict` wrote (the derived type lists are recomputed)."""
        def items(kind: type, rows: list[dict[str, Any]]) -> tuple[Any, ...]:
            return tuple(kind(**{k: tuple(v) if isinstance(v, list) else v
                                 for k, v in row.items()}) for row in rows)

        return cls(site=data["site"], functions=items(Function, data["functions"]),
                   execution=items(ExecutionItem, data["execution_items"]),
                   plain=items(ExecutionItem, data["plain_controls"]),
                   perception=items(PerceptionItem, data["perception_items"]),
                   states=data["states"], pages=data["pages"])


def _asdict(obj: Any) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v
            for k in obj.__slots__ for v in [getattr(obj, k)]}


# -- the crawl ----------------------------------------------------------------------------------
@dataclass
class _Page:
    surface: str
    html: str
    modal: bool


@dataclass
class _Crawl:
    pages: dict[tuple[Any, ...], _Page] = field(default_factory=dict)
    offered: dict[str, set[str]] = field(default_factory=dict)
    detail: set[str] = field(default_factory=set)
    """Actions seen to move to a detail surface."""
    modal: set[str] = field(default_factory=set)
    """Actions seen to open a modal dialog."""
    moves: set[tuple[str, str]] = field(default_factory=set)
    """(surface, action) pairs seen to leave that surface."""
    entered: dict[str, set[str]] = field(default_factory=dict)
    """surface -> the actions seen to lead into it from another surface."""
    states: int = 0


def _signature(obs: Observation) -> tuple[Any, ...]:
    """What of an observation the views branch on, roughly: the surface, the actions offered,
    which fields are shown (and whether empty) and the context's switches that are on."""
    return (obs.surface, tuple(sorted({a.name for a in obs.available})),
            frozenset((f, bool(v)) for e in obs.entities for f, v in e.fields.items()),
            tuple(sorted(k for k, v in obs.context.items() if v is True)))


def _starts(site: Site) -> Iterator[tuple[World, State]]:
    from webmdp.tasks.generate import make_task

    for i, name in enumerate([*site.templates, *site.dial_templates]):
        try:
            task = make_task(site, 1000 + 10 * i, name, 1)
        except WebMDPError:
            continue
        world = World.from_dict(task.world)
        state = site.initial_state(world)
        yield world, state
        for act in task.oracle_actions():
            state = site.step(state, act, world)
            yield world, state


def _visit(site: Site, crawl: _Crawl, world: World, state: State) -> tuple[Observation, _Page]:
    from webmdp.sites._common.views import render_app

    obs = site.observe(state, world)
    sig = _signature(obs)
    if sig not in crawl.pages:
        html = render_app(site.name, obs, error=None)
        crawl.pages[sig] = _Page(obs.surface, html, 'role="dialog"' in html)
    return obs, crawl.pages[sig]


def _crawl(site: Site, max_states: int) -> _Crawl:
    """Visit every start state, then up to ``max_states`` more; note what each action did."""

    crawl = _Crawl()
    seen: set[State] = set()
    came_from: dict[State, list[tuple[str, _Page]]] = {}
    starts, queue = deque(_starts(site)), deque[tuple[World, State]]()
    budget = len(set(s for _, s in starts)) + max_states
    while (starts or queue) and len(seen) < budget:
        world, state = starts.popleft() if starts else queue.popleft()
        if state in seen:
            continue
        seen.add(state)
        obs, page = _visit(site, crawl, world, state)
        for action, before in came_from.pop(state, ()):
            if before.surface != page.surface:
                crawl.entered.setdefault(page.surface, set()).add(action)
                crawl.moves.add((before.surface, action))
                if obs.kind is SurfaceKind.DETAIL:
                    crawl.detail.add(action)
            if page.modal and not before.modal:
                crawl.modal.add(action)
        reached = set(crawl.offered)
        for act in obs.available:
            crawl.offered.setdefault(act.name, set()).add(obs.surface)
            try:
                nxt = site.step(state, fill(site, act), world)
            except InvalidAction:
                continue
            if nxt not in seen:
                came_from.setdefault(nxt, []).append((act.name, page))
            if act.name in reached:
                queue.append((world, nxt))
            else:  # novelty first, as the conformance checker does
                queue.appendleft((world, nxt))
    crawl.states = len(seen)
    return crawl


_PRIORITY = ("inspect", "search", "filter", "navigate", "commit")


def _entry(site: Site, actions: set[str]) -> str | None:
    """The function a surface serves: the skill of the action that leads there, an inspect
    or search action before others, then in declaration order."""
    specs = [a for a in site.actions if a.name in actions]
    specs.sort(key=lambda a: _PRIORITY.index(a.category.value))
    return specs[0].skill if specs else None


# -- the card -----------------------------------------------------------------------------------
@dataclass
class _Items:
    execution: dict[tuple[str, str | None, str], tuple[set[str], set[str]]] = field(
        default_factory=dict)
    perception: dict[tuple[str, str, str], set[str]] = field(default_factory=dict)

    def act(self, rule: Rule, function: str, action: str, surface: str) -> None:
        for type_id in rule.types or (None,):
            acts, surfs = self.execution.setdefault((rule.widget, type_id, function),
                                                    (set(), set()))
            if action:  # a page control (carousel arrow, legend entry) binds no action
                acts.add(action)
            surfs.add(surface)

    def look(self, rule: Rule, function: str, surface: str) -> None:
        for type_id in rule.types:
            self.perception.setdefault((rule.widget, type_id, function), set()).add(surface)


def _classify_page(page: PageInfo, items: _Items, entry: str,
                   memo: dict[tuple[object, ...], Any]) -> None:
    skill = page.skills.get
    paths: dict[int, tuple[object, ...]] = {id(page.root): ()}

    def verdict(el: Element, action: str, kind: str, path: tuple[object, ...]) -> Rule | None:
        key = (page.surface, kind, action, shape(el, path, True))
        if key not in memo:
            memo[key] = classify_action(el, page, action, kind)
        return memo[key]

    for el in page.root.iter():
        if el.parent is None:
            continue
        path = paths[id(el)] = (*paths[id(el.parent)], (el.tag, el.classes, el.get("role")))
        action = el.get("data-action")
        if action:
            rule = verdict(el, action, "bind", path)
            if rule is not None:
                items.act(rule, skill(action, action), action, page.surface)
            if el.tag == "form":
                for part in el.iter():
                    if part is el or part.has("data-action"):
                        continue
                    found = verdict(part, action, "part", (*path, id(part)))
                    if found is not None and found.types:
                        items.act(found, skill(action, action), action, page.surface)
        if not action and el.has("data-page-control"):
            rule = verdict(el, "", "page", path)
            if rule is not None and rule.types:
                items.act(rule, entry, "", page.surface)
        dragged = el.get("data-drag")
        if dragged:
            rule = verdict(el, dragged, "drag", path)
            if rule is not None:
                items.act(rule, skill(dragged, dragged), dragged, page.surface)
        key = (page.surface, "look", shape(el, path, False))
        if key not in memo:
            memo[key] = classify_perception(el, page)
        for rule in memo[key]:
            items.look(rule, entry, page.surface)


def build_card(site: Site, *, max_states: int = MAX_STATES) -> SiteCard:
    """Crawl ``site``, render its pages and classify their widgets into a card."""
    crawl = _crawl(site, max_states)
    skills = {a.name: a.skill for a in site.actions}
    commits = frozenset(a.name for a in site.actions if a.changes_state)
    items = _Items()
    memo: dict[tuple[object, ...], Any] = {}
    for page in crawl.pages.values():
        info = PageInfo(site.name, page.surface, parse(page.html),
                        confirm=page.surface in site.confirm_surfaces, skills=skills,
                        opens_detail=frozenset(crawl.detail), opens_modal=frozenset(crawl.modal),
                        commits=commits, moves=frozenset(crawl.moves))
        entry = _entry(site, crawl.entered.get(page.surface, set())) or page.surface
        _classify_page(info, items, entry, memo)
    execution = sorted(
        (ExecutionItem(comp, type_id, fn, tuple(sorted(a)), tuple(sorted(s)))
         for (comp, type_id, fn), (a, s) in items.execution.items()),
        key=lambda i: (i.type_id or "", i.component, i.function))
    perception = sorted(
        (PerceptionItem(comp, type_id, fn, tuple(sorted(s)))
         for (comp, type_id, fn), s in items.perception.items()),
        key=lambda i: (i.type_id, i.component, i.function))
    return SiteCard(
        site=site.name,
        functions=_functions(site, crawl.offered),
        execution=tuple(i for i in execution if i.type_id),
        plain=tuple(i for i in execution if not i.type_id),
        perception=tuple(perception),
        states=crawl.states,
        pages=len(crawl.pages),
    )


def _functions(site: Site, offered: dict[str, set[str]]) -> tuple[Function, ...]:
    by_skill: dict[str, list[str]] = {}
    for a in site.actions:
        by_skill.setdefault(a.skill, []).append(a.name)
    category = {a.skill: a.category.value for a in reversed(site.actions)}
    return tuple(
        Function(skill, category[skill], tuple(names),
                 tuple(sorted({s for n in names for s in offered.get(n, ())})))
        for skill, names in by_skill.items())


@cache
def site_card(name: str) -> SiteCard:
    """The card of the registered site ``name``: built once per process, and read from the
    disk cache (:func:`webmdp.tasks.cache.cached_json`, keyed by the package's content) when
    another process built it; a crawl takes about a second a site, a read a millisecond."""
    from webmdp.sites import get_site
    from webmdp.tasks.cache import cached_json

    return cached_json("cards", name, lambda: build_card(get_site(name)), SiteCard.to_dict,
                       SiteCard.from_dict)


# -- coverage and the conformance check ----------------------------------------------------------
def coverage(cards: Iterable[SiteCard]) -> dict[str, Any]:
    """How many of CAP's 64 action and 56 perception types the cards exercise (a type counts
    when some site's page has a widget a rule maps to it), overall and per category."""
    cards = list(cards)
    acts = {t for c in cards for t in c.action_type_ids()}
    percs = {t for c in cards for t in c.perception_type_ids()}

    def breakdown(types: Iterable[Any], covered: set[str], categories: tuple[str, ...]
                  ) -> dict[str, dict[str, int]]:
        types = list(types)
        return {cat: {"covered": sum(t.id in covered for t in types if t.category == cat),
                      "total": sum(t.category == cat for t in types)} for cat in categories}

    def sites_of(type_id: str, kind: str) -> list[str]:
        return sorted(c.site for c in cards if type_id in (
            c.action_type_ids() if kind == "action" else c.perception_type_ids()))

    return {
        "action_types_covered": len(acts),
        "action_types_total": len(ACTION_TYPES),
        "perception_types_covered": len(percs),
        "perception_types_total": len(PERCEPTION_TYPES),
        "action_categories": breakdown(ACTION_TYPES, acts, ACTION_CATEGORIES),
        "perception_categories": breakdown(PERCEPTION_TYPES, percs, PERCEPTION_CATEGORIES),
        "covered_action_types": {t: sites_of(t, "action") for t in sorted(acts)},
        "covered_perception_types": {t: sites_of(t, "perception") for t in sorted(percs)},
        "uncovered_action_types": [t.id for t in ACTION_TYPES if t.id not in acts],
        "uncovered_perception_types": [t.id for t in PERCEPTION_TYPES if t.id not in percs],
        "sites": [c.site for c in cards],
    }


def card_problems(site: Site, reached: Iterable[str]) -> list[str]:
    """Where the card and the views disagree: a reached action no classified element binds, or
    a perception item on a surface the site does not declare."""
    card = site_card(site.name)
    problems = []
    unbound = sorted(set(reached) - card.bound_actions())
    if unbound:
        problems.append(f"card: reachable actions bound to no classified widget: {unbound}")
    declared = {s.name for s in site.surfaces}
    shown = {s for i in card.perception for s in i.surfaces}
    unknown = sorted((shown | {s for i in card.execution for s in i.surfaces}) - declared)
    if unknown:
        problems.append(f"card: items on undeclared surfaces {unknown}")
    return problems
