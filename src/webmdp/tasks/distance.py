"""Shortest semantic distance from a state to a task's goal, and the value it implies.

The goal is every verifier condition of the task holding on ``site.facts(s)``. The distance is
the length of a shortest sequence of agent actions (:func:`candidate_actions`) reaching a goal,
found by A* over the site's MDP. A* is exact with an admissible bound (one that never exceeds
the true distance); each site's bounds below carry their proof. A site without bounds is
searched with the trivial bound (0 at a goal, else 1), i.e. breadth-first.
"""

from __future__ import annotations

import heapq
import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from webmdp.core.model import State, World
from webmdp.core.registry import get_site
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.errors import InvalidAction
from webmdp.tasks.model import Condition, Task
from webmdp.tasks.verifier import check_condition
from webmdp.tracking import state_key

Facts = dict[str, Any]
Bound = Callable[[State, Facts, bool], float]
"""A lower bound on the distance of a state to the goal (``math.inf``: provably unreachable).
With ``look`` False it does not list what the screen shows and assumes every entity is on
it: a weaker (never larger) bound that is much cheaper to compute."""
Unseen = Sequence[tuple[int, tuple[str, ...], tuple[frozenset[str], ...]]]
"""Per entity kind with detail evidence still unseen: (its evidence gap, those entities, each
one's detail fields still unseen)."""
InformedBound = Callable[[State, Facts, Unseen, bool], float]
"""A lower bound on the informed distance (:mod:`webmdp.tasks.informed`), given what is
still unseen; ``look`` as for :data:`Bound`."""

DEFAULT_MAX_EXPANSIONS = 1_000
UNREACHABLE = -1
"""What a search returns when it proves that no goal is reachable."""
_RESULTS_PER_TASK = 50_000
_TASKS_CACHED = 16
_SUCCESSORS_PER_TASK = 4_000
_OMIT = object()


# -- public API ------------------------------------------------------------------------------
def distance_to_goal(task: Task, state: State, *,
                     max_expansions: int | None = DEFAULT_MAX_EXPANSIONS) -> int | None:
    """Exact number of agent actions from ``state`` to a state where every condition of
    ``task.verifier`` holds (0 when ``state`` is one), or None when no goal was found within
    ``max_expansions`` A* expansions (None: no budget, the search settles it), or none is
    reachable at all (e.g. a wrong message was already sent).

    The action space is :func:`candidate_actions`: every action ``observe(s).available``
    offers; a parameter an offered action leaves to the agent takes each value the task's
    oracle gives that parameter of that action, or ``site.example_params`` gives that
    parameter name, and an optional one may also be left out. Actions the site rejects
    (:class:`InvalidAction`) are not edges. The distance is exact over that action space.

    Results are cached per (task id, state) in a bounded LRU; every state on a shortest path
    found is cached too, so a tree search walking down good moves pays once.
    """
    with task_lock(task.id):
        found = _problem(task).search(state, _limit(max_expansions))
    return None if found == UNREACHABLE else found


@dataclass(frozen=True)
class Reach:
    """A goal distance, three ways: ``distance`` when found; else ``unreachable`` when no goal
    can be reached (the site's bound says so, or the search ran out of states), else unknown
    (the search budget ran out first)."""

    distance: int | None
    unreachable: bool = False

    @property
    def known(self) -> bool:
        return self.distance is not None or self.unreachable


def reach(task: Task, state: State, *, max_expansions: int | None = DEFAULT_MAX_EXPANSIONS,
          focused: bool = False) -> Reach:
    """:func:`distance_to_goal` telling a provably unreachable goal from an unknown distance.

    ``focused`` searches only actions whose entity parameters name the task's own entities
    (target, hard negatives, companions) or no entity: an action on any other entity opens,
    selects or changes something no verifier condition reads, so a shortest path never needs
    one (``tests/tasks/test_distance.py`` checks the two distances agree on every site's
    walks). The branching factor of a list page drops from its row count to the task's group
    size, which is what makes grading whole runs affordable (:mod:`webmdp.synth.exact`)."""
    with task_lock(task.id):
        found = _problem(task, focused).search(state, _limit(max_expansions))
    return Reach(None, True) if found == UNREACHABLE else Reach(found)


