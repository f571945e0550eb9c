"""Food Delivery transition, observation and facts (pure): listing, restaurant page, item
modal, cart, checkout, order status."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from webmdp.core.model import Entity, EntityView, Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.errors import require
from webmdp.sites._common import handlers as H
from webmdp.sites.food import vocab as V
from webmdp.sites.food.state import CartLine, FoodState, Picks
from webmdp.sites.food.world import (
    ITEM_DETAIL,
    MENU_LINE,
    PIXEL_FIELDS,
    RESTAURANT_CARD,
    RESTAURANT_DETAIL,
)

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
    name, surf = a.name, s.surface
    require(name != V.CATALOG.search or surf in HEADER_SURFACES, "Search: no search box here")
    listed = H.catalog_action(V.CATALOG, s, a, world, "the restaurant list", store="", picks=())
    if listed is not None:
        return listed
    if name == "GoHome":
        require(surf != "MenuItemDetail", "GoHome: close the item first")
        return home(s)
    return H.dispatch(_HANDLERS, s, a, world)


def _open_restaurant(s: FoodState, p: H.Params, world: World) -> FoodState:
    require(s.surface == "RestaurantList", "OpenRestaurant: not on the restaurant list")
    rid = H.listed("OpenRestaurant", p["restaurant_id"], V.CATALOG.visible(world, s))
    return s.replace(surface="RestaurantDetail", focus=rid, store=rid, picks=())


def _on_menu(s: FoodState, name: str, p: H.Params, world: World) -> str:
    require(s.surface == "RestaurantDetail", f"{name}: no restaurant open")
    return H.listed(name, p["item_id"], menu_ids(world, s.store), "on this menu")


def _open_item(s: FoodState, p: H.Params, world: World) -> FoodState:
    iid = _on_menu(s, "OpenItem", p, world)
    return s.replace(surface="MenuItemDetail", focus=iid,
                     picks=default_picks(world.entities[iid]))


def _quick_add(s: FoodState, p: H.Params, world: World) -> FoodState:
    iid = _on_menu(s, "QuickAdd", p, world)
    return s.replace(cart=_add(s.cart, (iid, 1, default_picks(world.entities[iid]), s.store)))


def _select_option(s: FoodState, p: H.Params, world: World) -> FoodState:
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


def _quantity(name: str, p: H.Params) -> int:
    qty = int(p["quantity"])
    require(1 <= qty <= MAX_QTY, f"{name}: quantity 1-{MAX_QTY}")
    return qty


def _add_to_cart(s: FoodState, p: H.Params, world: World) -> FoodState:
    require(s.surface == "MenuItemDetail", "AddToCart: no item open")
    cart = _add(s.cart, (s.focus or "", _quantity("AddToCart", p), s.picks, s.store))
    return s.replace(surface="RestaurantDetail", focus=s.store, picks=(), cart=cart)


def _cart_line(s: FoodState, p: H.Params, name: str) -> str:
    require(s.surface == "Cart", f"{name}: the cart is not open")
    return H.listed(name, p["item_id"], [ln[0] for ln in s.cart], "in the cart")


def _update_quantity(s: FoodState, p: H.Params, world: World) -> FoodState:
    iid = _cart_line(s, p, "UpdateQuantity")
    qty = _quantity("UpdateQuantity", p)
    return s.replace(cart=tuple((ln[0], qty, ln[2], ln[3]) if ln[0] == iid else ln
                                for ln in s.cart))


def _remove(s: FoodState, p: H.Params, world: World) -> FoodState:
    iid = _cart_line(s, p, "RemoveFromCart")
    return s.replace(cart=tuple(ln for ln in s.cart if ln[0] != iid))


def _place_order(s: FoodState, p: H.Params, world: World) -> FoodState:
    require(s.surface == "Checkout" and bool(s.cart), "PlaceOrder: not at checkout")
    address = str(p.get("address") or "").strip()
    require(s.fulfillment == "pickup" or bool(address), "PlaceOrder: enter a delivery address")
    return s.replace(surface="OrderStatus", focus=None, order=s.cart, cart=(),
                     order_address=address if s.fulfillment == "delivery" else "",
                     order_tip=p["tip"], order_fulfillment=s.fulfillment, order_when=s.when,
                     fulfillment="delivery", when="ASAP")


_LIST = {"surface": "RestaurantList", "focus": None, "store": "", "picks": ()}
"""The restaurant list, with nothing open."""
_HANDLERS: dict[str, H.Handler[FoodState]] = {
    "OpenRestaurant": _open_restaurant, "OpenItem": _open_item, "QuickAdd": _quick_add,
    "SelectOption": _select_option, "AddToCart": _add_to_cart,
    "UpdateQuantity": _update_quantity, "RemoveFromCart": _remove, "PlaceOrder": _place_order,
    "BackToRestaurants": H.step(("RestaurantDetail", "Cart"),
                              "BackToRestaurants: not available here", **_LIST),
    "CloseItem": H.step("MenuItemDetail", "CloseItem: no item open", surface="RestaurantDetail",
                      focus=lambda s, p: s.store, picks=()),
    "OpenCart": H.step((*HEADER_SURFACES, "Checkout"), "OpenCart: not available here",
                     surface="Cart", focus=None, picks=()),
    "ProceedToCheckout": H.step(lambda s: s.surface == "Cart" and bool(s.cart),
                              "ProceedToCheckout: the cart is empty", surface="Checkout"),
    "SetFulfillment": H.step("Checkout", "SetFulfillment: not at checkout",
                           fulfillment=lambda s, p: p["mode"]),
    "SetDeliveryTime": H.step("Checkout", "SetDeliveryTime: not at checkout",
                            when=lambda s, p: p["slot"]),
}


SURFACES = H.surfaces(
    RestaurantList=(SurfaceKind.CARD, "restaurant cards, cuisines, filters"),
    RestaurantDetail=(SurfaceKind.DETAIL, "banner, info bar, menu sections"),
    MenuItemDetail=(SurfaceKind.DETAIL, "item modal: options, quantity"),
    Cart=(SurfaceKind.OTHER, "cart lines with quantities"),
    Checkout=(SurfaceKind.COMMIT, "address, time, tip, place order"),
    OrderStatus=(SurfaceKind.COMMIT, "the placed order's tracker"))
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
        out += H.offer("OpenRestaurant", "restaurant_id", V.CATALOG.visible(world, s))
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
        out += [*H.offer("SetFulfillment", "mode", V.FULFILLMENT),
                *H.offer("SetDeliveryTime", "slot", V.DELIVERY_TIMES)]
        out.append(Action("PlaceOrder"))
    return tuple(out)


def _store_views(world: World, rid: str, focus: str | None = None) -> list[EntityView]:
    pixels = tuple(f for f in PIXEL_FIELDS if f in world.entities[rid])
    return [H.view(world, rid, RESTAURANT_CARD + RESTAURANT_DETAIL + pixels),
            *(H.view(world, i, MENU_LINE + (ITEM_DETAIL if i == focus else ()))
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
            ents.append(H.view(world, rid, ("name", "delivery_fee")))
        ents.append(H.view(world, iid, MENU_LINE))
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
        ents = list(H.views(world, V.CATALOG.visible(world, s), RESTAURANT_CARD))
        ctx.update(V.CATALOG.context(s, world))
        ctx["cuisines"] = list(V.CUISINES)
    elif surf in ("RestaurantDetail", "MenuItemDetail"):
        ents = _store_views(world, s.store, s.focus if surf == "MenuItemDetail" else None)
        ctx.update(sections=_sections(world, s.store), store=s.store)
        if surf == "MenuItemDetail":
            item = world.entities[s.focus or ""]
            ctx.update(item=s.focus, picked=dict(s.picks),
                       extras={c: V.EXTRA[c] for _, cs in item["options"] for c in cs
                               if c in V.EXTRA}, unit_price=unit_price(item, s.picks))
    elif surf in ("Cart", "Checkout"):
        ents, totals = _lines(world, s.cart)
        ctx.update(totals, fulfillment=s.fulfillment, when=s.when)
    elif surf == "OrderStatus":
        ents, totals = _lines(world, s.order)
        ctx.update(totals, address=s.order_address, tip=s.order_tip,
                   fulfillment=s.order_fulfillment, when=s.order_when)
    if surf in ("Checkout", "OrderStatus"):
        ctx.update(tips=list(V.TIPS), times=list(V.DELIVERY_TIMES))
    return H.observation(s, SURFACES, ents, available(s, world), ctx)


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
