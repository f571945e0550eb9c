"""The Accommodation site: a holiday-rental marketplace modelled after Airbnb (WebSTEP Table 4
row "Accommodation", Table 5, Table 7; template Table 20)."""

from __future__ import annotations

from webmdp.core.model import State, World
from webmdp.core.spec import ActionSpec, ParamSpec, declare_action
from webmdp.sites._common.site import CO, INS, NAV, ModularSite, SiteLogic
from webmdp.sites._common.tasklib import shown
from webmdp.sites.accommodation import mdp
from webmdp.sites.accommodation.bound import accommodation_bound, accommodation_informed
from webmdp.sites.accommodation.catalog import CATALOG
from webmdp.sites.accommodation.state import AccommodationState
from webmdp.sites.accommodation.world import (
    CARD_FIELDS,
    DETAIL_FIELDS,
    PIXEL_FIELDS,
    generate_world,
)

_a = declare_action

ACTIONS: tuple[ActionSpec, ...] = (
    *CATALOG.action_specs(),
    _a("ViewListing", "listing_inspection", INS, ParamSpec("listing_id", "entity"),
       doc="open a listing from the results or from a trip"),
    _a("CloseListing", "search_return", NAV, doc="back to where the listing was opened from"),
    _a("ShowAllAmenities", "amenity_expansion", INS, doc='"Show all N amenities"'),
    _a("BookListing", "booking_initiation", CO,
       ParamSpec("check_in", "str", text=True), ParamSpec("check_out", "str", text=True),
       ParamSpec("guests", "int", text=True), doc="Reserve: dates and guests, to checkout"),
    _a("ConfirmBooking", "booking_confirmation", CO, doc='"Confirm and pay"'),
    _a("CancelCheckout", "checkout_cancellation", CO, doc="leave checkout without paying"),
    _a("OpenTrips", "tab_navigation", NAV, doc="the Trips tab (reservations)"),
    _a("BackToSearch", "search_return", NAV, doc="from trips back to the search results"),
    _a("CancelReservation", "booking_cancellation", CO, ParamSpec("reservation_id", "str")),
)


class AccommodationSite(ModularSite[AccommodationState]):
    name = "accommodation"
    title = "Staybnb"
    entity_prefix = "LST"
    confirm_surfaces = frozenset({"Checkout"})
    example_params = {"query": "Seattle", "min": 100.0, "max": 300.0, "check_in": "2026-05-04",
                      "check_out": "2026-05-11", "guests": 2}
    surfaces = mdp.SURFACES
    actions = ACTIONS
    entity_fields = {  # kind (id prefix) -> field -> type: webmdp.core.entities
        "LST": {"amenities": "list", "bathrooms": "number", "beds": "int",
            "cancellation_policy": "str", "check_in_time": "str", "city": "str",
            "host_name": "str", "host_years": "int", "id": "str", "max_guests": "int",
            "min_nights": "int", "photo": "str", "popularity": "int", "price_per_night": "int",
            "property_type": "str", "rating": "number", "review_count": "int",
            "superhost": "bool", "title": "str"},
    }
    pixel_fields = {"ListingDetail": frozenset(PIXEL_FIELDS)}
    # evidence_gap (tasks.informed): a listing's page is the only screen with its detail fields,
    # and every way to another listing's page passes a results or saved list.
    # (3: only a screen showing or naming an entity leads to its unread detail fields.)
    evidence_gap = {"LST": 3}
    visibility = shown(CARD_FIELDS, DETAIL_FIELDS, SearchResults=CARD_FIELDS,
                       ListingDetail=CARD_FIELDS + DETAIL_FIELDS + PIXEL_FIELDS,
                       Checkout=mdp.CHECKOUT_FIELDS, Reservations=mdp.STAY_FIELDS)

    state_class = AccommodationState
    back_actions = {"ListingDetail": "CloseListing", "Checkout": "CancelCheckout"}
    logic = SiteLogic(generate_world, mdp.transition, mdp.observe, mdp.facts,
                      mdp.available_actions)
    distance_bound = staticmethod(accommodation_bound)
    informed_bound = staticmethod(accommodation_informed)

    def initial_state(self, world: World) -> State:
        return mdp.initial_state(world)

    def alignment_state(self, state: State) -> State:
        """The one-step notice is shown once and read by nothing; off a listing page, the
        surface a listing was opened from is a leftover (ViewListing sets it anew)."""
        assert isinstance(state, AccommodationState)
        if state.surface != "ListingDetail":
            state = state.replace(origin="SearchResults")
        return state.replace(notice="") if state.notice else state
