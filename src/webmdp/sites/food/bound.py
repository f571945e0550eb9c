"""Food Delivery's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on food tasks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from webmdp.core.model import State, World
from webmdp.sites.food import vocab as V
from webmdp.sites.food import world as W
from webmdp.sites.food.mdp import MAX_QTY
from webmdp.sites.food.state import FoodState
from webmdp.tasks.distance import Bound, Facts, InformedBound, Problem, Unseen, unmet, visits
from webmdp.tasks.model import Condition


@dataclass
class _Goal:
    """What the cart must hold (now, or when the order is placed)."""

    items: dict[str, tuple[dict[str, str], int | None]] = field(default_factory=dict)
    """item -> (options it must have, quantity it must have)."""
    stores: list[str] = field(default_factory=list)
    """Restaurants some line must come from."""
    no_items: set[str] = field(default_factory=set)
    no_stores: set[str] = field(default_factory=set)

    def read(self, c: Condition, prefix: str) -> bool:
        """Take ``c`` (a fact under ``prefix``) if it is a cart-content condition."""
        fact, v = c.fact.removeprefix(prefix), c.value
        if fact == "items" and c.op == "contains":
            self.items.setdefault(str(v), ({}, None))
        elif fact == "items" and c.op == "not_contains":
            self.no_items.add(str(v))
        elif fact == "restaurants" and c.op == "contains":
            self.stores.append(str(v))
        elif fact == "restaurants" and c.op == "not_contains":
            self.no_stores.add(str(v))
        elif fact.startswith("qty.") and c.op == "eq" and isinstance(v, int):
            iid = fact.removeprefix("qty.")
            self.items[iid] = (self.items.get(iid, ({}, None))[0], v)
        elif fact.startswith("option.") and c.op == "eq" and fact.count(".") >= 2:
            iid, group = fact.removeprefix("option.").split(".", 1)
            self.items.setdefault(iid, ({}, None))[0][group] = str(v)
        else:
            return False
        return True


class _Plan:
    """A food task's cart and order goals, read once for both bounds."""

    def __init__(self, p: Problem) -> None:
        self.world = world = p.world
        self.cart, self.order = _Goal(), _Goal()
        self.cart_conds: list[Condition] = []
        self.order_conds: list[Condition] = []
        settings: dict[str, Any] = {}
        self.rest: list[Condition] = []
        for c in p.task.verifier:
            if c.fact.startswith("cart.") and self.cart.read(c, "cart."):
                self.cart_conds.append(c)
            elif c.fact.startswith("order."):
                self.order_conds.append(c)
                if not self.order.read(c, "order.") and c.op == "eq":
                    settings[c.fact] = c.value
            else:
                self.rest.append(c)
        want_mode = settings.get("order.fulfillment")
        if want_mode is None and settings.get("order.address"):
            want_mode = "delivery"  # an address is kept only for delivery
        self.want_mode, self.want_when = want_mode, settings.get("order.time")
        # quantities one add can put in: QuickAdd's 1 and AddToCart's candidate values
        self.adds = {1, *(int(q) for q in p.candidates.get(("AddToCart", "quantity"), ())
                          if isinstance(q, int) and 1 <= q <= MAX_QTY)}
        self.defaults = {iid: dict(_defaults(world, iid)) for g in (self.cart, self.order)
                         for iid in g.items if iid in world.entities}
        # a focused search offers RemoveFromCart only on the task's own items and on those
        # the agent put in the cart (Problem.touched)
        self.problem = p

    def store_of(self, iid: str) -> str:
        return str(self.world.entities[iid]["restaurant_id"])

    def lines(self, s: FoodState, goal: _Goal) -> _Work:
        """What the cart still needs to meet ``goal``, its way there aside. Lines leave by
        one RemoveFromCart each or all at once by a PlaceOrder, after which every wanted line
        must be added again."""
        world, w = self.world, _Work()
        gone = [ln[0] for ln in s.cart if ln[0] in goal.no_items or ln[3] in goal.no_stores]
        w.k, w.stuck = len(gone), not self.problem.may_act_on(s, gone)
        # stuck: the cart must be emptied first, so every wanted line is added after that
        cart = () if w.stuck else s.cart
        lines = {ln[0]: ln for ln in cart}
        for iid, (opts, want_qty) in goal.items.items():
            line = lines.get(iid)
            if iid not in world.entities:
                continue
            if line is not None and all(dict(line[2]).get(g) == c for g, c in opts.items()):
                w.ok += 1
                if want_qty is not None and line[1] != want_qty:
                    w.commits, w.qty = w.commits + 1, True
                    # an AddToCart from its open item fixes it and leaves for the restaurant:
                    # that commit may also be the first step of the way to the next add
                    w.step = w.step or (s.surface == "MenuItemDetail" and s.focus == iid)
                continue
            default = self.defaults[iid]
            m = sum(default.get(g) != c for g, c in opts.items())
            if s.surface == "MenuItemDetail" and s.focus == iid:
                m = min(m, sum(dict(s.picks).get(g) != c for g, c in opts.items()))
            w.commits += m + 1  # the option picks, then the add
            have = line[1] if line is not None else 0
            if want_qty is not None and want_qty not in {min(MAX_QTY, have + q)
                                                         for q in self.adds}:
                w.commits += 1  # no single add leaves the wanted quantity: one more change
            w.adds.append((self.store_of(iid), iid, m > 0))
        held = {ln[3] for ln in cart}
        wanted_stores = {self.store_of(i) for i in goal.items if i in world.entities}
        for rid in goal.stores:
            if rid not in held and rid not in wanted_stores:
                w.commits += 1
                w.adds.append((rid, None, False))
        return w


