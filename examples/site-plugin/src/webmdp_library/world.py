"""World generation: books completed from the partial specs a template pins (WebSTEP E.2)."""

from __future__ import annotations

import random

from webmdp.sites.toolkit import Entity, World, WorldSpec, assemble
from webmdp_library import vocab as V

CARD_FIELDS = ("title", "author", "genre", "format", "year", "pages")
"""What a search-result card shows."""
DETAIL_FIELDS = ("branch", "call_number", "language", "rating", "loan_days", "copies")
"""What only a book's own page shows."""


def complete_book(b: Entity, rng: random.Random) -> Entity:
    """Fill every field a book lacks; given fields are kept as they are."""
    genre = b.get("genre") or rng.choice(V.GENRES)
    copies = b.get("copies") or rng.randint(1, 4)
    return {
        "role": b.get("role", ""),
        "title": b.get("title") or f"{rng.choice(V.TITLE_FIRST)} {rng.choice(V.TITLE_LAST)}",
        "author": b.get("author") or f"{rng.choice(V.AUTHOR_FIRST)} "
                                     f"{rng.choice(V.AUTHOR_LAST)}",
        "genre": genre,
        "format": b.get("format") or rng.choice(V.FORMATS),
        "year": b.get("year") or rng.randint(1960, 2024),
        "pages": b.get("pages") or rng.randint(90, 720),
        "branch": b.get("branch") or rng.choice(V.BRANCHES),
        "call_number": f"{genre[:3].upper()} {rng.randint(100, 999)}.{rng.randint(10, 99)}",
        "language": b.get("language") or rng.choice(V.LANGUAGES),
        "rating": b.get("rating") or rng.randint(20, 50) / 10,
        "loan_days": b.get("loan_days") or rng.choice(V.LOAN_DAYS),
        "copies": copies,
        "available": bool(b.get("available", rng.random() < 0.7)),
        "popularity": b.get("popularity") or rng.randint(10, 990),
    }


def generate_world(spec: WorldSpec, rng: random.Random) -> World:
    return assemble("library", spec, rng, prefix="BK", complete=complete_book)
