"""The actions a trainer's client may send, described for any client: each action's name,
description and parameters as JSON Schema (``GET /webmdp/actions``), and the signature an
observation's action list shows (``Search(query: str)``). Read from the same declarations the
sites validate against (:class:`~webmdp.core.spec.ParamSpec`, with its length bound), so the
description and the check cannot disagree.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import TypeAdapter

from webmdp.core.model import Action
from webmdp.core.spec import MAX_TEXT, ActionSpec, ParamSpec
from webmdp.tasks.model import Task

_JSON_TYPES = {"int": "integer", "float": "number"}
_WORDS = {"entity": "the id of an entity shown on the page", "choice": "one of the listed options",
          "int": "a whole number", "float": "a number"}
FINISH = {"name": "Finish", "description": "End the episode: the task is done, or cannot be "
          "done; answer what the task asks to report, if anything.",
          "parameters": {"type": "object", "properties": {
              "answer": {"type": "string", "maxLength": MAX_TEXT,
                         "description": "the value the task asks for, or the confirmation "
                                        "code a commit showed"}},
              "required": []}}


def param_schema(p: ParamSpec) -> dict[str, Any]:
    """One parameter as JSON Schema: its type, its choices as an enum, its length bound."""
    if p.type in _JSON_TYPES:
        return {"type": _JSON_TYPES[p.type], "description": _WORDS[p.type]}
    out: dict[str, Any] = {"type": "string", "maxLength": p.max_length,
                           "description": _WORDS.get(p.type, "free text" if p.text
                                                     else "a value")}
    if p.type == "choice" and p.choices:
        out["enum"] = list(p.choices)
    return out


def action_schema(spec: ActionSpec) -> dict[str, Any]:
    """A semantic action: name, description, skill category and parameters."""
    return {"name": spec.name, "description": spec.description.strip().strip('"') or spec.name,
            "category": spec.category.value, "changes_state": spec.changes_state,
            "parameters": {"type": "object",
                           "properties": {p.name: param_schema(p) for p in spec.params},
                           "required": [p.name for p in spec.params if not p.optional]}}


def site_actions(site: str) -> list[dict[str, Any]]:
    """A site's semantic actions, then ``Finish``."""
    from webmdp.core.registry import get_site

    return [*(action_schema(s) for s in get_site(site).actions), FINISH]


def task_actions(task: Task) -> list[dict[str, Any]]:
    """A task's semantic actions: its site's; for a cross-site task, the switcher's and those
    of the sites it touches (what the Inspect and verifiers integrations offer as tools)."""
    if not task.sites:
        return site_actions(task.site)
    return [a for a in site_actions(task.site)
            if "." not in a["name"] or a["name"].split(".", 1)[0] in task.sites]


def gui_actions() -> list[dict[str, Any]]:
    """Browser mode's GUI actions (:data:`GUI_TOOLS`, the TRL tools' own list), ``finish``
    last."""
    out = []
    for name, (args, doc) in GUI_TOOLS.items():
        props = {}
        for a in args:
            schema = TypeAdapter(a.kind).json_schema()
            if a.kind is str:
                schema["maxLength"] = MAX_TEXT
            props[a.name] = {**schema, "description": a.text}
        out.append({"name": name, "description": doc.split("\n", 1)[0],
                    "parameters": {"type": "object", "properties": props,
                                   "required": [a.name for a in args if not a.optional]}})
    return [*out, {**FINISH, "name": "finish"}]


def describe(sites: list[str], mode: str) -> dict[str, Any]:
    """What ``GET /webmdp/actions`` answers: per site its actions (browser mode: the GUI
    actions, the same on every site)."""
    if mode == "browser":
        return {"mode": mode, "actions": gui_actions()}
    return {"mode": mode, "sites": {s: site_actions(s) for s in sites}}


def action_union(described: dict[str, Any]) -> list[dict[str, Any]]:
    """:func:`describe`'s actions as JSON Schema alternatives of ``{"name", "params"}`` (the
    action ``/schema`` publishes, which verifiers' OpenEnv bridge puts in the prompt): one per
    action, its name a constant; an action several sites share with the same parameters
    appears once, naming them."""
    per_site = described.get("sites") or {"": described["actions"]}
    seen: dict[str, dict[str, Any]] = {}
    for site, actions in per_site.items():
        for a in actions:
            key = json.dumps([a["name"], a["parameters"]], sort_keys=True)
            if key in seen:
                if site:
                    seen[key]["x-sites"].append(site)
                continue
            seen[key] = {"type": "object", "description": a["description"],
                         "properties": {"name": {"const": a["name"]}, "params": a["parameters"]},
                         "required": ["name", "params"] if a["parameters"]["required"]
                         else ["name"], **({"x-sites": [site]} if site else {})}
    return list(seen.values())


