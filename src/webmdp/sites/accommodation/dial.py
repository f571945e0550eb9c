"""Accommodation's dial-only templates: the listing to book is told apart only by its main
photo or its occupancy chart (WebForge visual complexity L2 / L3;
:mod:`..._common.visualtask`)."""

from __future__ import annotations

import sys
from random import Random

from webmdp.sites._common.tasklib import Pins
from webmdp.sites._common.templates import collect
from webmdp.sites._common.visualtask import VisualPick
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.accommodation.templates import BookingTemplate, base, booking, sleeps, where
from webmdp.tasks.template import TaskTemplate


class VisualStay(VisualPick, BookingTemplate):
    """Listings of one type in one city, alike in the card fields the instruction names; the
    main photo (the house's colour) and the occupancy bar chart tell them apart."""

    dial_segment = "visual"  # added after the site's stream was published
    photo, chart, measure, points = "exterior_color", "occupancy", "last", 6

    def pins(self, rng: Random, k: int) -> Pins:
        city, ptype = where(rng)
        p = booking(rng, rng.randint(1, 4), city=city, property_type=ptype)
        group = base(p, price_per_night=rng.randint(140, 260), **sleeps(rng, p["guests"]))
        target, negs, extra = self.looks(rng, k)
        return pin_group(rng, group, target, negs), {**p, **extra}


class ExteriorColour(VisualStay):
    name = "visual_exterior_colour"
    description = "Book the listing whose main photo shows the asked colour (only in the photo)"
    chart, detail = "", ("exterior_color",)
    sentence = ("Among the {label}s in {city}, book the one whose main photo shows {a_colour} "
                "house, {for_guests}.")


class BusiestLastMonth(VisualStay):
    name = "visual_busiest_last_month"
    description = "Book the listing whose occupancy chart is highest last month (only in it)"
    photo, detail = "", ("occupancy",)
    sentence = ("Among the {label}s in {city}, book the one whose occupancy chart shows the "
                "highest occupancy in its last month, {for_guests}.")


class ExteriorAndBusiest(VisualStay):
    name = "visual_exterior_busiest"
    description = "Correlate a photo and a chart: the asked colour with the highest occupancy"
    detail = ("exterior_color", "occupancy")
    sentence = ("Among the {label}s in {city} whose main photo shows {a_colour} house, book "
                "the one whose occupancy chart shows the highest occupancy in its last month, "
                "{for_guests}.")


DIAL_TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
