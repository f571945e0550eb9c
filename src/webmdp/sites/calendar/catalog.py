"""The event search (sites/_common/catalog.py): the header's search box over titles,
locations and calendars, results in date order. No facets or paging: the calendar list in the
sidebar filters the views, not the results, as in the real app."""

from __future__ import annotations

from webmdp.sites._common.catalog import Catalog, Sort

CATALOG = Catalog(
    surface="SearchResults",
    search_fields=("title", "location", "calendar"),
    facets=(),
    sorts=(Sort("date", "Date", key=lambda e: (e["date"], e["start"])),),
    page_size=100,
    rank="duration",
    search="SearchEvents",
    search_skill="search_query",
    prefix="EVT-",
)
