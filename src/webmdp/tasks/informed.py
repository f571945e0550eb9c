"""The informed distance: the shortest way to a commit with the evidence seen on the way, the
oracle's kind of path.

:func:`webmdp.tasks.distance.distance_to_goal` measures the way to a state where the verifier
holds, so inspecting a hard negative, or the target's detail page when the commit does not need
it, looks like a detour. Here the MDP is augmented with what has been seen: a node is (semantic
state, evidence seen), a move reveals what the next screen shows (``site.observe(s').revealed()``,
as :class:`~webmdp.tracking.Tracker` records it), and a goal is a verifier goal reached with
every evidence pair seen. The search is A* with the larger of two admissible bounds: the
site's bound on the way to a verifier goal (an augmented path reaches one too), and the evidence
bound (:meth:`_Informed.unseen_bound`: the screens still to be seen, from the site's declared
:attr:`~webmdp.core.site.Site.evidence_gap`), raised to what earlier searches of the task proved
(Adaptive A*); a node is dropped when its state was reached as cheaply having seen at least as
much.

The search has no budget unless a caller gives one: with admissible bounds it ends with the
exact distance, so the distance is a pure function of (task, state, seen), whatever the process
searched before (the caches hold exact values and lower bounds only).
"""

from __future__ import annotations

import heapq
import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from webmdp.core.entities import kind_of
from webmdp.core.model import State, World
from webmdp.core.registry import get_site
from webmdp.core.site import Site
from webmdp.tasks.distance import (
    _EXACT,
    _LRU,
    _ROUGH,
    _SHARP,
    UNREACHABLE,
    Facts,
    Problem,
    Reach,
    _problem,
    memoised,
    task_lock,
)
from webmdp.tasks.model import Task

Pair = tuple[str, str]
"""(entity, field): the unit of information coverage (C.4)."""
DEFAULT_INFORMED_EXPANSIONS: int | None = None
"""No budget: the search runs until it settles the distance (the dense reward's Φ is exact)."""
_RESULTS_PER_TASK = 50_000
_REVEALS_PER_TASK = 20_000
_TASKS_CACHED = 16


def evidence(task: Task) -> tuple[Pair, ...]:
    """What the informed goal asks to have seen: the task's information constraints (C.4, the
    target's fields), then every hard negative the oracle inspects, on the detail-level fields
    those constraints name (the oracle opens the hard negatives ranked above the target to
    rule them out; coverage leaves that out, :meth:`TaskTemplate.info_constraints`)."""
    own = [(c.entity, c.field) for c in task.info_constraints]
    detail = {c.field for c in task.info_constraints if c.level == "detail"}
    negatives = set(task.hard_negatives)
    ruled_out = [(e, f) for e, f in sorted(_oracle_seen(task))
                 if e in negatives and f in detail]
    return tuple(dict.fromkeys([*own, *ruled_out]))


def constraints(task: Task) -> tuple[Pair, ...]:
    """The task's information constraints alone, as pairs (the evidence coverage counts)."""
    return tuple(dict.fromkeys((c.entity, c.field) for c in task.info_constraints))


def informed_distance(task: Task, state: State, seen: Iterable[Pair] | None = None, *,
                      max_expansions: int | None = DEFAULT_INFORMED_EXPANSIONS,
                      focused: bool = True, pairs: Sequence[Pair] | None = None) -> int | None:
    """Exact number of agent actions from ``state``, having seen ``seen``, to a state where
    every condition of ``task.verifier`` holds and every pair of :func:`evidence` (``pairs``
    instead, when given) was seen: in ``seen``, on ``state``'s screen or on a screen on the
    way. None when none is reachable, or none was found within ``max_expansions`` A*
    expansions (None: no budget, the search settles it).

    ``seen``: the episode's seen set (:attr:`Tracker.seen`); None: ``state``'s own screen
    only, which is the seen set at an episode's start. ``focused``: the action space
    :func:`~webmdp.tasks.distance.reach` searches with it (actions on the task's own entities or
    on none; the evidence names only the target and hard negatives). With every pair seen this
    is :func:`distance_to_goal` over that action space.

    Results are cached per (task, state, pairs seen) in bounded LRUs, every node on a shortest
    path found too, beside the state distances' own caches."""
    return informed_reach(task, state, seen, max_expansions=max_expansions, focused=focused,
                          pairs=pairs).distance


