"""WebForge's seven difficulty dimensions (Table 6), measured on a task, and its overall level.

Each dimension is computed from the task, its oracle and the site's MDP, never declared:

==========  ==================================================  ==============================
dimension   measure (on the oracle path)                        L1 / L2 / L3
==========  ==================================================  ==============================
depth       page transitions (the page changes: another         0-2 / 3-5 / 6+
            surface, or another entity's detail page)
breadth     the most options on one page the oracle acts on     1-2 / 3-5 / 6+
            (entities listed)
interaction the most interactions on one page: an action is     1-2 / 3-5 / 6+
            one, or one per field it fills (form fields)
visual      visual elements needed information is only in      0 / 1 / 2+
            (the site's ``pixel_fields``: charts, photos)
info        values shown beside needed information (the         < 20 / 20-59 / 60+
            revealed (entity, field) pairs on the page where
            each needed one is first seen, less the needed
            ones; the most over pages)
reasoning   the template's computation: lookup; a comparison,   lookup / compare, arithmetic /
            filter on several fields or arithmetic; several     multi_step
            steps (a superlative over values read on several
            detail pages)
risk        the oracle's effects: all read-only or undone by    reversible / confirmed /
            one to two offered actions; an irreversible one     unwarned
            taken on a confirmation page (``confirm_surfaces``);
            an irreversible one without a warning
==========  ==================================================  ==============================

The overall level follows WebForge's rules (§A.1): L1 at most two dimensions at L2, none at
L3; L2 at least two at L2, at most one at L3; L3 at least two at L3 and at least two at L2.
The rules overlap (exactly two at L2, none at L3 fits L1 and L2); the level is the highest
rule that holds. A vector no rule fits is ``"none"``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

from webmdp.core import dialog
from webmdp.core.model import Observation, State, World
from webmdp.core.registry import get_site
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.errors import InvalidAction
from webmdp.tasks.distance import candidate_actions
from webmdp.tasks.model import DIMENSIONS, Difficulty, Task
from webmdp.tasks.variants import template_of

TITLES = dict(zip(DIMENSIONS, ("Jump Depth", "Jump Breadth", "Page Interaction",
                               "Visual Complexity", "Info Complexity", "Reasoning/Calc",
                               "Risk Factor"), strict=True))
CUTS: dict[str, tuple[int, int]] = {
    "depth": (3, 6), "breadth": (3, 6), "interaction": (3, 6), "visual": (1, 2),
    "info": (20, 60)}
"""(first measure at L2, first at L3) of the counted dimensions."""
COMPUTATIONS = {"lookup": 1, "compare": 2, "arithmetic": 2, "multi_step": 3}
RISKS = {"reversible": 1, "confirmed": 2, "unwarned": 3}
UNDO_DEPTH = 2
UNDO_TRIES = 120
"""An effect is reversible when at most ``UNDO_DEPTH`` offered actions restore every fact,
found among the first ``UNDO_TRIES`` actions tried."""

Level = Literal[1, 2, 3, "none"]


def level_of(vector: Sequence[int]) -> Level:
    """The highest of WebForge's overall levels whose rule ``vector`` meets, or "none"."""
    at2, at3 = sum(v == 2 for v in vector), sum(v == 3 for v in vector)
    if at3 >= 2 and at2 >= 2:
        return 3
    if at2 >= 2 and at3 <= 1:
        return 2
    if at2 <= 2 and at3 == 0:
        return 1
    return "none"


def cut(dimension: str, measure: int) -> int:
    lo, hi = CUTS[dimension]
    return 1 if measure < lo else 2 if measure < hi else 3


