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
* date range: with ``kit.date_range``'s calendar open, a click on each of the two days;
* grid move: a node bound to the action with part of its params (calendar's chip grip) dragged
  onto the grid cell the rest of the params (date, start) name, located from other nodes of
  that date and of that start (day headers, empty hours);
* wizard: a form whose steps are page state (``kit.wizard``): the visible step's fields are
  typed, then "Next step (K of N): ..." is clicked; the last step is the usual form fill;
* nested menu: the closed level (``kit.nested_menu``) to open next, one named after a
  parameter's value first, then in page order (open levels stay open, so this terminates);
* map: a pin of ``kit.map`` bound to the action, clicked once in view; until then the map is
  dragged so that the pin's place (:func:`map_point`, measured from a pin in view and the
  stated zoom) comes to the view's centre, zoomed out when no pin is in view, and zoomed in
  at its place (ctrl+wheel) when another pin hides it.

A plan that only prepares the page (:func:`prepares`: a Next step, a menu level, a map's pan
or zoom) is followed by observing and planning again, as a scroll is.
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
NEXT_STEP = "Next step ("
SUBMENU = " submenu"
DRIVER_KINDS = ("range", "move", "wizard")
"""The plans the built-in driver asks first: those without which it could not send the action
(a wizard's later fields are hidden; a move is only a drag) and the slider's drag. A map's pin
binds what a result card binds, so the card is clicked unless "map" is asked for."""
MAP_VIEW = re.compile(r"^Map of \d+ results?; drag to pan$")
_ZOOM = re.compile(r"^Zoom (\d+)% \((\d+)% to (\d+)%\)$")
ZOOM_IN, ZOOM_OUT = "Zoom in", "Zoom out"
MAP_WORLD = (1600, 640)
"""``kit.map``'s default world, in pixels at zoom 100%; pins keep 40 px from its edges."""
_PIN_REACH = (60, 20)  # how far from the view's edges a pin's place lies when its box fits
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")

Node = dict[str, Any]


def plan_gesture(action: Action, nodes: list[Node], *,
                 kinds: tuple[str, ...] = ("range",)) -> list[GUIAction] | None:
    """The first plan of ``kinds`` ("range", "drop", "date_range", "move", "wizard", "map")
    for ``action``, or None
    (then the driver clicks and types as usual). A one-step scroll plan means: scroll, observe
    again, plan again (the driver's ``needs_replan`` already says so for a scroll)."""
    planners = {"range": plan_slider, "drop": plan_drop, "date_range": plan_date_range,
                "move": plan_grid_move, "wizard": plan_wizard, "map": plan_map}
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


def _params(node: Node) -> dict[str, Any]:
    return dict(json.loads(node.get("params") or "{}"))


def plan_grid_move(action: Action, nodes: list[Node]) -> list[GUIAction] | None:
    """Drag the node bound to ``action`` with its entity params (the grip) onto the cell of
    the remaining ``date`` and ``start``: x from a node of that date, y from one of that start."""
    want = dict(action.params)
    grip = next((n for n in nodes if n.get("id") is not None and n.get("action") == action.name
                 and not n.get("field") and (p := _params(n)) and p.items() < want.items()),
                None)
    if grip is None or set(want) - set(_params(grip)) != {"date", "start"}:
        return None
    cells = [n for n in nodes if n.get("params") and {"date", "start"} <= set(_params(n))]
    if not cells:
        return None
    left = min(n["x"] - n["w"] / 2 for n in cells)
    right = max(n["x"] + n["w"] / 2 for n in cells)
    xs = [n for n in cells if _params(n)["date"] == want["date"]] or [
        n for n in nodes if n.get("params") and _params(n) == {"date": want["date"]}
        and left <= n["x"] <= right]  # a day header over a full column
    ys = [n for n in cells if _params(n)["start"] == want["start"]]
    if not xs or not ys:
        return None
    x, y = xs[0]["x"], ys[0]["y"]
    top, bottom = min(grip["y"], y), max(grip["y"], y)
    if top < 0 or bottom >= _VIEWPORT_H or not grip.get("in_viewport"):
        if bottom - top > _VIEWPORT_H - 100:
            return None  # both ends never fit on screen at once
        return [GUIAction(kind="scroll", x=720, y=450, dy=round((top + bottom) / 2 - 450))]
    return [drag(grip["x"], grip["y"], x, y)]


