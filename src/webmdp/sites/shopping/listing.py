"""Shopping's result list: search, filters, sort and paging (pure, cached per world and
state). The transitions and the available actions both read it."""

from __future__ import annotations

from functools import lru_cache

from webmdp.core.model import World
from webmdp.sites._common.listing import page_count, page_slice
from webmdp.sites.shopping import catalog as C
from webmdp.sites.shopping.state import ShoppingState as S


def _norm(word: str) -> str:
    word = word.lower().strip(".,'\"")
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


@lru_cache(maxsize=8192)
def _haystack(world: World, pid: str) -> frozenset[str]:
    p = world.entities[pid]
    text = f"{p['title']} {p['brand']} {p['category']} {p['department']}"
    return frozenset(_norm(w) for w in text.replace("&", " ").replace("-", " ").split())


def _query_words(query: str) -> list[str]:
    return [_norm(w) for w in query.replace("&", " ").replace("-", " ").split() if w.strip()]


@lru_cache(maxsize=8192)
def results(world: World, s: S) -> tuple[str, ...]:
    """Ids matching the state's query and filters, in the state's sort order."""
    words = _query_words(s.query)
    out = []
    for pid, p in world.entities.items():
        if words and not all(w in _haystack(world, pid) for w in words):
            continue
        if s.department and p["department"] != s.department:
            continue
        if s.category and p["category"] != s.category:
            continue
        if s.brands and p["brand"] not in s.brands:
            continue
        if s.price_min is not None and p["price"] < s.price_min:
            continue
        if s.price_max is not None and p["price"] > s.price_max:
            continue
        if s.min_rating and p["rating"] < float(s.min_rating):
            continue
        if s.prime_only and not p["prime"]:
            continue
        out.append(pid)
    return tuple(sorted(out, key=_sort_key(world, s.sort)))


def _sort_key(world: World, order: str):
    e = world.entities
    keys = {
        "featured": lambda i: (-e[i]["popularity"], i),
        "price_asc": lambda i: (e[i]["price"], -e[i]["popularity"], i),
        "price_desc": lambda i: (-e[i]["price"], -e[i]["popularity"], i),
        "rating": lambda i: (-e[i]["rating"], -e[i]["popularity"], i),
        "reviews": lambda i: (-e[i]["review_count"], -e[i]["popularity"], i),
    }
    return keys[order]


def result_key(s: S) -> S:
    """The part of the state that determines the result list (for caching)."""
    return S(surface="SearchResults", query=s.query, department=s.department,
             category=s.category, brands=s.brands, price_min=s.price_min,
             price_max=s.price_max, min_rating=s.min_rating, prime_only=s.prime_only,
             sort=s.sort)


def visible_ids(world: World, s: S) -> tuple[str, ...]:
    return tuple(page_slice(results(world, result_key(s)), s.page, C.PAGE_SIZE))


def pages(world: World, s: S) -> int:
    return page_count(len(results(world, result_key(s))), C.PAGE_SIZE)


def brand_facet(world: World, s: S) -> tuple[str, ...]:
    """Brands among results when the brand filter itself is ignored."""
    ids = results(world, result_key(s.replace(brands=())))
    return tuple(sorted({world.entities[i]["brand"] for i in ids}))