def _limit(max_expansions: int | None) -> float:
    return math.inf if max_expansions is None else max_expansions


def candidate_actions(task: Task, state: State, *, focused: bool = False,
                      world: World | None = None,
                      keep: Callable[[str], bool] | None = None) -> list[Action]:
    """The agent actions :func:`distance_to_goal` searches over in ``state`` (see there);
    ``focused``: those :func:`reach` searches with it. ``world``: the task's world when the
    caller already holds it (equal to ``task.world``), so the site's per-world caches (listing
    results) it warmed are reused. ``keep``: only the actions whose name it accepts, in the
    same order (filtering before the parameters are filled is what makes it cheap)."""
    return _problem(task, focused, world).actions(state, keep)


def lower_bound(task: Task, state: State) -> float:
    """The admissible bound the search uses: never above :func:`distance_to_goal` (0 at a
    goal, ``math.inf`` where no goal is reachable). Cheap: one ``facts`` call, no search."""
    p = _problem(task)
    facts = p.site.facts(state)
    return 0.0 if p.is_goal(facts) else max(1.0, p.bound(state, facts, True))


def at_goal(task: Task, state: State) -> bool:
    """Whether every verifier condition of ``task`` holds in ``state``."""
    p = _problem(task)
    return p.is_goal(p.site.facts(state))


def state_after(task: Task, actions: Iterable[Action]) -> State:
    """Replay ``actions`` from the task's initial state; an invalid one raises
    :class:`InvalidAction` naming the task and the step."""
    p = _problem(task)
    state = p.site.initial_state(p.world)
    for i, action in enumerate(actions):
        try:
            state = p.site.step(state, action, p.world)
        except InvalidAction as exc:
            raise InvalidAction(str(exc), task_id=task.id, step=i) from exc
    return state


def value_of(distance: int | None) -> float:
    """V(s) = 1 / (1 + d(s)); 0.0 when no goal is within reach (``None``)."""
    return 0.0 if distance is None else 1.0 / (1.0 + distance)


def clear_cache() -> None:
    """Drop every cached task and distance."""
    with _REGISTRY:
        _PROBLEMS.clear()


def task_lock(task_id: str) -> threading.RLock:
    """The lock a search of ``task_id`` holds over the task's caches: searches of one task
    take turns (the second reuses what the first found), searches of other tasks never wait
    on it. There is no process-wide lock held across a search."""
    with _REGISTRY:
        return _LOCKS.setdefault(task_id, threading.RLock())


