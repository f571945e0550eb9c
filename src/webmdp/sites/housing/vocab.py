"""Static vocabulary of the Housing world (cities, streets, home types, agents, tour slots) and its
listing catalogue: search box, Zillow-style filter bar, sort orders."""

from __future__ import annotations

from webmdp.sites._common.catalog import Catalog, Facet, Sort

CITIES: dict[str, tuple[str, str]] = {
    "Austin": ("TX", "787"), "Denver": ("CO", "802"), "Portland": ("OR", "972"),
    "Raleigh": ("NC", "276"), "Nashville": ("TN", "372"), "Phoenix": ("AZ", "850"),
    "Seattle": ("WA", "981"), "Charlotte": ("NC", "282"),
}
STREETS = ("Oak", "Maple", "Cedar", "Willow", "Juniper", "Magnolia", "Aspen", "Hawthorne",
           "Lakeview", "Ridgeline", "Sunset", "Briar", "Harbor", "Meadow", "Laurel", "Chestnut",
           "Sycamore", "Falcon", "Granite", "Pinecrest")
SUFFIXES = ("St", "Ave", "Dr", "Ln", "Ct", "Way", "Blvd", "Pl")

HOME_TYPES = ("House", "Townhouse", "Condo", "Apartment")
LISTING_TYPES = ("for_sale", "for_rent")
LISTING_LABELS = {"for_sale": "For sale", "for_rent": "For rent"}
BEDS = ("1", "2", "3", "4", "5")
BATHS = ("1", "1.5", "2", "3", "4")

PARKING = ("2-car garage", "1-car garage", "Attached garage", "Carport", "Driveway",
           "Street parking")
HEATING = ("Forced air, central A/C", "Heat pump, central A/C", "Radiant floors, no A/C",
           "Baseboard, wall A/C units", "Forced air, evaporative cooler")
PET_POLICIES = ("Cats and dogs", "Cats only", "Dogs only", "Small pets only", "No pets")

AGENT_FIRST = ("Maria", "James", "Priya", "Derek", "Hannah", "Luis", "Aisha", "Connor", "Mei",
               "Trevor", "Sofia", "Marcus")
AGENT_LAST = ("Alvarez", "Bennett", "Chen", "Douglas", "Okafor", "Patel", "Reyes", "Sullivan",
              "Nguyen", "Whitaker", "Kowalski", "Hayes")
BROKERAGES = ("Summit Realty Group", "Keystone Properties", "Harbor & Vine Real Estate",
              "BlueDoor Realty", "Cornerstone Homes", "Evergreen Brokers", "Urban Nest Realty",
              "Northstar Real Estate")

BUYER_NAMES = ("Dana Whitfield", "Jordan Reyes", "Alex Morgan", "Casey Lindqvist",
               "Riley Okonkwo", "Taylor Brennan", "Morgan Achebe", "Jamie Castillo")

TOUR_TIMES = ("9:00 AM", "10:00 AM", "11:00 AM", "12:00 PM", "1:00 PM", "2:00 PM", "3:00 PM",
              "4:00 PM", "5:00 PM")
TOUR_FIRST_DAY, TOUR_LAST_DAY = "2025-06-02", "2025-06-29"
TOUR_DAYS = tuple(f"2025-06-{d:02d}" for d in range(2, 30))

PAGE_SIZE = 12
N_PROPERTIES = 40


_BEDS = {b: f"{b}+" for b in BEDS}
_BATHS = {b: f"{b}+" for b in BATHS}

CATALOG = Catalog(
    surface="SearchResults",
    search_fields=("address", "city", "home_type"),
    facets=(
        Facet("listing", "Listing type", "one", "SetListingType", "attribute_filtering",
              field="listing_type", options=LISTING_TYPES, param="listing_type",
              option_labels=dict(LISTING_LABELS)),
        Facet("price", "Price", "range", "SetPriceRange", "price_filtering", unit="$"),
        Facet("beds", "Bedrooms", "min", "SetMinBeds", "beds_filtering", options=BEDS,
              option_labels=_BEDS),
        Facet("baths", "Bathrooms", "min", "SetMinBaths", "baths_filtering", options=BATHS,
              option_labels=_BATHS),
        Facet("home_type", "Home type", "any", "ToggleHomeType", "type_filtering",
              options=HOME_TYPES),
        Facet("sqft", "Square feet", "range", "SetSqftRange", "sqft_filtering", unit="sqft"),
        Facet("garage", "Has garage", "flag", "ToggleGarage", "attribute_filtering",
              field="has_garage"),
        Facet("pets", "Pets allowed", "flag", "TogglePetsAllowed", "attribute_filtering",
              field="pets_ok"),
    ),
    sorts=(
        Sort("homes_for_you", "Homes for You", lambda e: -e["popularity"]),
        Sort("price_asc", "Price (Low to High)", lambda e: e["price"]),
        Sort("price_desc", "Price (High to Low)", lambda e: -e["price"]),
        Sort("beds", "Bedrooms", lambda e: -e["beds"]),
        Sort("sqft", "Square Feet", lambda e: -e["sqft"]),
    ),
    page_size=PAGE_SIZE,
)