def informed_reach(task: Task, state: State, seen: Iterable[Pair] | None = None, *,
                   max_expansions: int | None = DEFAULT_INFORMED_EXPANSIONS, focused: bool = True,
                   pairs: Sequence[Pair] | None = None) -> Reach:
    """:func:`informed_distance` telling a provably unreachable goal from an unknown one."""
    limit = math.inf if max_expansions is None else max_expansions
    with task_lock(task.id):
        search = _search_of(task, focused, pairs)
        found = search.distance(state, search.mask_of(seen, state), limit)
    return Reach(None, True) if found == UNREACHABLE else Reach(found)


def clear_cache() -> None:
    """Drop every cached informed distance and screen."""
    with _REGISTRY:
        _SEARCHES.clear()


def _oracle_seen(task: Task) -> set[Pair]:
    """Every pair the oracle's screens show, the first one included (a Tracker's ``seen``)."""
    site, world = get_site(task.site), World.from_dict(task.world)
    state = site.initial_state(world)
    seen = site.observe(state, world).revealed()
    for action in task.oracle_actions():
        state = site.step(state, action, world)
        seen |= site.observe(state, world).revealed()
    return seen


# -- one task's augmented search --------------------------------------------------------------
@dataclass(eq=False)
class _Informed:
    """A task's evidence pairs as bits, the screens' reveals and the distances found; the
    search problem itself (actions, successors, bound, state distances) is :mod:`distance`'s."""

    task: Task
    pairs: tuple[Pair, ...]
    focused: bool
    reveals: _LRU = field(default_factory=lambda: _LRU(_REVEALS_PER_TASK))
    names: _LRU = field(default_factory=lambda: _LRU(_REVEALS_PER_TASK))
    known: _LRU = field(default_factory=lambda: _LRU(_RESULTS_PER_TASK))
    beyond: _LRU = field(default_factory=lambda: _LRU(_RESULTS_PER_TASK))
    dead: _LRU = field(default_factory=lambda: _LRU(_RESULTS_PER_TASK))
    floors: _LRU = field(default_factory=lambda: _LRU(_RESULTS_PER_TASK))
    """(state, everything seen there) -> a lower bound on its distance learned by an earlier
    search (Adaptive A*, Koenig & Likhachev 2005): searches from nearby states, an
    episode's next steps, start with a sharper bound."""

    def __post_init__(self) -> None:
        self.bit = {pair: 1 << i for i, pair in enumerate(self.pairs)}
        self.full = (1 << len(self.pairs)) - 1
        self.groups = _detail_groups(self.problem.site, self.bit)
        self.detail_bits = {e: tuple((f, b) for (pe, f), b in self.bit.items() if pe == e and
                                     m & b) for _, masks, entities in self.groups
                            for m, e in zip(masks, entities, strict=True)}
        """Each entity's detail evidence fields with their bits (what joint_bound names)."""

    def unseen_bound(self, mask: int, state: State | None = None) -> int:
        """A lower bound on the actions still needed to see every evidence pair, having seen
        ``mask`` (``state``'s screen included, when given): 1 while any is unseen; for a kind
        whose :attr:`~webmdp.core.site.Site.evidence_gap` is 1, one action per entity whose
        detail fields are unseen (each is a screen of its own); from 2 on, 2k - 1 for k such
        entities (each later one takes a way off the last one's screen too); at 3, one more
        when ``state``'s screen neither shows any of them nor offers an action naming one
        (the first needs a screen that does). The
        kinds' bounds may share actions, so their maximum is taken."""
        if mask == self.full:
            return 0
        best, named = 1, None
        for gap, masks, entities in self.groups:
            unseen = [e for m, e in zip(masks, entities, strict=True) if m & ~mask]
            k = len(unseen)
            if not k:
                continue
            h = k if gap == 1 else 2 * k - 1
            if gap >= 3 and state is not None:
                if named is None:
                    named = self.named(state)
                h += not any(e in named for e in unseen)
            best = max(best, h)
        return best

    def joint_bound(self, state: State, facts: Facts, mask: int, look: bool = True) -> float:
        """The site's bound on the informed distance from ``state`` having seen ``mask``
        (``Site.informed_bound``: its commits plus the navigation its unseen detail screens
        need); 0 when the site declares none or every detail pair is seen."""
        fn = self.problem.informed
        if fn is None or mask == self.full:
            return 0.0
        unseen = []
        for gap, masks, entities in self.groups:
            es = tuple(e for m, e in zip(masks, entities, strict=True) if m & ~mask)
            if es:
                fields = tuple(frozenset(f for f, b in self.detail_bits[e] if b & ~mask)
                               for e in es)
                unseen.append((gap, es, fields))
        return fn(state, facts, unseen, look) if unseen else 0.0

    def named(self, state: State) -> frozenset[str]:
        """The entities ``state``'s screen shows or names in an action it offers (both read
        from the one observation :meth:`reveal` makes)."""
        p = self.problem
        key = p.key(state)
        found = self.names.lookup(key)
        if found is None:
            self.reveal(p, state, fresh=True)
            found = self.names.lookup(key)
        return found  # type: ignore[no-any-return]

    @property
    def problem(self) -> Problem:
        return _problem(self.task, self.focused)

    def mask_of(self, seen: Iterable[Pair] | None, state: State) -> int:
        mask = self.reveal(self.problem, state)
        for pair in seen or ():
            mask |= self.bit.get((pair[0], pair[1]), 0)
        return mask

    def reveal(self, p: Problem, state: State, fresh: bool = False) -> int:
        """The evidence bits ``state``'s screen shows; kept apart, the entities it shows and
        (:meth:`named`) those it shows or names in an action it offers, all from one
        observation. ``fresh``: read the screen again (an LRU dropped a part)."""
        key = p.key(state)
        found = self.reveals.lookup(key)
        if found is None or fresh:
            obs = p.site.observe(state, p.world)
            shown = obs.revealed()
            found = sum(b for pair, b in self.bit.items() if pair in shown)
            entities = frozenset(e for e, _ in shown)
            self.reveals.store(key, found)
            self.names.store(key, entities | frozenset(
                v for a in obs.available for v in a.params.values() if isinstance(v, str)))
        return int(found)

    def distance(self, state: State, mask: int, limit: float) -> int | None:
        """The distance, :data:`UNREACHABLE`, or None when ``limit`` expansions did not
        settle it; cached per (state, mask) as :meth:`Problem.search` caches per state."""
        p = self.problem
        if mask == self.full:
            return p.search(state, limit)  # everything seen: the verifier goal is the goal
        return memoised(self.known, self.dead, self.beyond, (p.key(state), mask), limit,
                        lambda: _astar(self, p, state, mask, limit))


