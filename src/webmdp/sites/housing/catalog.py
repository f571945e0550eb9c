"""The Housing listing: search box, Zillow-style filter bar, sort orders (site toolkit)."""

from __future__ import annotations

from webmdp.sites._common.catalog import Catalog, Facet, Sort
from webmdp.sites.housing import vocab as V

_BEDS = {b: f"{b}+" for b in V.BEDS}
_BATHS = {b: f"{b}+" for b in V.BATHS}

CATALOG = Catalog(
    surface="SearchResults",
    search_fields=("address", "city", "home_type"),
    facets=(
        Facet("listing", "Listing type", "one", "SetListingType", "attribute_filtering",
              field="listing_type", options=V.LISTING_TYPES, param="listing_type",
              option_labels=dict(V.LISTING_LABELS)),
        Facet("price", "Price", "range", "SetPriceRange", "price_filtering", unit="$"),
        Facet("beds", "Bedrooms", "min", "SetMinBeds", "beds_filtering", options=V.BEDS,
              option_labels=_BEDS),
        Facet("baths", "Bathrooms", "min", "SetMinBaths", "baths_filtering", options=V.BATHS,
              option_labels=_BATHS),
        Facet("home_type", "Home type", "any", "ToggleHomeType", "type_filtering",
              options=V.HOME_TYPES),
        Facet("sqft", "Square feet", "range", "SetSqftRange", "sqft_filtering", unit="sqft"),
        Facet("garage", "Has garage", "flag", "ToggleGarage", "attribute_filtering",
              field="has_garage"),
        Facet("pets", "Pets allowed", "flag", "TogglePetsAllowed", "attribute_filtering",
              field="pets_ok"),
    ),
    sorts=(
        Sort("homes_for_you", "Homes for You", lambda e: -e["popularity"]),
        Sort("price_asc", "Price (Low to High)", lambda e: e["price"]),
        Sort("price_desc", "Price (High to Low)", lambda e: -e["price"]),
        Sort("beds", "Bedrooms", lambda e: -e["beds"]),
        Sort("sqft", "Square Feet", lambda e: -e["sqft"]),
    ),
    page_size=V.PAGE_SIZE,
)
