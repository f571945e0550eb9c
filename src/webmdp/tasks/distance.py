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
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from webmdp.core.model import State, World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.tasks.model import Condition, Task
from webmdp.tasks.verifier import check_condition
from webmdp.tracking import state_key

Facts = dict[str, Any]
Bound = Callable[[State, Facts, bool], float]
"""A lower bound on the distance of a state to the goal (``math.inf``: provably unreachable).
With ``look`` False it does not list what the screen shows and assumes every entity is on
it: a weaker (never larger) bound that is much cheaper to compute."""

DEFAULT_MAX_EXPANSIONS = 1_000
_RESULTS_PER_TASK = 50_000
_TASKS_CACHED = 16
_OMIT = object()


# -- public API ------------------------------------------------------------------------------
def distance_to_goal(task: Task, state: State, *,
                     max_expansions: int = DEFAULT_MAX_EXPANSIONS) -> int | None:
    """Exact number of agent actions from ``state`` to a state where every condition of
    ``task.verifier`` holds (0 when ``state`` is one), or None when no goal was found within
    ``max_expansions`` A* expansions, or none is reachable at all (e.g. a wrong message was
    already sent).

    The action space is :func:`candidate_actions`: every action ``observe(s).available``
    offers; a parameter an offered action leaves to the agent takes each value the task's
    oracle gives that parameter of that action, or ``site.example_params`` gives that
    parameter name, and an optional one may also be left out. Actions the site rejects
    (:class:`InvalidAction`) are not edges. The distance is exact over that action space.

    Results are cached per (task id, state) in a bounded LRU; every state on a shortest path
    found is cached too, so a tree search walking down good moves pays once.
    """
    return _problem(task).distance(state, max_expansions)


