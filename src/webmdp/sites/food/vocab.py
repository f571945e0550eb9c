"""Food Delivery vocabulary: cuisines, their menus, option groups, allergens, places.

Plain data (WebSTEP E.2 world generation draws from it); nothing here knows about states.
"""

from __future__ import annotations

from webmdp.sites._common.catalog import Catalog, Facet, Sort

CUISINES: tuple[str, ...] = ("Thai", "Italian", "Mexican", "Japanese", "Indian", "Chinese",
                             "American", "Mediterranean")

# cuisine -> section -> dishes (name, base price, described ingredients)
MENUS: dict[str, dict[str, tuple[tuple[str, float, str], ...]]] = {
    "Thai": {
        "Curries": (("Green Curry", 14.5, "bamboo shoots, Thai basil and coconut milk"),
                    ("Red Curry", 14.5, "bell peppers, bamboo and coconut milk"),
                    ("Panang Curry", 15.0, "kaffir lime, peanuts and coconut cream"),
                    ("Massaman Curry", 15.5, "potatoes, onions and roasted peanuts"),
                    ("Yellow Curry", 14.0, "potatoes, carrots and turmeric")),
        "Noodles": (("Pad Thai", 13.5, "rice noodles, egg, bean sprouts and crushed peanuts"),
                    ("Pad See Ew", 13.5, "wide rice noodles, Chinese broccoli and egg"),
                    ("Drunken Noodles", 14.0, "wide noodles, chili, basil and bell peppers"),
                    ("Khao Soi", 15.5, "egg noodles in a golden curry broth")),
        "Starters": (("Fresh Spring Rolls", 7.5, "rice paper, mint, lettuce and tofu"),
                     ("Chicken Satay", 9.0, "grilled skewers with peanut sauce"),
                     ("Tom Yum Soup", 8.0, "lemongrass, galangal and mushrooms"),
                     ("Papaya Salad", 9.5, "green papaya, lime, chili and tomatoes")),
    },
    "Italian": {
        "Pasta": (("Spaghetti Pomodoro", 15.0, "San Marzano tomatoes and fresh basil"),
                  ("Fettuccine Alfredo", 16.5, "parmesan cream sauce and black pepper"),
                  ("Penne Arrabbiata", 15.0, "spicy tomato sauce with garlic and chili"),
                  ("Lasagna Bolognese", 18.0, "slow-cooked beef ragu and bechamel"),
                  ("Pesto Gnocchi", 17.0, "potato gnocchi, basil pesto and pine nuts")),
        "Pizza": (("Margherita Pizza", 16.0, "mozzarella, tomato and basil"),
                  ("Pepperoni Pizza", 18.0, "pepperoni, mozzarella and oregano"),
                  ("Funghi Pizza", 17.5, "roasted mushrooms, fontina and thyme"),
                  ("Quattro Formaggi", 19.0, "four cheeses and honey drizzle")),
        "Salads": (("Caesar Salad", 11.0, "romaine, croutons and parmesan"),
                   ("Caprese Salad", 12.0, "tomatoes, mozzarella and balsamic"),
                   ("Arugula Salad", 10.5, "arugula, lemon and shaved pecorino")),
    },
    "Mexican": {
        "Tacos": (("Carnitas Tacos", 12.5, "slow-roasted pork, onion and cilantro"),
                  ("Al Pastor Tacos", 12.5, "marinated pork, pineapple and salsa verde"),
                  ("Baja Fish Tacos", 13.5, "beer-battered cod, cabbage and chipotle crema"),
                  ("Mushroom Tacos", 11.5, "roasted mushrooms, poblano and queso fresco")),
        "Burritos": (("Carne Asada Burrito", 14.0, "grilled steak, rice and pinto beans"),
                     ("Veggie Burrito", 12.0, "black beans, rice, fajita vegetables"),
                     ("California Burrito", 14.5, "steak, fries, cheese and guacamole"),
                     ("Chicken Burrito", 13.0, "grilled chicken, rice and pico de gallo")),
        "Bowls": (("Burrito Bowl", 13.5, "cilantro rice, beans, corn salsa"),
                  ("Fajita Bowl", 14.0, "peppers, onions, rice and guacamole"),
                  ("Tostada Salad", 12.5, "crisp tortilla, lettuce, beans and cotija")),
    },
    "Japanese": {
        "Rolls": (("California Roll", 9.5, "crab, avocado and cucumber"),
                  ("Spicy Tuna Roll", 11.0, "tuna, spicy mayo and scallions"),
                  ("Dragon Roll", 15.5, "eel, avocado and unagi sauce"),
                  ("Avocado Roll", 8.0, "avocado and sesame seeds"),
                  ("Rainbow Roll", 16.0, "assorted sashimi over a California roll")),
        "Ramen": (("Tonkotsu Ramen", 16.5, "pork bone broth, chashu and soft egg"),
                  ("Miso Ramen", 15.5, "miso broth, corn and bean sprouts"),
                  ("Shoyu Ramen", 15.0, "soy broth, bamboo shoots and nori"),
                  ("Vegetable Ramen", 14.5, "kombu broth, tofu and seasonal vegetables")),
        "Donburi": (("Chicken Teriyaki Bowl", 14.0, "grilled chicken, teriyaki glaze and rice"),
                    ("Salmon Poke Bowl", 16.5, "salmon, edamame and seaweed salad"),
                    ("Katsu Curry", 15.5, "panko cutlet with Japanese curry")),
    },
    "Indian": {
        "Curries": (("Chicken Tikka Masala", 17.0, "tomato cream sauce and fenugreek"),
                    ("Palak Paneer", 15.0, "spinach, paneer and ginger"),
                    ("Chana Masala", 13.5, "chickpeas, onions and garam masala"),
                    ("Lamb Vindaloo", 18.5, "vinegar chili sauce and potatoes"),
                    ("Dal Makhani", 13.0, "black lentils slow-cooked with butter")),
        "Tandoor": (("Tandoori Chicken", 17.5, "yogurt-marinated chicken from the clay oven"),
                    ("Paneer Tikka", 15.5, "charred paneer, peppers and onions"),
                    ("Seekh Kebab", 16.0, "spiced lamb skewers with mint chutney")),
        "Breads & Rice": (("Garlic Naan", 4.5, "leavened bread brushed with garlic butter"),
                          ("Vegetable Biryani", 14.0, "basmati rice, saffron and vegetables"),
                          ("Samosas", 7.0, "pastry filled with potatoes and peas")),
    },
    "Chinese": {
        "Noodles & Rice": (("Dan Dan Noodles", 13.5, "Sichuan pepper, chili oil and peanuts"),
                           ("Beef Chow Fun", 15.0, "wide rice noodles and scallions"),
                           ("Yangzhou Fried Rice", 12.5, "egg, shrimp and char siu"),
                           ("Vegetable Lo Mein", 12.0, "egg noodles and stir-fried greens")),
        "Mains": (("Kung Pao Chicken", 15.0, "peanuts, dried chili and scallions"),
                  ("Mapo Tofu", 13.5, "silken tofu in spicy bean sauce"),
                  ("Orange Chicken", 14.5, "crispy chicken with orange glaze"),
                  ("Broccoli Beef", 15.5, "flank steak with oyster sauce"),
                  ("Eggplant Garlic Sauce", 13.0, "Chinese eggplant and garlic sauce")),
        "Dim Sum": (("Pork Soup Dumplings", 11.0, "six xiao long bao with ginger vinegar"),
                    ("Vegetable Potstickers", 9.0, "pan-fried dumplings with cabbage"),
                    ("Scallion Pancake", 8.0, "flaky pancake with soy dipping sauce")),
    },
    "American": {
        "Burgers": (("Classic Cheeseburger", 13.0, "cheddar, lettuce, tomato and pickles"),
                    ("Bacon Smash Burger", 15.0, "two smashed patties, bacon and onions"),
                    ("Impossible Burger", 15.5, "plant-based patty and vegan aioli"),
                    ("Mushroom Swiss Burger", 14.5, "sauteed mushrooms and Swiss cheese")),
        "Sandwiches": (("Crispy Chicken Sandwich", 13.5, "buttermilk chicken and slaw"),
                       ("Philly Cheesesteak", 15.0, "shaved ribeye, peppers and provolone"),
                       ("BLT", 11.0, "bacon, lettuce and tomato on sourdough")),
        "Salads": (("Cobb Salad", 14.0, "chicken, egg, bacon and blue cheese"),
                   ("Kale Caesar", 12.0, "kale, parmesan and garlic croutons"),
                   ("Harvest Bowl", 13.0, "quinoa, roasted squash and apples")),
    },
    "Mediterranean": {
        "Plates": (("Chicken Shawarma Plate", 16.0, "rice, salad, hummus and garlic sauce"),
                   ("Falafel Plate", 14.0, "falafel, tabbouleh and tahini"),
                   ("Lamb Kofta Plate", 18.0, "grilled kofta, rice and tzatziki"),
                   ("Beef Gyro Plate", 16.5, "gyro meat, pita and tzatziki")),
        "Wraps": (("Chicken Shawarma Wrap", 12.0, "pickles, garlic sauce and fries"),
                  ("Falafel Wrap", 10.5, "falafel, tahini and pickled turnips"),
                  ("Halloumi Wrap", 11.5, "grilled halloumi, tomato and mint")),
        "Mezze": (("Hummus & Pita", 8.0, "chickpea puree with olive oil"),
                  ("Baba Ganoush", 8.5, "smoky eggplant and tahini"),
                  ("Greek Salad", 11.0, "feta, olives, cucumber and tomato"),
                  ("Stuffed Grape Leaves", 9.0, "rice, herbs and lemon")),
    },
}

