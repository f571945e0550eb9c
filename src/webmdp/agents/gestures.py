"""Gesture plans for the built-in driver: a semantic action turned into the drag or clicks that
the toolkit's gesture widgets (``sites/_common/static/gestures.js``) turn back into exactly that
action. Plans read only the page's nodes (``env/axtree.js``): geometry, the accessible names
that state a widget's scale, and the current values of the form fields; never the answer.

* range slider: a facet's track (``kit.range_slider``) is bound to the facet's action and named
  "LABEL: slider from LO to HI in steps of STEP"; its box is the scale's extent. One knob moves
  per drag, so a plan exists when the action changes one end of the range to a value on the
  grid (or to "no limit");
* drop: a card bound to something else whose params are the action's params, dragged onto the
  node named "... (drop target)" (``kit.drop_zone``);
* date range: with ``kit.date_range``'s calendar open, a click on each of the two days.
"""

from __future__ import annotations

import json
import re
from typing import Any

from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction, click

_VIEWPORT_H = 900
_NUM = r"(-?\d+(?:\.\d+)?)"
_SCALE = re.compile(rf"slider from {_NUM} to {_NUM} in steps of {_NUM}$")
DROP_SUFFIX = "(drop target)"
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")

Node = dict[str, Any]


def plan_gesture(action: Action, nodes: list[Node], *,
                 kinds: tuple[str, ...] = ("range",)) -> list[GUIAction] | None:
    """The first plan of ``kinds`` ("range", "drop", "date_range") for ``action``, or None
    (then the driver clicks and types as usual). A one-step scroll plan means: scroll, observe
    again, plan again (the driver's ``needs_replan`` already says so for a scroll)."""
    planners = {"range": plan_slider, "drop": plan_drop, "date_range": plan_date_range}
    for kind in kinds:
        steps = planners[kind](action, nodes)
        if steps is not None:
            return steps
    return None


def drag(x: float, y: float, x2: float, y2: float) -> GUIAction:
    return GUIAction(kind="drag", x=x, y=y, x2=x2, y2=y2)


def slider_scale(node: Node) -> tuple[float, float, float] | None:
    """(low end, high end, step) a slider track's accessible name states, or None."""
    m = _SCALE.search(node.get("name") or "")
    return (float(m[1]), float(m[2]), float(m[3])) if m else None


def slider_x(node: Node, value: float, scale: tuple[float, float, float]) -> float:
    """The viewport x of ``value`` on the track: the box's left edge is the low end."""
    lo, hi, _ = scale
    frac = min(1.0, max(0.0, (value - lo) / (hi - lo)))
    return float(node["x"] - node["w"] / 2 + frac * node["w"])


def plan_slider(action: Action, nodes: list[Node]) -> list[GUIAction] | None:
    if not set(action.params) <= {"min", "max"}:
        return None
    track = next((n for n in nodes if n.get("id") is not None and n.get("action") == action.name
                  and not n.get("field") and slider_scale(n)), None)
    if track is None:
        return None
    scale = slider_scale(track)
    assert scale is not None
    lo, hi, step = scale
    current: dict[str, float | None] = {"min": None, "max": None}
    for n in nodes:
        if n.get("action") == action.name and n.get("field") in current and n.get("value"):
            current[n["field"]] = float(n["value"])
    wanted = {k: (None if action.params.get(k) is None else float(action.params[k]))
              for k in current}
    changed = [k for k in current if wanted[k] != current[k]]
    if len(changed) != 1:
        return None
    end = changed[0]
    target = wanted[end]
    if target is None:
        target = lo if end == "min" else hi
    elif not (lo < target < hi) or abs((target - lo) / step - round((target - lo) / step)) > 1e-9:
        return None  # off the slider's grid: type it instead
    now = current[end]
    now = (lo if end == "min" else hi) if now is None else min(hi, max(lo, now))
    if not _on_screen(track):
        return [_scroll_to(track)]
    y = track["y"]
    return [drag(slider_x(track, now, scale), y, slider_x(track, target, scale), y)]


def plan_drop(action: Action, nodes: list[Node]) -> list[GUIAction] | None:
    want = dict(action.params)
    source = next((n for n in nodes if n.get("id") is not None and n.get("action")
                   and n.get("action") != action.name and not n.get("field")
                   and json.loads(n.get("params") or "{}") == want), None)
    target = next((n for n in nodes if n.get("id") is not None
                   and str(n.get("name", "")).endswith(DROP_SUFFIX)), None)
    if source is None or target is None:
        return None
    for n in (source, target):
        if not _on_screen(n):
            return [_scroll_to(source)]
    return [drag(source["x"], source["y"], target["x"], target["y"])]


def plan_date_range(action: Action, nodes: list[Node], *,
                    fields: tuple[str, str] = ("check_in", "check_out")) -> list[GUIAction] | None:
    """Clicks on the two days of an open range calendar (both in the month it shows); the
    rest of the form (other fields, submit) is the driver's usual plan."""
    days = []
    for f in fields:
        m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", str(action.params.get(f, "")))
        if m is None:
            return None
        name = f"{_MONTHS[int(m[2]) - 1]} {int(m[3])}, {m[1]}"
        node = next((n for n in nodes if n.get("id") is not None and n.get("name") == name), None)
        if node is None or not _on_screen(node):
            return None
        days.append(click(node["x"], node["y"]))
    return days


def _on_screen(node: Node) -> bool:
    return bool(node.get("in_viewport")) and 0 <= node["y"] < _VIEWPORT_H


def _scroll_to(node: Node) -> GUIAction:
    return GUIAction(kind="scroll", x=720, y=450, dy=round(node["y"] - _VIEWPORT_H / 2))