def measure(task: Task, site: Site | None = None, world: World | None = None,
            states: Sequence[State] | None = None) -> Difficulty:
    """Measure ``task``'s difficulty by replaying its oracle on the site's MDP. ``world``
    (equal to ``task.world``) and ``states`` (the oracle's replay on it, initial state
    first) let a caller that already replayed the oracle (:func:`~webmdp.tasks.generate.
    make_task`, verifying it) share that one replay."""
    site = site or get_site(task.site)
    world = world or World.from_dict(task.world)
    actions = task.oracle_actions()
    if states is None:
        states = _replayed(site, world, actions)
    views = [site.observe(s, world) for s in states]
    pages = [_page(v) for v in views]
    raw: dict[str, Any] = {
        "depth": sum(a != b for a, b in itertools.pairwise(pages)),
        "breadth": max((_options(v) for v in views[:-1]), default=0),
        "interaction": _interaction(site, actions, pages),
        "visual": _visual(site, task, views),
        "info": _info(task, views),
        "reasoning": computation(site, task.template),
        "risk": _risk(site, task, world, states, views, actions),
    }
    vector = (*(cut(d, raw[d]) for d in DIMENSIONS[:5]), COMPUTATIONS[raw["reasoning"]],
              RISKS[raw["risk"]])
    return Difficulty(vector=vector, level=level_of(vector), measures=raw)  # type: ignore[arg-type]


def _replayed(site: Site, world: World, actions: Sequence[Action]) -> list[State]:
    """The states of ``actions`` from the initial state (an invalid one raises)."""
    states = [site.initial_state(world)]
    for a in actions:
        states.append(site.step(states[-1], a, world))
    return states


def computation(site: Site, template: str) -> str:
    """What the template asks the agent to compute: its declared ``reasoning``, else read
    from its tables (a superlative over detail pages: multi_step; a superlative, or a match
    on two or more fields: compare; else lookup); an answer variant may add arithmetic."""
    tpl = template_of(site, template)
    found = _declared(tpl)
    extra = getattr(tpl, "adds_computation", "")
    return max(found, extra, key=COMPUTATIONS.__getitem__) if extra else found


def _declared(tpl: object) -> str:
    declared = getattr(tpl, "reasoning", "")
    if declared:
        return str(declared)
    if getattr(tpl, "best_by", ""):
        return "multi_step" if getattr(tpl, "compare", False) else "compare"
    fields = len(getattr(tpl, "wants", {})) + len(getattr(tpl, "fixed", {}))
    return "compare" if fields >= 2 else "lookup"


# -- the measures ---------------------------------------------------------------------------
def _page(view: Observation) -> tuple[str, ...]:
    """A page: its surface, and on a detail surface the entity it shows."""
    if view.kind.value == "detail" and view.entities:
        return (view.surface, view.entities[0].id)
    return (view.surface,)


def _options(view: Observation) -> int:
    return len({e.id for e in view.entities})


def _interaction(site: Site, actions: Sequence[Action], pages: Sequence[tuple[str, ...]]) -> int:
    """The most interactions on one visit to a page: each action counts its filled fields
    (parameters that are not an entity id), at least one."""
    best = run = 0
    for i, a in enumerate(actions):
        if i and pages[i] != pages[i - 1]:
            run = 0
        spec = site.action_spec(a.name)
        run += max(1, sum(p.type != "entity" and p.name in a.params for p in spec.params))
        best = max(best, run)
    return best


def _visual(site: Site, task: Task, views: Sequence[Observation]) -> int:
    """Visual elements (surface, field) that needed information is only in."""
    pixel = site.pixel_fields
    if not pixel:
        return 0
    needed = {(c.entity, c.field) for c in task.info_constraints}
    found: set[tuple[str, str]] = set()
    for v in views:
        fields = pixel.get(v.surface, ())
        found |= {(v.surface, f) for e, f in v.revealed() & needed if f in fields}
    return len(found)


def _info(task: Task, views: Sequence[Observation]) -> int:
    needed = {(c.entity, c.field) for c in task.info_constraints}
    left, best = set(needed), 0
    for v in views:
        shown = v.revealed()
        if shown & left:
            best = max(best, len(shown - needed))
            left -= shown
    return best


