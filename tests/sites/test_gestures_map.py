"""The results map (``kit.map``, AT47 zoom and pan, AT48 marker interaction) in a real Chromium
against the real server, on Homestead (housing) and staybnb (accommodation): pins sit where
``gestures.map_point`` says, only pins wholly in view are visible (to clicks and to the
accessibility tree), a drag pans and a click on the background sends nothing, ctrl+wheel and
the buttons zoom while a plain wheel scrolls the page, a pin's click sends the card's action,
and the driver's "map" plan pans to a pin out of view and opens it. Every dispatched action is
replayed on the MDP (``_Run.gui``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_gestures import _Run

from support import site_tasks
from webmdp.agents.driver import needs_replan, plan_gui
from webmdp.agents.gestures import (
    DRIVER_KINDS,
    ZOOM_OUT,
    map_pins,
    map_point,
    map_views,
    on_map,
    plan_map,
)
from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction, click
from webmdp.env.semantic import SemanticEnv

Node = dict[str, Any]
OPEN = {"housing": "OpenProperty", "accommodation": "ViewListing"}

_PINS_JS = """() => {
  const v = document.querySelector('[data-map]').getBoundingClientRect();
  return [...document.querySelectorAll('.kit-map-pin')].map(p => {
    const r = p.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const onPage = cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight;
    return {params: JSON.parse(p.dataset.params), wx: +p.dataset.wx, wy: +p.dataset.wy,
            shown: getComputedStyle(p).visibility === 'visible', x: cx, y: cy,
            inside: r.left >= v.left && r.right <= v.right && r.top >= v.top
                    && r.bottom <= v.bottom,
            hit: onPage ? document.elementFromPoint(cx, cy) === p : null};
  });
}"""


def _params(node: Node) -> dict[str, Any]:
    return dict(json.loads(node.get("params") or "{}"))


def _view(run: _Run) -> Node:
    views = map_views(run.nodes)
    assert len(views) == 1
    return views[0]


def _pins(run: _Run) -> list[Node]:
    """The pins the accessibility walk sees."""
    return map_pins(run.nodes)


def _zoom(run: _Run) -> str:
    return next(str(n["name"]) for n in run.nodes if str(n.get("name", "")).startswith("Zoom "))


def _pin_names(task: Any, site: str) -> dict[str, str]:
    """What each listed entity's pin is named: title and price as its card shows them."""
    env = SemanticEnv(task)
    obs, _ = env.reset(seed=0)
    out = {}
    for e in obs["observation"].entities:
        f = e.fields
        if site == "housing":
            out[e.id] = f"{f['address']}, ${f['price']:,}" + (
                "/mo" if f["listing_type"] == "for_rent" else "")
        else:
            out[e.id] = f"{f['title']}, ${f['price_per_night']} night"
    return out


@pytest.mark.browser
@pytest.mark.parametrize("site", ["housing", "accommodation"])
def test_map_pans_zooms_and_opens_only_pins_in_view(site: str, server, host) -> None:  # type: ignore[no-untyped-def]
    task = site_tasks(site)[0]
    run = _Run(task, server, host)
    try:
        names = _pin_names(task, site)
        view = _view(run)
        assert view["name"] == f"Map of {len(names)} results; drag to pan"
        assert _zoom(run) == "Zoom 100% (40% to 300%)"
        pins = run.env.page.evaluate(_PINS_JS)
        # every pin is where the Python copy of the hash says, one per listed entity
        keys = [next(iter(p["params"].values())) for p in pins]
        assert sorted(keys) == sorted(names)
        assert all((p["wx"], p["wy"]) == map_point(k) for p, k in zip(pins, keys, strict=True))
        # only part of the map is in view: a pin shows only wholly inside the view
        assert any(p["shown"] for p in pins) and any(not p["inside"] for p in pins)
        assert all(p["inside"] for p in pins if p["shown"])
        assert all(p["hit"] is not True for p in pins if not p["shown"])  # a click misses it
        seen = _pins(run)
        shown = [p for p in pins if p["shown"]]
        assert [_params(n) for n in seen] == [p["params"] for p in shown]
        assert all(n["action"] == OPEN[site] and n["name"] == names[_key(n)] for n in seen)

        # a click on the background, and drags (from the background and from a pin): nothing
        # is sent, and the pins move with the pointer
        ref = seen[0]
        bx, by = _background(run, view)
        assert run.gui([click(bx, by)]) == []
        assert run.gui([GUIAction(kind="drag", x=bx, y=by, x2=bx + 30, y2=by + 12)]) == []
        moved = next(n for n in _pins(run) if _params(n) == _params(ref))
        assert (round(moved["x"] - ref["x"]), round(moved["y"] - ref["y"])) == (30, 12)
        x, y = moved["x"], moved["y"]
        assert run.gui([GUIAction(kind="drag", x=x, y=y, x2=x - 30, y2=y - 12)]) == []
        back = next(n for n in _pins(run) if _params(n) == _params(ref))
        assert (round(back["x"]), round(back["y"])) == (round(ref["x"]), round(ref["y"]))

        # zoom: ctrl+wheel keeps the point under the pointer; the buttons zoom about the centre
        vx, vy = view["x"], view["y"]
        got = run.gui([GUIAction(kind="scroll", x=ref["x"], y=ref["y"], dy=-100,
                                 modifiers=["Control"])])
        assert got == [] and _zoom(run).startswith("Zoom 150%")
        still = next(n for n in _pins(run) if _params(n) == _params(ref))
        assert abs(still["x"] - ref["x"]) < 1 and abs(still["y"] - ref["y"]) < 1
        out = next(n for n in run.nodes if n.get("name") == ZOOM_OUT)
        for want in ("100", "70", "40", "40"):
            assert run.gui([click(out["x"], out["y"])]) == []
            assert _zoom(run).startswith(f"Zoom {want}%")
        assert len(_pins(run)) > len(seen)  # zoomed out, more of the map is in view

        # a plain wheel over the map scrolls the page and leaves the map alone
        top = run.env.page.evaluate("() => scrollY")
        assert run.gui([GUIAction(kind="scroll", x=vx, y=vy, dy=200)]) == []
        assert run.env.page.evaluate("() => scrollY") > top and _zoom(run).startswith("Zoom 40%")

        # a pin's click sends exactly what the card binds
        pin = _pins(run)[0]
        assert run.gui([click(pin["x"], pin["y"])]) == [(OPEN[site], _params(pin))]
    finally:
        run.close()


