"""Shopping task templates (WebSTEP H.1, Table 19 and five more)."""

from __future__ import annotations

import random
import sys
from dataclasses import replace

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.templates import Params, PinnedTemplate, collect, split
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.shopping import catalog as C
from webmdp.sites.shopping.world import make_reviews, make_title
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate

N_ENTITIES = 36
ADD = Action("AddToCart")

_DETAIL_ATTRS = {"material": ("Material", C.MATERIALS), "seller": ("Seller", C.SELLERS)}


def shelf(rng: random.Random, dept: str = "") -> tuple[str, str, str]:
    """A department (drawn unless given), one of its categories and one of its brands."""
    dept = dept or rng.choice(list(C.DEPARTMENTS))
    cat = rng.choice(C.DEPARTMENTS[dept])
    return dept, cat, rng.choice(C.BRANDS[dept])


def spec(pinned: tuple[Entity, ...], *avoid: Entity) -> WorldSpec:
    """The pinned products and fillers that differ from every ``avoid``."""
    return WorldSpec(pinned, N_ENTITIES - len(pinned), avoid=avoid)


def search(query: str) -> Action:
    return Action("Search", {"query": query})


class ProductTemplate(PinnedTemplate):
    """A product group pinned among the catalogue: search ``query``, open the look-alikes
    ranked above the target, then add the target to the cart."""

    ids = "PRD-"
    opener = ("OpenProduct", "BackToResults", "product_id")
    commit_action, marked = "AddToCart", ("cart.products", "in the cart")

    def words(self, p: Params) -> Params:
        return {**p, "cat": p.get("category", "").lower()}

    def prefix(self, p: Params, world: World) -> list[Action]:
        return [search(p["query"])]


class FindProductExtract(ProductTemplate):
    """Table 19: search, open detail pages, add the one with a detail-only attribute."""

    name = "find_product_extract"
    description = "Search a department, find the product with a detail-only attribute, add to cart"
    sentence = ("Search for {query} in {department}. Find the one with {label}: '{value}' and add "
                "it to your cart.")
    card = ("category", "department")

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        dept = rng.choice(list(C.DEPARTMENTS))
        cat = rng.choice(C.DEPARTMENTS[dept])
        attr = rng.choice(list(_DETAIL_ATTRS))
        pool = _DETAIL_ATTRS[attr][1]
        value = rng.choice(pool)
        target, negs = split(attr, [value, *others(rng, pool, value, hard_negatives)])
        pinned = pin_group(rng, {"department": dept, "category": cat}, target, negs)
        p = {"query": cat.lower(), "department": dept, "detail_attr": attr, "value": value}
        return replace(self.compose(p, spec(pinned, {"category": cat})), detail_fields=(attr,))

    def words(self, p: Params) -> Params:
        return {**p, "label": _DETAIL_ATTRS[p["detail_attr"]][0]}

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["category"].lower() == p["query"] and e["department"] == p["department"]
                    and e[p["detail_attr"]] == p["value"])


class CheapestFilterSort(ProductTemplate):
    """Superlative: filter by category and brand, sort by price, check the seller."""

    name = "cheapest_filter_sort"
    description = "Filter by category and brand, sort by price, add the cheapest from a seller"
    sentence = ("Show {cat} from {brand}, sorted by price from low to high, and add the cheapest "
                "one sold by {seller} to your cart.")
    card, detail = ("category", "brand", "price"), ("seller",)
    best_by = "price"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        dept, cat, brand = shelf(rng)
        seller = rng.choice(C.SELLERS)
        price = round(rng.uniform(20, 120), 2)
        negs = [{"seller": s} for s in others(rng, C.SELLERS, seller, hard_negatives)]
        base = {"department": dept, "category": cat, "brand": brand, "price": price}
        pinned = pin_group(rng, base, {"seller": seller}, negs)
        pricier = tuple({"department": dept, "category": cat, "brand": brand, "role": "filler",
                         "seller": rng.choice(C.SELLERS),
                         "price": round(price + rng.uniform(5, 80), 2)} for _ in range(2))
        p = {"department": dept, "category": cat, "brand": brand, "seller": seller}
        return self.compose(p, spec((*pinned, *pricier), {"category": cat, "brand": brand}))

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["category"] == p["category"] and e["brand"] == p["brand"]
                    and e["seller"] == p["seller"])

    def prefix(self, p: Params, world: World) -> list[Action]:
        return [Action("SetDepartment", {"department": p["department"]}),
                Action("SetCategory", {"category": p["category"]}),
                Action("ToggleBrand", {"brand": p["brand"]}),
                Action("SortBy", {"order": "price_asc"})]


