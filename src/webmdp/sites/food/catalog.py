"""The restaurant listing: search box, facets, sort orders, paging (sites/_common/catalog.py)."""

from __future__ import annotations

from webmdp.sites._common.catalog import Catalog, Facet, Sort
from webmdp.sites.food import vocab as V

CATALOG = Catalog(
    surface="RestaurantList",
    search_fields=("name", "cuisine", "dishes"),
    facets=(
        Facet("cuisine", "Cuisine", "one", "SetCuisine", "cuisine_filtering",
              options=V.CUISINES),
        Facet("price", "Price", "any", "TogglePriceLevel", "price_filtering",
              options=V.PRICE_LEVELS),
        Facet("diets", "Dietary", "all", "ToggleDietary", "dietary_filtering",
              options=V.DIETS, param="diet", option_labels=V.DIET_LABELS),
        Facet("rating", "Rating", "min", "SetMinRating", "attribute_filtering",
              options=V.RATING_STEPS, option_labels={r: f"{r}+ \u2605" for r in V.RATING_STEPS}),
        Facet("fast", "Under 30 min", "flag", "ToggleFastDelivery", "attribute_filtering"),
        Facet("free", "$0 delivery fee", "flag", "ToggleFreeDelivery", "attribute_filtering"),
    ),
    sorts=(
        Sort("recommended", "Recommended", key=lambda e: 0),
        Sort("rating", "Rating", key=lambda e: -e["rating"]),
        Sort("delivery_time", "Delivery time", key=lambda e: e["delivery_time"]),
        Sort("delivery_fee", "Delivery fee", key=lambda e: e["delivery_fee"]),
    ),
    page_size=12,
    prefix="RST-",
)