@pytest.mark.browser
@pytest.mark.parametrize("site", ["housing", "accommodation"])
def test_driver_pans_the_map_to_a_pin_out_of_view(site: str, server, host) -> None:  # type: ignore[no-untyped-def]
    task = site_tasks(site)[0]
    run = _Run(task, server, host)
    try:
        pins = run.env.page.evaluate(_PINS_JS)
        far = next(p for p in pins if not p["inside"])
        want = Action(OPEN[site], far["params"])
        # the default driver clicks the card, never the map
        steps = plan_gui(want, run.nodes)
        assert steps and not any(on_map({"x": s.x, "y": s.y}, map_views(run.nodes))
                                 for s in steps if s.x is not None)
        # asked for the map, it drags the map until the pin is in view, then clicks it
        kinds: list[str] = []
        for _ in range(8):
            nodes = run.nodes
            steps = plan_gui(want, nodes, kinds=("map", *DRIVER_KINDS))
            assert steps is not None
            kinds += [s.kind for s in steps]
            got = run.gui(steps)
            if not needs_replan(steps, want, nodes):
                break
            assert got == []
            if steps[-1].kind == "drag":  # the pin comes to the view's centre
                view = _view(run)
                pin = next((n for n in _pins(run) if _params(n) == want.params), None)
                assert pin is not None
                assert abs(pin["x"] - view["x"]) < 1 and abs(pin["y"] - view["y"]) < 1
        else:
            raise AssertionError("the map plan did not open the pin")
        assert "drag" in kinds and kinds[-1] == "click"
        assert got == [(want.name, dict(want.params))]
    finally:
        run.close()


def _key(node: Node) -> str:
    return str(next(iter(_params(node).values())))


def _background(run: _Run, view: Node) -> tuple[float, float]:
    """A point of the map view at least 40 px from every pin and from the view's edges."""
    pins = _pins(run)
    for fy in (0.3, 0.5, 0.7):
        for fx in (0.1, 0.3, 0.5, 0.7, 0.9):
            x = view["x"] - view["w"] / 2 + fx * view["w"]
            y = view["y"] - view["h"] / 2 + fy * view["h"]
            if all(abs(x - p["x"]) > 40 or abs(y - p["y"]) > 40 for p in pins):
                return x, y
    raise AssertionError("no free point on the map")


# -- the map plan's branches on a page of nodes (no browser) ---------------------------------

_VIEW: Node = {"id": None, "role": "region", "name": "Map of 3 results; drag to pan",
         "x": 800.0, "y": 400.0, "w": 1000.0, "h": 300.0, "in_viewport": True}


def _nodes(zoom: int, *pins: tuple[str, float, float]) -> list[Node]:
    return [{"id": None, "name": f"Zoom {zoom}% (40% to 300%)", "x": 1200, "y": 230},
            {"id": 1, "name": "Zoom out", "x": 1300, "y": 230, "w": 30, "h": 30},
            {"id": 2, "name": "Zoom in", "x": 1340, "y": 230, "w": 30, "h": 30}, _VIEW,
            *({"id": 3 + i, "name": k, "action": "OpenProperty", "x": x, "y": y, "w": 50, "h": 22,
               "params": json.dumps({"property_id": k})} for i, (k, x, y) in enumerate(pins)),
            {"id": 9, "name": "card", "action": "OpenProperty", "x": 400, "y": 800, "w": 300,
             "h": 200, "params": json.dumps({"property_id": "HOM-001"}), "in_viewport": True}]


