"""Shopping world generation: products completed from partial specs."""

from __future__ import annotations

import random

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.sites._common.visualtask import carried
from webmdp.sites._common.worldgen import assemble
from webmdp.sites.shopping import catalog as C

CARD_FIELDS = ("title", "brand", "price", "list_price", "rating", "review_count", "department",
               "category", "prime", "badge", "delivery", "image")
DETAIL_FIELDS = ("seller", "shipping_cost", "material", "warranty_months", "model_number",
                 "weight", "dimensions", "colors", "sizes", "features", "return_policy",
                 "reviews")
PIXEL_FIELDS = ("photo_color", "price_history")
"""Shown only as pixels on a product page (its photo, its price-history chart); only the
products a dial template pins have them (:mod:`webmdp.sites.shopping.dial`)."""
_PALETTE = ("#e0e7ff", "#fde68a", "#bbf7d0", "#fecaca", "#bae6fd", "#ddd6fe", "#fbcfe8",
            "#d9f99d")


def make_title(brand: str, model: str, category: str) -> str:
    return f"{brand} {model} {C.SINGULAR[category]}"


def make_reviews(rng: random.Random, phrase: str | None, avoid: str | None) -> list[dict]:
    pool = [p for p in C.REVIEW_PHRASES if p not in (phrase, avoid)]
    texts = rng.sample(pool, 3)
    if phrase:
        texts[rng.randrange(3)] = phrase
    return [{"author": rng.choice(C.REVIEWERS), "stars": rng.randint(2, 5),
             "text": f"{t[0].upper()}{t[1:]}."} for t in texts]


def complete_product(p: Entity, rng: random.Random) -> Entity:
    """Fill every attribute a product lacks; given attributes are kept as they are."""
    dept = p.get("department") or C.CATEGORY_DEPARTMENT.get(p.get("category", "")) \
        or rng.choice(list(C.DEPARTMENTS))
    cat = p.get("category") or rng.choice(C.DEPARTMENTS[dept])
    brand = p.get("brand") or rng.choice(C.BRANDS[dept])
    model = p.get("model") or rng.choice(C.MODELS)
    price = p.get("price") or round(rng.uniform(12, 240), 2)
    sized = dept in C.SIZED_DEPARTMENTS
    out: Entity = {
        "role": p.get("role", ""),
        "title": p.get("title") or make_title(brand, model, cat),
        "brand": brand,
        "price": price,
        "list_price": round(price * rng.choice((1.0, 1.15, 1.25, 1.4)), 2),
        "rating": p.get("rating") or round(rng.uniform(3.0, 5.0), 1),
        "review_count": rng.randint(5, 4800),
        "department": dept,
        "category": cat,
        "prime": rng.random() < 0.6,
        "badge": rng.choice(C.BADGES),
        "delivery": rng.choice(C.DELIVERY),
        "image": rng.choice(_PALETTE),
        "seller": p.get("seller") or rng.choice(C.SELLERS),
        "shipping_cost": p.get("shipping_cost", rng.choice((0.0, 0.0, 4.99, 6.99))),
        "material": p.get("material") or rng.choice(C.MATERIALS),
        "warranty_months": p.get("warranty_months") or rng.choice((3, 6, 12, 18, 24)),
        "model_number": f"{brand[:2].upper()}-{rng.randint(1000, 9999)}",
        "weight": f"{rng.uniform(0.2, 9.5):.1f} lb",
        "dimensions": f"{rng.randint(3, 30)} x {rng.randint(3, 20)} x {rng.randint(1, 12)} in",
        "colors": p.get("colors") or rng.sample(C.COLORS, rng.randint(2, 4)),
        "sizes": p.get("sizes") or (list(C.SIZES) if sized else []),
        "features": rng.sample(C.FEATURE_LINES, 3),
        "return_policy": rng.choice(C.RETURN_POLICIES),
        "reviews": p.get("reviews") or make_reviews(rng, None, p.get("avoid_phrase")),
        "popularity": p.get("popularity") or rng.randint(10, 990),
        **carried(p, PIXEL_FIELDS),
    }
    return out


def generate_world(spec: WorldSpec, rng: random.Random) -> World:
    return assemble("shopping", spec, rng, prefix="PRD", complete=complete_product)