# -- one task's search problem ---------------------------------------------------------------
class _LRU(OrderedDict[Hashable, Any]):
    def __init__(self, maxsize: int):
        super().__init__()
        self.maxsize = maxsize

    def lookup(self, key: Hashable) -> Any:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def store(self, key: Hashable, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        if len(self) > self.maxsize:
            self.popitem(last=False)


@dataclass(eq=False)
class Problem:
    task: Task
    site: Site
    world: World
    candidates: dict[tuple[str, str], tuple[Any, ...]]
    relevant: frozenset[str]
    focused: bool = False
    known: _LRU = field(default_factory=lambda: _LRU(_RESULTS_PER_TASK))
    beyond: _LRU = field(default_factory=lambda: _LRU(_RESULTS_PER_TASK))
    dead: _LRU = field(default_factory=lambda: _LRU(_RESULTS_PER_TASK))
    successors: _LRU = field(default_factory=lambda: _LRU(_SUCCESSORS_PER_TASK))
    _fills: dict[tuple[str, tuple[str, ...]], list[dict[str, Any]]] = field(default_factory=dict)
    _entity_params: dict[str, frozenset[str]] = field(default_factory=dict)
    _touched: _LRU = field(default_factory=lambda: _LRU(_SUCCESSORS_PER_TASK))
    _start_facts: dict[str, tuple[Any, set[str]]] | None = None
    """The start's facts, each with the strings it holds (:meth:`touched`)."""
    _touched_last: tuple[State | None, frozenset[str]] = (None, frozenset())

    def __post_init__(self) -> None:
        self._bound: Bound | None = None
        self._informed: InformedBound | None = None
        self.key: Callable[[State], Hashable] = state_key_fn(self.site.initial_state(self.world))

    @property
    def bound(self) -> Bound:
        """The site's admissible bound for this task, built on first use: a caller that only
        lists candidate actions (the difficulty measure's undo search) never pays for it."""
        if self._bound is None:
            factory = getattr(self.site, "distance_bound", None) or _trivial_bound
            self._bound = factory(self)
        return self._bound

    @property
    def informed(self) -> InformedBound | None:
        """The site's admissible bound on the informed distance (``Site.informed_bound``),
        built on first use; None when the site declares none."""
        factory = getattr(self.site, "informed_bound", None)
        if factory is None:
            return None
        if self._informed is None:
            self._informed = factory(self)
        return self._informed

    def is_goal(self, facts: Facts) -> bool:
        return all(check_condition(c, facts) for c in self.task.verifier)

    def actions(self, state: State, keep: Callable[[str], bool] | None = None) -> list[Action]:
        """The candidate actions in ``state``; ``keep``: those whose name it accepts (the
        final sort is stable, so they come in the order the full list has them)."""
        out: list[Action] = []
        for offered in self.site.available(state, self.world):  # the page is not needed
            if keep is not None and not keep(offered.name):
                continue
            if not self.may_act_on(state, self._entities_named(offered)):
                continue
            out += [Action(offered.name, {**offered.params, **extra})
                    for extra in self._fill(offered)]
        # Actions on the task's own entities first: the last expansion stops at the first goal.
        out.sort(key=lambda a: not any(v in self.relevant for v in a.params.values()
                                       if isinstance(v, str)))
        return out

    def may_act_on(self, state: State, entities: Iterable[Any]) -> bool:
        """Whether the search offers, in ``state``, an action naming ``entities``: any when
        unfocused; focused, the task's own (:attr:`relevant`) and those the agent's changes
        name (:meth:`touched`, read only for an entity not the task's own)."""
        if not self.focused:
            return True
        others = [e for e in entities if e not in self.relevant]
        if not others:
            return True
        touched = self.touched(state)
        return all(e in touched for e in others)

    def touched(self, state: State) -> frozenset[str]:
        """The entities ``state``'s facts name under a fact where the start's facts do not (a
        dish put in the cart, a thread moved, an answer accepted), but the task's own: a
        focused search acts on them too, so it can undo what an agent did there."""
        if state is self._touched_last[0]:  # the state whose actions are being listed
            return self._touched_last[1]
        key = self.key(state)
        found = self._touched.lookup(key)
        if found is None:
            if self._start_facts is None:
                facts = self.site.facts(self.site.initial_state(self.world))
                self._start_facts = {f: (v, _strings(v)) for f, v in facts.items()}
            start, ents = self._start_facts, self.world.entities
            # only the facts that differ from the start's can name a new entity
            found = frozenset(
                e for fact, value in self.site.facts(state).items()
                if fact not in start or start[fact][0] != value
                for e in _strings(value) - (start[fact][1] if fact in start else set())
                if e in ents and e not in self.relevant)
            self._touched.store(key, found)
        self._touched_last = (state, found)
        return found  # type: ignore[no-any-return]

    def _entities_named(self, offered: Action) -> list[Any]:
        """The values of ``offered``'s entity parameters."""
        entity = self._entity_params.get(offered.name)
        if entity is None:
            entity = frozenset(p.name for p in self.site.action_spec(offered.name).params
                               if p.type == "entity")
            self._entity_params[offered.name] = entity
        return [offered.params.get(n, "") for n in entity if n in offered.params]

    def _fill(self, offered: Action) -> list[dict[str, Any]]:
        """Every completion of the parameters ``offered`` leaves to the agent."""
        key = (offered.name, tuple(sorted(offered.params)))
        if key not in self._fills:
            spec = self.site.action_spec(offered.name)
            options = []
            for p in spec.params:
                if p.name in offered.params:
                    continue
                values = self.candidates.get((offered.name, p.name), ())
                options.append([(p.name, v) for v in (*values, *((_OMIT,) if p.optional else ()))])
            self._fills[key] = [{k: v for k, v in combo if v is not _OMIT}
                                for combo in itertools.product(*options)]
        return self._fills[key]

    def children(self, state: State) -> Iterable[State]:
        """The states the candidate actions lead to (a rejected action is not an edge). Kept
        per state: searches from nearby states (a task's rollouts) expand the same ones."""
        key = self.key(state)
        found = self.successors.lookup(key)
        if found is None:
            found = []
            for action in self.actions(state):
                try:
                    found.append(self.site.step(state, action, self.world))
                except InvalidAction:
                    continue
            self.successors.store(key, tuple(found))
        return found

    def search(self, state: State, limit: float) -> int | None:
        """The distance, :data:`UNREACHABLE`, or None when ``limit`` expansions did not
        settle it."""
        return memoised(self.known, self.dead, self.beyond, self.key(state), limit,
                        lambda: _astar(self, state, limit))


def memoised(known: _LRU, dead: _LRU, beyond: _LRU, key: Hashable, limit: float,
             search: Callable[[], int | None]) -> int | None:
    """``search()``'s answer for ``key`` through its caches: a distance found, a proof that no
    goal is reachable, or the largest budget that was not enough (a search with no more
    budget than that is not run again)."""
    found = known.lookup(key)
    if found is not None:
        return int(found)
    if dead.lookup(key) is not None:
        return UNREACHABLE
    tried = beyond.lookup(key)
    if tried is not None and tried >= limit:
        return None
    found = search()
    if found is None:
        beyond.store(key, limit)
    elif found == UNREACHABLE:
        dead.store(key, True)
    return found


def _strings(value: Any) -> set[str]:
    """Every string a fact's value holds, nested lists, sets and mappings (keys too)
    included."""
    out: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, Mapping):
            stack += [*v.keys(), *v.values()]
        elif isinstance(v, list | tuple | set | frozenset):
            stack += v
    return out


