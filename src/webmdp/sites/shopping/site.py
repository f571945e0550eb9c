"""The Shopping site: a large online store (WebSTEP Tables 4, 5, 7; template Table 19)."""

from __future__ import annotations

from webmdp.core.model import State
from webmdp.core.spec import Action, ActionSpec, ParamSpec, declare_action
from webmdp.sites._common.site import CO, FI, INS, NAV, SE, ModularSite, SiteLogic
from webmdp.sites._common.tasklib import shown
from webmdp.sites.shopping import catalog as C
from webmdp.sites.shopping import mdp
from webmdp.sites.shopping.bound import shopping_bound, shopping_informed
from webmdp.sites.shopping.state import ShoppingState
from webmdp.sites.shopping.world import CARD_FIELDS, DETAIL_FIELDS, PIXEL_FIELDS, generate_world

PID = ParamSpec("product_id", "entity")
_a = declare_action


ACTIONS: tuple[ActionSpec, ...] = (
    _a("Search", "query_formulation", SE, ParamSpec("query", "str", text=True),
       doc="submit the header search box"),
    _a("ClearSearch", "query_formulation", SE, doc="remove the search query"),
    _a("SetDepartment", "department_filtering", FI,
       ParamSpec("department", "choice", tuple(C.DEPARTMENTS))),
    _a("SetCategory", "category_filtering", FI,
       ParamSpec("category", "choice", tuple(C.CATEGORY_DEPARTMENT))),
    _a("ToggleBrand", "brand_filtering", FI, ParamSpec("brand", "str")),
    _a("SetPriceRange", "price_filtering", FI, ParamSpec("min", "float", optional=True, text=True),
       ParamSpec("max", "float", optional=True, text=True)),
    _a("SetMinRating", "attribute_filtering", FI, ParamSpec("rating", "choice", C.RATING_STEPS)),
    _a("TogglePrime", "attribute_filtering", FI, doc="only Prime-eligible products"),
    _a("ClearFilters", "filter_clearing", FI),
    _a("SortBy", "sort_usage", FI, ParamSpec("order", "choice", C.SORT_ORDERS)),
    _a("NextPage", "pagination", NAV),
    _a("PrevPage", "pagination", NAV),
    _a("GoToPage", "pagination", NAV, ParamSpec("page", "int")),
    _a("GoHome", "site_navigation", NAV),
    _a("OpenProduct", "product_inspection", INS, PID),
    _a("BackToResults", "backtrack_navigation", NAV),
    _a("ShowReviews", "review_inspection", INS),
    _a("SelectOption", "option_selection", CO, ParamSpec("option", "choice", ("color", "size")),
       ParamSpec("value", "str")),
    _a("AddToCart", "cart_management", CO),
    _a("OpenCart", "cart_navigation", NAV),
    _a("UpdateQuantity", "cart_management", CO, PID, ParamSpec("quantity", "int", text=True)),
    _a("RemoveFromCart", "cart_management", CO, PID),
    _a("ProceedToCheckout", "checkout_flow", CO),
    _a("SetShippingSpeed", "checkout_flow", CO,
       ParamSpec("speed", "choice", tuple(C.SHIPPING_SPEEDS))),
    _a("PlaceOrder", "checkout_flow", CO),
    _a("ContinueShopping", "site_navigation", NAV),
)

class ShoppingSite(ModularSite[ShoppingState]):
    name = "shopping"
    distance_bound = staticmethod(shopping_bound)
    informed_bound = staticmethod(shopping_informed)
    title = "Shopwise"
    entity_prefix = "PRD"
    confirm_surfaces = frozenset({"Checkout"})
    example_params = {"query": "headphones", "min": 10.0, "max": 150.0, "quantity": 2}
    surfaces = mdp.SURFACES
    actions = ACTIONS
    entity_fields = {  # kind (id prefix) -> field -> type: webmdp.core.entities
        "PRD": {"badge": "str", "brand": "str", "category": "str", "colors": "list",
            "delivery": "str", "department": "str", "dimensions": "str", "features": "list",
            "id": "str", "image": "str", "list_price": "number", "material": "str",
            "model_number": "str", "popularity": "int", "price": "number", "prime": "bool",
            "rating": "number", "return_policy": "str", "review_count": "int", "reviews": "list",
            "seller": "str", "shipping_cost": "number", "sizes": "list", "title": "str",
            "warranty_months": "int", "weight": "str"},
    }
    pixel_fields = {"ProductDetail": frozenset(PIXEL_FIELDS)}
    # evidence_gap (tasks.informed): a product page shows one product's detail fields; the next is
    # opened from a list.
    # (3: only a screen showing or naming an entity leads to its unread detail fields.)
    evidence_gap = {"PRD": 3}
    visibility = shown(CARD_FIELDS, DETAIL_FIELDS, Home=(),
                       SearchResults=CARD_FIELDS,
                       ProductDetail=CARD_FIELDS + DETAIL_FIELDS + PIXEL_FIELDS,
                       Cart=mdp.LINE_FIELDS,
                       Checkout=mdp.LINE_FIELDS, OrderConfirmation=mdp.LINE_FIELDS)

    state_class = ShoppingState
    start_surface = "Home"
    logic = SiteLogic(generate_world, mdp.transition, mdp.observe, mdp.facts,
                      mdp.available_actions)

    def browser_back(self, state: State) -> Action | None:
        assert isinstance(state, ShoppingState)
        if state.surface == "ProductDetail" or (state.surface == "Cart" and state.query):
            return Action("BackToResults")
        return None

    def alignment_state(self, state: State) -> State:
        """Off a product page, the option selection (color, size) is a leftover of the last
        product opened: nothing shows or reads it, and OpenProduct resets it."""
        assert isinstance(state, ShoppingState)
        if state.surface == "ProductDetail" or not (state.color or state.size):
            return state
        return state.replace(color="", size="")