def plan_wizard(action: Action, nodes: list[Node]) -> list[GUIAction] | None:
    """Type the visible step's fields of ``action`` and click Next, while the form's submit is
    not on screen yet (a later step); None on the last step (the usual fill sends it)."""
    fields = [n for n in nodes if n.get("id") is not None and n.get("action") == action.name
              and n.get("field") in action.params]
    if not fields or any(n.get("submits") == action.name for n in nodes):
        return None
    after = nodes[nodes.index(fields[-1]) + 1:]
    nxt = next((n for n in after if n.get("id") is not None
                and str(n.get("name", "")).startswith(NEXT_STEP)), None)
    if nxt is None:
        return None
    for n in (*fields, nxt):
        if not _on_screen(n):
            return [_scroll_to(n)]
    steps: list[GUIAction] = []
    for n in fields:
        steps.append(click(n["x"], n["y"]))
        if n.get("value"):
            steps += [GUIAction(kind="key", key="Control+a"), GUIAction(kind="key", key="Delete")]
        steps.append(GUIAction(kind="type", text=str(action.params[n["field"]])))
    return [*steps, click(nxt["x"], nxt["y"])]


def menu_level(action: Action, nodes: list[Node]) -> Node | None:
    """The closed menu level to open on the way to ``action``'s leaf: one named after a value
    of its params first (the "Books submenu" holds "All Books"), else the first in page order
    (the top of a menu comes before its levels, so outer levels open first)."""
    closed = [n for n in nodes if n.get("id") is not None and n.get("menu")
              and action.name in n["menu"] and not n.get("expanded")]
    values = {str(v) for v in action.params.values()}
    named = [n for n in closed if str(n.get("name", "")).removesuffix(SUBMENU) in values]
    found = named or closed
    return found[0] if found else None


