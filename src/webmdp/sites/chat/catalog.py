"""The search results listing: the search box over message text, author and channel, "In" and
"From" filters, sort orders and paging (sites/_common/catalog.py)."""

from __future__ import annotations

from webmdp.sites._common.catalog import Catalog, Facet, Sort
from webmdp.sites.chat import vocab as V

PEOPLE = (*V.MEMBERS, V.ME)

CATALOG = Catalog(
    surface="SearchResults",
    search_fields=("text", "author", "channel"),
    facets=(
        Facet("channel", "In", "one", "SetSearchChannel", "attribute_filtering",
              options=V.CHANNELS, option_labels={c: f"#{c}" for c in V.CHANNELS}),
        Facet("author", "From", "one", "SetSearchAuthor", "attribute_filtering", options=PEOPLE),
    ),
    sorts=(
        Sort("relevant", "Most relevant", key=lambda e: -sum(n for _, n in e["reactions"])),
        Sort("newest", "Newest", key=lambda e: -e["posted"]),
        Sort("oldest", "Oldest", key=lambda e: e["posted"]),
    ),
    page_size=20,
    rank="posted",
    search_skill="search_query",
    pagination_skill="search_result_navigation",
    prefix="MSG-",
)
