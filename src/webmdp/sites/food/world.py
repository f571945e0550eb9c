"""Food Delivery world generation (WebSTEP E.2): restaurants ``RST-###`` and their menu items
``ITM-###`` (each with a ``restaurant_id``), two levels generated in one pass.

A template pins restaurants (with a ``key``) and items (``kind: item`` with the
``restaurant_key`` of their host); avoid mappings with ``kind: item`` constrain a host's filler
items, the others constrain filler restaurants. Derived fields (``diets``, ``dishes``,
``fast``, ``free``) are computed from the menus, so facets agree with what the pages show.
"""

from __future__ import annotations

import random

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.sites._common.worldgen import assemble, fillers
from webmdp.sites.food import vocab as V

RESTAURANT_CARD = ("name", "cuisine", "rating", "review_count", "delivery_fee",
                   "delivery_time", "price")
RESTAURANT_DETAIL = ("address", "hours")
MENU_LINE = ("name", "price", "section")
ITEM_DETAIL = ("description", "calories", "allergens", "dietary", "options")
CARD_FIELDS = (*RESTAURANT_CARD, "section")
"""Restaurant cards show name, cuisine, rating, review count, fee, time, price tier; a menu
line (an item's card) shows name, price and section."""
DETAIL_FIELDS = RESTAURANT_DETAIL + ITEM_DETAIL
PIXEL_FIELDS = ("dish_color", "weekly_orders")
"""Shown only as pixels on a restaurant's page (its signature-dish photo, its weekly-orders
line chart); only the restaurants a dial template pins have them (a pinned restaurant keeps
every given field: :func:`complete_restaurant`; :mod:`webmdp.sites.food.dial`)."""
N_RESTAURANTS = 24
MENU_SIZE = 8


def generate_world(spec: WorldSpec, rng: random.Random) -> World:
    """Restaurants (pinned + fillers, shuffled, ids) then each one's menu."""
    used_names: set[str] = set()
    r_pinned = tuple(p for p in spec.pinned if p.get("kind") != "item")
    i_pinned = [p for p in spec.pinned if p.get("kind") == "item"]
    r_avoid = tuple(a for a in spec.avoid if a.get("kind") != "item")
    i_avoid = [a for a in spec.avoid if a.get("kind") == "item"]

    def complete(p: Entity, r: random.Random) -> Entity:
        return complete_restaurant(p, r, used_names)

    rest = assemble("food", WorldSpec(r_pinned, spec.n_fillers, r_avoid), rng,
                    prefix="RST", complete=complete)
    entities: dict[str, Entity] = {}
    items: list[Entity] = []
    for rid, r in rest.entities.items():
        key = r.pop("key", None)
        mine = [complete_item({**p, "cuisine": r["cuisine"]}, rng)
                for p in i_pinned if key is not None and p["restaurant_key"] == key]
        menu = _menu(rng, r, mine, [a for a in i_avoid if a["restaurant_key"] == key])
        items += [{**it, "restaurant_id": rid} for it in menu]
        r["dishes"] = [it["name"] for it in menu]
        r["diets"] = [d for d in V.DIETS if any(d in it["dietary"] for it in menu)]
        entities[rid] = r
    for n, it in enumerate(items, start=1):
        iid = f"ITM-{n:03d}"
        entities[iid] = {"id": iid, **{k: v for k, v in it.items()
                                       if k not in ("kind", "restaurant_key", "cuisine")}}
    return World(site="food", entities=entities)


def _menu(rng: random.Random, r: Entity, pinned: list[Entity],
          avoid: list[Entity]) -> list[Entity]:
    taken = {it["name"] for it in pinned}

    def complete(p: Entity, rr: random.Random) -> Entity:
        return complete_item({**p, "cuisine": r["cuisine"]}, rr, taken)

    base = {"kind": "item", "restaurant_key": "" if not pinned else pinned[0]["restaurant_key"]}
    menu = pinned + fillers(rng, max(0, MENU_SIZE - len(pinned)), complete,
                            [a for a in avoid], base)
    ranks = rng.sample(range(1, 100), len(menu))
    menu = [{**it, "popularity": it.get("popularity", rk)} for it, rk in zip(menu, ranks,
                                                                             strict=True)]
    rng.shuffle(menu)
    return menu


def restaurant_name(rng: random.Random, cuisine: str) -> str:
    return f"{rng.choice(V.NAME_HEADS[cuisine])} {rng.choice(V.NAME_TAILS[cuisine])}"