def map_point(key: str, world: tuple[int, int] = MAP_WORLD) -> tuple[int, int]:
    """Where ``kit.map`` places the pin of entity ``key`` in its world: a copy of the
    macro's hash of the id (tests check that the two agree)."""
    hx = hy = 0
    for b in key.encode():
        hx = (hx * 31 + b) % 2**32
        hy = (hy * 131 + b) % 2**32
    w, h = world
    # multiplicative (Fibonacci) hashing: the product's high bits, scaled to the world
    return (40 + (hx * 2654435761 % 2**32) * (w - 80) // 2**32,
            40 + (hy * 2246822519 % 2**32) * (h - 80) // 2**32)


def map_views(nodes: list[Node]) -> list[Node]:
    """The map views on the page (``kit.map``): the node of each view's own text, whose box
    is the view's."""
    return [n for n in nodes if n.get("id") is None and MAP_VIEW.match(str(n.get("name", "")))]


def on_map(node: Node, views: list[Node]) -> bool:
    """Whether ``node``'s centre lies in one of the map ``views``."""
    return any(abs(node["x"] - v["x"]) <= v["w"] / 2 and abs(node["y"] - v["y"]) <= v["h"] / 2
               for v in views)


def map_pins(nodes: list[Node]) -> list[Node]:
    """The pins in view: the nodes that follow a map view's own text in page order and lie
    in its box (a dropdown open over the map comes before it, a result card after it)."""
    pins: list[Node] = []
    for i, node in enumerate(nodes):
        if node.get("id") is None and MAP_VIEW.match(str(node.get("name", ""))):
            for n in nodes[i + 1:]:
                if not on_map(n, [node]):
                    break
                if n.get("id") is not None and n.get("action"):
                    pins.append(n)
    return pins


def _key(params: dict[str, Any]) -> str | None:
    """The entity id a pin is bound with: its one parameter's value."""
    values = list(params.values())
    return values[0] if len(values) == 1 and isinstance(values[0], str) else None


def plan_map(action: Action, nodes: list[Node]) -> list[GUIAction] | None:
    """Click the map's pin bound to ``action``; until it is in view, pan (one drag within the
    view, towards its centre) or zoom (out with no pin in view, in at the pin's place when
    another pin hides it). None without a map, a pin for ``action`` or a way to show it."""
    views = map_views(nodes)
    want = dict(action.params)
    key = _key(want)
    if not views or key is None:
        return None
    view = views[0]
    if view["y"] - view["h"] / 2 < 40 or view["y"] + view["h"] / 2 > _VIEWPORT_H:
        return [_scroll_to(view)]  # the whole view and its zoom buttons above it on screen
    pins = map_pins(nodes)
    target = next((n for n in pins if n["action"] == action.name and _params(n) == want), None)
    if target is not None:
        return [click(target["x"], target["y"])]
    zoom = next((m for n in nodes if (m := _ZOOM.match(str(n.get("name", ""))))), None)
    if zoom is None:
        return None
    z, lo, hi = (int(g) for g in zoom.groups())
    if not pins:  # nothing in view to measure from: zoom out (at the lowest zoom all show)
        out = next((n for n in nodes if n.get("name") == ZOOM_OUT and n.get("id") is not None),
                   None)
        return [click(out["x"], out["y"])] if out is not None and z > lo else None
    ref = next((n for n in pins if n["action"] == action.name and _key(_params(n))), None)
    if ref is None:  # the map's pins are bound to something else
        return None
    (tx, ty), (rx, ry) = map_point(key), map_point(str(_key(_params(ref))))
    x, y = ref["x"] + (tx - rx) * z / 100, ref["y"] + (ty - ry) * z / 100
    dx, dy = view["x"] - x, view["y"] - y
    if abs(dx) <= view["w"] / 2 - _PIN_REACH[0] and abs(dy) <= view["h"] / 2 - _PIN_REACH[1]:
        if z >= hi:  # in view, yet hidden by a pin drawn before it even at the top zoom
            return None
        return [GUIAction(kind="scroll", x=x, y=y, dy=-100, modifiers=["Control"])]
    dx = max(-view["w"] + 24, min(view["w"] - 24, dx))  # both ends of the drag in the view
    dy = max(-view["h"] + 24, min(view["h"] - 24, dy))
    return [drag(view["x"] - dx / 2, view["y"] - dy / 2, view["x"] + dx / 2, view["y"] + dy / 2)]


def prepares(steps: list[GUIAction], nodes: list[Node]) -> bool:
    """Whether ``steps`` only get the page ready (they end on a wizard's Next, a menu level,
    a map's zoom button or a drag of a map), so the driver observes and plans again."""
    last = steps[-1] if steps else None
    if last is not None and last.kind == "drag":
        return on_map({"x": last.x, "y": last.y}, map_views(nodes))
    if last is None or last.kind != "click":
        return False
    hit = next((n for n in nodes if n.get("id") is not None
                and (n["x"], n["y"]) == (last.x, last.y)), None)
    return hit is not None and (str(hit.get("name", "")).startswith(NEXT_STEP)
                                or hit.get("name") in (ZOOM_IN, ZOOM_OUT)
                                or bool(hit.get("menu") and not hit.get("expanded")))


def _on_screen(node: Node) -> bool:
    return bool(node.get("in_viewport")) and 0 <= node["y"] < _VIEWPORT_H


def _scroll_to(node: Node) -> GUIAction:
    return GUIAction(kind="scroll", x=720, y=450, dy=round(node["y"] - _VIEWPORT_H / 2))