def signature(action: Action, spec: ActionSpec | None) -> str:
    """An offered action as the observation lists it: the values the page fixed, then the
    parameters left to the agent with their types (``Search(query: str)``,
    ``SetDepartment(department='Books')``, ``Reply(body: str, cc: str = None)``)."""
    given = [f"{k}={v!r}" for k, v in action.params.items()]
    free = [] if spec is None else [
        f"{p.name}: {_type_word(p)}{' = None' if p.optional else ''}"
        for p in spec.params if p.name not in action.params]
    return f"{action.name}({', '.join([*given, *free])})"


def _type_word(p: ParamSpec) -> str:
    if p.type == "choice" and p.choices:
        return " | ".join(repr(c) for c in p.choices)
    return {"entity": "entity id"}.get(p.type, p.type)


# -- browser mode: the GUI action space (GUIAction's kinds) as typed tools ----------
@dataclass(frozen=True)
class Arg:
    """One parameter of a generated tool method."""

    name: str
    kind: Any
    optional: bool
    text: str


def _gui_doc(head: str, args: list[Arg]) -> str:
    lines = [head]
    if args:
        lines += ["", "Args:", *(f"    {a.name}: {a.text}" for a in args)]
    return "\n".join([*lines, "", "Returns:", "    The page after the action: its screenshot, "
                       "then its URL and accessibility tree."])


def _point(what: str) -> tuple[list[Arg], str]:
    args = [Arg("x", float | None, True, "viewport x in pixels (with y)."),
            Arg("y", float | None, True, "viewport y in pixels (with x)."),
            Arg("element", int | None, True, "an element id of the accessibility tree, "
                                             "instead of x and y.")]
    return args, _gui_doc(f"{what} at a point of the viewport, or on an element.", args)


def _gui_tools() -> dict[str, tuple[list[Arg], str]]:
    """The browser action space as tools (:class:`~webmdp.env.actions.GUIAction`'s kinds)."""
    drag = [Arg("x", float, False, "start x in pixels."), Arg("y", float, False, "start y."),
            Arg("x2", float, False, "end x in pixels."), Arg("y2", float, False, "end y.")]
    scroll = [Arg("direction", Literal["up", "down", "left", "right"], False,
                  "which way to scroll."),
              Arg("amount", float | None, True, "how far, in mouse-wheel notches (100 px)."),
              Arg("x", float | None, True, "x of the point to scroll at (default: centre)."),
              Arg("y", float | None, True, "y of the point to scroll at.")]
    type_ = [Arg("text", str, False, "the text to type into the focused field.")]
    key = [Arg("key", str, False, "a key or chord, e.g. Enter, Tab, ctrl+a.")]
    select = [Arg("element", int, False, "the id of a select element of the tree."),
              Arg("option", str, False, "the label of the option to choose.")]
    wait = [Arg("seconds", float | None, True, "how long (default 0.5 s, at most 5 s).")]
    return {
        "click": _point("Left-click"),
        "double_click": _point("Double-click"),
        "triple_click": _point("Triple-click (selects a line of text)"),
        "right_click": _point("Right-click"),
        "move": _point("Move the pointer (hover)"),
        "drag": (drag, _gui_doc("Drag from one point to another.", drag)),
        "scroll": (scroll, _gui_doc("Scroll the page.", scroll)),
        "type": (type_, _gui_doc("Type text into the focused field.", type_)),
        "key": (key, _gui_doc("Press a key or a key chord.", key)),
        "select_option": (select, _gui_doc("Choose an option of a select element.", select)),
        "go_back": ([], _gui_doc("Go back in the browser's history.", [])),
        "go_forward": ([], _gui_doc("Go forward in the browser's history.", [])),
        "wait": (wait, _gui_doc("Wait for the page.", wait)),
    }


GUI_TOOLS = _gui_tools()
"""Browser mode's tools; ``finish`` is the base class's."""


