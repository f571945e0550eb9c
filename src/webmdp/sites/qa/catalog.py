"""The question listing: search box, tag / acceptance / date / vote filters, sort tabs,
paging (sites/_common/catalog.py)."""

from __future__ import annotations

from webmdp.sites._common.catalog import Catalog, Facet, Sort
from webmdp.sites.qa import vocab as V

CATALOG = Catalog(
    surface="QuestionList",
    search_fields=("title", "tags", "author"),
    facets=(
        Facet("tags", "Tagged with", "all", "FilterTag", "tag_filtering", options=V.TAGS,
              param="tag"),
        Facet("unanswered", "No answers", "flag", "ToggleUnanswered", "acceptance_filtering"),
        Facet("accepted", "Has accepted answer", "flag", "ToggleAccepted",
              "acceptance_filtering"),
        Facet("year", "Asked in", "one", "SetAskedYear", "date_filtering", options=V.YEARS),
        Facet("votes", "Score", "min", "SetMinVotes", "vote_filtering", options=V.VOTE_STEPS,
              param="min_votes", option_labels={v: f"{v}+ votes" for v in V.VOTE_STEPS}),
    ),
    sorts=(
        Sort("newest", "Newest", key=lambda e: -int(e["asked"].replace("-", ""))),
        Sort("votes", "Highest score", key=lambda e: -e["votes"]),
        Sort("views", "Most viewed", key=lambda e: -e["views"]),
    ),
    page_size=15,
    prefix="QST-",
    clear_skill="filter_reset",
)
