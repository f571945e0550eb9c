"""Conformance checker: proves a site satisfies the contract (DESIGN.md, The site contract).

Checks: declared data is consistent; generation is deterministic across seeds; every template
is solvable by its oracle; every action is reachable; observations respect the visibility spec;
the views bind every available action. (It imports tasks and views lazily: it checks the whole
stack a site ships, not just the pure contract.)
"""

from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass, field
from html import unescape
from typing import TYPE_CHECKING

from webmdp.core.model import State, World
from webmdp.core.site import Site, fill
from webmdp.core.spec import SkillCategory
from webmdp.errors import InvalidAction, WebMDPError

if TYPE_CHECKING:
    from webmdp.tasks.model import Task

_BOUND = re.compile(r'data-action="([A-Za-z]+(?:\.[A-Za-z]+)?)" data-params="([^"]*)"')


@dataclass
class CheckReport:
    site: str
    problems: list[str] = field(default_factory=list)
    states_visited: int = 0
    actions_reached: set[str] = field(default_factory=set)
    tasks_checked: int = 0
    tasks: list[Task] = field(default_factory=list, repr=False)
    """The checked tasks (one per template and hard-negative count)."""

    @property
    def ok(self) -> bool:
        return not self.problems


def bound_pairs(html: str) -> set[tuple[str, str]]:
    """(action, canonical params JSON) pairs a rendered page binds."""
    out = set()
    for name, raw in _BOUND.findall(html):
        params = json.loads(unescape(raw) or "{}")
        out.add((name, json.dumps(params, sort_keys=True)))
    return out


def check_site(site: Site, *, tasks_per_template: int = 2, max_states: int = 400) -> CheckReport:
    """Run every conformance check on ``site``; problems are collected, not raised."""
    from webmdp.sites._common.views import render_app
    from webmdp.tasks.generate import make_task

    rep = CheckReport(site.name)
    _check_declared(site, rep)
    starts: list[tuple[World, State]] = []
    for t_i, name in enumerate(site.templates):
        for k in range(tasks_per_template):
            index, hn = 1000 + t_i * 10 + k, k % 4
            try:
                a, b = make_task(site, index, name, hn), make_task(site, index, name, hn)
                other = make_task(site, index + 1, name, hn)
            except WebMDPError as exc:
                rep.problems.append(f"template {name}: {exc}")
                continue
            rep.tasks_checked += 1
            rep.tasks.append(a)
            if a.model_dump_json() != b.model_dump_json():
                rep.problems.append(f"template {name}: task {index} not deterministic")
            if a.world == other.world:
                rep.problems.append(f"template {name}: different seeds gave the same world")
            world = World.from_dict(a.world)
            state = site.initial_state(world)
            starts.append((world, state))
            for act in a.oracle_actions():
                state = site.step(state, act, world)
                starts.append((world, state))
    _explore(site, starts, rep, max_states, render_app)
    missing = {a.name for a in site.actions} - rep.actions_reached
    if missing:
        rep.problems.append(f"actions never reached: {sorted(missing)}")
    rep.problems.extend(_check_card(site, rep.actions_reached))
    return rep


def _check_card(site: Site, reached: set[str]) -> list[str]:
    """The site card (webmdp.cap) agrees with the views: every reached action is bound to a
    classified widget, every item lies on a declared surface. Registered sites only."""
    from webmdp.cap.cards import card_problems
    from webmdp.sites import site_names

    return card_problems(site, reached) if site.name in site_names(plugins=True) else []


def _check_declared(site: Site, rep: CheckReport) -> None:
    names = [a.name for a in site.actions]
    if len(names) != len(set(names)):
        rep.problems.append("duplicate action names")
    for a in site.actions:
        if not isinstance(a.category, SkillCategory) or not a.skill:
            rep.problems.append(f"action {a.name}: missing skill or category")
    vis = site.visibility
    if set(vis.card_fields) & set(vis.detail_fields):
        rep.problems.append("card and detail fields overlap")
    surfaces = {s.name for s in site.surfaces}
    if set(vis.surface_fields) - surfaces:
        unknown = sorted(set(vis.surface_fields) - surfaces)
        rep.problems.append(f"visibility names unknown surfaces {unknown}")


def _explore(site: Site, starts, rep: CheckReport, max_states: int, render_app) -> None:
    seen: set[State] = set()
    queue = deque(starts)
    unbound: dict[tuple[str, str], dict[str, None]] = {}
    while queue and len(seen) < max_states:
        world, state = queue.popleft()
        if state in seen:
            continue
        seen.add(state)
        obs = site.observe(state, world)
        allowed = site.visibility.fields_on(obs.surface)
        for e in obs.entities:
            extra = set(e.fields) - allowed
            if extra:
                rep.problems.append(f"{obs.surface}: {e.id} shows undeclared {sorted(extra)}")
        if obs.kind != site.surface_kind(obs.surface):
            rep.problems.append(f"{obs.surface}: observed kind {obs.kind} != declared")
        bound = bound_pairs(render_app(site.name, obs, error=None))
        for act in obs.available:
            if (act.name, json.dumps(dict(act.params), sort_keys=True)) not in bound:
                unbound.setdefault((obs.surface, act.name), {})[str(act)] = None
            try:
                nxt = site.step(state, fill(site, act), world)
            except InvalidAction:
                continue
            if act.name in rep.actions_reached:
                queue.append((world, nxt))
            else:  # novelty first: states behind a new action lead to further new actions
                rep.actions_reached.add(act.name)
                queue.appendleft((world, nxt))
    for (surface, name), acts in unbound.items():  # one line per control, not per entity
        shown = list(acts)
        more = f" and {len(shown) - 1} more like it" if len(shown) > 1 else ""
        rep.problems.append(f"{surface}: view does not bind {name}: {shown[0]}{more}")
    rep.states_visited = len(seen)
    rep.problems = list(dict.fromkeys(rep.problems))