def _risk(site: Site, task: Task, world: World, states: Sequence[State],
          views: Sequence[Observation], actions: Sequence[Action]) -> str:
    confirm = site.confirm_surfaces
    worst = "reversible"
    effects = [_effects(site, s) for s in states]  # each state's facts once, not twice
    for i in range(len(actions)):
        before = effects[i]
        if effects[i + 1] == before or _undone(site, task, world, states[i + 1], before):
            continue
        if views[i].surface not in confirm and "confirm_dialog" not in views[i].context:
            return "unwarned"
        worst = "confirmed"
    return worst


def _effects(site: Site, state: State) -> dict[str, Any]:
    return {k: v for k, v in site.facts(state).items() if k != "surface"}


def _undone(site: Site, task: Task, world: World, state: State, before: dict[str, Any]) -> bool:
    """Whether an offered action (over the task's own entities) that changes the application
    state (``changes_state``) brings every fact back to ``before``, on this page or after at
    most :data:`UNDO_DEPTH` - 1 moves to other pages, within :data:`UNDO_TRIES` actions
    tried (breadth-first, in the search's action order).

    A move counts as tried when it is met, but is only taken when the next depth reaches it
    (:func:`_moved`): a search that finds its undo, or runs out of tries, on this page never
    pays for the pages it would have moved to. The last depth lists commits only, since it
    tries nothing else."""
    def commits(name: str) -> bool:
        return site.action_spec(name).changes_state

    frontier: Iterable[State] = [state]
    seen, tried = {state}, 0
    for depth in range(UNDO_DEPTH):
        last, moves = depth == UNDO_DEPTH - 1, []
        for s in frontier:
            for a in candidate_actions(task, s, focused=True, world=world,
                                       keep=commits if last else None):
                if tried == UNDO_TRIES:
                    return False
                tried += 1
                if not commits(a.name):
                    moves.append((s, a))
                    continue
                child = _taken(site, s, a, world)
                if child is not None and _effects(site, child) == before:
                    return True
        frontier = _moved(site, world, moves, seen)
    return False


def _taken(site: Site, state: State, action: Action, world: World) -> State | None:
    """The state ``action`` leads to, a confirmation it asks for confirmed; None when the
    site rejects it."""
    try:
        child = site.step(state, action, world)
        if child.pending is not None:  # the undo asks first: confirm it
            child = site.step(child, Action(dialog.CONFIRM), world)
    except InvalidAction:
        return None
    return child


def _moved(site: Site, world: World, moves: Sequence[tuple[State, Action]],
           seen: set[State]) -> Iterator[State]:
    """The pages ``moves`` reach that are not yet ``seen``, in order, stepped lazily (the
    search may stop before it needs them)."""
    for state, action in moves:
        child = _taken(site, state, action, world)
        if child is not None and child not in seen:
            seen.add(child)
            yield child


def of_task(task: Task) -> Difficulty:
    """The task's stored difficulty, or (a version-1 task) the measured one."""
    return task.difficulty if task.difficulty is not None else measure(task)


def disagreements(tasks: Sequence[Task]) -> list[str]:
    """One line per task whose stored difficulty is not what measuring it gives."""
    out = []
    for task in tasks:
        if task.difficulty is None:
            continue
        found = measure(task.model_copy(update={"difficulty": None}))
        stored = task.difficulty
        if (found.vector, found.level) != (stored.vector, stored.level):
            out.append(f"{task.id}: stored difficulty {list(stored.vector)} (level "
                       f"{stored.level}) disagrees with the measured {list(found.vector)} "
                       f"(level {found.level})")
    return out


def counts(tasks: Sequence[Task]) -> dict[str, Any]:
    """WebForge Table 7's counts: tasks per level of each dimension, and per overall level."""
    found = [of_task(t) for t in tasks]
    dims = {d: {f"L{k}": sum(f.of(d) == k for f in found) for k in (1, 2, 3)}
            for d in DIMENSIONS}
    levels = {str(k): sum(f.level == k for f in found) for k in (1, 2, 3, "none")}
    return {"n": len(found), "level": levels, "dimension": dims}