def candidate_actions(task: Task, state: State) -> list[Action]:
    """The agent actions :func:`distance_to_goal` searches over in ``state`` (see there)."""
    return _problem(task).actions(state)


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
    _PROBLEMS.clear()


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
class _Problem:
    task: Task
    site: Site
    world: World
    candidates: dict[tuple[str, str], tuple[Any, ...]]
    relevant: frozenset[str]
    bound: Bound = field(init=False)
    known: _LRU = field(default_factory=lambda: _LRU(_RESULTS_PER_TASK))
    beyond: _LRU = field(default_factory=lambda: _LRU(_RESULTS_PER_TASK))
    _fills: dict[tuple[str, tuple[str, ...]], list[dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        factory = _BOUNDS.get(self.site.name, _trivial_bound)
        self.bound = factory(self)
        self.key: Callable[[State], Hashable] = _state_key_fn(self.site.initial_state(self.world))

    def is_goal(self, facts: Facts) -> bool:
        return all(check_condition(c, facts) for c in self.task.verifier)

    def actions(self, state: State) -> list[Action]:
        out: list[Action] = []
        for offered in self.site.observe(state, self.world).available:
            out += [Action(offered.name, {**offered.params, **extra})
                    for extra in self._fill(offered)]
        # Actions on the task's own entities first: the last expansion stops at the first goal.
        out.sort(key=lambda a: not any(v in self.relevant for v in a.params.values()
                                       if isinstance(v, str)))
        return out

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
        for action in self.actions(state):
            try:
                yield self.site.step(state, action, self.world)
            except InvalidAction:
                continue  # a rejected action is not an edge of the MDP

    def distance(self, state: State, limit: int) -> int | None:
        key = self.key(state)
        known = self.known.lookup(key)
        if known is not None:
            return int(known)
        tried = self.beyond.lookup(key)
        if tried is not None and tried >= limit:
            return None
        found = _astar(self, state, limit)
        if found is None:
            self.beyond.store(key, limit)
        return found


def _state_key_fn(example: State) -> Callable[[State], Hashable]:
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


_PROBLEMS: OrderedDict[str, _Problem] = OrderedDict()


def _problem(task: Task) -> _Problem:
    p = _PROBLEMS.get(task.id)
    if p is not None and (p.task is task or p.task == task):
        _PROBLEMS.move_to_end(task.id)
        return p
    site = get_site(task.site)
    p = _Problem(task, site, World.from_dict(task.world), _candidate_values(task, site),
                 frozenset({task.target, *task.hard_negatives, *task.companions}))
    _PROBLEMS[task.id] = p
    if len(_PROBLEMS) > _TASKS_CACHED:
        _PROBLEMS.popitem(last=False)
    return p


# -- A* ---------------------------------------------------------------------------------------
_ROUGH, _SHARP, _EXACT = 0, 1, 2
"""How a heap entry's h was found: the bound without looking at what lists show, the full
bound, or exactly (a goal, h = 0, or a cached distance)."""


def _astar(p: _Problem, start: State, limit: int) -> int | None:
    """A* with unit costs over heap entries (f, -g, n, key, how). With an admissible h some
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
        return None
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
    return None


def _solved(p: _Problem, parent: Mapping[Hashable, Hashable | None],
            best_g: Mapping[Hashable, int], key: Hashable, total: int) -> int:
    """Every state on the shortest path found lies ``total - g`` from the goal: cache them."""
    node: Hashable | None = key
    while node is not None:
        p.known.store(node, total - best_g[node])
        node = parent[node]
    return total


# -- admissible bounds -----------------------------------------------------------------------
# Each bound is a lower bound on the number of actions any path from s to a goal contains.
# A site's bound is the max of its groups' bounds (each a lower bound on its own), or a sum
# where the proof shows the groups' actions are distinct. Conditions no group recognises
# count 1 while unmet (at least one more action), which is always admissible.


def _unmet(conditions: Iterable[Condition], facts: Facts) -> bool:
    return not all(check_condition(c, facts) for c in conditions)


def _trivial_bound(p: _Problem) -> Bound:
    return lambda state, facts, look: 1.0


def _shopping_bound(p: _Problem) -> Bound:
    """Shopping. Facts used: only AddToCart (on ProductDetail of the focused product) puts a
    product into the cart or changes its line's options; only OpenProduct reaches
    ProductDetail, from a SearchResults page showing the product; only OpenCart reaches Cart,
    only ProceedToCheckout (from Cart) reaches Checkout; a line leaves the cart by
    RemoveFromCart (one line, on Cart) or PlaceOrder (all lines, on Checkout); only
    PlaceOrder changes the order, only SetShippingSpeed the shipping speed; OpenProduct
    resets the options to the product's first colour and size."""
    from webmdp.sites.shopping.mdp import visible_ids
    from webmdp.sites.shopping.state import ShoppingState

    world = p.world
    adds = [c.value for c in p.task.verifier if c.fact == "cart.products" and c.op == "contains"]
    drops = [c.value for c in p.task.verifier
             if c.fact == "cart.products" and c.op == "not_contains"]
    order = [c for c in p.task.verifier if c.fact.startswith("order.")]
    goal = _order_goal(order)
    rest = [c for c in p.task.verifier if c.fact != "cart.products" or c.op == "eq"]
    rest = [c for c in rest if goal is None or c not in order]

    def reach(s: ShoppingState, pid: str, look: bool) -> int:
        """Actions before AddToCart can act on ``pid``: 0 on its page, else OpenProduct after
        (if it is not on screen) one action that brings up a results page showing it."""
        if s.surface == "ProductDetail" and s.focus == pid:
            return 0
        on_screen = s.surface == "SearchResults" and (not look or pid in visible_ids(world, s))
        return 1 if on_screen else 2

    def drop_cost(s: ShoppingState, k: int) -> int:
        """k lines must leave: k RemoveFromCart, or ProceedToCheckout + PlaceOrder (Checkout:
        PlaceOrder alone); from elsewhere first OpenCart."""
        if k == 0 or s.surface == "Checkout":
            return min(k, 1)
        return (s.surface != "Cart") + min(k, 2)

    def order_cost(s: ShoppingState, look: bool, pid: str,
                   opts: tuple[str | None, str | None], speed: str | None) -> int:
        """A final PlaceOrder on Checkout with the cart exactly [pid in ``opts``] at ``speed``."""
        cost = 1 + (speed is not None and s.shipping != speed)
        line = next((ln for ln in s.cart if ln[0] == pid), None)
        others = len(s.cart) - (line is not None)
        if line is not None and _mismatch((line[2], line[3]), opts) == 0:
            # keep the line: remove the others on Cart, then ProceedToCheckout (re-adding it
            # would cost AddToCart, OpenCart and ProceedToCheckout, no less)
            if others:
                return cost + (s.surface != "Cart") + 1 + min(others, 2)
            return cost + {"Checkout": 0, "Cart": 1}.get(s.surface, 2)
        # AddToCart with the right options, then OpenCart and ProceedToCheckout; the other
        # lines leave by RemoveFromCart each or by an earlier PlaceOrder (after a
        # ProceedToCheckout unless on Checkout already)
        cost += 3 + min(others, 1 if s.surface == "Checkout" else 2) + reach(s, pid, look)
        if s.surface == "ProductDetail" and s.focus == pid:  # reopening costs >= 2 >= this
            return cost + _mismatch((s.color, s.size), opts)
        prod = world.entities[pid]
        return cost + _mismatch((prod["colors"][0], (prod["sizes"] or [""])[0]), opts)

    def bound(state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, ShoppingState)
        in_cart = {ln[0] for ln in state.cart}
        # the add chain (results page, OpenProduct, AddToCart) and the removals (OpenCart,
        # RemoveFromCart / ProceedToCheckout + PlaceOrder) share no action: they add up
        add = max((reach(state, x, look) + 1 for x in adds if x not in in_cart), default=0)
        h = float(add + drop_cost(state, sum(x in in_cart for x in drops)))
        if goal is not None and _unmet(order, facts):
            h = max(h, order_cost(state, look, *goal))
        return max(h, float(_unmet(rest, facts)))

    return bound


def _order_goal(order: list[Condition]) -> tuple[str, tuple[str | None, str | None],
                                                 str | None] | None:
    """(product, (colour, size), speed) of an order goal 'exactly this product', or None
    when the order conditions have another shape."""
    eq = {c.fact: c.value for c in order if c.op == "eq"}
    products = eq.get("order.products")
    if len(eq) != len(order) or not (isinstance(products, list) and len(products) == 1):
        return None
    pid = products[0]
    allowed = {"order.placed", "order.products", "order.shipping", f"order.color.{pid}",
               f"order.size.{pid}"}
    if set(eq) - allowed or eq.get("order.placed", True) is not True:
        return None
    return pid, (eq.get(f"order.color.{pid}"), eq.get(f"order.size.{pid}")), \
        eq.get("order.shipping")


def _mismatch(have: tuple[str, str], want: tuple[str | None, str | None]) -> int:
    """SelectOption actions needed: one per constrained option that differs."""
    return sum(w is not None and h != w for h, w in zip(have, want, strict=True))


_MEMBERSHIP = frozenset({"starred", "unread", "read", "inbox", "archived", "deleted", "spam",
                         "sent_folder"})
_SENT_FIELDS = frozenset({"mode", "thread", "to", "cc", "subject", "body"})
_OPENERS = {"new": "Compose", "reply": "Reply", "reply_all": "ReplyAll", "forward": "Forward"}


def _mail_bound(p: _Problem) -> Bound:
    """Mail. Facts used: a thread's flags, folder and labels change only by an action naming
    it (on its list row or its open thread) or a bulk action on the selection; a thread is
    selected or opened only from its visible row; AddLabel / RemoveLabel act on the open
    thread only; ``sent`` only grows, by Send, which sends the open draft whose mode and
    thread were fixed when Compose / Reply / ReplyAll / Forward opened it; each recipient
    action adds or removes one address, SetSubject / SetBody set one field."""
    from webmdp.sites.mail.listing import visible_ids
    from webmdp.sites.mail.state import MailState

    world, conds = p.world, p.task.verifier
    member = [c for c in conds if c.fact in _MEMBERSHIP and c.op != "eq"]
    labels = [c for c in conds if c.fact.startswith("labels.") and c.op != "eq"]
    sent = [c for c in conds if c.fact.startswith("sent.")]
    want = _sent_goal(sent)
    rest = [c for c in conds if c not in member and c not in labels and
            (want is None or c not in sent)]
    fresh = _fresh_draft(p, want) if want is not None else None

    def on_row(s: MailState, tid: str, look: bool) -> bool:
        return s.surface == "ThreadList" and (not look or tid in visible_ids(world, s))

    def one_action(s: MailState, tid: str, look: bool) -> int:
        """1 when an action on ``tid`` applies now (its row, its open thread, or a bulk action
        on a selection holding it), else 2."""
        if s.surface == "ThreadView":
            return 1 if s.focus == tid else 2
        return 1 if s.surface == "ThreadList" and (tid in s.selected or on_row(s, tid, look)) else 2

    def label_action(s: MailState, tid: str, add: bool, look: bool) -> int:
        """AddLabel / RemoveLabel need ``tid`` open (BulkLabel: selected, adding only);
        opening or selecting it needs its row on screen."""
        if (s.surface == "ThreadView" and s.focus == tid) or \
                (add and s.surface == "ThreadList" and tid in s.selected):
            return 1
        near = s.focus == tid or on_row(s, tid, look) or (add and tid in s.selected)
        return 2 if near else 3

    def view_cost(s: MailState, tid: str, look: bool) -> int:
        """Actions before ``tid`` is the open thread: closing a draft returns to its thread,
        else OpenThread from its row, which may first need bringing on screen."""
        if s.focus == tid:
            return 0 if s.surface == "ThreadView" else 1
        return 1 if on_row(s, tid, look) else 2

    def send_cost(s: MailState, look: bool) -> float:
        """The one message must still be sent: Send, after the edits the draft needs; either
        the open draft (right mode and thread) or a new one opened from the right place."""
        assert want is not None
        if s.sent:
            return math.inf  # sent only grows: the first message is final and count is > 0
        if fresh is None:
            return 1 + (s.surface != "ComposeModal")
        mode, tid = fresh["mode"], fresh["thread"]
        best = math.inf
        if s.surface == "ComposeModal" and s.compose == mode and s.reply_thread == tid:
            best = 1 + _edits(_draft_of(s), want)
        opening = (s.surface == "ComposeModal") if mode == "new" else view_cost(s, tid, look)
        return min(best, opening + 1 + _edits(fresh, want) + 1)

    def bound(state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, MailState)
        h = float(_unmet(rest, facts))
        for c in member:
            if not check_condition(c, facts):
                h = max(h, one_action(state, str(c.value), look))
        for c in labels:
            if not check_condition(c, facts):
                h = max(h, label_action(state, c.fact.removeprefix("labels."),
                                        c.op == "contains", look))
        if want is not None and _unmet(sent, facts):
            h = max(h, send_cost(state, look))
        return h

    return bound


def _sent_goal(sent: list[Condition]) -> dict[str, Any] | None:
    """The fields of 'exactly one message was sent, with these fields', or None when the
    sent conditions have another shape."""
    eq = {c.fact: c.value for c in sent if c.op == "eq"}
    fields = {k.removeprefix("sent.0."): v for k, v in eq.items() if k.startswith("sent.0.")}
    if not sent or len(eq) != len(sent) or eq.get("sent.count") != 1 or \
            len(fields) != len(eq) - 1 or set(fields) - _SENT_FIELDS:
        return None
    return fields


def _draft_of(s: Any) -> dict[str, Any]:
    return {"mode": s.compose, "thread": s.reply_thread, "to": list(s.to), "cc": list(s.cc),
            "subject": s.subject, "body": s.body}


def _fresh_draft(p: _Problem, want: dict[str, Any]) -> dict[str, Any] | None:
    """The draft the wanted mode opens on the wanted thread, by the site's own transition;
    None when the goal leaves the mode or thread open (then only Send itself is counted)."""
    mode, tid = want.get("mode"), want.get("thread", "")
    if mode not in _OPENERS or (mode == "new") != (tid == "") or \
            (tid and tid not in p.world.entities):
        return None
    start = p.site.initial_state(p.world)
    surface = "ThreadList" if mode == "new" else "ThreadView"
    draft = p.site.step(start.replace(surface=surface, focus=tid or None),
                        Action(_OPENERS[mode]), p.world)
    return _draft_of(draft)


def _edits(draft: Mapping[str, Any], want: Mapping[str, Any]) -> int:
    """Edit actions a draft needs: one per differing subject / body, and per address to add
    or remove (at least one when only the order differs)."""
    n = 0
    for f in ("to", "cc"):
        if f in want and list(draft[f]) != list(want[f]):
            have, need = set(draft[f]), set(want[f])
            n += max(1, len(need - have) + len(have - need))
    return n + sum(f in want and draft[f] != want[f] for f in ("subject", "body"))


_BOUNDS: dict[str, Callable[[_Problem], Bound]] = {"shopping": _shopping_bound,
                                                   "mail": _mail_bound}