@dataclass
class _Work:
    """What the cart still needs (:meth:`_Plan.lines`)."""

    commits: int = 0
    """Option picks, adds and quantity changes of the wanted lines."""
    adds: list[tuple[str, str | None, bool]] = field(default_factory=list)
    """Each add still to make: (its restaurant, its item or None for any item, whether its
    options must be picked first in the item's dialog)."""
    qty: bool = False
    """A wanted line's quantity needs fixing."""
    step: bool = False
    """The fixing AddToCart is on the item open now."""
    k: int = 0
    """Lines to remove."""
    ok: int = 0
    """Wanted lines that are right."""
    stuck: bool = False
    """A line to remove has no RemoveFromCart here: only a PlaceOrder empties the cart, and
    the rest of this counts from an empty cart."""

    def removal(self) -> int:
        """Commits that take the lines to remove away: one RemoveFromCart each, or a
        PlaceOrder and the wanted lines that are right added again."""
        return min(self.k, 1 + self.ok)

    def reset_nav(self, surface: str) -> int:
        """Before a PlaceOrder that empties the cart (``stuck``): OpenCart, then
        ProceedToCheckout, but those already behind."""
        return (surface not in ("Cart", "Checkout")) + (surface != "Checkout") if self.stuck \
            else 0


def food_bound(p: Problem) -> Bound:
    """Food Delivery. Facts used: the cart changes only by QuickAdd (RestaurantDetail, one of
    its menu items, default options), AddToCart (MenuItemDetail of the item, its picked
    options), UpdateQuantity / RemoveFromCart (Cart, one line each) and PlaceOrder (Checkout:
    the cart becomes the order and empties; fulfillment and time reset to delivery / ASAP);
    an item's options in the cart are set only by an add, and differ from the item's
    defaults only through SelectOption (one group each) on MenuItemDetail; the order
    changes only by PlaceOrder. RestaurantDetail of a restaurant opens only by
    OpenRestaurant from a RestaurantList page showing it (or by leaving one of its items);
    MenuItemDetail only by OpenItem on its restaurant's page, and it offers only the
    options, AddToCart and CloseItem (both back to the restaurant); Cart opens only by
    OpenCart (list, restaurant, cart, checkout), Checkout only by ProceedToCheckout (Cart);
    SetFulfillment / SetDeliveryTime act on Checkout. No commit changes what the list shows
    or where one is, except AddToCart (back to the restaurant) and PlaceOrder."""
    plan = _Plan(p)
    world = plan.world

    def shows(s: FoodState, rid: str, look: bool) -> bool:
        return not look or rid in V.CATALOG.visible(world, s)

    def pre_nav(s: FoodState, rid: str, iid: str | None, opened: bool, look: bool) -> int:
        """Actions before the first add of ``iid`` (any item of ``rid`` when None): on its
        restaurant page, or in its item modal when options must be picked (``opened``)."""
        surf = s.surface
        if surf == "MenuItemDetail":
            if iid is not None and s.focus == iid:
                return 0
            if iid is None and s.store == rid:
                return 0  # AddToCart of the open item
            return (1 if s.store == rid else 3) + opened  # CloseItem (+ list, restaurant)
        if surf == "RestaurantDetail" and s.store == rid:
            return int(opened)
        if surf == "RestaurantList":
            return (1 if shows(s, rid, look) else 2) + opened
        return 2 + opened  # a list, then the restaurant

    def needs(s: FoodState, goal: _Goal, look: bool) -> tuple[_Work, int | None]:
        """What the cart still needs to meet ``goal``, and the least actions before the first
        add (None when no add is needed)."""
        w = plan.lines(s, goal)
        first = min((pre_nav(s, rid, iid, opened, look) for rid, iid, opened in w.adds),
                    default=None)
        if w.step and first:
            first -= 1
        return w, first

    def cart_cost(s: FoodState, look: bool) -> float:
        w, first = needs(s, plan.cart, look)
        if w.stuck:
            # the PlaceOrder that empties the cart comes first, then every add, each at least
            # a way to the list and OpenRestaurant from the order's status page away
            return float(w.commits + 1 + w.reset_nav(s.surface) + 2 * bool(w.adds))
        commits, qty, k = w.commits + w.removal(), w.qty, w.k
        nav = 0
        if first is not None:
            # the first add's way there, and (lines to remove) a visit to Cart or Checkout:
            # from Cart every way to a restaurant is at least as long as from here
            nav = first + (k > 0 and s.surface not in ("Cart", "Checkout"))
        elif k:
            nav = int(s.surface not in ("Cart", "Checkout"))
        if qty:
            nav = max(nav, int(s.surface not in ("Cart", "MenuItemDetail", "RestaurantDetail")))
        return float(commits + nav)

    def order_cost(s: FoodState, look: bool) -> float:
        w, first = needs(s, plan.order, look)
        # the PlaceOrder itself, the settings and the removals
        commits, qty, k = w.commits + 1 + _settings(plan, s, w), w.qty, w.k
        if w.stuck:
            # the PlaceOrder that empties the cart; then a list, a restaurant, the adds,
            # OpenCart and Proceed again
            return float(commits + w.reset_nav(s.surface) + 4 * bool(w.adds))
        if first is not None:
            nav = first + 2  # after the last add: OpenCart, ProceedToCheckout
        elif qty or k:
            nav = 1 if s.surface == "Cart" else 2  # (OpenCart,) the line commit, Proceed
        else:
            nav = {"Checkout": 0, "Cart": 1, "RestaurantList": 2,
                   "RestaurantDetail": 2}.get(s.surface, 3)
        return float(commits + nav)

    def bound(state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, FoodState)
        h = float(unmet(plan.rest, facts))
        if plan.cart_conds and unmet(plan.cart_conds, facts):
            h = max(h, 1.0, cart_cost(state, look))
        if plan.order_conds and unmet(plan.order_conds, facts):
            h = max(h, order_cost(state, look))
        return h

    return bound