def complete_restaurant(p: Entity, rng: random.Random, used: set[str]) -> Entity:
    """Fill a restaurant's missing attributes; its name is unique unless pinned."""
    cuisine = p.get("cuisine") or rng.choice(V.CUISINES)
    name = p.get("name")
    while not name or (name in used and "name" not in p):
        name = restaurant_name(rng, cuisine)
    used.add(name)
    street = p.get("street") or rng.choice(V.STREETS)
    closes = p.get("closes") or rng.choice(V.CLOSING)
    opens = rng.choice(V.OPENING)
    fee = p["delivery_fee"] if "delivery_fee" in p else rng.choice(V.DELIVERY_FEES)
    minutes = p.get("delivery_time") or rng.randint(14, 55)
    out = {
        "name": name, "cuisine": cuisine,
        "rating": p.get("rating") or round(rng.uniform(3.5, 4.9), 1),
        "review_count": p.get("review_count") or rng.choice((rng.randint(40, 900),
                                                             rng.randint(900, 9000))),
        "delivery_fee": fee, "delivery_time": minutes,
        "price": p.get("price") or rng.choice(V.PRICE_LEVELS[:3]),
        "street": street, "address": f"{p.get('number') or rng.randint(10, 3999)} {street}",
        "closes": closes, "hours": f"{opens} - {closes}",
        "popularity": p.get("popularity") or rng.randint(10, 990),
        "fast": minutes < 30, "free": fee == 0,
    }
    return {**p, **out}


def complete_item(p: Entity, rng: random.Random, taken: set[str] | None = None) -> Entity:
    """Fill a menu item; dietary tags are consistent with its allergens by construction."""
    menu = V.MENUS[p["cuisine"]]
    section = p.get("section") or rng.choice(list(menu))
    dishes = {d[0]: d for d in menu[section]}
    name = p.get("name")
    if not name:
        free = [d for d in dishes if taken is None or d not in taken]
        name = rng.choice(free or list(dishes))
        if taken is not None:
            taken.add(name)
    _, base, ingredients = dishes[name]
    price = p.get("price") or round(base * rng.choice((0.9, 1.0, 1.1, 1.2)) - 0.01, 2)
    if "allergens" in p:
        allergens = list(p["allergens"])
        dietary = list(p.get("dietary") or dietary_for(allergens, rng))
    else:
        dietary = list(p["dietary"]) if "dietary" in p else []
        allergens = allergens_for(dietary, rng) if "dietary" in p else \
            sorted(rng.sample(V.ALLERGENS, rng.randint(0, 3)), key=V.ALLERGENS.index)
        if "dietary" not in p:
            dietary = dietary_for(allergens, rng)
    return {
        **p, "kind": "item", "name": name, "section": section, "price": price,
        "description": p.get("description") or f"{name} made with {ingredients}.",
        "calories": p.get("calories") or rng.randrange(240, 1400, 10),
        "allergens": allergens, "dietary": dietary,
        "options": p.get("options") or make_options(section, rng),
    }


def dietary_for(allergens: list[str], rng: random.Random) -> list[str]:
    seafood = "fish" in allergens or "shellfish" in allergens
    veg = not seafood and rng.random() < 0.45
    vegan = veg and not (set(allergens) & V.ANIMAL_ALLERGENS) and rng.random() < 0.5
    tags = (["vegan"] if vegan else []) + (["vegetarian"] if veg else [])
    return tags + (["gluten-free"] if "gluten" not in allergens else [])


def allergens_for(dietary: list[str], rng: random.Random) -> list[str]:
    pool = [a for a in V.ALLERGENS if a != "gluten"]
    if "vegan" in dietary:
        pool = [a for a in pool if a not in V.ANIMAL_ALLERGENS]
    elif "vegetarian" in dietary:
        pool = [a for a in pool if a not in ("fish", "shellfish")]
    picked = set(rng.sample(pool, rng.randint(0, 2)))
    if "gluten-free" not in dietary:
        picked.add("gluten")
    return [a for a in V.ALLERGENS if a in picked]


def make_options(section: str, rng: random.Random) -> list[list]:
    """Option groups ``[group, [choices...]]``; the first choice is the default."""
    out: list[list] = []
    for g in V.SECTION_GROUPS.get(section, ("Size", "Add-on")):
        choices = V.OPTION_GROUPS[g]
        rest = rng.sample(choices[1:], rng.randint(2, len(choices) - 1))
        out.append([g, [choices[0], *[c for c in choices[1:] if c in rest]]])
    return out
