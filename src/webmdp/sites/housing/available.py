"""The concrete actions a Housing surface offers; views bind exactly these."""

from __future__ import annotations

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.sites.housing import vocab as V
from webmdp.sites.housing.catalog import CATALOG
from webmdp.sites.housing.state import HousingState as S


def _heart(s: S, pid: str) -> Action:
    return Action("UnsaveHome" if pid in s.saved else "SaveHome", {"property_id": pid})


def available_actions(s: S, world: World) -> tuple[Action, ...]:
    if s.surface == "TourRequest":
        return (Action("SubmitTourRequest"), Action("CancelTour"))
    out = [Action("Search")]
    if s.surface != "SearchResults":
        out += [Action("SetListingType", {"listing_type": t}) for t in V.LISTING_TYPES]
    if s.surface != "SavedHomes":
        out.append(Action("OpenSavedHomes"))
    if s.surface == "SearchResults":
        out += CATALOG.available(s, world)
        for pid in CATALOG.visible(world, s):
            out += [Action("OpenProperty", {"property_id": pid}), _heart(s, pid)]
    elif s.surface == "PropertyDetail" and s.focus:
        if s.origin == "SearchResults":
            out.append(Action("BackToResults"))
        if not s.agent_open:
            out.append(Action("ShowListingAgent"))
        out += [_heart(s, s.focus), Action("RequestTour"), Action("ContactAgent")]
    elif s.surface == "SavedHomes":
        out.append(Action("BackToResults"))
        if len(s.saved) > 1:
            out.append(Action("CompareHomes"))
        for pid in s.saved:
            out += [Action("OpenProperty", {"property_id": pid}), _heart(s, pid)]
    return tuple(out)
