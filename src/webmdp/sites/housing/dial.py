"""Housing's dial-only templates: the home to save is told apart only by its front photo or
its value-history chart (WebForge visual complexity L2 / L3; :mod:`..._common.visualtask`)."""

from __future__ import annotations

import sys
from random import Random

from webmdp.sites._common.tasklib import Pins
from webmdp.sites._common.templates import collect
from webmdp.sites._common.visualtask import VisualPick
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.housing.templates import SaveTemplate, params, pick_group
from webmdp.tasks.template import TaskTemplate


class VisualHome(VisualPick, SaveTemplate):
    """Houses for sale alike in the group's card fields; the photo and the chart tell them
    apart."""

    photo, chart, measure, points = "facade_color", "value_history", "rise", 5

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng, ("House", "Townhouse"), "for_sale")
        target, negs, extra = self.looks(rng, k)
        return pin_group(rng, group, target, negs), params(group, **extra)


class FacadeColour(VisualHome):
    name = "visual_facade_colour"
    description = "Save the home whose front photo shows the asked colour (only in the photo)"
    chart, detail = "", ("facade_color",)
    sentence = "Among the {groups}, save the one whose front photo shows {a_colour} house."


class ValueRise(VisualHome):
    name = "visual_value_rise"
    description = "Save the home whose value-history chart rose the most (only in the chart)"
    photo, detail = "", ("value_history",)
    sentence = ("Among the {groups}, save the one whose estimated value rose the most over the "
                "five years of its value-history chart.")


class FacadeAndValueRise(VisualHome):
    name = "visual_facade_value_rise"
    description = "Correlate a photo and a chart: the asked colour whose value rose the most"
    detail = ("facade_color", "value_history")
    sentence = ("Among the {groups} whose front photo shows {a_colour} house, save the one "
                "whose estimated value rose the most in its value-history chart.")


DIAL_TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
