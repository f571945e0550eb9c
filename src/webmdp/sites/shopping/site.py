"""The Shopping site: a large online store (WebSTEP Tables 4, 5, 7; template Table 19)."""

from __future__ import annotations

from webmdp.core.model import State
from webmdp.core.spec import (
    Action,
    ActionSpec,
    ParamSpec,
    SkillCategory,
    SurfaceKind,
    SurfaceSpec,
    VisibilitySpec,
    declare_action,
)
from webmdp.sites._common.site import ModularSite, SiteLogic
from webmdp.sites.shopping import catalog as C
from webmdp.sites.shopping import mdp
from webmdp.sites.shopping.bound import shopping_bound
from webmdp.sites.shopping.state import ShoppingState
from webmdp.sites.shopping.world import CARD_FIELDS, DETAIL_FIELDS, generate_world

NAV, SE, F, INS, CO = (SkillCategory.NAVIGATE, SkillCategory.SEARCH, SkillCategory.FILTER,
                   SkillCategory.INSPECT, SkillCategory.COMMIT)
PID = ParamSpec("product_id", "entity")


_a = declare_action


ACTIONS: tuple[ActionSpec, ...] = (
    _a("Search", "query_formulation", SE, ParamSpec("query", "str", text=True),
       doc="submit the header search box"),
    _a("ClearSearch", "query_formulation", SE, doc="remove the search query"),
    _a("SetDepartment", "department_filtering", F,
       ParamSpec("department", "choice", tuple(C.DEPARTMENTS))),
    _a("SetCategory", "category_filtering", F,
       ParamSpec("category", "choice", tuple(C.CATEGORY_DEPARTMENT))),
    _a("ToggleBrand", "brand_filtering", F, ParamSpec("brand", "str")),
    _a("SetPriceRange", "price_filtering", F, ParamSpec("min", "float", optional=True, text=True),
       ParamSpec("max", "float", optional=True, text=True)),
    _a("SetMinRating", "attribute_filtering", F, ParamSpec("rating", "choice", C.RATING_STEPS)),
    _a("TogglePrime", "attribute_filtering", F, doc="only Prime-eligible products"),
    _a("ClearFilters", "filter_clearing", F),
    _a("SortBy", "sort_usage", F, ParamSpec("order", "choice", C.SORT_ORDERS)),
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

_CART_FIELDS = frozenset({"title", "brand", "price", "image"})


class ShoppingSite(ModularSite[ShoppingState]):
    name = "shopping"
    distance_bound = staticmethod(shopping_bound)
    title = "Shopwise"
    entity_prefix = "PRD"
    example_params = {"query": "headphones", "min": 10.0, "max": 150.0, "quantity": 2}
    surfaces = (
        SurfaceSpec("Home", SurfaceKind.OTHER, "storefront with department tiles"),
        SurfaceSpec("SearchResults", SurfaceKind.CARD, "product cards with filter sidebar"),
        SurfaceSpec("ProductDetail", SurfaceKind.DETAIL, "specifications, options, reviews"),
        SurfaceSpec("Cart", SurfaceKind.OTHER, "cart lines with quantities"),
        SurfaceSpec("Checkout", SurfaceKind.COMMIT, "shipping speed and place order"),
        SurfaceSpec("OrderConfirmation", SurfaceKind.COMMIT, "the placed order"),
    )
    actions = ACTIONS
    visibility = VisibilitySpec(
        card_fields=CARD_FIELDS,
        detail_fields=DETAIL_FIELDS,
        surface_fields={
            "Home": frozenset(),
            "SearchResults": frozenset(CARD_FIELDS),
            "ProductDetail": frozenset(CARD_FIELDS + DETAIL_FIELDS),
            "Cart": _CART_FIELDS,
            "Checkout": _CART_FIELDS,
            "OrderConfirmation": _CART_FIELDS,
        },
    )

    state_class = ShoppingState
    start_surface = "Home"
    logic = SiteLogic(generate_world, mdp.transition, mdp.observe, mdp.facts)

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