def _detail_groups(site: Site, bit: Mapping[Pair, int]
                   ) -> tuple[tuple[int, tuple[int, ...], tuple[str, ...]], ...]:
    """Per entity kind the site declares a gap for: (gap, each entity's detail-field bits,
    the entities)."""
    by_kind: dict[str, dict[str, int]] = {}
    for (entity, name), b in bit.items():
        kind = kind_of(entity)
        if site.evidence_gap.get(kind, 0) > 0 and name not in site.card_fields_of(kind):
            entity_bits = by_kind.setdefault(kind, {})
            entity_bits[entity] = entity_bits.get(entity, 0) | b
    return tuple((min(site.evidence_gap[k], 3), tuple(v.values()), tuple(v))
                 for k, v in by_kind.items())


_SEARCHES: OrderedDict[tuple[str, bool, tuple[Pair, ...] | None], _Informed] = OrderedDict()
_REGISTRY = threading.Lock()
"""Guards the table of searches; a search itself holds its task's lock
(:func:`webmdp.tasks.distance.task_lock`), so sessions on other tasks never wait for it."""


def _search_of(task: Task, focused: bool, pairs: Sequence[Pair] | None) -> _Informed:
    key = (task.id, focused, None if pairs is None else tuple(pairs))
    with _REGISTRY:
        s = _SEARCHES.get(key)
        if s is not None and (s.task is task or s.task == task):
            _SEARCHES.move_to_end(key)
            return s
    chosen = evidence(task) if pairs is None else tuple(dict.fromkeys(pairs))
    s = _Informed(task, chosen, focused)
    with _REGISTRY:
        _SEARCHES[key] = s
        if len(_SEARCHES) > _TASKS_CACHED:
            _SEARCHES.popitem(last=False)
    return s


# -- A* over (state, evidence seen) -----------------------------------------------------------
Node = tuple[Hashable, int]
"""(state key, the evidence seen before arriving there): a screen is read only when its state
is popped or is a verifier goal, which most generated states never are."""


