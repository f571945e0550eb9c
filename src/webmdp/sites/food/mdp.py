"""Food Delivery transition, observation and facts (pure): listing, restaurant page, item
modal, cart, checkout, order status."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from webmdp.core.model import Entity, EntityView, Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.errors import InvalidAction, require
from webmdp.sites._common.tasklib import browse, view, views
from webmdp.sites.food import vocab as V
from webmdp.sites.food.state import CartLine, FoodState, Picks
from webmdp.sites.food.world import ITEM_DETAIL, MENU_LINE, RESTAURANT_CARD, RESTAURANT_DETAIL

HEADER_SURFACES = ("RestaurantList", "RestaurantDetail", "Cart")
MAX_QTY = 20


def default_picks(item: Entity) -> Picks:
    return tuple((g, choices[0]) for g, choices in item["options"])


@lru_cache(maxsize=4096)
def menu_ids(world: World, rid: str) -> tuple[str, ...]:
    """A restaurant's items in menu order: sections as the cuisine lists them, then
    popularity."""
    cuisine = world.entities[rid]["cuisine"]
    order = list(V.MENUS[cuisine])
    mine = [e for e in world.entities.values() if e.get("restaurant_id") == rid]
    mine.sort(key=lambda e: (order.index(e["section"]), -e["popularity"], e["id"]))
    return tuple(e["id"] for e in mine)


def unit_price(item: Entity, picks: Picks) -> float:
    return round(item["price"] + sum(V.EXTRA.get(c, 0.0) for _, c in picks), 2)


def home(s: FoodState) -> FoodState:
    return FoodState(surface="RestaurantList", cart=s.cart, order=s.order,
                     order_address=s.order_address, order_tip=s.order_tip,
                     order_fulfillment=s.order_fulfillment, order_when=s.order_when)


def transition(s: FoodState, a: Action, world: World) -> FoodState:
    name, p, surf = a.name, a.params, s.surface
    if name == V.CATALOG.search:
        require(surf in HEADER_SURFACES, "Search: no search box here")
        s = s.replace(surface="RestaurantList", focus=None, store="", picks=())
        return browse(V.CATALOG, s, a, world)
    if V.CATALOG.handles(name):
        require(surf == "RestaurantList", f"{name}: only on the restaurant list")
        return browse(V.CATALOG, s, a, world)
    if name == "GoHome":
        require(surf != "MenuItemDetail", "GoHome: close the item first")
        return home(s)
    if name == "BackToRestaurants":
        require(surf in ("RestaurantDetail", "Cart"), "BackToRestaurants: not available here")
        return s.replace(surface="RestaurantList", focus=None, store="", picks=())
    if name in _HANDLERS:
        return _HANDLERS[name](s, p, world)
    raise InvalidAction(f"unknown action {name!r}")


def _open_restaurant(s: FoodState, p: dict, world: World) -> FoodState:
    rid = p["restaurant_id"]
    require(s.surface == "RestaurantList", "OpenRestaurant: not on the restaurant list")
    require(rid in V.CATALOG.visible(world, s), f"OpenRestaurant: {rid} is not on this page")
    return s.replace(surface="RestaurantDetail", focus=rid, store=rid, picks=())


def _open_item(s: FoodState, p: dict, world: World) -> FoodState:
    iid = p["item_id"]
    require(s.surface == "RestaurantDetail", "OpenItem: no restaurant open")
    require(iid in menu_ids(world, s.store), f"OpenItem: {iid} is not on this menu")
    return s.replace(surface="MenuItemDetail", focus=iid,
                     picks=default_picks(world.entities[iid]))


def _close_item(s: FoodState, p: dict, world: World) -> FoodState:
    require(s.surface == "MenuItemDetail", "CloseItem: no item open")
    return s.replace(surface="RestaurantDetail", focus=s.store, picks=())


def _select_option(s: FoodState, p: dict, world: World) -> FoodState:
    require(s.surface == "MenuItemDetail", "SelectOption: no item open")
    groups = dict((g, c) for g, c in world.entities[s.focus or ""]["options"])
    require(p["choice"] in groups.get(p["group"], ()),
          f"SelectOption: {p['choice']!r} is not a {p['group']!r} choice")
    return s.replace(picks=tuple((g, p["choice"] if g == p["group"] else c)
                                 for g, c in s.picks))


def _add(cart: tuple[CartLine, ...], line: CartLine) -> tuple[CartLine, ...]:
    for i, ln in enumerate(cart):
        if ln[0] == line[0]:
            merged = (ln[0], min(MAX_QTY, ln[1] + line[1]), line[2], ln[3])
            return (*cart[:i], merged, *cart[i + 1:])
    return (*cart, line)


def _add_to_cart(s: FoodState, p: dict, world: World) -> FoodState:
    require(s.surface == "MenuItemDetail", "AddToCart: no item open")
    qty = int(p["quantity"])
    require(1 <= qty <= MAX_QTY, f"AddToCart: quantity 1-{MAX_QTY}")
    cart = _add(s.cart, (s.focus or "", qty, s.picks, s.store))
    return s.replace(surface="RestaurantDetail", focus=s.store, picks=(), cart=cart)


def _quick_add(s: FoodState, p: dict, world: World) -> FoodState:
    iid = p["item_id"]
    require(s.surface == "RestaurantDetail", "QuickAdd: no restaurant open")
    require(iid in menu_ids(world, s.store), f"QuickAdd: {iid} is not on this menu")
    return s.replace(cart=_add(s.cart, (iid, 1, default_picks(world.entities[iid]), s.store)))


def _open_cart(s: FoodState, p: dict, world: World) -> FoodState:
    require(s.surface in (*HEADER_SURFACES, "Checkout"), "OpenCart: not available here")
    return s.replace(surface="Cart", focus=None, picks=())


def _cart_line(s: FoodState, p: dict, name: str) -> str:
    require(s.surface == "Cart", f"{name}: the cart is not open")
    iid = p["item_id"]
    require(any(ln[0] == iid for ln in s.cart), f"{name}: {iid} is not in the cart")
    return str(iid)


def _update_quantity(s: FoodState, p: dict, world: World) -> FoodState:
    iid = _cart_line(s, p, "UpdateQuantity")
    qty = int(p["quantity"])
    require(1 <= qty <= MAX_QTY, f"UpdateQuantity: quantity 1-{MAX_QTY}")
    return s.replace(cart=tuple((ln[0], qty, ln[2], ln[3]) if ln[0] == iid else ln
                                for ln in s.cart))


def _remove(s: FoodState, p: dict, world: World) -> FoodState:
    iid = _cart_line(s, p, "RemoveFromCart")
    return s.replace(cart=tuple(ln for ln in s.cart if ln[0] != iid))


def _checkout(s: FoodState, p: dict, world: World) -> FoodState:
    require(s.surface == "Cart" and bool(s.cart), "ProceedToCheckout: the cart is empty")
    return s.replace(surface="Checkout")


def _set_fulfillment(s: FoodState, p: dict, world: World) -> FoodState:
    require(s.surface == "Checkout", "SetFulfillment: not at checkout")
    return s.replace(fulfillment=p["mode"])


def _set_time(s: FoodState, p: dict, world: World) -> FoodState:
    require(s.surface == "Checkout", "SetDeliveryTime: not at checkout")
    return s.replace(when=p["slot"])


def _place_order(s: FoodState, p: dict, world: World) -> FoodState:
    require(s.surface == "Checkout" and bool(s.cart), "PlaceOrder: not at checkout")
    address = str(p.get("address") or "").strip()
    require(s.fulfillment == "pickup" or bool(address), "PlaceOrder: enter a delivery address")
    return s.replace(surface="OrderStatus", focus=None, order=s.cart, cart=(),
                     order_address=address if s.fulfillment == "delivery" else "",
                     order_tip=p["tip"], order_fulfillment=s.fulfillment, order_when=s.when,
                     fulfillment="delivery", when="ASAP")


_HANDLERS = {
    "OpenRestaurant": _open_restaurant, "OpenItem": _open_item, "CloseItem": _close_item,
    "SelectOption": _select_option, "AddToCart": _add_to_cart, "QuickAdd": _quick_add,
    "OpenCart": _open_cart, "UpdateQuantity": _update_quantity, "RemoveFromCart": _remove,
    "ProceedToCheckout": _checkout, "SetFulfillment": _set_fulfillment,
    "SetDeliveryTime": _set_time, "PlaceOrder": _place_order,
}


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
        out += V.CATALOG.available(s, world)
        out += [Action("OpenRestaurant", {"restaurant_id": r})
                for r in V.CATALOG.visible(world, s)]
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


def _store_views(world: World, rid: str, focus: str | None = None) -> list[EntityView]:
    return [view(world, rid, RESTAURANT_CARD + RESTAURANT_DETAIL),
            *(view(world, i, MENU_LINE + (ITEM_DETAIL if i == focus else ()))
              for i in menu_ids(world, rid))]


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
    ents: list[EntityView] = []
    rows: list[dict[str, Any]] = []
    for iid, qty, picks, rid in lines:
        if rid not in [v.id for v in ents]:
            ents.append(view(world, rid, ("name", "delivery_fee")))
        ents.append(view(world, iid, MENU_LINE))
        each = unit_price(world.entities[iid], picks)
        rows.append({"item": iid, "restaurant": rid, "qty": qty,
                     "options": [list(p) for p in picks], "each": each,
                     "total": round(each * qty, 2)})
    sub = round(sum(r["total"] for r in rows), 2)
    fee = max((world.entities[r]["delivery_fee"] for _, _, _, r in lines), default=0.0)
    service = round(sub * SERVICE_FEE_RATE, 2)
    return ents, {"lines": rows, "subtotal": sub, "delivery_fee": fee, "service_fee": service,
                  "count": sum(r["qty"] for r in rows)}


def observe(s: FoodState, world: World) -> Observation:
    ctx: dict[str, Any] = {"cart_count": sum(ln[1] for ln in s.cart), "query": s.query}
    ents: list[EntityView] = []
    surf = s.surface
    if surf == "RestaurantList":
        ents = list(views(world, V.CATALOG.visible(world, s), RESTAURANT_CARD))
        ctx.update(V.CATALOG.context(s, world))
        ctx["cuisines"] = list(V.CUISINES)
    elif surf in ("RestaurantDetail", "MenuItemDetail"):
        ents = _store_views(world, s.store, s.focus if surf == "MenuItemDetail" else None)
        ctx["sections"] = _sections(world, s.store)
        ctx["store"] = s.store
        if surf == "MenuItemDetail":
            ctx["item"] = s.focus
            ctx["picked"] = dict(s.picks)
            ctx["extras"] = {c: V.EXTRA[c] for _, cs in world.entities[s.focus or ""]["options"]
                             for c in cs if c in V.EXTRA}
            ctx["unit_price"] = unit_price(world.entities[s.focus or ""], s.picks)
    elif surf in ("Cart", "Checkout"):
        ents, totals = _lines(world, s.cart)
        ctx.update(totals)
        ctx.update(fulfillment=s.fulfillment, when=s.when)
    elif surf == "OrderStatus":
        ents, totals = _lines(world, s.order)
        ctx.update(totals)
        ctx.update(address=s.order_address, tip=s.order_tip, fulfillment=s.order_fulfillment,
                   when=s.order_when)
    if surf in ("Checkout", "OrderStatus"):
        ctx["tips"] = list(V.TIPS)
        ctx["times"] = list(V.DELIVERY_TIMES)
    return Observation(surf, SURFACE_KINDS[surf], tuple(ents), available(s, world), ctx)


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
