"""The library's semantic state: the catalogue listing (query, filters, sort, page) plus the
patron's loans, holds and reading list."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.sites.toolkit import BrowseState


@dataclass(frozen=True)
class LibraryState(BrowseState):
    origin: str = "SearchResults"
    """The list surface a book page was opened from (Back returns there)."""
    borrowed: tuple[str, ...] = ()
    holds: tuple[str, ...] = ()
    reading_list: tuple[str, ...] = ()