SINGULAR = {"Curries": "curry", "Noodles": "noodle dish", "Starters": "starter",
            "Pasta": "pasta", "Pizza": "pizza", "Salads": "salad", "Tacos": "taco plate",
            "Burritos": "burrito", "Bowls": "bowl", "Rolls": "sushi roll", "Ramen": "ramen",
            "Donburi": "rice bowl", "Tandoor": "tandoor dish", "Breads & Rice": "side",
            "Noodles & Rice": "noodle or rice dish", "Mains": "main", "Dim Sum": "dim sum dish",
            "Burgers": "burger", "Sandwiches": "sandwich", "Plates": "plate", "Wraps": "wrap",
            "Mezze": "mezze dish"}

# option groups: name -> choices (the first is the default); EXTRA gives surcharges
OPTION_GROUPS: dict[str, tuple[str, ...]] = {
    "Protein": ("Chicken", "Tofu", "Beef", "Shrimp", "Vegetables"),
    "Spice level": ("Mild", "Medium", "Hot", "Extra hot"),
    "Size": ("Regular", "Large", "Family"),
    "Add-on": ("None", "Extra cheese", "Avocado", "Fried egg", "Bacon"),
    "Side": ("Rice", "Fries", "Side salad", "Naan"),
}
EXTRA = {"Beef": 2.0, "Shrimp": 3.0, "Large": 3.5, "Family": 9.0, "Extra cheese": 1.5,
         "Avocado": 2.0, "Fried egg": 1.5, "Bacon": 2.5, "Naan": 1.0}
