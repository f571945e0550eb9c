"""Shopping's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on shopping tasks."""

from __future__ import annotations

from webmdp.core.model import State
from webmdp.sites.shopping.listing import visible_ids
from webmdp.sites.shopping.state import ShoppingState
from webmdp.tasks.distance import Bound, Facts, InformedBound, Problem, Unseen, unmet, visits
from webmdp.tasks.model import Condition


def shopping_bound(p: Problem) -> Bound:
    """Shopping. Facts used: only AddToCart (on ProductDetail of the focused product) puts a
    product into the cart or changes its line's options; only OpenProduct reaches
    ProductDetail, from a SearchResults page showing the product; only OpenCart reaches Cart,
    only ProceedToCheckout (from Cart) reaches Checkout; a line leaves the cart by
    RemoveFromCart (one line, on Cart) or PlaceOrder (all lines, on Checkout); only
    PlaceOrder changes the order, only SetShippingSpeed the shipping speed; OpenProduct
    resets the options to the product's first colour and size."""
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
        h = float(add + _drop_cost(state, sum(x in in_cart for x in drops)))
        if goal is not None and unmet(order, facts):
            h = max(h, order_cost(state, look, *goal))
        return max(h, float(unmet(rest, facts)))

    return bound


def shopping_informed(p: Problem) -> InformedBound:
    """Shopping's bound on the informed distance (:mod:`webmdp.tasks.informed`): a product's
    detail fields show on its ProductDetail only (:func:`shopping_bound`'s facts). Kinds of
    action counted apart, since none is of two: one OpenProduct per product still to open
    (its detail unseen, or an AddToCart to make on it), but the open one; a way to a results
    page (Search, SetDepartment, BackToResults) before each of those but a first one taken
    on results (where, when none of them is on screen, one action that changes the page);
    one AddToCart per product still to add; the removals (:func:`shopping_bound`: OpenCart,
    then RemoveFromCart each or ProceedToCheckout and PlaceOrder); on an order task, OpenCart
    and ProceedToCheckout after its add, the shipping speed and PlaceOrder; one ShowReviews
    per product whose reviews are unseen (a page opens with them folded)."""
    world = p.world
    adds = [str(c.value) for c in p.task.verifier
            if c.fact == "cart.products" and c.op == "contains"]
    drops = [c.value for c in p.task.verifier
             if c.fact == "cart.products" and c.op == "not_contains"]
    order = [c for c in p.task.verifier if c.fact.startswith("order.")]
    goal = _order_goal(order)

    def ways(s: ShoppingState, opens: set[str], look: bool) -> int:
        """OpenProduct per product to open and the ways to results pages between them."""
        if not opens:
            return 0
        on_results = s.surface == "SearchResults"
        blank = on_results and look and opens.isdisjoint(visible_ids(world, s))
        return visits(len(opens), on_results) + blank

    def bound(state: State, facts: Facts, unseen: Unseen, look: bool) -> float:
        assert isinstance(state, ShoppingState)
        s = state
        lines = {ln[0]: ln for ln in s.cart}
        here = {s.focus} if s.surface == "ProductDetail" else set()
        fresh = {e for _, ids, _ in unseen for e in ids}
        # a product page shows its reviews only after ShowReviews, which stays on it
        shows = sum("reviews" in f for _, _, fields in unseen for f in fields)
        to_add = {x for x in adds if x not in lines}
        k = sum(x in lines for x in drops)
        h = shows + len(to_add) + _drop_cost(s, k) + ways(s, (fresh | to_add) - here, look)
        if goal is not None and unmet(order, facts):
            pid, opts, speed = goal
            line = lines.get(pid)
            ordering = shows + 1 + (speed is not None and s.shipping != speed)  # PlaceOrder
            if line is None or _mismatch((line[2], line[3]), opts):
                # its AddToCart, then OpenCart and ProceedToCheckout
                ordering += 3 + ways(s, (fresh | {pid}) - here, look)
            else:
                ordering += {"Checkout": 0, "Cart": 1}.get(s.surface, 2) + ways(
                    s, fresh - here, look)
            h = max(h, ordering)
        return float(h)

    return bound


def _drop_cost(s: ShoppingState, k: int) -> int:
    """k lines must leave: k RemoveFromCart, or ProceedToCheckout + PlaceOrder (Checkout:
    PlaceOrder alone); from elsewhere first OpenCart."""
    if k == 0 or s.surface == "Checkout":
        return min(k, 1)
    return (s.surface != "Cart") + min(k, 2)


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
