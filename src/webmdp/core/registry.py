"""Site registry with lazy ``module:attr`` entry points: the sites are imported only when asked
for, so every layer below them can name a site."""

from __future__ import annotations

import importlib
from functools import cache

from webmdp.core.site import Site
from webmdp.errors import unknown_choice

_ENTRY_POINTS: dict[str, str] = {
    "shopping": "webmdp.sites.shopping.site:ShoppingSite",
    "mail": "webmdp.sites.mail.site:MailSite",
    "accommodation": "webmdp.sites.accommodation.site:AccommodationSite",
    "housing": "webmdp.sites.housing.site:HousingSite",
    "food": "webmdp.sites.food.site:FoodSite",
    "chat": "webmdp.sites.chat.site:ChatSite",
    "qa": "webmdp.sites.qa.site:QASite",
    "calendar": "webmdp.sites.calendar.site:CalendarSite",
    "repo": "webmdp.sites.repo.site:RepoSite",
    "jobs": "webmdp.sites.jobs.site:JobsSite",
}

_COMPOSITES: dict[str, str] = {"cross-site": "webmdp.sites.cross.site:CrossSite"}
"""MDPs made of the sites above (not sites of their own: :func:`site_names` leaves them out,
so "every site" still means the single sites)."""


def register_site(name: str, entry_point: str) -> None:
    """Register a site class by ``"module:attr"`` without importing it."""
    _ENTRY_POINTS[name] = entry_point
    get_site.cache_clear()


def site_names() -> list[str]:
    return sorted(_ENTRY_POINTS)


@cache
def get_site(name: str) -> Site:
    """The (stateless, shared) site instance for ``name``."""
    entry = _ENTRY_POINTS.get(name) or _COMPOSITES.get(name)
    if entry is None:
        raise unknown_choice("site", name, site_names())
    module, attr = entry.split(":")
    cls = getattr(importlib.import_module(module), attr)
    return cls()