def state_key_fn(example: State) -> Callable[[State], Hashable]:
    """States are frozen dataclasses and normally hash; a site whose state holds a mutable
    value is keyed by its stable digest instead."""
    try:
        hash(example)
    except TypeError:
        return state_key
    return lambda s: s


def _candidate_values(task: Task, site: Site) -> dict[tuple[str, str], tuple[Any, ...]]:
    """(action, parameter) -> the oracle's values for it, then the site's example value."""
    out: dict[tuple[str, str], list[Any]] = {}
    for spec in site.actions:
        for p in spec.params:
            values = [a.params[p.name] for a in task.oracle
                      if a.name == spec.name and p.name in a.params]
            if p.name in site.example_params:
                values.append(site.example_params[p.name])
            out[(spec.name, p.name)] = list({repr(v): v for v in values}.values())
    return {k: tuple(v) for k, v in out.items()}


_PROBLEMS: OrderedDict[tuple[str, bool], Problem] = OrderedDict()
_LOCKS: dict[str, threading.RLock] = {}
"""One lock a task id, kept for the process (a few hundred bytes each): a lock dropped while
held would let two searches share a task's caches."""
_REGISTRY = threading.Lock()
"""Guards the two tables above, never held across a search."""


def _problem(task: Task, focused: bool = False, world: World | None = None) -> Problem:
    """The task's search problem, cached by task id; ``world`` (equal to ``task.world``)
    saves rebuilding it and keeps the site's per-world caches warm."""
    key = (task.id, focused)
    with _REGISTRY:
        p = _PROBLEMS.get(key)
        if p is not None and (p.task is task or p.task == task):
            _PROBLEMS.move_to_end(key)
            return p
    site = get_site(task.site)
    world = world or World.from_dict(task.world)
    own = frozenset({task.target, *task.hard_negatives, *task.companions, *_oracle_entities(task)})
    p = Problem(task, site, world, _candidate_values(task, site), site.own_entities(world, own),
                focused)
    with _REGISTRY:
        _PROBLEMS[key] = p
        if len(_PROBLEMS) > _TASKS_CACHED:
            _PROBLEMS.popitem(last=False)
    return p


def _oracle_entities(task: Task) -> set[str]:
    """String parameter values of the oracle's actions (the entities it opens or acts on)."""
    return {v for a in task.oracle_actions() for v in a.params.values() if isinstance(v, str)}


