"""Shopping's listing, declared on the toolkit's :class:`Catalog`: the header search, the
department / category / brand / price / rating / Prime filters, five sort orders, 12 per page.

Two of its facets depend on the state, as on a real store: the category list is the chosen
department's, and the brand list is the brands among the current results (the brand filter
itself aside). A department clears its category and brands; a category sets its department
and clears the brands. Picking the active department, category or rating again keeps it.
"""

from __future__ import annotations

from webmdp.core.model import World
from webmdp.sites._common.catalog import BrowseState, Catalog, Facet, Sort
from webmdp.sites.shopping import catalog as C

SORT_LABELS = {"featured": "Featured", "price_asc": "Price: Low to High",
               "price_desc": "Price: High to Low", "rating": "Avg. Customer Review",
               "reviews": "Most Reviews"}


def _categories(_world: World, s: BrowseState) -> tuple[str, ...]:
    return C.DEPARTMENTS.get(s.filter("department") or "", ())


def brand_facet(world: World, s: BrowseState) -> tuple[str, ...]:
    """Brands among the results when the brand filter itself is ignored."""
    others = tuple((k, v) for k, v in s.filters if k != "brand")
    ids = CATALOG.results(world, s.replace(filters=others))
    return tuple(sorted({world.entities[i]["brand"] for i in ids}))


CATALOG = Catalog(
    surface="SearchResults",
    search_fields=("title", "brand", "category", "department"),
    facets=(
        Facet("department", "Department", "one", "SetDepartment", "department_filtering",
              options=tuple(C.DEPARTMENTS), clears=("category", "brand"), toggles=False),
        Facet("category", "Category", "one", "SetCategory", "category_filtering",
              options=tuple(C.CATEGORY_DEPARTMENT), offered=_categories, clears=("brand",),
              implies=lambda cat: {"department": C.CATEGORY_DEPARTMENT[cat]}, toggles=False),
        Facet("brand", "Brands", "any", "ToggleBrand", "brand_filtering", offered=brand_facet),
        Facet("price", "Price", "range", "SetPriceRange", "price_filtering", unit="$"),
        Facet("rating", "Customer Reviews", "min", "SetMinRating", "attribute_filtering",
              options=C.RATING_STEPS, toggles=False),
        Facet("prime", "Prime", "flag", "TogglePrime", "attribute_filtering"),
    ),
    sorts=(
        Sort("featured", SORT_LABELS["featured"], lambda e: 0),
        Sort("price_asc", SORT_LABELS["price_asc"], lambda e: e["price"]),
        Sort("price_desc", SORT_LABELS["price_desc"], lambda e: -e["price"]),
        Sort("rating", SORT_LABELS["rating"], lambda e: -e["rating"]),
        Sort("reviews", SORT_LABELS["reviews"], lambda e: -e["review_count"]),
    ),
    page_size=C.PAGE_SIZE,
)


def visible_ids(world: World, s: BrowseState) -> tuple[str, ...]:
    return CATALOG.visible(world, s)
