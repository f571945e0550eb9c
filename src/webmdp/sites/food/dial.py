"""Food's dial-only templates: the restaurant to order from is told apart only by its
signature-dish photo or its weekly-orders chart (WebForge visual complexity L2 / L3;
:mod:`..._common.visualtask`)."""

from __future__ import annotations

import sys
from random import Random

from webmdp.core.model import Entity, WorldSpec
from webmdp.sites._common.tasklib import Params, Pins
from webmdp.sites._common.templates import collect
from webmdp.sites._common.visualtask import VisualPick
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.food import vocab as V
from webmdp.sites.food.templates import RestaurantTemplate, spec
from webmdp.tasks.template import TaskTemplate


class VisualRestaurant(VisualPick, RestaurantTemplate):
    """Restaurants of one cuisine (no other restaurant of it in the world), alike in what the
    instruction names; the dish photo and the orders chart tell them apart. The dish to add
    is on the target's menu."""

    dial_segment = "visual"  # added after the site's stream was published
    keys, narrow = ("cuisine",), ("cuisine",)
    photo, chart, measure, points = "dish_color", "weekly_orders", "rise", 6

    def pins(self, rng: Random, k: int) -> Pins:
        cuisine = rng.choice(V.CUISINES)
        target, negs, extra = self.looks(rng, k)
        section = rng.choice(list(V.MENUS[cuisine]))
        dish = rng.choice(V.MENUS[cuisine][section])[0]
        group = pin_group(rng, {"cuisine": cuisine}, {**target, "key": "target"}, negs)
        item = {"kind": "item", "restaurant_key": "target", "role": "companion",
                "name": dish, "section": section}
        return (*group, item), {"cuisine": cuisine, "dish": dish, **extra}

    def world(self, rng: Random, pinned: tuple[Entity, ...], p: Params) -> WorldSpec:
        return spec(pinned, ({"cuisine": p["cuisine"]},))


class DishColour(VisualRestaurant):
    name = "visual_dish_colour"
    description = "Order from the restaurant whose dish photo shows the asked colour (only there)"
    chart, detail = "", ("dish_color",)
    sentence = ("Among the {cuisine} restaurants, add the {dish} from the one whose "
                "signature-dish photo shows {a_colour} bowl to your cart.")


class OrdersRise(VisualRestaurant):
    name = "visual_orders_rise"
    description = "Order from the restaurant whose weekly-orders chart rose the most (only there)"
    photo, detail = "", ("weekly_orders",)
    sentence = ("Among the {cuisine} restaurants, add the {dish} from the one whose weekly "
                "orders rose the most over the six weeks of its orders chart to your cart.")


class DishAndOrdersRise(VisualRestaurant):
    name = "visual_dish_orders_rise"
    description = "Correlate a photo and a chart: the asked colour whose orders rose the most"
    detail = ("dish_color", "weekly_orders")
    sentence = ("Among the {cuisine} restaurants whose signature-dish photo shows {a_colour} "
                "bowl, add the {dish} from the one whose weekly orders rose the most in its "
                "orders chart to your cart.")


DIAL_TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
