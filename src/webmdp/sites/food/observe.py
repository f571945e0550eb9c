"""What each Food Delivery surface shows and offers, and the verifier's facts."""

from __future__ import annotations

from typing import Any

from webmdp.core.model import EntityView, Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.sites.food import vocab as V
from webmdp.sites.food.catalog import CATALOG
from webmdp.sites.food.mdp import HEADER_SURFACES, menu_ids, unit_price
from webmdp.sites.food.state import CartLine, FoodState
from webmdp.sites.food.world import ITEM_DETAIL, MENU_LINE, RESTAURANT_CARD, RESTAURANT_DETAIL

SURFACE_KINDS = {
    "RestaurantList": SurfaceKind.CARD, "RestaurantDetail": SurfaceKind.DETAIL,
    "MenuItemDetail": SurfaceKind.DETAIL, "Cart": SurfaceKind.OTHER,
    "Checkout": SurfaceKind.COMMIT, "OrderStatus": SurfaceKind.COMMIT,
}
SERVICE_FEE_RATE = 0.1


def available(s: FoodState, world: World) -> tuple[Action, ...]:
    surf = s.surface
    out: list[Action] = []
    if surf in HEADER_SURFACES:
        out += [Action("Search"), Action("OpenCart")]
    if surf != "MenuItemDetail":
        out.append(Action("GoHome"))
    if surf == "RestaurantList":
        out += CATALOG.available(s, world)
        out += [Action("OpenRestaurant", {"restaurant_id": r})
                for r in CATALOG.visible(world, s)]
    elif surf == "RestaurantDetail":
        out.append(Action("BackToRestaurants"))
        for i in menu_ids(world, s.store):
            out += [Action("OpenItem", {"item_id": i}), Action("QuickAdd", {"item_id": i})]
    elif surf == "MenuItemDetail":
        item = world.entities[s.focus or ""]
        out.append(Action("CloseItem"))
        out += [Action("SelectOption", {"group": g, "choice": c})
                for g, choices in item["options"] for c in choices]
        out.append(Action("AddToCart"))
    elif surf == "Cart":
        out.append(Action("BackToRestaurants"))
        for ln in s.cart:
            out += [Action("UpdateQuantity", {"item_id": ln[0]}),
                    Action("RemoveFromCart", {"item_id": ln[0]})]
        if s.cart:
            out.append(Action("ProceedToCheckout"))
    elif surf == "Checkout":
        out.append(Action("OpenCart"))
        out += [Action("SetFulfillment", {"mode": m}) for m in V.FULFILLMENT]
        out += [Action("SetDeliveryTime", {"slot": t}) for t in V.DELIVERY_TIMES]
        out.append(Action("PlaceOrder"))
    return tuple(out)


def _view(world: World, eid: str, fields: tuple[str, ...]) -> EntityView:
    e = world.entities[eid]
    return EntityView(eid, {f: e[f] for f in fields})


def _store_views(world: World, rid: str, focus: str | None = None) -> list[EntityView]:
    out = [_view(world, rid, RESTAURANT_CARD + RESTAURANT_DETAIL)]
    for i in menu_ids(world, rid):
        out.append(_view(world, i, MENU_LINE + (ITEM_DETAIL if i == focus else ())))
    return out


def _sections(world: World, rid: str) -> list[list[Any]]:
    out: list[list[Any]] = []
    for i in menu_ids(world, rid):
        sec = world.entities[i]["section"]
        if not out or out[-1][0] != sec:
            out.append([sec, []])
        out[-1][1].append(i)
    return out


def _lines(world: World,
           lines: tuple[CartLine, ...]) -> tuple[list[EntityView], dict[str, Any]]:
    views: list[EntityView] = []
    rows: list[dict[str, Any]] = []
    for iid, qty, picks, rid in lines:
        if rid not in [v.id for v in views]:
            views.append(_view(world, rid, ("name", "delivery_fee")))
        views.append(_view(world, iid, MENU_LINE))
        each = unit_price(world.entities[iid], picks)
        rows.append({"item": iid, "restaurant": rid, "qty": qty,
                     "options": [list(p) for p in picks], "each": each,
                     "total": round(each * qty, 2)})
    sub = round(sum(r["total"] for r in rows), 2)
    fee = max((world.entities[r]["delivery_fee"] for _, _, _, r in lines), default=0.0)
    service = round(sub * SERVICE_FEE_RATE, 2)
    return views, {"lines": rows, "subtotal": sub, "delivery_fee": fee, "service_fee": service,
                   "count": sum(r["qty"] for r in rows)}


def observe(s: FoodState, world: World) -> Observation:
    ctx: dict[str, Any] = {"cart_count": sum(ln[1] for ln in s.cart), "query": s.query}
    views: list[EntityView] = []
    surf = s.surface
    if surf == "RestaurantList":
        views = [_view(world, r, RESTAURANT_CARD) for r in CATALOG.visible(world, s)]
        ctx.update(CATALOG.context(s, world))
        ctx["cuisines"] = list(V.CUISINES)
    elif surf in ("RestaurantDetail", "MenuItemDetail"):
        views = _store_views(world, s.store, s.focus if surf == "MenuItemDetail" else None)
        ctx["sections"] = _sections(world, s.store)
        ctx["store"] = s.store
        if surf == "MenuItemDetail":
            ctx["item"] = s.focus
            ctx["picked"] = dict(s.picks)
            ctx["extras"] = {c: V.EXTRA[c] for _, cs in world.entities[s.focus or ""]["options"]
                             for c in cs if c in V.EXTRA}
            ctx["unit_price"] = unit_price(world.entities[s.focus or ""], s.picks)
    elif surf in ("Cart", "Checkout"):
        views, totals = _lines(world, s.cart)
        ctx.update(totals)
        ctx.update(fulfillment=s.fulfillment, when=s.when)
    elif surf == "OrderStatus":
        views, totals = _lines(world, s.order)
        ctx.update(totals)
        ctx.update(address=s.order_address, tip=s.order_tip, fulfillment=s.order_fulfillment,
                   when=s.order_when)
    if surf in ("Checkout", "OrderStatus"):
        ctx["tips"] = list(V.TIPS)
        ctx["times"] = list(V.DELIVERY_TIMES)
    return Observation(surf, SURFACE_KINDS[surf], tuple(views), available(s, world), ctx)


def facts(s: FoodState) -> dict[str, Any]:
    """Cart and order contents (items, restaurants, quantity and options per item) and the
    order's address, tip, fulfillment and time."""
    out: dict[str, Any] = {
        "surface": s.surface, "order.placed": bool(s.order), "order.address": s.order_address,
        "order.tip": s.order_tip, "order.fulfillment": s.order_fulfillment,
        "order.time": s.order_when,
    }
    for prefix, lines in (("cart", s.cart), ("order", s.order)):
        out[f"{prefix}.items"] = [ln[0] for ln in lines]
        out[f"{prefix}.restaurants"] = list(dict.fromkeys(ln[3] for ln in lines))
        for iid, qty, picks, _ in lines:
            out[f"{prefix}.qty.{iid}"] = qty
            for g, c in picks:
                out[f"{prefix}.option.{iid}.{g}"] = c
    return out
