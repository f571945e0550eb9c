"""Housing task templates (WebSTEP H.1 style; Table 4: 12 templates, 180 tasks)."""

from __future__ import annotations

from webmdp.sites.housing.tpl_request import (
    ContactByBrokerage,
    ContactNewestListing,
    TourByYearBuilt,
    TourWithGarage,
)
from webmdp.sites.housing.tpl_save import (
    BestRatedSchools,
    CheapestUnderHoa,
    LargestLot,
    LargestWithGoodSchools,
    PetFriendlyRental,
)
from webmdp.sites.housing.tpl_saved import SavedLowestHoaTour, UnsaveByHoa, UnsaveOldest
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = {
    t.name: t for t in (
        CheapestUnderHoa(), LargestWithGoodSchools(), BestRatedSchools(), LargestLot(),
        PetFriendlyRental(), TourByYearBuilt(), TourWithGarage(), ContactNewestListing(),
        ContactByBrokerage(), UnsaveByHoa(), UnsaveOldest(), SavedLowestHoaTour())
}
