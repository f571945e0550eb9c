"""Shopping's dial-only templates: the product to add is told apart only by its photo's colour
or its price-history chart (WebForge visual complexity L2 / L3; :mod:`..._common.visualtask`);
the Direct and Mixed answer types (report the price; add it and report the price); and an
analysis that reports what the charts show."""

from __future__ import annotations

import random
import sys

from webmdp.core.model import Entity, World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.templates import Params, collect
from webmdp.sites._common.visualtask import VisualPick
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.shopping import catalog as C
from webmdp.sites.shopping.templates import FindProductExtract, ProductTemplate, shelf, spec
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate


class VisualProduct(VisualPick, ProductTemplate):
    """A brand's products in one category, alike in every text field the page shows that
    could hint (the same colour options); the photo and the chart tell them apart."""

    card = ("brand", "category")
    photo, chart, measure = "photo_color", "price_history", "drop"

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        dept, cat, brand = shelf(rng)
        target, negs, extra = self.looks(rng, hard_negatives)
        base = {"department": dept, "category": cat, "brand": brand,
                "colors": rng.sample(C.COLORS, 3)}
        pinned = pin_group(rng, base, target, negs)
        p = {"category": cat, "brand": brand, "query": f"{brand} {cat}".lower(), **extra}
        return self.compose(p, spec(pinned, {"category": cat, "brand": brand}))

    def fits(self, e: Entity, p: Params) -> bool:
        return bool(e["category"] == p["category"] and e["brand"] == p["brand"]
                    and super().fits(e, p))


class PhotoColour(VisualProduct):
    name = "visual_photo_colour"
    description = "Add the product whose photo shows the asked colour (only in the photo)"
    chart, detail = "", ("photo_color",)
    sentence = ("Among the {brand} {cat}, add the one whose product photo shows {a_colour} item "
                "to your cart.")


class PriceDrop(VisualProduct):
    name = "visual_price_drop"
    description = "Add the product whose price-history chart fell the most (only in the chart)"
    photo, detail = "", ("price_history",)
    sentence = ("Among the {brand} {cat}, add the one whose price fell the most over the six "
                "months of its price-history chart to your cart.")


class PhotoAndPriceDrop(VisualProduct):
    name = "visual_photo_price_drop"
    description = "Correlate a photo and a chart: the asked colour whose price fell the most"
    detail = ("photo_color", "price_history")
    sentence = ("Among the {brand} {cat} whose product photo shows {a_colour} item, add the one "
                "whose price fell the most in its price-history chart to your cart.")


class _PriceAnswer:
    """The answer is a product's price: the target's, or (``answer_for``) a visual agent's pick."""

    def answer(self, d: Draft, world: World) -> str | None:
        return self.answer_for(world, d.target)

    def answer_for(self, world: World, eid: str) -> str | None:
        return f"{world.entities[eid]['price']:.2f}"


class _ReadOnly:
    """A Direct answer: nothing is committed, the answer is judged (after normalisation)."""

    def commit(self, d: Draft, world: World) -> list[Action]:
        return []

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return []


class ReportBiggestDrop(_ReadOnly, _PriceAnswer, PhotoAndPriceDrop):
    """WebForge's Info Retrieval/Analysis at level 3: correlate each look-alike's photo and
    price-history chart, compare the charts, and report the price of the one whose price fell
    the most; nothing is committed, the answer is judged (after normalisation)."""

    name = "report_biggest_price_drop"
    description = "Correlate a photo and a chart, report the price of the biggest drop"
    answer_type = "direct"
    dial_segment = "analysis"  # added after the site's stream was published
    sentence = ("Among the {brand} {cat} whose product photo shows {a_colour} item, find the "
                "one whose price fell the most over the six months of its price-history chart "
                "and tell me its current price. Do not buy anything.")


class ReportPrice(_ReadOnly, _PriceAnswer, FindProductExtract):
    """WebForge's Direct answer type: find the product as ``find_product_extract`` does, then
    report its price; nothing is committed, the answer is judged (after normalisation)."""

    name = "report_product_price"
    description = "Find the product with a detail-only attribute and report its price"
    answer_type = "direct"
    sentence = ("Search for {query} in {department}. Find the one with {label}: '{value}' and "
                "tell me its price. Do not buy anything.")


class AddAndReportPrice(_PriceAnswer, FindProductExtract):
    """WebForge's Mixed answer type: add the product (the commit shows a code) and report its
    price as well."""

    name = "add_and_report_price"
    description = "Find the product with a detail-only attribute, add it, report its price"
    answer_type = "mixed"
    sentence = ("Search for {query} in {department}. Find the one with {label}: '{value}', add "
                "it to your cart, and tell me its price and the confirmation code.")


DIAL_TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
