"""Shopping transition and observation functions (pure)."""

from __future__ import annotations

from typing import Any

from webmdp.core.model import EntityView, Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.errors import InvalidAction, require
from webmdp.sites._common.handlers import listed, observation, surfaces, views
from webmdp.sites.shopping import catalog as C
from webmdp.sites.shopping.available import available_actions
from webmdp.sites.shopping.listing import CATALOG, visible_ids
from webmdp.sites.shopping.state import CartLine
from webmdp.sites.shopping.state import ShoppingState as S
from webmdp.sites.shopping.world import CARD_FIELDS, DETAIL_FIELDS, PIXEL_FIELDS

_LIST_SURFACES = ("Home", "SearchResults")
LINE_FIELDS = ("title", "brand", "price", "image")
"""What a cart, checkout or order line shows of its product."""
SURFACES = surfaces(
    Home=(SurfaceKind.OTHER, "storefront with department tiles"),
    SearchResults=(SurfaceKind.CARD, "product cards with filter sidebar"),
    ProductDetail=(SurfaceKind.DETAIL, "specifications, options, reviews"),
    Cart=(SurfaceKind.OTHER, "cart lines with quantities"),
    Checkout=(SurfaceKind.COMMIT, "shipping speed and place order"),
    OrderConfirmation=(SurfaceKind.COMMIT, "the placed order"),
)


def _to_results(s: S) -> S:
    return s.replace(surface="SearchResults", focus=None, reviews_open=False, page=1)


def _home(s: S) -> S:
    """The storefront: the listing and the product page are left behind, the cart and the
    last order kept."""
    return S(surface="Home", cart=s.cart, order=s.order, order_shipping=s.order_shipping,
             order_id=s.order_id, shipping=s.shipping)


def transition(s: S, a: Action, world: World) -> S:
    p = a.params
    name = a.name
    surf = s.surface
    if surf == "OrderConfirmation":
        require(name in ("ContinueShopping", "GoHome", "Search"), "the order is placed; "
              "continue shopping first")
    if name in (CATALOG.search, "SetDepartment"):  # from anywhere / the home page too
        require(name == "Search" or surf in _LIST_SURFACES, f"{name}: not on a list surface")
        return _to_results(CATALOG.transition(s, a, world))
    if CATALOG.handles(name):
        require(surf == "SearchResults", f"{name}: only on search results")
        return CATALOG.transition(s, a, world)
    if name == "GoHome":
        return _home(s)
    if name == "OpenProduct":
        require(surf == "SearchResults", "OpenProduct: not on search results")
        pid = listed("OpenProduct", p["product_id"], visible_ids(world, s))
        prod = world.entities[pid]
        return s.replace(surface="ProductDetail", focus=pid, reviews_open=False,
                         color=prod["colors"][0], size=(prod["sizes"] or [""])[0])
    if name == "BackToResults":
        require(surf in ("ProductDetail", "Cart"), "BackToResults: nothing to go back from")
        return s.replace(surface="SearchResults", focus=None, reviews_open=False)
    if name == "ShowReviews":
        require(surf == "ProductDetail" and not s.reviews_open, "ShowReviews: not available")
        return s.replace(reviews_open=True)
    if name == "SelectOption":
        require(surf == "ProductDetail", "SelectOption: no product open")
        prod = world.entities[s.focus or ""]
        choices = prod["colors"] if p["option"] == "color" else prod["sizes"]
        require(p["value"] in choices, f"SelectOption: {p['value']!r} is not offered")
        return s.replace(**{p["option"]: p["value"]})
    if name == "AddToCart":
        require(surf == "ProductDetail" and s.focus is not None, "AddToCart: no product open")
        return s.replace(cart=_add_line(s.cart, (s.focus or "", 1, s.color, s.size)))
    if name == "OpenCart":
        return s.replace(surface="Cart", focus=None, reviews_open=False)
    if name in ("UpdateQuantity", "RemoveFromCart"):
        require(surf == "Cart", f"{name}: cart is not open")
        pid = p["product_id"]
        require(pid in _ids(s.cart), f"{name}: {pid} is not in the cart")
        qty = int(p.get("quantity", 0)) if name == "UpdateQuantity" else 0
        require(name == "RemoveFromCart" or 1 <= qty <= 10, "UpdateQuantity: quantity 1-10")
        cart = tuple((ln[0], qty, ln[2], ln[3]) if ln[0] == pid else ln for ln in s.cart)
        return s.replace(cart=tuple(ln for ln in cart if ln[1] > 0))
    if name == "ProceedToCheckout":
        require(surf == "Cart" and bool(s.cart), "ProceedToCheckout: the cart is empty")
        return s.replace(surface="Checkout")
    if name == "SetShippingSpeed":
        require(surf == "Checkout", "SetShippingSpeed: not at checkout")
        return s.replace(shipping=p["speed"])
    if name == "PlaceOrder":
        require(surf == "Checkout" and bool(s.cart), "PlaceOrder: not at checkout")
        order_id = f"ORD-{s.cart[0][0][-3:]}-{sum(ln[1] for ln in s.cart):02d}"
        return s.replace(surface="OrderConfirmation", order=s.cart, cart=(),
                         order_shipping=s.shipping, order_id=order_id)
    if name == "ContinueShopping":
        require(surf in ("OrderConfirmation", "Cart"), "ContinueShopping: not available")
        return _home(s)
    raise InvalidAction(f"unknown action {name!r}")


