"""Shopping task templates (WebSTEP H.1, Table 19 and five more)."""

from __future__ import annotations

import random

from webmdp.core.model import World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.shopping import catalog as C
from webmdp.sites.shopping.world import make_title
from webmdp.tasks.model import Condition
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import membership

N_ENTITIES = 36
OPEN = Action("OpenProduct")
BACK = Action("BackToResults")
ADD = Action("AddToCart")

_DETAIL_ATTRS = {"material": ("Material", C.MATERIALS), "seller": ("Seller", C.SELLERS)}


def _cart_verifier(d: Draft) -> list[Condition]:
    return membership(d, "cart.products", "in the cart")


def _explore(d: Draft, world: World, site: Site, prefix: list[Action], **kw) -> list[Action]:  # type: ignore[no-untyped-def]
    return reach_and_explore(site, world, d, prefix, open_action=OPEN, back=BACK,
                             entity_param="product_id", **kw)


def _filler_count(pinned: tuple) -> int:
    return N_ENTITIES - len(pinned)


class FindProductExtract(TaskTemplate):
    """Table 19: search, open detail pages, add the one with a detail-only attribute."""

    name = "find_product_extract"
    description = "Search a department, find the product with a detail-only attribute, add to cart"
    commit_action = "AddToCart"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        dept = rng.choice(list(C.DEPARTMENTS))
        cat = rng.choice(C.DEPARTMENTS[dept])
        attr = rng.choice(list(_DETAIL_ATTRS))
        label, pool = _DETAIL_ATTRS[attr]
        value = rng.choice(pool)
        negs = [{attr: v} for v in others(rng, pool, value, hard_negatives)]
        base = {"department": dept, "category": cat}
        pinned = pin_group(rng, base, {attr: value}, negs)
        query = cat.lower()
        return Draft(
            instruction=f"Search for {query} in {dept}. Find the one with {label}: '{value}' "
                        "and add it to your cart.",
            params={"query": query, "department": dept, "detail_attr": attr, "value": value},
            spec=WorldSpec(pinned, _filler_count(pinned), avoid=({"category": cat},)),
            card_fields=("category", "department"), detail_fields=(attr,),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [i for i, e in world.entities.items() if e["category"].lower() == p["query"]
                and e["department"] == p["department"] and e[p["detail_attr"]] == p["value"]]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = [Action("Search", {"query": d.params["query"]})]
        return [*_explore(d, world, site, prefix), ADD]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return _cart_verifier(d)


class CheapestFilterSort(TaskTemplate):
    """Superlative: filter by category and brand, sort by price, check the seller."""

    name = "cheapest_filter_sort"
    description = "Filter by category and brand, sort by price, add the cheapest from a seller"
    commit_action = "AddToCart"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        dept = rng.choice(list(C.DEPARTMENTS))
        cat = rng.choice(C.DEPARTMENTS[dept])
        brand = rng.choice(C.BRANDS[dept])
        seller = rng.choice(C.SELLERS)
        price = round(rng.uniform(20, 120), 2)
        negs = [{"seller": s} for s in others(rng, C.SELLERS, seller, hard_negatives)]
        base = {"department": dept, "category": cat, "brand": brand, "price": price}
        pinned = pin_group(rng, base, {"seller": seller}, negs)
        pricier = tuple({"department": dept, "category": cat, "brand": brand, "role": "filler",
                         "seller": rng.choice(C.SELLERS),
                         "price": round(price + rng.uniform(5, 80), 2)} for _ in range(2))
        pinned = (*pinned, *pricier)
        return Draft(
            instruction=f"Show {cat.lower()} from {brand}, sorted by price from low to high, and "
                        f"add the cheapest one sold by {seller} to your cart.",
            params={"department": dept, "category": cat, "brand": brand, "seller": seller},
            spec=WorldSpec(pinned, _filler_count(pinned),
                           avoid=({"category": cat, "brand": brand},)),
            card_fields=("category", "brand", "price"), detail_fields=("seller",),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        cands = [e for e in world.entities.values() if e["category"] == p["category"]
                 and e["brand"] == p["brand"] and e["seller"] == p["seller"]]
        if not cands:
            return []
        low = min(e["price"] for e in cands)
        return [e["id"] for e in cands if e["price"] == low]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        p = d.params
        prefix = [Action("SetDepartment", {"department": p["department"]}),
                  Action("SetCategory", {"category": p["category"]}),
                  Action("ToggleBrand", {"brand": p["brand"]}),
                  Action("SortBy", {"order": "price_asc"})]
        return [*_explore(d, world, site, prefix), ADD]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return _cart_verifier(d)


class CartSwap(TaskTemplate):
    """Two items into the cart, then remove one: cart management."""

    name = "cart_add_two_remove_one"
    description = "Add two products, then remove the first from the cart"
    commit_action = "RemoveFromCart"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        depts = rng.sample(list(C.DEPARTMENTS), 2)
        cat = rng.choice(C.DEPARTMENTS[depts[0]])
        brand = rng.choice(C.BRANDS[depts[0]])
        material = rng.choice(C.MATERIALS)
        other_cat = rng.choice(C.DEPARTMENTS[depts[1]])
        other_brand = rng.choice(C.BRANDS[depts[1]])
        other_title = make_title(other_brand, rng.choice(C.MODELS), other_cat)
        negs = [{"material": m} for m in others(rng, C.MATERIALS, material, hard_negatives)]
        base = {"department": depts[0], "category": cat, "brand": brand}
        pinned = pin_group(rng, base, {"material": material}, negs)
        companion = {"department": depts[1], "category": other_cat, "brand": other_brand,
                     "title": other_title, "role": "companion"}
        pinned = (*pinned, companion)
        singular = C.SINGULAR[cat].lower()
        return Draft(
            instruction=f"Add the {brand} {singular} made of {material} and the '{other_title}' "
                        f"to your cart, then remove the '{other_title}' from the cart.",
            params={"category": cat, "brand": brand, "material": material,
                    "companion_title": other_title, "query": f"{brand} {cat}".lower()},
            spec=WorldSpec(pinned, _filler_count(pinned),
                           avoid=({"category": cat, "brand": brand}, {"title": other_title},
                                  {"category": other_cat, "brand": other_brand})),
            card_fields=("brand", "category"), detail_fields=("material",),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [i for i, e in world.entities.items() if e["category"] == p["category"]
                and e["brand"] == p["brand"] and e["material"] == p["material"]]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = [Action("Search", {"query": d.params["query"]})]
        first = [*_explore(d, world, site, prefix), ADD]
        comp = d.companions[0]
        return [*first, Action("Search", {"query": d.params["companion_title"]}),
                Action("OpenProduct", {"product_id": comp}), ADD, Action("OpenCart"),
                Action("RemoveFromCart", {"product_id": comp})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        comp = d.companions[0]
        return [*_cart_verifier(d),
                Condition(fact="cart.products", op="not_contains", value=comp,
                          description=f"companion {comp} was removed from the cart")]


class CompareSpecs(TaskTemplate):
    """Comparison across detail pages: the longest warranty among same-brand products."""

    name = "compare_detail_pages"
    description = "Compare a detail-only spec across products and add the best one"
    commit_action = "AddToCart"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        dept = rng.choice(list(C.DEPARTMENTS))
        cat = rng.choice(C.DEPARTMENTS[dept])
        brand = rng.choice(C.BRANDS[dept])
        months = sorted(rng.sample((3, 6, 9, 12, 18, 24, 36), hard_negatives + 1), reverse=True)
        negs = [{"warranty_months": m} for m in months[1:]]
        base = {"department": dept, "category": cat, "brand": brand}
        pinned = pin_group(rng, base, {"warranty_months": months[0]}, negs)
        return Draft(
            instruction=f"Among the {brand} {cat.lower()}, add the one with the longest "
                        "warranty to your cart.",
            params={"category": cat, "brand": brand, "query": f"{brand} {cat}".lower()},
            spec=WorldSpec(pinned, _filler_count(pinned),
                           avoid=({"category": cat, "brand": brand},)),
            card_fields=("brand", "category"), detail_fields=("warranty_months",),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        cands = [e for e in world.entities.values()
                 if e["category"] == p["category"] and e["brand"] == p["brand"]]
        best = max(e["warranty_months"] for e in cands)
        return [e["id"] for e in cands if e["warranty_months"] == best]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = [Action("Search", {"query": d.params["query"]})]
        return [*_explore(d, world, site, prefix, all_negatives=True), ADD]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return _cart_verifier(d)


class CheckoutWithOptions(TaskTemplate):
    """Buy a product from a given seller with a colour, a size and a shipping speed."""

    name = "checkout_with_options"
    description = "Pick the right seller's listing, choose options, check out with a speed"
    commit_action = "PlaceOrder"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        dept = "Clothing"
        cat = rng.choice(C.DEPARTMENTS[dept])
        brand = rng.choice(C.BRANDS[dept])
        title = make_title(brand, rng.choice(C.MODELS), cat)
        seller = rng.choice(C.SELLERS)
        colors = rng.sample(C.COLORS, 3)
        color, size = colors[rng.randrange(1, 3)], rng.choice(C.SIZES[1:])
        speed = rng.choice(("express", "overnight"))
        negs = [{"seller": s} for s in others(rng, C.SELLERS, seller, hard_negatives)]
        base = {"department": dept, "category": cat, "brand": brand, "title": title,
                "colors": colors}
        pinned = pin_group(rng, base, {"seller": seller}, negs)
        return Draft(
            instruction=f"Buy the '{title}' sold by {seller} in {color}, size {size}, "
                        f"with {speed} shipping.",
            params={"title": title, "seller": seller, "color": color, "size": size,
                    "speed": speed},
            spec=WorldSpec(pinned, _filler_count(pinned), avoid=({"title": title},)),
            card_fields=("title",), detail_fields=("seller", "colors", "sizes"),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [i for i, e in world.entities.items()
                if e["title"] == p["title"] and e["seller"] == p["seller"]]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        p = d.params
        prefix = [Action("Search", {"query": p["title"]})]
        return [*_explore(d, world, site, prefix),
                Action("SelectOption", {"option": "color", "value": p["color"]}),
                Action("SelectOption", {"option": "size", "value": p["size"]}),
                ADD, Action("OpenCart"), Action("ProceedToCheckout"),
                Action("SetShippingSpeed", {"speed": p["speed"]}), Action("PlaceOrder")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        p, t = d.params, d.target
        return [
            Condition(fact="order.placed", op="eq", value=True, description="an order was placed"),
            Condition(fact="order.products", op="eq", value=[t], description=f"the order is {t}"),
            Condition(fact=f"order.color.{t}", op="eq", value=p["color"],
                      description=f"colour {p['color']}"),
            Condition(fact=f"order.size.{t}", op="eq", value=p["size"],
                      description=f"size {p['size']}"),
            Condition(fact="order.shipping", op="eq", value=p["speed"],
                      description=f"{p['speed']} shipping"),
        ]


class ReviewExtract(TaskTemplate):
    """Reviews are detail-only and collapsed: open them to find the mentioned phrase."""

    name = "review_extract"
    description = "Find the product whose reviews mention a phrase and add it to the cart"
    commit_action = "AddToCart"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        from webmdp.sites.shopping.world import make_reviews

        dept = rng.choice(list(C.DEPARTMENTS))
        cat = rng.choice(C.DEPARTMENTS[dept])
        brand = rng.choice(C.BRANDS[dept])
        phrase = rng.choice(C.REVIEW_PHRASES)
        negs = [{"reviews": make_reviews(rng, None, phrase)} for _ in range(hard_negatives)]
        base = {"department": dept, "category": cat, "brand": brand}
        pinned = pin_group(rng, base, {"reviews": make_reviews(rng, phrase, None)}, negs)
        return Draft(
            instruction=f"Find the {brand} product in {cat.lower()} whose reviews mention "
                        f"'{phrase}' and add it to your cart.",
            params={"category": cat, "brand": brand, "phrase": phrase,
                    "query": f"{brand} {cat}".lower()},
            spec=WorldSpec(pinned, _filler_count(pinned),
                           avoid=({"category": cat, "brand": brand},)),
            card_fields=("brand", "category"), detail_fields=("reviews",),
        )

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [i for i, e in world.entities.items()
                if e["category"] == p["category"] and e["brand"] == p["brand"]
                and any(p["phrase"] in r["text"].lower() for r in e["reviews"])]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        prefix = [Action("Search", {"query": d.params["query"]})]
        return [*_explore(d, world, site, prefix, inspect=[Action("ShowReviews")]), ADD]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return _cart_verifier(d)


TEMPLATES: dict[str, TaskTemplate] = {
    t.name: t for t in (FindProductExtract(), CheapestFilterSort(), CartSwap(), CompareSpecs(),
                        CheckoutWithOptions(), ReviewExtract())
}
