"""Housing semantic state: the listing (query, filters, sort, page) plus saved homes and the
requests sent to listing agents."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.sites._common.catalog import BrowseState

TourRequest = tuple[str, str, str, str, str]
"""(property id, date, time, name, phone)."""
AgentMessage = tuple[str, str, str, str]
"""(property id, name, phone, message)."""


@dataclass(frozen=True)
class HousingState(BrowseState):
    origin: str = "SearchResults"
    """The list surface a property page was opened from (Back returns there)."""
    agent_open: bool = False
    comparing: bool = False
    saved: tuple[str, ...] = ()
    tours: tuple[TourRequest, ...] = ()
    messages: tuple[AgentMessage, ...] = ()
