"""The Food Delivery site: a DoorDash-like restaurant delivery app (WebSTEP Tables 4, 5, 7)."""

from __future__ import annotations

from webmdp.core.spec import ActionSpec, ParamSpec, declare_action
from webmdp.sites._common.site import CO, INS, NAV, ModularSite, SiteLogic
from webmdp.sites._common.tasklib import shown
from webmdp.sites.food import mdp
from webmdp.sites.food import vocab as V
from webmdp.sites.food import world as W
from webmdp.sites.food.bound import food_bound, food_informed
from webmdp.sites.food.state import FoodState

ITEM = ParamSpec("item_id", "entity")
_a = declare_action

ACTIONS: tuple[ActionSpec, ...] = (
    *V.CATALOG.action_specs(),
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

_LINE = ("name", "price", "section", "delivery_fee")


class FoodSite(ModularSite[FoodState]):
    name = "food"
    title = "DashEats"
    entity_prefix = "RST"
    confirm_surfaces = frozenset({"Checkout"})
    example_params = {"query": "thai", "quantity": 2, "address": "1455 Market St, Apt 4B",
                      "tip": "18%"}
    surfaces = mdp.SURFACES
    actions = ACTIONS
    entity_fields = {  # kind (id prefix) -> field -> type: webmdp.core.entities
        "ITM": {"allergens": "list", "calories": "int", "description": "str", "dietary": "list",
            "id": "str", "name": "str", "options": "list", "popularity": "int", "price": "number",
            "restaurant_id": "str", "section": "str"},
        "RST": {"address": "str", "closes": "str", "cuisine": "str", "delivery_fee": "number",
            "delivery_time": "int", "diets": "list", "dishes": "list", "fast": "bool",
            "free": "bool", "hours": "str", "id": "str", "name": "str", "popularity": "int",
            "price": "str", "rating": "number", "review_count": "int", "street": "str"},
    }
    pixel_fields = {"RestaurantDetail": frozenset(W.PIXEL_FIELDS),  # the store page, also
                    "MenuItemDetail": frozenset(W.PIXEL_FIELDS)}    # under an item's modal
    # evidence_gap (tasks.informed): a restaurant's page or an item's dialog shows one entity's
    # detail fields; the way to the next passes a list.
    # (3: only a screen showing or naming an entity leads to its unread detail fields.)
    evidence_gap = {"RST": 3, "ITM": 3}
    visibility = shown(W.CARD_FIELDS, W.DETAIL_FIELDS, RestaurantList=W.RESTAURANT_CARD,
                       RestaurantDetail=W.RESTAURANT_CARD + W.RESTAURANT_DETAIL + W.MENU_LINE
                       + W.PIXEL_FIELDS,
                       MenuItemDetail=W.RESTAURANT_CARD + W.RESTAURANT_DETAIL + W.MENU_LINE
                       + W.ITEM_DETAIL + W.PIXEL_FIELDS,
                       Cart=_LINE, Checkout=_LINE, OrderStatus=_LINE)

    state_class = FoodState
    start_surface = "RestaurantList"
    back_actions = {"RestaurantDetail": "BackToRestaurants", "MenuItemDetail": "CloseItem",
                    "Cart": "BackToRestaurants", "Checkout": "OpenCart"}
    logic = SiteLogic(W.generate_world, mdp.transition, mdp.observe, mdp.facts, mdp.available)
    distance_bound = staticmethod(food_bound)
    informed_bound = staticmethod(food_informed)
