"""The concrete actions a Shopping surface offers; views bind exactly these."""

from __future__ import annotations

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.sites.shopping import catalog as C
from webmdp.sites.shopping.listing import CATALOG, visible_ids
from webmdp.sites.shopping.state import ShoppingState as S


def available_actions(s: S, world: World) -> tuple[Action, ...]:
    out: list[Action] = [Action("Search"), Action("GoHome"), Action("OpenCart")]
    surf = s.surface
    if surf == "OrderConfirmation":
        return (Action("Search"), Action("GoHome"), Action("ContinueShopping"))
    if surf in ("Home", "SearchResults"):
        out += [Action("SetDepartment", {"department": d}) for d in C.DEPARTMENTS]
    if surf == "SearchResults":
        dept = [a for a in CATALOG.available(s, world) if a.name != "SetDepartment"]
        out += dept
        out += [Action("OpenProduct", {"product_id": i}) for i in visible_ids(world, s)]
    elif surf == "ProductDetail" and s.focus:
        prod = world.entities[s.focus]
        out.append(Action("BackToResults"))
        if not s.reviews_open:
            out.append(Action("ShowReviews"))
        out += [Action("SelectOption", {"option": "color", "value": c}) for c in prod["colors"]]
        out += [Action("SelectOption", {"option": "size", "value": z}) for z in prod["sizes"]]
        out.append(Action("AddToCart"))
    elif surf == "Cart":
        if s.query or s.filter("department"):
            out.append(Action("BackToResults"))
        out.append(Action("ContinueShopping"))
        for pid, *_ in s.cart:
            out.append(Action("UpdateQuantity", {"product_id": pid}))
            out.append(Action("RemoveFromCart", {"product_id": pid}))
        if s.cart:
            out.append(Action("ProceedToCheckout"))
    elif surf == "Checkout":
        out += [Action("SetShippingSpeed", {"speed": sp}) for sp in C.SHIPPING_SPEEDS]
        out.append(Action("PlaceOrder"))
    return tuple(out)