SECTION_GROUPS: dict[str, tuple[str, ...]] = {
    "Curries": ("Protein", "Spice level", "Side"), "Noodles": ("Protein", "Spice level"),
    "Noodles & Rice": ("Protein", "Spice level"), "Mains": ("Size", "Side"),
    "Tacos": ("Protein", "Add-on"), "Burritos": ("Protein", "Add-on"),
    "Bowls": ("Protein", "Add-on"), "Ramen": ("Spice level", "Add-on"),
    "Donburi": ("Size", "Add-on"), "Pasta": ("Size", "Add-on"), "Pizza": ("Size", "Add-on"),
    "Burgers": ("Side", "Add-on"), "Sandwiches": ("Side", "Add-on"),
    "Plates": ("Protein", "Side"), "Wraps": ("Add-on", "Spice level"),
    "Salads": ("Protein", "Add-on"), "Tandoor": ("Spice level", "Side"),
}

ALLERGENS: tuple[str, ...] = ("peanuts", "tree nuts", "dairy", "gluten", "soy", "egg",
                              "shellfish", "sesame", "fish")
ANIMAL_ALLERGENS = frozenset({"dairy", "egg", "shellfish", "fish"})
DIETS: tuple[str, ...] = ("vegan", "vegetarian", "gluten-free")
DIET_LABELS = {"vegan": "Vegan", "vegetarian": "Vegetarian", "gluten-free": "Gluten-free"}

