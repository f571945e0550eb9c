"""Static vocabulary of the Shopping world: departments, categories, brands, attribute values."""

from __future__ import annotations

DEPARTMENTS: dict[str, tuple[str, ...]] = {
    "Electronics": ("Headphones", "Speakers", "Keyboards", "Webcams"),
    "Home & Kitchen": ("Coffee Makers", "Blenders", "Cookware Sets", "Desk Lamps"),
    "Clothing": ("Jackets", "Sneakers", "T-Shirts", "Hoodies"),
    "Sports & Outdoors": ("Yoga Mats", "Water Bottles", "Tents", "Dumbbells"),
    "Books": ("Fiction", "Biographies", "Cookbooks", "Science Books"),
}

CATEGORY_DEPARTMENT = {c: d for d, cs in DEPARTMENTS.items() for c in cs}

SINGULAR = {
    "Headphones": "Headphones", "Speakers": "Speaker", "Keyboards": "Keyboard",
    "Webcams": "Webcam", "Coffee Makers": "Coffee Maker", "Blenders": "Blender",
    "Cookware Sets": "Cookware Set", "Desk Lamps": "Desk Lamp", "Jackets": "Jacket",
    "Sneakers": "Sneakers", "T-Shirts": "T-Shirt", "Hoodies": "Hoodie", "Yoga Mats": "Yoga Mat",
    "Water Bottles": "Water Bottle", "Tents": "Tent", "Dumbbells": "Dumbbell Set",
    "Fiction": "Novel", "Biographies": "Biography", "Cookbooks": "Cookbook",
    "Science Books": "Science Book",
}

BRANDS: dict[str, tuple[str, ...]] = {
    "Electronics": ("Sonora", "Voltix", "Auralis", "Keyloft", "Pixelon", "Brightwave"),
    "Home & Kitchen": ("Kitcheno", "Brewmaster", "Hearthline", "Lumora", "Copperleaf", "Vitamix"),
    "Clothing": ("Northpeak", "Urbanthread", "Stridefit", "Coastline", "Halden", "Mistral"),
    "Sports & Outdoors": ("Trailhead", "Zenfit", "Summitco", "Hydroflow", "Ironcore", "Pacebar"),
    "Books": ("Penwright Press", "Harbor House", "Lantern Books", "Quill & Co", "Meridian",
              "Oakleaf"),
}

MODELS = ("Pulse", "Aero", "Nova", "Terra", "Echo", "Vista", "Prime", "Flux", "Orbit", "Zen",
          "Atlas", "Lumen", "Crest", "Drift", "Ember", "Halo")

ADJECTIVES = ("Wireless", "Compact", "Classic", "Pro", "Everyday", "Premium", "Ultra", "Lite")

MATERIALS = ("Aluminum", "Leather", "Cotton", "Stainless Steel", "Bamboo", "Recycled Plastic",
             "Polyester", "Wool", "Ceramic", "Silicone")

SELLERS = ("Shopwise Direct", "Northwind Traders", "BlueCrate Goods", "Pinecone Retail",
           "Alder & Finch", "QuickCart Outlet", "Harborview Supply", "Maple Lane Store")

COLORS = ("Black", "White", "Navy", "Red", "Olive", "Gray", "Sand", "Teal")
SIZES = ("XS", "S", "M", "L", "XL")
SIZED_DEPARTMENTS = frozenset({"Clothing"})

RETURN_POLICIES = ("30-day returns", "60-day returns", "Final sale", "90-day returns")
BADGES = ("", "", "", "Best Seller", "Limited Deal", "Top Rated")
DELIVERY = ("Tomorrow", "In 2 days", "In 3-5 days", "Next week")

REVIEW_PHRASES = ("battery lasts all day", "arrived with a dent", "fits true to size",
                  "very easy to clean", "louder than expected", "instructions were confusing",
                  "great value for money", "stopped working after a month",
                  "perfect for travel", "smells like plastic", "sturdy and well made",
                  "color faded after washing")

REVIEWERS = ("Ava M.", "Liam K.", "Noah P.", "Mia R.", "Ethan S.", "Zoe T.", "Lucas W.",
             "Emma J.", "Omar F.", "Ines D.")

FEATURE_LINES = ("Designed for daily use", "Backed by our satisfaction promise",
                 "Lightweight and durable", "Easy setup in minutes", "Energy efficient design",
                 "Ships in frustration-free packaging", "Tested for quality and safety")

SHIPPING_SPEEDS = {"standard": 0.0, "express": 9.99, "overnight": 19.99}
SORT_ORDERS = ("featured", "price_asc", "price_desc", "rating", "reviews")
RATING_STEPS = ("4", "3", "2")
PAGE_SIZE = 12