def _add_line(cart: tuple, line: tuple) -> tuple:
    for i, ln in enumerate(cart):
        if ln[0] == line[0]:
            return (*cart[:i], (ln[0], min(10, ln[1] + 1), line[2], line[3]), *cart[i + 1 :])
    return (*cart, line)


_DETAIL_NO_REVIEWS = tuple(f for f in DETAIL_FIELDS if f != "reviews")


def observe(s: S, world: World) -> Observation:
    """Project the state onto what the page shows."""
    ctx: dict = {"cart_count": sum(ln[1] for ln in s.cart), "query": s.query}
    entities: tuple[EntityView, ...] = ()
    if s.surface == "Home":
        ctx["departments"] = list(C.DEPARTMENTS)
    elif s.surface == "SearchResults":
        entities = views(world, visible_ids(world, s), CARD_FIELDS)
        lo, hi = s.filter("price") or (None, None)
        ctx.update(CATALOG.context(s, world), department=s.filter("department") or "",
                   category=s.filter("category") or "", price_min=lo, price_max=hi,
                   min_rating=s.filter("rating") or "", prime_only=bool(s.filter("prime")))
    elif s.surface == "ProductDetail" and s.focus:
        fields = CARD_FIELDS + (DETAIL_FIELDS if s.reviews_open else _DETAIL_NO_REVIEWS)
        fields += tuple(f for f in PIXEL_FIELDS if f in world.entities[s.focus])
        entities = views(world, (s.focus,), fields)
        ctx.update(color=s.color, size=s.size, reviews_open=s.reviews_open)
    elif s.surface in ("Cart", "Checkout"):
        entities = views(world, _ids(s.cart), LINE_FIELDS)
        ctx.update(_lines(world, s.cart, s.shipping), shipping=s.shipping,
                   has_results=bool(s.query or s.filter("department")))
        if s.surface == "Checkout":
            ctx["shipping_options"] = dict(C.SHIPPING_SPEEDS)
    elif s.surface == "OrderConfirmation":
        entities = views(world, _ids(s.order), LINE_FIELDS)
        ctx.update(_lines(world, s.order, s.order_shipping), order_id=s.order_id,
                   shipping=s.order_shipping)
    return observation(s, SURFACES, entities, available_actions(s, world), ctx)


def _ids(lines: tuple[CartLine, ...]) -> list[str]:
    return [ln[0] for ln in lines]


def _lines(world: World, lines: tuple[CartLine, ...], speed: str) -> dict[str, Any]:
    """A cart's or an order's lines and totals."""
    sub = round(sum(world.entities[ln[0]]["price"] * ln[1] for ln in lines), 2)
    ship = C.SHIPPING_SPEEDS.get(speed, 0.0)
    return {"lines": [list(ln) for ln in lines], "subtotal": sub, "shipping_fee": ship,
            "total": round(sub + ship, 2)}


def facts(s: S) -> dict:
    """Verifier facts: cart and order contents with options, shipping speed."""
    out: dict = {
        "surface": s.surface,
        "cart.products": [ln[0] for ln in s.cart],
        "order.placed": bool(s.order),
        "order.products": [ln[0] for ln in s.order],
        "order.shipping": s.order_shipping,
    }
    for prefix, lines in (("cart", s.cart), ("order", s.order)):
        for pid, qty, color, size in lines:
            out[f"{prefix}.qty.{pid}"] = qty
            out[f"{prefix}.color.{pid}"] = color
            out[f"{prefix}.size.{pid}"] = size
    return out
