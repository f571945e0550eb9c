"""Static vocabulary of the Accommodation world and its listing catalogue declaration."""

from __future__ import annotations

from webmdp.sites._common.catalog import Catalog, Facet, Sort

CITIES: dict[str, tuple[str, ...]] = {
    "Seattle": ("Capitol Hill", "Ballard", "Fremont", "Queen Anne", "Wallingford"),
    "Chicago": ("Wicker Park", "Lincoln Park", "Logan Square", "River North", "Hyde Park"),
    "Denver": ("LoHi", "RiNo", "Capitol Hill", "Wash Park", "Highland"),
    "Austin": ("South Congress", "East Austin", "Zilker", "Hyde Park", "Travis Heights"),
    "Boston": ("Back Bay", "Beacon Hill", "South End", "North End", "Jamaica Plain"),
    "Nashville": ("The Gulch", "East Nashville", "Germantown", "12 South", "Midtown"),
    "Portland": ("Alberta Arts", "Pearl District", "Hawthorne", "Sellwood", "Mississippi"),
    "Asheville": ("West Asheville", "Montford", "River Arts", "Biltmore Village", "Kenilworth"),
}
STATES = {"Seattle": "Washington", "Chicago": "Illinois", "Denver": "Colorado",
          "Austin": "Texas", "Boston": "Massachusetts", "Nashville": "Tennessee",
          "Portland": "Oregon", "Asheville": "North Carolina"}

PROPERTY_TYPES = ("Cabin", "Condo", "Apartment", "House", "Loft", "Cottage")
BASE_PRICE = {"Cabin": 180, "Condo": 160, "Apartment": 120, "House": 240, "Loft": 150,
              "Cottage": 140}
ADJECTIVES = ("Cozy", "Sunny", "Vibrant", "Modern", "Charming", "Stylish", "Quiet", "Bright",
              "Rustic", "Airy", "Hidden", "Spacious")

HOSTS = ("Marco", "Priya", "Hannah", "Diego", "Aiko", "Samuel", "Leila", "Tomas", "Grace",
         "Omar", "Nadia", "Felix", "Rosa", "Jonah", "Mei", "Carlos")

CANCELLATION_POLICIES = ("Flexible", "Moderate", "Strict", "Non-refundable")
"""Most flexible first (the order comparison templates rank by)."""
POLICY_TEXT = {
    "Flexible": "Free cancellation until 24 hours before check-in.",
    "Moderate": "Free cancellation until 5 days before check-in.",
    "Strict": "Full refund within 48 hours of booking; 50% refund until 7 days before check-in.",
    "Non-refundable": "This reservation is non-refundable.",
}
CHECK_IN_TIMES = ("12:00 PM", "1:00 PM", "2:00 PM", "3:00 PM", "4:00 PM", "5:00 PM")
BATHROOMS = (1.0, 1.5, 2.0, 2.5, 3.0)

CORE_AMENITIES = ("Wifi", "Kitchen", "TV", "Heating", "Essentials", "Smoke alarm", "Hair dryer",
                  "Hangers", "Iron", "Dedicated workspace", "Coffee maker", "Washer",
                  "Air conditioning")
"""Everyday amenities: every listing has at least ``PREVIEW`` of them, listed first."""
FEATURE_AMENITIES = ("Free parking", "Pool", "Hot tub", "Gym")
EXTRA_AMENITIES = ("Fireplace", "Sauna", "EV charger", "Pets allowed", "BBQ grill", "Piano",
                   "Lake access", "Game room", "Record player", "Bathtub")
"""Detail-only amenities: no filter offers them, and they sit behind "Show all"."""
AMENITY_ORDER = CORE_AMENITIES + FEATURE_AMENITIES + EXTRA_AMENITIES
FILTER_AMENITIES = ("Wifi", "Kitchen", "Washer", "Air conditioning", "Free parking", "Pool",
                    "Hot tub", "Gym")
PREVIEW = 6
"""Amenities shown on a listing page before "Show all N amenities"."""

PALETTE = ("#f4c7b8", "#b8d8e0", "#cfe3c0", "#e6d3b3", "#d5c6e8", "#f0e0a8", "#c2d4ec",
           "#e8c4d4", "#bfe0d5", "#ddd0c0")
YEAR = 2026
SERVICE_RATE = 0.14
PAGE_SIZE = 12
N_LISTINGS = 40

CATALOG = Catalog(
    surface="SearchResults",
    search_fields=("title", "city", "property_type"),
    facets=(
        Facet("property_type", "Property type", "one", "SetPropertyType",
              "property_type_filtering", options=PROPERTY_TYPES),
        Facet("price", "Price per night", "range", "SetPriceRange", "price_filtering",
              field="price_per_night", unit="$"),
        Facet("beds", "Beds", "min", "SetMinBeds", "beds_filtering",
              options=("1", "2", "3", "4", "5"),
              option_labels={o: f"{o}+" for o in ("1", "2", "3", "4", "5")}),
        Facet("amenities", "Amenities", "all", "ToggleAmenity", "amenity_filtering",
              options=FILTER_AMENITIES, param="amenity"),
    ),
    sorts=(
        Sort("recommended", "Recommended", lambda e: 0),
        Sort("price_asc", "Price: low to high", lambda e: e["price_per_night"]),
        Sort("price_desc", "Price: high to low", lambda e: -e["price_per_night"]),
        Sort("rating", "Top rated", lambda e: -e["rating"]),
        Sort("beds", "Most beds", lambda e: -e["beds"]),
    ),
    page_size=PAGE_SIZE,
)
