"""The Housing site: a real-estate listing site in the style of Zillow / Redfin, with homes for
sale and for rent (WebSTEP Tables 4, 5 and 8, row "Housing")."""

from __future__ import annotations

from webmdp.core.model import State, World
from webmdp.core.spec import Action, ActionSpec, ParamSpec, declare_action
from webmdp.sites._common.site import CO, INS, NAV, ModularSite, SiteLogic
from webmdp.sites._common.tasklib import shown
from webmdp.sites.housing import mdp
from webmdp.sites.housing.bound import housing_bound, housing_informed
from webmdp.sites.housing.state import HousingState
from webmdp.sites.housing.vocab import CATALOG
from webmdp.sites.housing.world import CARD_FIELDS, DETAIL_FIELDS, PIXEL_FIELDS, generate_world

PID = ParamSpec("property_id", "entity")
_a = declare_action


def _typed(*names: str) -> tuple[ParamSpec, ...]:
    return tuple(ParamSpec(n, "str", text=True) for n in names)


ACTIONS: tuple[ActionSpec, ...] = (
    *CATALOG.action_specs(),
    _a("OpenProperty", "property_inspection", INS, PID, doc="open a listing's detail page"),
    _a("BackToResults", "backtrack_navigation", NAV),
    _a("ShowListingAgent", "agent_inspection", INS, doc="expand the 'Listed by' section"),
    _a("CompareHomes", "comparison", INS, doc="saved homes side by side"),
    _a("SaveHome", "save_management", CO, PID, doc="the heart icon"),
    _a("UnsaveHome", "save_management", CO, PID),
    _a("OpenSavedHomes", "saved_homes_review", CO, changes_state=False),
    _a("RequestTour", "tour_scheduling", CO, changes_state=False, doc="open the tour form"),
    _a("CancelTour", "backtrack_navigation", NAV),
    _a("SubmitTourRequest", "tour_scheduling", CO, *_typed("date", "time", "name", "phone")),
    _a("ContactAgent", "agent_contact", CO, *_typed("name", "phone", "message")),
)


class HousingSite(ModularSite[HousingState]):
    name = "housing"
    title = "Homestead"
    entity_prefix = "HOM"
    example_params = {"query": "Austin", "min": 1000.0, "max": 900000.0, "date": "2025-06-14",
                      "time": "10:00 AM", "name": "Jordan Reyes", "phone": "512-555-0142",
                      "message": "Is this home still available?"}
    surfaces = mdp.SURFACES
    actions = ACTIONS
    entity_fields = {  # kind (id prefix) -> field -> type: webmdp.core.entities
        "HOM": {"address": "str", "agent_name": "str", "baths": "number", "beds": "int",
            "brokerage": "str", "city": "str", "days_on_market": "int", "has_garage": "bool",
            "heating": "str", "hoa_fee": "int", "home_type": "str", "id": "str",
            "listing_type": "str", "lot_size": "int", "parking": "str", "pet_policy": "str",
            "pets_ok": "bool", "popularity": "int", "price": "int", "school_rating": "int",
            "sqft": "int", "year_built": "int"},
    }
    pixel_fields = {"PropertyDetail": frozenset(PIXEL_FIELDS)}
    # evidence_gap (tasks.informed): a property page shows one home's detail fields; the next is
    # opened from a list.
    # (3: only a screen showing or naming an entity leads to its unread detail fields.)
    evidence_gap = {"HOM": 3}
    visibility = shown(CARD_FIELDS, DETAIL_FIELDS, SearchResults=CARD_FIELDS,
                       PropertyDetail=CARD_FIELDS + DETAIL_FIELDS + PIXEL_FIELDS,
                       SavedHomes=CARD_FIELDS,
                       TourRequest=CARD_FIELDS)

    distance_bound = staticmethod(housing_bound)
    informed_bound = staticmethod(housing_informed)
    state_class = HousingState
    logic = SiteLogic(generate_world, mdp.transition, mdp.observe, mdp.facts,
                      mdp.available_actions)

    def initial_state(self, world: World) -> State:
        return HousingState(surface="SearchResults", saved=tuple(world.meta.get("saved", ())))

    def browser_back(self, state: State) -> Action | None:
        assert isinstance(state, HousingState)
        if state.surface == "TourRequest":
            return Action("CancelTour")
        if state.surface == "PropertyDetail":
            return Action("BackToResults" if state.origin == "SearchResults"
                          else "OpenSavedHomes")
        if state.surface == "SavedHomes":
            return Action("BackToResults")
        return None

    def alignment_state(self, state: State) -> State:
        """Off a property page, the expanded agent section and the page's origin are leftovers
        that nothing shows or reads (OpenProperty resets them)."""
        assert isinstance(state, HousingState)
        if state.surface in ("PropertyDetail", "TourRequest"):
            return state
        return state.replace(agent_open=False, origin="SearchResults")