def food_informed(p: Problem) -> InformedBound:
    """Food Delivery's bound on the informed distance (:mod:`webmdp.tasks.informed`): kinds
    of action counted apart, since no action is of two kinds (:func:`food_bound`'s facts).

    - The commits: option picks, adds, quantity changes and removals (or the PlaceOrder that
      empties the cart), and on an order task the PlaceOrder and the settings.
    - OpenRestaurant, one per restaurant still to open: each restaurant whose detail fields
      are unseen (its page or one of its items' dialogs shows them), and each an add must
      still be made at (QuickAdd on its page, AddToCart in its item's dialog); but the one
      open. OpenRestaurant opens a row of the list.
    - A way to the list (BackToRestaurants, GoHome, Search, ...) before each of those but a
      first one taken on the list (where, when no restaurant to open is on screen, one more).
    - OpenItem, one per item still to open: its detail fields unseen, or options to pick
      before its add; but the one open (its dialog opens only by OpenItem). Before each of
      them but a first taken outside a dialog, a way out of the dialog open: CloseItem, or an
      AddToCart (counted among the commits: CloseItem counts where the adds cannot cover);
      on an order task, out of the last one too (the cart opens from no dialog).
    - OpenCart, when lines must go and the cart or checkout is not open; on an order task,
      OpenCart and ProceedToCheckout after the last add (Checkout opens only from the cart).
    """
    plan = _Plan(p)
    world = plan.world

    def part(s: FoodState, goal: _Goal, unseen: Unseen, look: bool, order: bool) -> float:
        w = plan.lines(s, goal)
        stores = {e for _, ids, _ in unseen for e in ids if e.startswith("RST")}
        unseen_items = [(e, f) for _, ids, fields in unseen for e, f in zip(ids, fields,
                                                                            strict=True)
                        if e.startswith("ITM") and e in world.entities]
        stores |= {plan.store_of(i) for i, _ in unseen_items}
        items = {i for i, f in unseen_items if not f.isdisjoint(W.ITEM_DETAIL)}
        for rid, iid, opened in w.adds:
            stores.add(rid)
            if opened and iid is not None:
                items.add(iid)
        if s.surface == "MenuItemDetail":
            items.discard(s.focus)  # type: ignore[arg-type]
        if s.surface in ("RestaurantDetail", "MenuItemDetail"):
            stores.discard(s.store)
        here = s.surface == "RestaurantList" and not (
            look and stores and stores.isdisjoint(V.CATALOG.visible(world, s)))
        h = w.commits + len(items) + visits(len(stores), here)
        # a way out of each item dialog before the next opens (on an order task, before the
        # checkout too; with no item to open, before a restaurant or the cart): CloseItem, or
        # an AddToCart counted among the commits
        on_dialog = s.surface == "MenuItemDetail"
        dialogs = len(items) + on_dialog
        if order:
            outs = dialogs
        elif items:
            outs = dialogs - 1
        else:  # no item to open: the dialog open is left for a restaurant or the cart
            outs = int(on_dialog and bool(stores or w.k))
        # an AddToCart leaves only the dialog of its own item (any item of its restaurant
        # when the add names none)
        exits = sum(iid is None or iid in items or (on_dialog and iid == s.focus)
                    for _, iid, _ in w.adds)
        h += max(0, outs - exits)
        if w.stuck:  # OpenCart and Proceed before the emptying PlaceOrder, again after it
            h += w.reset_nav(s.surface) + (2 * bool(w.adds) if order else 0)
            return h + (1 + _settings(plan, s, w) if order else 1)
        if not order:
            return h + w.removal() + (w.k > 0 and s.surface not in ("Cart", "Checkout"))
        h += 1 + _settings(plan, s, w)  # the PlaceOrder, the settings, the removals
        if w.adds:
            return h + 2  # after the last add: OpenCart, ProceedToCheckout
        if w.qty or w.k:
            return h + (1 if s.surface == "Cart" else 2)
        return h + {"Checkout": 0, "Cart": 1}.get(s.surface, 2)

    def bound(state: State, facts: Facts, unseen: Unseen, look: bool) -> float:
        assert isinstance(state, FoodState)
        h = float(unmet(plan.rest, facts))
        if plan.cart_conds and unmet(plan.cart_conds, facts):
            h = max(h, part(state, plan.cart, unseen, look, False))
        if plan.order_conds and unmet(plan.order_conds, facts):
            h = max(h, part(state, plan.order, unseen, look, True))
        return h

    return bound


def _settings(plan: _Plan, s: FoodState, work: _Work) -> int:
    """An order's settings still to make, with the cart's removals: a setting off its wanted
    value needs its Set action, or (wanted: the default) an earlier PlaceOrder, which resets
    both and empties the cart like a removal."""
    off = [(plan.want_mode, s.fulfillment, "delivery"), (plan.want_when, s.when, "ASAP")]
    sets = sum(w is not None and w != have and w != dflt for w, have, dflt in off)
    resets = sum(w is not None and w != have and w == dflt for w, have, dflt in off)
    return sets + max(work.removal(), min(resets, 1 + work.ok))


def _defaults(world: World, iid: str) -> tuple[tuple[str, str], ...]:
    return tuple((g, choices[0]) for g, choices in world.entities[iid]["options"])