# -- A* ---------------------------------------------------------------------------------------
_ROUGH, _SHARP, _EXACT = 0, 1, 2
"""How a heap entry's h was found: the bound without looking at what lists show, the full
bound, or exactly (a goal, h = 0, or a cached distance)."""


def _astar(p: Problem, start: State, limit: float) -> int | None:
    """The distance from ``start``; :data:`UNREACHABLE` when the bound is infinite there or
    every reachable state was expanded; None when ``limit`` expansions were not enough.

    A* with unit costs over heap entries (f, -g, n, key, how). With an admissible h some
    open entry always has f <= C*, so a solution of cost <= the least open f is optimal:
    a goal is accepted as soon as it is generated, an exact entry as soon as it is popped.
    A child is queued with the rough bound (which never exceeds the full one, so it is
    admissible too) and sharpened only if popped: most children are never popped."""
    facts = p.site.facts(start)
    if p.is_goal(facts):
        p.known.store(p.key(start), 0)
        return 0
    h0 = p.bound(start, facts, True)
    if h0 == math.inf:
        return UNREACHABLE
    k0 = p.key(start)
    states, best_g = {k0: start}, {k0: 0}
    parent: dict[Hashable, Hashable | None] = {k0: None}
    tie = itertools.count()
    heap = [(max(h0, 1.0), 0, next(tie), k0, _SHARP)]
    expansions = 0
    while heap:
        f, neg_g, _, key, how = heapq.heappop(heap)
        g = -neg_g
        if best_g[key] < g:
            continue  # stale entry: a shorter path reached this state later
        if how == _EXACT:
            return _solved(p, parent, best_g, key, int(f))
        if how == _ROUGH:
            sharp = g + max(1.0, p.bound(states[key], p.site.facts(states[key]), True))
            if sharp > f:
                heapq.heappush(heap, (sharp, neg_g, next(tie), key, _SHARP))
                continue
        if expansions >= limit:
            return None
        expansions += 1
        for child in p.children(states[key]):
            ck, cg = p.key(child), g + 1
            if best_g.get(ck, math.inf) <= cg:
                continue
            known = p.known.lookup(ck)
            if known is not None:
                h, how = float(known), _EXACT
            else:
                cfacts = p.site.facts(child)
                goal = p.is_goal(cfacts)
                h, how = (0.0, _EXACT) if goal else (p.bound(child, cfacts, False), _ROUGH)
            if h == math.inf:
                continue
            states[ck], best_g[ck], parent[ck] = child, cg, key
            if how == _EXACT and cg + h <= f:
                return _solved(p, parent, best_g, ck, int(cg + h))
            if how == _ROUGH:
                h = max(h, 1.0)  # not a goal: at least one more action
            heapq.heappush(heap, (cg + h, -cg, next(tie), ck, how))
    return UNREACHABLE  # every state reachable from start was expanded: no goal among them


def _solved(p: Problem, parent: Mapping[Hashable, Hashable | None],
            best_g: Mapping[Hashable, int], key: Hashable, total: int) -> int:
    """Every state on the shortest path found lies ``total - g`` from the goal: cache them."""
    node: Hashable | None = key
    while node is not None:
        p.known.store(node, total - best_g[node])
        node = parent[node]
    return total


# -- admissible bounds -----------------------------------------------------------------------
# Each bound is a lower bound on the number of actions any path from s to a goal contains.
# A site may declare one as ``distance_bound(problem) -> Bound`` (shopping and mail do, in
# their ``bound`` modules); a site's bound is the max of its groups' bounds (each a lower
# bound on its own), or a sum where the proof shows the groups' actions are distinct.
# Conditions no group recognises count 1 while unmet (at least one more action), which is
# always admissible. Without one, the bound is 1 (plain breadth-first A*).


def unmet(conditions: Iterable[Condition], facts: Facts) -> bool:
    return not all(check_condition(c, facts) for c in conditions)


def visits(n: int, first_here: bool) -> int:
    """For a site's informed bound: the actions that open ``n`` detail pages one after another
    where a page opens only from a list and no action goes from one page straight to another:
    an arrival each, a way back to a list between two, and one more first unless the first
    opens from here (``first_here``)."""
    return 2 * n - first_here if n else 0


def _trivial_bound(p: Problem) -> Bound:
    return lambda state, facts, look: 1.0
