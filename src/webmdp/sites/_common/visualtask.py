"""Templates whose choice needs a pixel-only field (WebForge's visual complexity L2 / L3):
dial-only (``Site.dial_templates``), so a site's built-in task set does not change.

A :class:`VisualPick` is mixed in before a site's own template base. Its group shares the
base's keys; what tells the target from its hard negatives is only in pixels:

* ``photo`` (one visual element, L2): the entity whose photo shows the asked colour;
* ``chart`` (one visual element, L2): the entity whose chart scores highest by ``measure``
  (``rise``: last point less first, ``drop``: first less last, ``last``: the last point);
* both (two visual elements, L3): among those whose photo shows the colour, the one whose
  chart scores highest; half the hard negatives share the colour and score lower, the other
  half score higher in another colour, so neither visual alone finds the target.

Pixel fields exist only on the entities these templates pin (a world completer keeps them
with :func:`carried`), so no other task's world changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import ClassVar

from webmdp.core.model import Entity, World
from webmdp.sites._common.templates import Params, PinnedTemplate
from webmdp.sites._common.visual import CHART, PHOTO_COLORS

MEASURES: dict[str, Callable[[Sequence[int]], int]] = {
    "rise": lambda v: v[-1] - v[0],
    "drop": lambda v: v[0] - v[-1],
    "last": lambda v: v[-1],
}
"""How a chart scores: the number the instruction's superlative is over."""
LOW, HIGH = 5, CHART.vmax - 5
"""Chart values are drawn within this range (a margin below the axis top)."""
_SCORES = {"rise": range(4, 46, 3), "drop": range(4, 46, 3), "last": range(8, HIGH, 4)}


def carried(p: Entity, fields: Sequence[str]) -> Entity:
    """The pixel fields a pinned entity was given (a world completer adds them unchanged)."""
    return {f: p[f] for f in fields if f in p}


def series(rng: Random, measure: str, score: int, points: int) -> list[int]:
    """``points`` chart values in ``LOW..HIGH`` whose ``measure`` is ``score``."""
    vals = [rng.randint(LOW, HIGH) for _ in range(points)]
    if measure == "last":
        vals[-1] = score
    elif measure in ("rise", "drop"):
        start = rng.randint(LOW, HIGH - score)
        ends = (start, start + score) if measure == "rise" else (start + score, start)
        vals[0], vals[-1] = ends
    assert MEASURES[measure](vals) == score
    return vals


class VisualPick(PinnedTemplate):
    """Pick one entity of a group by what its photo or chart shows (see the module doc)."""

    photo: ClassVar[str] = ""
    """The pixel field holding a colour name (a :data:`PHOTO_COLORS` key), "" for none."""
    chart: ClassVar[str] = ""
    """The pixel field holding a chart's values, "" for none."""
    measure: ClassVar[str] = "rise"
    points: ClassVar[int] = 6
    compare = True

    @property
    def reasoning(self) -> str:
        """A colour match is a lookup; a superlative over charts read on several detail pages
        is multi-step."""
        return "multi_step" if self.chart else "lookup"

    @property
    def pixel(self) -> tuple[str, ...]:
        return tuple(f for f in (self.photo, self.chart) if f)

    def answer_for(self, world: World, eid: str) -> str | None:
        """What the task's answer would be had ``eid`` been the pick (a template with a
        ``direct`` answer says; None: the answer is a commit's code). The visual agents
        report it for their own pick."""
        return None

    def looks(self, rng: Random, k: int) -> tuple[Entity, list[Entity], Params]:
        """The target's pixel fields, each of ``k`` hard negatives', and the params (the
        asked ``colour``)."""
        colours = rng.sample(list(PHOTO_COLORS), min(len(PHOTO_COLORS), k + 1))
        scores = sorted(rng.sample(_SCORES[self.measure], k + 1), reverse=True)
        if self.photo and self.chart:
            higher = (k + 1) // 2  # hard negatives 0, 2, ... : another colour, a higher score
            order = [scores[higher], *(scores[i // 2] if i % 2 == 0 else
                                       scores[higher + 1 + i // 2] for i in range(k))]
            tints = [colours[0], *(colours[1 + i // 2] if i % 2 == 0 else colours[0]
                                   for i in range(k))]
        else:
            order, tints = scores, colours
        looks: list[Entity] = []
        for score, tint in zip(order, tints, strict=True):
            look: Entity = {}
            if self.photo:
                look[self.photo] = tint
            if self.chart:
                look[self.chart] = series(rng, self.measure, score, self.points)
            looks.append(look)
        return looks[0], looks[1:], {"colour": colours[0]} if self.photo else {}

    def words(self, p: Params) -> Params:
        out = super().words(p)
        if "colour" in p:
            out["a_colour"] = ("an " if p["colour"][0] in "aeiou" else "a ") + p["colour"]
        return out

    def fits(self, e: Entity, p: Params) -> bool:
        return super().fits(e, p) and (not self.photo or e.get(self.photo) == p["colour"])

    def pick(self, accepted: list[Entity]) -> list[str]:
        if not self.chart:
            return [e["id"] for e in accepted]
        score = MEASURES[self.measure]
        scored = {e["id"]: score(e[self.chart]) for e in accepted if self.chart in e}
        top = max(scored.values(), default=None)
        return [i for i, s in scored.items() if s == top]

