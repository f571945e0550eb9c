"""The actions a trainer's client may send, described for any client: each action's name,
description and parameters as JSON Schema (``GET /webmdp/actions``), and the signature an
observation's action list shows (``Search(query: str)``). Read from the same declarations the
sites validate against (:class:`~webmdp.core.spec.ParamSpec`, with its length bound), so the
description and the check cannot disagree.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from webmdp.core.model import Action
from webmdp.core.spec import MAX_TEXT, ActionSpec, ParamSpec

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


def gui_actions() -> list[dict[str, Any]]:
    """Browser mode's GUI actions (the TRL tools' own list), ``finish`` last."""
    from webmdp.rl.trl import GUI_TOOLS

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