def _astar(s: _Informed, p: Problem, start: State, mask: int, limit: float) -> int | None:
    """:func:`webmdp.tasks.distance._astar` over augmented nodes: unit costs, a child queued
    with the rough bound and sharpened when popped, a goal accepted when generated once its
    cost is at most the least open f (some open entry on an optimal path has f <= C*). A node
    is skipped when its state was reached as cheaply having seen at least as much."""
    facts0 = p.site.facts(start)
    h0 = max(p.bound(start, facts0, True), s.joint_bound(start, facts0, mask))
    if h0 == math.inf:
        return UNREACHABLE
    k0: Node = (p.key(start), mask)
    h0 = max(h0, s.unseen_bound(mask, start), s.floors.lookup(k0) or 0)
    states, best_g, seen = {k0: start}, {k0: 0}, {k0: mask}
    parent: dict[Node, Node | None] = {k0: None}
    reached: dict[Hashable, dict[int, int]] = {k0[0]: {mask: 0}}
    tie = itertools.count()
    heap = [(max(h0, 1.0), 0, next(tie), k0, _SHARP)]
    expanded: list[Node] = []
    while heap:
        f, neg_g, _, key, how = heapq.heappop(heap)
        g = -neg_g
        if best_g[key] < g:
            continue  # stale entry: a shorter path reached this node later
        if how == _EXACT:
            return _learn(s, expanded, best_g, seen, int(f),
                          _solved(s, parent, best_g, seen, key, int(f)))
        state = states[key]
        if key not in seen:
            seen[key] = key[1] | s.reveal(p, state)
        if how == _ROUGH:
            floor = s.floors.lookup((key[0], seen[key])) or 0
            facts = p.site.facts(state)
            sharp = g + max(1.0, floor, s.unseen_bound(seen[key], state),
                            p.bound(state, facts, True), s.joint_bound(state, facts, seen[key]))
            if sharp == math.inf:
                continue  # the site proves no goal is reachable from here
            if sharp > f:
                heapq.heappush(heap, (sharp, neg_g, next(tie), key, _SHARP))
                continue
        if len(expanded) >= limit:
            return _learn(s, expanded, best_g, seen, int(f), None)
        expanded.append(key)
        for child in p.children(state):
            ck: Node = (p.key(child), seen[key])
            cg = g + 1
            if best_g.get(ck, math.inf) <= cg or _dominated(reached, ck, cg):
                continue
            h, how = _estimate(s, p, child, ck, seen)
            if h == math.inf:
                continue
            states[ck], best_g[ck], parent[ck] = child, cg, key
            reached.setdefault(ck[0], {})[ck[1]] = cg
            if how == _EXACT and cg + h <= f:
                return _learn(s, expanded, best_g, seen, int(cg + h),
                              _solved(s, parent, best_g, seen, ck, int(cg + h)))
            heapq.heappush(heap, (cg + h, -cg, next(tie), ck, how))
    return UNREACHABLE  # every reachable node was expanded: no goal among them


def _learn(s: _Informed, expanded: Sequence[Node], best_g: Mapping[Node, int],
           seen: Mapping[Node, int], least: int, found: int | None) -> int | None:
    """Pass ``found`` on after keeping ``least - g`` as a lower bound on the distance of every
    node expanded: the start is at least ``least`` from the goal (the distance found, or the
    least f open when the budget ran out, since an open node on a shortest path has f <= C*),
    so a node it reaches in g actions is at least ``least - g`` from it."""
    for node in expanded:
        bound = least - best_g[node]
        key = (node[0], seen[node])
        if bound > (s.floors.lookup(key) or 0):
            s.floors.store(key, bound)
    return found


def _dominated(reached: Mapping[Hashable, Mapping[int, int]], node: Node, g: int) -> bool:
    """Whether the node's state was reached as cheaply having seen at least as much: all this
    node can still do, that one can too."""
    mask = node[1]
    return any(m | mask == m and mg <= g for m, mg in reached.get(node[0], {}).items())


def _estimate(s: _Informed, p: Problem, state: State, key: Node,
              seen: dict[Node, int]) -> tuple[float, int]:
    """A child's h and how it was found: exact from the state cache when everything is seen
    (the distance is then the state's own) or at a goal; the evidence bound at a verifier goal
    with evidence unseen; else the rough bound, at least 1."""
    if key[1] == s.full:
        known = p.known.lookup(key[0])
        if known is not None:
            seen[key] = s.full
            return float(known), _EXACT
    facts = p.site.facts(state)
    if p.is_goal(facts):
        seen[key] = key[1] | s.reveal(p, state)
        return (0.0, _EXACT) if seen[key] == s.full else \
            (float(s.unseen_bound(seen[key], state)), _SHARP)
    h = p.bound(state, facts, False)
    # its own screen is not read yet: it may show one entity's detail fields (one fewer)
    return (h if h == math.inf else max(h, 1.0, s.unseen_bound(key[1]) - 1.0)), _ROUGH


def _solved(s: _Informed, parent: Mapping[Node, Node | None], best_g: Mapping[Node, int],
            seen: Mapping[Node, int], key: Node, total: int) -> int:
    """Every node on the path found lies ``total - g`` from the goal: cache each by (state,
    everything seen there); one that has seen it all in the state cache, its distance too."""
    node: Node | None = key
    while node is not None:
        if seen[node] == s.full:
            s.problem.known.store(node[0], total - best_g[node])
        else:
            s.known.store((node[0], seen[node]), total - best_g[node])
        node = parent[node]
    return total
