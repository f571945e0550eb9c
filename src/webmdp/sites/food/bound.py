"""Food Delivery's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on food tasks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from webmdp.core.model import State, World
from webmdp.sites.food import vocab as V
from webmdp.sites.food.mdp import MAX_QTY
from webmdp.sites.food.state import FoodState
from webmdp.tasks.distance import Bound, Facts, Problem, unmet
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
    world = p.world
    cart, order = _Goal(), _Goal()
    cart_conds: list[Condition] = []
    order_conds: list[Condition] = []
    settings: dict[str, Any] = {}
    rest: list[Condition] = []
    for c in p.task.verifier:
        if c.fact.startswith("cart.") and cart.read(c, "cart."):
            cart_conds.append(c)
        elif c.fact.startswith("order."):
            order_conds.append(c)
            if not order.read(c, "order.") and c.op == "eq":
                settings[c.fact] = c.value
        else:
            rest.append(c)
    want_mode = settings.get("order.fulfillment")
    if want_mode is None and settings.get("order.address"):
        want_mode = "delivery"  # an address is kept only for delivery
    want_when = settings.get("order.time")
    # quantities one add can put in: QuickAdd's 1 and AddToCart's candidate values
    adds = {1, *(int(q) for q in p.candidates.get(("AddToCart", "quantity"), ())
                 if isinstance(q, int) and 1 <= q <= MAX_QTY)}
    defaults = {iid: dict(_defaults(world, iid)) for g in (cart, order) for iid in g.items
                if iid in world.entities}

    def store_of(iid: str) -> str:
        return str(world.entities[iid]["restaurant_id"])

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

    def needs(s: FoodState, goal: _Goal, look: bool
              ) -> tuple[int, int | None, bool, int, int]:
        """(commits for the wanted lines, least actions before the first add or None when no
        add is needed, whether a quantity needs fixing, lines to remove, wanted lines that
        are right) for the cart to meet ``goal``. Lines leave by one RemoveFromCart each or
        all at once by a PlaceOrder, after which every wanted line must be added again."""
        lines = {ln[0]: ln for ln in s.cart}
        commits, first, qty, ok, step = 0, None, False, 0, False
        for iid, (opts, want_qty) in goal.items.items():
            line = lines.get(iid)
            if iid not in world.entities:
                continue
            if line is not None and all(dict(line[2]).get(g) == c for g, c in opts.items()):
                ok += 1
                if want_qty is not None and line[1] != want_qty:
                    commits, qty = commits + 1, True
                    # an AddToCart from its open item fixes it and leaves for the restaurant:
                    # that commit may also be the first step of the way to the next add
                    step = step or (s.surface == "MenuItemDetail" and s.focus == iid)
                continue
            default = defaults[iid]
            m = sum(default.get(g) != c for g, c in opts.items())
            if s.surface == "MenuItemDetail" and s.focus == iid:
                m = min(m, sum(dict(s.picks).get(g) != c for g, c in opts.items()))
            commits += m + 1  # the option picks, then the add
            have = line[1] if line is not None else 0
            if want_qty is not None and want_qty not in {min(MAX_QTY, have + q) for q in adds}:
                commits += 1  # no single add leaves the wanted quantity: one more change
            nav = pre_nav(s, store_of(iid), iid, m > 0, look)
            first = nav if first is None else min(first, nav)
        held = {ln[3] for ln in s.cart}
        wanted_stores = {store_of(i) for i in goal.items if i in world.entities}
        for rid in goal.stores:
            if rid not in held and rid not in wanted_stores:
                commits += 1
                nav = pre_nav(s, rid, None, False, look)
                first = nav if first is None else min(first, nav)
        k = sum(ln[0] in goal.no_items or ln[3] in goal.no_stores for ln in s.cart)
        if step and first:
            first -= 1
        return commits, first, qty, k, ok

    def cart_cost(s: FoodState, look: bool) -> float:
        commits, first, qty, k, ok = needs(s, cart, look)
        commits += min(k, 1 + ok)
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
        commits, first, qty, k, ok = needs(s, order, look)
        commits += 1  # the PlaceOrder itself
        # a setting off its wanted value needs its Set action, or (wanted: the default) an
        # earlier PlaceOrder, which resets both and empties the cart like a removal
        off = [(want_mode, s.fulfillment, "delivery"), (want_when, s.when, "ASAP")]
        sets = sum(w is not None and w != have and w != dflt for w, have, dflt in off)
        resets = sum(w is not None and w != have and w == dflt for w, have, dflt in off)
        commits += sets + max(min(k, 1 + ok), min(resets, 1 + ok))
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
        h = float(unmet(rest, facts))
        if cart_conds and unmet(cart_conds, facts):
            h = max(h, 1.0, cart_cost(state, look))
        if order_conds and unmet(order_conds, facts):
            h = max(h, order_cost(state, look))
        return h

    return bound


def _defaults(world: World, iid: str) -> tuple[tuple[str, str], ...]:
    return tuple((g, choices[0]) for g, choices in world.entities[iid]["options"])