class CartSwap(ProductTemplate):
    """Two items into the cart, then remove one: cart management."""

    name = "cart_add_two_remove_one"
    description = "Add two products, then remove the first from the cart"
    commit_action = "RemoveFromCart"
    sentence = ("Add the {brand} {singular} made of {material} and the '{companion_title}' to "
                "your cart, then remove the '{companion_title}' from the cart.")
    card, detail = ("brand", "category"), ("material",)

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        depts = rng.sample(list(C.DEPARTMENTS), 2)
        _, cat, brand = shelf(rng, depts[0])
        material = rng.choice(C.MATERIALS)
        _, other_cat, other_brand = shelf(rng, depts[1])
        other_title = make_title(other_brand, rng.choice(C.MODELS), other_cat)
        negs = [{"material": m} for m in others(rng, C.MATERIALS, material, hard_negatives)]
        base = {"department": depts[0], "category": cat, "brand": brand}
        pinned = pin_group(rng, base, {"material": material}, negs)
        companion = {"department": depts[1], "category": other_cat, "brand": other_brand,
                     "title": other_title, "role": "companion"}
        p = {"category": cat, "brand": brand, "material": material,
             "companion_title": other_title, "query": f"{brand} {cat}".lower()}
        return self.compose(p, spec((*pinned, companion), {"category": cat, "brand": brand},
                                    {"title": other_title},
                                    {"category": other_cat, "brand": other_brand}))

    def words(self, p: Params) -> Params:
        return {**p, "singular": C.SINGULAR[p["category"]].lower()}

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["category"] == p["category"] and e["brand"] == p["brand"]
                    and e["material"] == p["material"])

    def commit(self, d: Draft, world: World) -> list[Action]:
        comp = {"product_id": d.companions[0]}
        return [ADD, search(d.params["companion_title"]), Action("OpenProduct", comp), ADD,
                Action("OpenCart"), Action("RemoveFromCart", comp)]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        comp = d.companions[0]
        return [*super().verifier(d, world),
                Condition(fact="cart.products", op="not_contains", value=comp,
                          description=f"companion {comp} was removed from the cart")]


class CompareSpecs(ProductTemplate):
    """Comparison across detail pages: the longest warranty among same-brand products."""

    name = "compare_detail_pages"
    description = "Compare a detail-only spec across products and add the best one"
    sentence = "Among the {brand} {cat}, add the one with the longest warranty to your cart."
    card, detail = ("brand", "category"), ("warranty_months",)
    best_by, highest, compare = "warranty_months", True, True

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        dept, cat, brand = shelf(rng)
        months = sorted(rng.sample((3, 6, 9, 12, 18, 24, 36), hard_negatives + 1), reverse=True)
        target, negs = split("warranty_months", months)
        pinned = pin_group(rng, {"department": dept, "category": cat, "brand": brand}, target,
                           negs)
        p = {"category": cat, "brand": brand, "query": f"{brand} {cat}".lower()}
        return self.compose(p, spec(pinned, {"category": cat, "brand": brand}))

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["category"] == p["category"] and e["brand"] == p["brand"])


class CheckoutWithOptions(ProductTemplate):
    """Buy a product from a given seller with a colour, a size and a shipping speed."""

    name = "checkout_with_options"
    description = "Pick the right seller's listing, choose options, check out with a speed"
    commit_action = "PlaceOrder"
    sentence = "Buy the '{title}' sold by {seller} in {color}, size {size}, with {speed} shipping."
    card, detail = ("title",), ("seller", "colors", "sizes")

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        dept, cat, brand = shelf(rng, "Clothing")
        title = make_title(brand, rng.choice(C.MODELS), cat)
        seller = rng.choice(C.SELLERS)
        colors = rng.sample(C.COLORS, 3)
        color, size = colors[rng.randrange(1, 3)], rng.choice(C.SIZES[1:])
        speed = rng.choice(("express", "overnight"))
        negs = [{"seller": s} for s in others(rng, C.SELLERS, seller, hard_negatives)]
        base = {"department": dept, "category": cat, "brand": brand, "title": title,
                "colors": colors}
        pinned = pin_group(rng, base, {"seller": seller}, negs)
        p = {"title": title, "seller": seller, "color": color, "size": size, "speed": speed}
        return self.compose(p, spec(pinned, {"title": title}))

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["title"] == p["title"] and e["seller"] == p["seller"])

    def prefix(self, p: Params, world: World) -> list[Action]:
        return [search(p["title"])]

    def commit(self, d: Draft, world: World) -> list[Action]:
        p = d.params
        return [Action("SelectOption", {"option": "color", "value": p["color"]}),
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


class ReviewExtract(ProductTemplate):
    """Reviews are detail-only and collapsed: open them to find the mentioned phrase."""

    name = "review_extract"
    description = "Find the product whose reviews mention a phrase and add it to the cart"
    sentence = ("Find the {brand} product in {cat} whose reviews mention '{phrase}' and add it to "
                "your cart.")
    card, detail = ("brand", "category"), ("reviews",)
    inspect = (Action("ShowReviews"),)

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        dept, cat, brand = shelf(rng)
        phrase = rng.choice(C.REVIEW_PHRASES)
        negs = [{"reviews": make_reviews(rng, None, phrase)} for _ in range(hard_negatives)]
        base = {"department": dept, "category": cat, "brand": brand}
        pinned = pin_group(rng, base, {"reviews": make_reviews(rng, phrase, None)}, negs)
        p = {"category": cat, "brand": brand, "phrase": phrase, "query": f"{brand} {cat}".lower()}
        return self.compose(p, spec(pinned, {"category": cat, "brand": brand}))

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["category"] == p["category"] and e["brand"] == p["brand"]
                    and any(p["phrase"] in r["text"].lower() for r in e["reviews"]))


TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
