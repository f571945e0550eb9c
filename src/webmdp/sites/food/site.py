"""The Food Delivery site: a DoorDash-like restaurant delivery app (WebSTEP Tables 4, 5, 7)."""

from __future__ import annotations

from webmdp.core.spec import (
    ActionSpec,
    ParamSpec,
    SkillCategory,
    SurfaceKind,
    SurfaceSpec,
    VisibilitySpec,
    declare_action,
)
from webmdp.sites._common.site import ModularSite, SiteLogic
from webmdp.sites.food import mdp, observe
from webmdp.sites.food import vocab as V
from webmdp.sites.food.catalog import CATALOG
from webmdp.sites.food.state import FoodState
from webmdp.sites.food.world import (
    CARD_FIELDS,
    DETAIL_FIELDS,
    ITEM_DETAIL,
    MENU_LINE,
    RESTAURANT_CARD,
    RESTAURANT_DETAIL,
    generate_world,
)

NAV, INS, CO = SkillCategory.NAVIGATE, SkillCategory.INSPECT, SkillCategory.COMMIT
ITEM = ParamSpec("item_id", "entity")
_a = declare_action

ACTIONS: tuple[ActionSpec, ...] = (
    *CATALOG.action_specs(),
    _a("GoHome", "site_navigation", NAV, doc="the logo: back to the home feed"),
    _a("OpenRestaurant", "restaurant_inspection", INS,
       ParamSpec("restaurant_id", "entity")),
    _a("BackToRestaurants", "backtrack_navigation", NAV),
    _a("OpenItem", "menu_item_inspection", INS, ITEM, doc="open the item modal"),
    _a("CloseItem", "backtrack_navigation", NAV),
    _a("SelectOption", "customization_selection", CO, ParamSpec("group", "str"),
       ParamSpec("choice", "str")),
    _a("AddToCart", "cart_management", CO, ParamSpec("quantity", "int", text=True)),
    _a("QuickAdd", "cart_management", CO, ITEM, doc="the + button on a menu line"),
    _a("OpenCart", "cart_management", NAV),
    _a("UpdateQuantity", "cart_management", CO, ITEM, ParamSpec("quantity", "int", text=True)),
    _a("RemoveFromCart", "cart_management", CO, ITEM),
    _a("ProceedToCheckout", "checkout_flow", CO, changes_state=False),
    _a("SetFulfillment", "checkout_flow", CO, ParamSpec("mode", "choice", V.FULFILLMENT)),
    _a("SetDeliveryTime", "commit_timing", CO, ParamSpec("slot", "choice", V.DELIVERY_TIMES)),
    _a("PlaceOrder", "checkout_flow", CO,
       ParamSpec("address", "str", text=True, optional=True),
       ParamSpec("tip", "choice", V.TIPS, text=True)),
)

_LINE = frozenset({"name", "price", "section", "delivery_fee"})


class FoodSite(ModularSite[FoodState]):
    name = "food"
    title = "DashEats"
    entity_prefix = "RST"
    example_params = {"query": "thai", "quantity": 2, "address": "1455 Market St, Apt 4B",
                      "tip": "18%"}
    surfaces = (
        SurfaceSpec("RestaurantList", SurfaceKind.CARD, "restaurant cards, cuisines, filters"),
        SurfaceSpec("RestaurantDetail", SurfaceKind.DETAIL, "banner, info bar, menu sections"),
        SurfaceSpec("MenuItemDetail", SurfaceKind.DETAIL, "item modal: options, quantity"),
        SurfaceSpec("Cart", SurfaceKind.OTHER, "cart lines with quantities"),
        SurfaceSpec("Checkout", SurfaceKind.COMMIT, "address, time, tip, place order"),
        SurfaceSpec("OrderStatus", SurfaceKind.COMMIT, "the placed order's tracker"),
    )
    actions = ACTIONS
    visibility = VisibilitySpec(
        card_fields=CARD_FIELDS,
        detail_fields=DETAIL_FIELDS,
        surface_fields={
            "RestaurantList": frozenset(RESTAURANT_CARD),
            "RestaurantDetail": frozenset(RESTAURANT_CARD + RESTAURANT_DETAIL + MENU_LINE),
            "MenuItemDetail": frozenset(RESTAURANT_CARD + RESTAURANT_DETAIL + MENU_LINE
                                        + ITEM_DETAIL),
            "Cart": _LINE, "Checkout": _LINE, "OrderStatus": _LINE,
        },
    )

    state_class = FoodState
    start_surface = "RestaurantList"
    back_actions = {"RestaurantDetail": "BackToRestaurants", "MenuItemDetail": "CloseItem",
                    "Cart": "BackToRestaurants", "Checkout": "OpenCart"}
    logic = SiteLogic(generate_world, mdp.transition, observe.observe, observe.facts)
