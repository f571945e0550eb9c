"""Accommodation task templates by name (WebSTEP H.1; Table 20 is search_filter_book)."""

from __future__ import annotations

from webmdp.sites.accommodation.templates_book import (
    HiddenAmenityBook,
    HostNamedBook,
    LargestExperiencedHost,
    SearchFilterBook,
    TopRatedFlexible,
)
from webmdp.sites.accommodation.templates_detail import (
    BathroomsBook,
    CompareCancellation,
    EarlyCheckInBook,
    MinimumStayBook,
    PetsForGroupBook,
)
from webmdp.sites.accommodation.templates_manage import AbandonCheckout, CancelTrip
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = {
    t.name: t for t in (
        SearchFilterBook(), TopRatedFlexible(), LargestExperiencedHost(), HiddenAmenityBook(),
        HostNamedBook(), CompareCancellation(), MinimumStayBook(), BathroomsBook(),
        EarlyCheckInBook(), PetsForGroupBook(), AbandonCheckout(), CancelTrip(),
    )
}