def test_map_plan_measures_from_a_pin_in_view_and_zooms_when_it_must() -> None:
    want = Action("OpenProperty", {"property_id": "HOM-001"})
    tx, ty = map_point("HOM-001")
    others = [(k, map_point(k)) for k in (f"HOM-{i:03d}" for i in range(2, 41))]
    # a pin in view at the centre, zoom 150%: the target's place is measured from it
    far = next(k for k, (x, y) in others if abs(tx - x) * 1.5 > 700)
    rx, ry = map_point(far)
    plan = plan_map(want, _nodes(150, (far, 800.0, 400.0)))
    assert plan is not None and [s.kind for s in plan] == ["drag"]
    at = (800.0 + (tx - rx) * 1.5, 400.0 + (ty - ry) * 1.5)
    moved = (plan[0].x2 - plan[0].x, plan[0].y2 - plan[0].y)  # type: ignore[operator]
    for got, full, reach in zip(moved, (800.0 - at[0], 400.0 - at[1]), (976, 276), strict=True):
        assert abs(got - max(-reach, min(reach, full))) < 1e-6  # one drag within the view
    assert all(_on_view(p) for p in ((plan[0].x, plan[0].y), (plan[0].x2, plan[0].y2)))
    # the target's place in view but no pin there (another hides it): zoom in there
    ids = [f"HOM-{i:03d}" for i in range(1, 200)]
    near, hid = next((a, b) for a in ids for b in ids if a != b
                     and abs(map_point(a)[0] - map_point(b)[0]) * 3 < 400
                     and abs(map_point(a)[1] - map_point(b)[1]) * 3 < 120)
    (rx, ry), (hx, hy) = map_point(near), map_point(hid)
    for z in (150, 300):  # the reference pin placed so that the hidden one's place is the centre
        pin = (near, 800.0 + (rx - hx) * z / 100, 400.0 + (ry - hy) * z / 100)
        plan = plan_map(Action("OpenProperty", {"property_id": hid}), _nodes(z, pin))
        if z == 300:
            assert plan is None  # nothing more to zoom
            continue
        assert plan and plan[0].kind == "scroll" and plan[0].modifiers == ["Control"]
        assert plan[0].dy == -100 and (round(plan[0].x), round(plan[0].y)) == (800, 400)  # type: ignore[arg-type]
    # no pin in view: zoom out, down to the lowest zoom
    plan = plan_map(want, _nodes(100))
    assert plan and (plan[0].kind, plan[0].x) == ("click", 1300)
    assert plan_map(want, _nodes(40)) is None
    # the pin in view: click it; no map, or an action of two params: no plan
    plan = plan_map(want, _nodes(100, ("HOM-001", 700.0, 380.0)))
    assert plan and (plan[0].kind, plan[0].x, plan[0].y) == ("click", 700.0, 380.0)
    assert plan_map(want, [n for n in _nodes(100) if n is not _VIEW]) is None
    assert plan_map(Action("OpenProperty", {"property_id": "HOM-001", "x": "1"}),
                    _nodes(100, (far, 800.0, 400.0))) is None
    # pins bound to another action are not the way to it
    assert plan_map(Action("SaveHome", {"property_id": "HOM-001"}),
                    _nodes(100, (far, 800.0, 400.0))) is None


def _on_view(point: tuple[float | None, float | None]) -> bool:
    x, y = point
    assert x is not None and y is not None
    return abs(x - _VIEW["x"]) < _VIEW["w"] / 2 and abs(y - _VIEW["y"]) < _VIEW["h"] / 2


def test_default_driver_clicks_the_card_and_what_lies_over_the_map() -> None:
    nodes = _nodes(100, ("HOM-001", 700.0, 380.0))
    # the pin and the card bind the same action: the driver clicks the card
    plan = plan_gui(Action("OpenProperty", {"property_id": "HOM-001"}), nodes)
    assert plan and (plan[0].kind, plan[0].x, plan[0].y) == ("click", 400, 800)
    # a dropdown open over the map (before it in page order) is no pin
    item = {"id": 20, "name": "Price (Low to High)", "action": "SortBy", "x": 1200.0,
            "y": 300.0, "w": 200, "h": 34, "params": json.dumps({"order": "price_asc"}),
            "in_viewport": True}
    nodes.insert(0, item)
    assert item not in map_pins(nodes) and map_pins(nodes)
    plan = plan_gui(Action("SortBy", {"order": "price_asc"}), nodes)
    assert plan and (plan[0].x, plan[0].y) == (1200.0, 300.0)