NAME_HEADS: dict[str, tuple[str, ...]] = {
    "Thai": ("Bangkok", "Lotus", "Siam", "Chiang Mai", "Basil", "Orchid"),
    "Italian": ("Trattoria", "Nonna", "Piccolo", "Vespa", "Osteria", "Bella"),
    "Mexican": ("Taqueria", "El Farolito", "Casa", "La Palma", "Rancho", "Los Compadres"),
    "Japanese": ("Sakura", "Ippudo", "Kaze", "Hinoki", "Tsuki", "Umami"),
    "Indian": ("Tandoori", "Saffron", "Masala", "Bombay", "Mumbai", "Chutney"),
    "Chinese": ("Golden", "Jade", "Dragon", "Lucky", "Panda", "Red Lantern"),
    "American": ("Smash", "Liberty", "Route", "Blue Plate", "Union", "Hometown"),
    "Mediterranean": ("Olive", "Aegean", "Cedar", "Zaytoon", "Santorini", "Levant"),
}
NAME_TAILS: dict[str, tuple[str, ...]] = {
    "Thai": ("Garden", "Thai Kitchen", "Street Food", "Thai Bistro", "House"),
    "Italian": ("Pasta Bar", "Cucina", "Pizzeria", "Kitchen", "Enoteca"),
    "Mexican": ("Grill", "Cantina", "Kitchen", "Cocina", "Tortilleria"),
    "Japanese": ("Sushi", "Ramen House", "Izakaya", "Sushi Bar", "Kitchen"),
    "Indian": ("Palace", "Kitchen", "Curry House", "Grill", "Express"),
    "Chinese": ("Wok", "Dumpling House", "Kitchen", "Noodle Bar", "Garden"),
    "American": ("Burger Co.", "Diner", "Grill", "Kitchen", "Sandwich Shop"),
    "Mediterranean": ("Grill", "Kitchen", "Mezze", "Cafe", "Taverna"),
}
STREETS: tuple[str, ...] = ("Market St", "Valencia St", "Mission St", "Castro St",
                            "Geary Blvd", "Divisadero St", "Irving St", "Polk St",
                            "Fillmore St", "Columbus Ave", "Clement St", "24th St")
CLOSING: tuple[str, ...] = ("9:00 PM", "9:30 PM", "10:00 PM", "10:30 PM", "11:00 PM",
                            "11:30 PM", "12:00 AM", "1:00 AM")
OPENING: tuple[str, ...] = ("10:00 AM", "10:30 AM", "11:00 AM", "11:30 AM")
PRICE_LEVELS: tuple[str, ...] = ("$", "$$", "$$$", "$$$$")
DELIVERY_FEES: tuple[float, ...] = (0.0, 0.99, 1.49, 1.99, 2.99, 3.99)
RATING_STEPS: tuple[str, ...] = ("3.5", "4.0", "4.5")
TIPS: tuple[str, ...] = ("0%", "10%", "15%", "18%", "20%", "25%")
DELIVERY_TIMES: tuple[str, ...] = ("ASAP", "6:00 PM", "6:30 PM", "7:00 PM", "7:30 PM",
                                   "8:00 PM")
FULFILLMENT: tuple[str, ...] = ("delivery", "pickup")
ADDRESSES: tuple[str, ...] = ("1455 Market St, Apt 4B", "220 Dolores St", "88 King St, Unit 310",
                              "3021 Fillmore St", "745 Clement St, Apt 2",
                              "1600 Haight St", "501 Folsom St, Unit 1205",
                              "2398 Mission St", "47 Lapidge St", "1290 Sutter St, Apt 7")

# The restaurant listing: search box, facets, sort orders, paging (site toolkit).
CATALOG = Catalog(
    surface="RestaurantList",
    search_fields=("name", "cuisine", "dishes"),
    facets=(
        Facet("cuisine", "Cuisine", "one", "SetCuisine", "cuisine_filtering",
              options=CUISINES),
        Facet("price", "Price", "any", "TogglePriceLevel", "price_filtering",
              options=PRICE_LEVELS),
        Facet("diets", "Dietary", "all", "ToggleDietary", "dietary_filtering",
              options=DIETS, param="diet", option_labels=DIET_LABELS),
        Facet("rating", "Rating", "min", "SetMinRating", "attribute_filtering",
              options=RATING_STEPS, option_labels={r: f"{r}+ \u2605" for r in RATING_STEPS}),
        Facet("fast", "Under 30 min", "flag", "ToggleFastDelivery", "attribute_filtering"),
        Facet("free", "$0 delivery fee", "flag", "ToggleFreeDelivery", "attribute_filtering"),
    ),
    sorts=(
        Sort("recommended", "Recommended", key=lambda e: 0),
        Sort("rating", "Rating", key=lambda e: -e["rating"]),
        Sort("delivery_time", "Delivery time", key=lambda e: e["delivery_time"]),
        Sort("delivery_fee", "Delivery fee", key=lambda e: e["delivery_fee"]),
    ),
    page_size=12,
    prefix="RST-",
)
