"""The repository search page: search box, facets, sort orders, paging
(sites/_common/catalog.py)."""

from __future__ import annotations

from webmdp.sites._common.catalog import Catalog, Facet, Sort
from webmdp.sites.repo import vocab as V

CATALOG = Catalog(
    surface="RepoList",
    search_fields=("name", "owner", "description", "topics"),
    facets=(
        Facet("language", "Language", "one", "SetLanguage", "language_filtering",
              options=V.LANGUAGES),
        Facet("stars", "Stars", "min", "SetMinStars", "stars_filtering",
              options=V.STAR_STEPS, option_labels=V.STAR_LABELS),
        Facet("license", "License", "one", "SetLicense", "license_filtering",
              options=V.LICENSES),
        Facet("topics", "Topic", "all", "ToggleTopic", "topic_filtering", param="topic",
              options=V.TOPICS),
        Facet("good_first", "Has good first issues", "flag", "ToggleGoodFirstIssues",
              "repo_attribute_filtering"),
    ),
    sorts=(
        Sort("best_match", "Best match", key=lambda e: 0),
        Sort("stars", "Most stars", key=lambda e: -e["stars"]),
        Sort("forks", "Most forks", key=lambda e: -e["forks"]),
        Sort("updated", "Recently updated", key=lambda e: e["updated"]),
    ),
    page_size=10,
    rank="popularity",
    search_skill="repo_search",
    clear_skill="repo_attribute_filtering",
    sort_skill="repo_sort_usage",
    prefix="REPO-",
)
