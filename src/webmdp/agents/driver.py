"""Turns a semantic action into the GUI actions a user would perform on the rendered page:
locate the bound element, scroll it into view, click it or type into it at its coordinates;
first close real-web noise (:mod:`webmdp.env.noise`) that is in the way."""

from __future__ import annotations

import json
from typing import Any

from webmdp.agents.gestures import (
    DRIVER_KINDS,
    map_pins,
    menu_level,
    plan_gesture,
    prepares,
)
from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction, click, key, type_text

_VIEWPORT_H = 900


def _on_screen(node: dict[str, Any]) -> bool:
    """A click lands at the node's centre, so the centre (not just some edge) must be visible."""
    return bool(node.get("in_viewport")) and 0 <= node["y"] < _VIEWPORT_H


def _scroll_to(node: dict[str, Any]) -> GUIAction:
    return GUIAction(kind="scroll", x=720, y=450, dy=round(node["y"] - _VIEWPORT_H / 2))


def plan_gui(action: Action, nodes: list[dict[str, Any]], *,
             kinds: tuple[str, ...] = DRIVER_KINDS) -> list[GUIAction] | None:
    """GUI steps for ``action`` on this page, or ``None`` when the page does not offer it.

    ``kinds`` are the gesture plans asked first (:func:`~webmdp.agents.gestures.plan_gesture`);
    add "map" to open a listing through the results map. Otherwise a map's pins are left
    alone: the result card binds the same action. A plan of one scroll or one click on a
    dropdown means: do it, observe again, plan again (:func:`needs_replan`).
    """
    gesture = plan_gesture(action, nodes, kinds=kinds)  # a drag, a wizard's steps
    if gesture is not None:
        return gesture
    fields = [n for n in nodes if n.get("id") is not None and n.get("action") == action.name
              and n.get("field") in action.params]
    if fields:
        return _fill(action, fields, nodes)
    pins = {n["id"] for n in map_pins(nodes)}
    for node in nodes:
        if (node.get("id") is not None and node.get("action") == action.name
                and not node.get("field") and node["id"] not in pins
                and json.loads(node.get("params") or "{}") == dict(action.params)):
            return [click(node["x"], node["y"])] if _on_screen(node) else [_scroll_to(node)]
    level = menu_level(action, nodes)  # a closed dropdown (page state) that holds the action
    if level is not None:
        return [click(level["x"], level["y"])] if _on_screen(level) else [_scroll_to(level)]
    return None


def _fill(action: Action, fields: list[dict[str, Any]],
          nodes: list[dict[str, Any]]) -> list[GUIAction] | None:
    """Type each parameter into its field. A bound form is sent with Enter in its last one-line
    field, so multi-line fields are typed first; a form of multi-line fields only is sent with
    its submit button. A field bound on its own (``quiet``) is sent when it loses focus."""
    fields = sorted(fields, key=lambda n: n.get("tag") != "textarea")  # stable: page order kept
    in_form = fields[-1].get("params") is None
    submit = None
    if in_form and fields[-1].get("tag") == "textarea":
        after = nodes[nodes.index(fields[-1]) + 1:]  # the button of this form, not another's
        submit = next((n for n in after if n.get("submits") == action.name), None)
        if submit is None:
            return None
    for n in [*fields, *([submit] if submit else [])]:
        if not _on_screen(n):
            return [_scroll_to(n)]
    steps: list[GUIAction] = []
    for i, n in enumerate(fields):
        steps.append(click(n["x"], n["y"]))
        if n.get("value"):
            steps += [key("Control+a"), key("Delete")]
        text = str(action.params[n["field"]])
        if i == len(fields) - 1 and in_form and submit is None:
            text += "\n"
        steps.append(type_text(text))
    if submit is not None:
        steps.append(click(submit["x"], submit["y"]))
    return steps


def needs_replan(steps: list[GUIAction], action: Action, nodes: list[dict[str, Any]]) -> bool:
    """True when ``steps`` only prepare the page (scroll, open a dropdown or a menu level, a
    wizard's Next) for ``action``."""
    if prepares(steps, nodes):
        return True
    if len(steps) != 1:
        return False
    if steps[0].kind == "scroll":
        return True
    return any(n.get("menu") and action.name in n["menu"] and not n.get("expanded")
               and (n["x"], n["y"]) == (steps[0].x, steps[0].y) for n in nodes)


_POINTER = ("click", "double_click", "right_click", "triple_click", "drag", "move")


def noise_blocker(step: GUIAction, nodes: list[dict[str, Any]]) -> GUIAction | None:
    """A click on the close button of the noise element in the way of ``step``, or None.

    A modal blocks every step; a banner or slide-in blocks a pointer step whose point it
    covers. Noise that covers nothing the agent needs is left alone, as a user would."""
    for root in sorted((n for n in nodes if n.get("noise") and "modal" in n), key=lambda n:
                       not n["modal"]):
        if root["modal"] or (step.kind in _POINTER and step.x is not None
                             and step.y is not None and _covers(root, step.x, step.y)):
            close = next((n for n in nodes if n.get("noise") == root["noise"]
                          and n.get("dismisses") and n.get("id") is not None), None)
            if close is not None:
                return click(close["x"], close["y"])
    return None


def _covers(node: dict[str, Any], x: float, y: float) -> bool:
    return (abs(x - node["x"]) <= node["w"] / 2 + 1) and (abs(y - node["y"]) <= node["h"] / 2 + 1)
