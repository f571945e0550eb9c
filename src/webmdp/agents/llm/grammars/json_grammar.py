"""JSON grammar for any chat model: one JSON object per reply, or native tool calls.

The reply is ``{"thought": "...", "action": {...}}``, bare or in a fenced ```json block, prose
around it allowed (prose before the object is the thought when it has none). Semantic mode:
``action`` is ``{"name": "AddToCart", "params": {...}}`` (a :class:`webmdp.core.spec.Action`;
``Finish`` with ``{"answer": ...}`` ends the episode). Browser mode: ``action`` is a
:class:`GUIAction` dict whose ``x, y`` (and ``x2, y2``) are in ``ParseContext.coords``:
numbers or numeric strings, a point off the screen being an invalid step whose error names the
bound (the policy every grammar shares, see ``base``); ``"kind": "click"`` with ``"button":
"right"`` is read as ``right_click``. An optional ``"intent"`` becomes ``Parsed.intent``.
For models with native tool calling, :func:`semantic_tools` defines one function per action and
:func:`parse_tool_call` reads a call back; :meth:`JsonGrammar.parse` also accepts the clients'
tool-call JSON as ``raw``.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError

from webmdp.agents.llm.grammars.base import (
    Coords,
    ParseContext,
    Parsed,
    click_kind,
    invalid,
    point_to_viewport,
)
from webmdp.agents.llm.grammars.info import GrammarInfo
from webmdp.agents.llm.grammars.write import Space, Unwritable, gui
from webmdp.core import dialog
from webmdp.core.spec import Action, ActionSpec, ParamSpec
from webmdp.env.actions import SCROLL_STEP_PX, GUIAction, invalid_reason
from webmdp.trace import Mode

if TYPE_CHECKING:
    from webmdp.core.site import Site

FINISH = "Finish"
FINISH_DOC = ("end the episode; answer: the information the task asks for, or \"\" when it asks "
              "for none")

_FENCE_RE = re.compile(r"```[ \t]*(?:json[ \t]*)?\n?(.*?)```", re.DOTALL | re.IGNORECASE)

SEMANTIC_PROMPT = """\
You are an agent completing a task on a website through its typed actions. Each turn you see \
the current screen as text: the surface, the entities shown with their fields, and the actions \
available right now (parameters you choose yourself, such as search queries, are left out).

Actions, as name(parameter: type) - purpose:
{actions}

Reply with exactly one JSON object:
{{"thought": "<your reasoning about the screen and the next step>", "action": {{"name": \
"<action>", "params": {{"<parameter>": <value>}}}}}}
Use an action that is available on the current screen, with values of the stated types; write \
entity ids exactly as shown in brackets. When the task is done, reply with \
{{"thought": "...", "action": {{"name": "Finish", "params": {{"answer": "<the answer, or an \
empty string when the task asks for none>"}}}}}}."""

BROWSER_PROMPT = """\
You are an agent completing a task on a website in a web browser. Each turn you see a \
screenshot of the page and its accessibility tree, one element per line as [id] role "name".

Actions, as JSON objects:
{actions}

Reply with exactly one JSON object:
{{"thought": "<your reasoning about the page and the next step>", "action": {{"kind": "click", \
"element": 12}}}}
Act on an element by its id ("element") or by pixel coordinates in the screenshot ("x", "y"). \
When the task is done, reply with {{"thought": "...", "action": {{"kind": "finish", "answer": \
"<the answer, or an empty string when the task asks for none>"}}}}."""


# -- action documentation and tools -------------------------------------------------------------
def _type_label(p: ParamSpec, site: Site) -> str:
    if p.type == "choice":
        return " | ".join(json.dumps(c) for c in p.choices)
    if p.type == "entity":
        return f"{site.entity_prefix} id"
    label = {"int": "integer", "float": "number", "str": "string"}.get(p.type, p.type)
    return f"{label} you choose" if p.text else label


def _purpose(description: str, skill: str) -> str:
    return description or skill.replace("_", " ")


def _actions(site: Site) -> tuple[ActionSpec, ...]:
    """The site's actions, then ``Confirm`` and ``Cancel``: valid only while a confirmation
    dialog is open (a world with the confirm-dialogs knob: :mod:`webmdp.core.dialog`)."""
    return (*site.actions, *(replace(spec, description=f"{spec.description} (only while a "
                                     "confirmation dialog is open)")
                             for spec in dialog.SPECS.values()))


def semantic_actions_doc(site: Site) -> str:
    """Every action of ``site`` with its parameters (name, type or choices, ``?`` = optional)
    and purpose, one per line, plus a confirmation dialog's two and Finish."""
    lines = []
    for a in _actions(site):
        params = ", ".join(f"{p.name}{'?' if p.optional else ''}: {_type_label(p, site)}"
                           for p in a.params)
        lines.append(f"- {a.name}({params}) - {_purpose(a.description, a.skill)}")
    lines.append(f"- {FINISH}(answer: string) - {FINISH_DOC}")
    return "\n".join(lines)


def gui_actions_doc() -> str:
    """The browser action space as the JSON objects a reply's ``action`` may be."""
    return "\n".join((
        '- {"kind": "click", "element": 12} or {"kind": "click", "x": 640, "y": 360}: left click; '
        'add "button": "right" | "middle" for another button',
        '- {"kind": "double_click" | "triple_click" | "right_click", ...}: same targets as click',
        '- {"kind": "move", "element": 12}: hover (or "x", "y")',
        '- {"kind": "drag", "x": 100, "y": 200, "x2": 300, "y2": 200}: press, move, release',
        '- {"kind": "mouse_down"} / {"kind": "mouse_up"}: press or release the left button '
        '(optional "x", "y")',
        f'- {{"kind": "scroll", "direction": "down", "amount": 3}}: scroll by amount wheel notches '
        f'of {SCROLL_STEP_PX} px (direction up | down | left | right), or by "dx", "dy" pixels; '
        'optional "element" or "x", "y" to scroll inside',
        '- {"kind": "type", "text": "blue shoes\\n"}: type into the focused field ("element": 12 '
        'clicks it first); a trailing \\n presses Enter',
        '- {"kind": "key", "key": "ctrl+a"}: press a key or chord (Enter, Tab, Escape, '
        'ArrowDown, ...)',
        '- {"kind": "select_option", "element": 12, "option": "Blue"}: choose a drop-down option',
        '- {"kind": "go_back"} / {"kind": "go_forward"}: browser history',
        '- {"kind": "wait", "seconds": 1}: wait for the page',
        '- {"kind": "finish", "answer": "..."}: end the task with its answer',
    ))


def _param_schema(p: ParamSpec, site: Site) -> dict[str, Any]:
    if p.type == "choice":
        return {"type": "string", "enum": list(p.choices)}
    if p.type == "entity":
        return {"type": "string", "description": f"id of a {site.entity_prefix} entity on "
                                                  f"screen, e.g. {site.entity_prefix}-001"}
    schema: dict[str, Any] = {"type": {"int": "integer", "float": "number"}.get(p.type,
                                                                                "string")}
    if p.text:
        schema["description"] = "text you choose"
    return schema


def semantic_tools(site: Site, *, api: Literal["chat", "responses"] = "chat"
                   ) -> list[dict[str, Any]]:
    """OpenAI function tools, one per action of ``site`` plus a confirmation dialog's two and
    Finish (``chat``: Chat Completions' ``{"type": "function", "function": {...}}``;
    ``responses``: the flat form)."""
    tools = []
    for a in _actions(site):
        params = {"type": "object",
                  "properties": {p.name: _param_schema(p, site) for p in a.params},
                  "required": [p.name for p in a.params if not p.optional],
                  "additionalProperties": False}
        tools.append(_tool(a.name, _purpose(a.description, a.skill), params, api))
    finish = {"type": "object", "properties": {"answer": {"type": "string"}},
              "required": ["answer"], "additionalProperties": False}
    tools.append(_tool(FINISH, FINISH_DOC, finish, api))
    return tools


def _tool(name: str, description: str, parameters: dict[str, Any], api: str) -> dict[str, Any]:
    fn = {"name": name, "description": description, "parameters": parameters}
    return {"type": "function", **fn} if api == "responses" else {"type": "function",
                                                                   "function": fn}


def parse_tool_call(name: str, arguments: str | dict[str, Any], ctx: ParseContext) -> Parsed:
    """A native tool call (``arguments`` as the JSON string or the parsed object) as a parse:
    semantic mode: the action ``name``; browser mode: a GUIAction of kind ``name``."""
    raw = json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)
    result = _tool_action(name, arguments, ctx)
    if isinstance(result, str):
        return invalid(raw, result)
    return Parsed(raw=raw, actions=[result])


def _tool_action(name: Any, arguments: Any, ctx: ParseContext) -> GUIAction | Action | str:
    if not isinstance(name, str) or not name.strip():
        return f"tool call has no function name, got {name!r}"
    args = arguments
    if isinstance(arguments, str):
        try:
            args = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as exc:
            return f"tool call {name}: arguments are not JSON ({exc})"
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return f"tool call {name}: arguments must be a JSON object, got {type(args).__name__}"
    if ctx.mode == "semantic":
        return _semantic({"name": name, "params": args})
    return _gui({"kind": name, **args}, ctx)


# -- the grammar -------------------------------------------------------------------------------
class JsonGrammar:
    """``{"thought", "action"}`` JSON replies -> semantic :class:`Action` or :class:`GUIAction`."""

    name = "json"
    modes: tuple[Mode, ...] = ("semantic", "browser")
    default_coords: Coords = "absolute"

    def system_prompt(self, *, mode: Mode, actions_doc: str = "") -> str:
        if mode == "semantic":
            return SEMANTIC_PROMPT.format(
                actions=actions_doc or "(the actions available on each screen are listed "
                                       "with the observation)")
        if mode == "browser":
            return BROWSER_PROMPT.format(actions=actions_doc or gui_actions_doc())
        raise ValueError(f"{self.name} supports modes {self.modes}, not {mode!r}")

    def tool_spec(self, image_size: tuple[int, int]) -> None:
        return None

    def parse(self, raw: str, ctx: ParseContext) -> Parsed:
        text = raw.strip() if isinstance(raw, str) else ""
        if not text:
            return invalid(raw, "empty reply")
        calls = _native_calls(text)
        if calls is not None:
            return _from_calls(raw, calls, ctx)
        found = _extract(text)
        if isinstance(found, str):
            return invalid(raw, found)
        obj, start, end = found
        prose = _FENCE_RE.sub("", (text[:start] + " " + text[end:])).strip()
        thought = obj["thought"] if isinstance(obj.get("thought"), str) else prose
        if "action" not in obj:
            return invalid(raw, 'the JSON object has no "action" key; expected {"thought": '
                                '"...", "action": {...}}', thought)
        action = _semantic(obj["action"]) if ctx.mode == "semantic" \
            else _gui(obj["action"], ctx)
        if isinstance(action, str):
            return invalid(raw, action, thought)
        return Parsed(raw=raw, actions=[action], thought=thought,
                      intent=_intent(obj.get("intent"), ctx))


def _native_calls(text: str) -> tuple[str, list[tuple[Any, Any]]] | None:
    """(content, [(name, arguments)]) when ``raw`` is a client's tool-call JSON: OpenAI chat's
    ``{"content", "tool_calls"}`` or Anthropic's content blocks with ``tool_use``."""
    if text[0] not in "[{":
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None
    if isinstance(data, dict) and isinstance(data.get("tool_calls"), list) and data["tool_calls"]:
        calls = [(c.get("name"), c.get("arguments")) if isinstance(c, dict) else (None, None)
                 for c in data["tool_calls"]]
        return str(data.get("content") or ""), calls
    if isinstance(data, list) and any(isinstance(b, dict) and b.get("type") == "tool_use"
                                      for b in data):
        content = "\n".join(b["text"] for b in data if isinstance(b, dict)
                            and b.get("type") == "text" and isinstance(b.get("text"), str))
        uses = [(b.get("name"), b.get("input")) for b in data
                if isinstance(b, dict) and b.get("type") == "tool_use"]
        return content, uses
    return None


def _from_calls(raw: str, native: tuple[str, list[tuple[Any, Any]]],
                ctx: ParseContext) -> Parsed:
    content, calls = native
    actions: list[GUIAction | Action] = []
    for name, args in calls:
        result = _tool_action(name, args, ctx)
        if isinstance(result, str):
            return invalid(raw, result, content.strip())
        actions.append(result)
    return Parsed(raw=raw, actions=actions, thought=content.strip())


def _extract(text: str) -> tuple[dict[str, Any], int, int] | str:
    """The reply's JSON object and its span: the whole text, a fenced block, or the first
    object (preferring one with an ``action`` key) found in prose."""
    try:
        whole = json.loads(text)
        if isinstance(whole, dict):
            return whole, 0, len(text)
        return f"the reply is JSON but not an object (got {type(whole).__name__})"
    except json.JSONDecodeError as exc:
        whole_error = str(exc)
    errors: list[str] = []
    for m in reversed(list(_FENCE_RE.finditer(text))):
        try:
            obj = json.loads(m.group(1))
        except json.JSONDecodeError as exc:
            errors.append(str(exc))
            continue
        if isinstance(obj, dict):
            return obj, m.start(), m.end()
    decoder, found, i = json.JSONDecoder(), [], text.find("{")
    while i >= 0:
        try:
            obj, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError as exc:
            errors.append(str(exc))
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict):
            found.append((obj, i, end))
        i = text.find("{", end)
    for obj, start, end in found:
        if "action" in obj:
            return obj, start, end
    if found:
        return found[0]
    if "{" not in text:
        return 'no JSON object in the reply; expected {"thought": "...", "action": {...}}'
    return f"invalid JSON: {whole_error if text[0] == '{' or not errors else errors[0]}"


def _semantic(action: Any) -> Action | str:
    """A semantic action from ``{"name", "params"}`` (flat params and a bare name accepted)."""
    if isinstance(action, str) and action.strip().isidentifier():
        action = {"name": action.strip()}
    if not isinstance(action, dict):
        return ('action must be an object like {"name": "AddToCart", "params": {}}, got '
                f"{type(action).__name__}")
    name = action.get("name")
    if not isinstance(name, str) or not name.strip():
        return f'action needs "name": an action name string, got {name!r}'
    if "params" in action:
        params = action["params"] if action["params"] is not None else {}
        if not isinstance(params, dict):
            return f"{name}: params must be an object, got {type(params).__name__}"
    else:
        params = {k: v for k, v in action.items() if k != "name"}
    name = name.strip()
    if name.lower() == FINISH.lower():
        return _finish(params)
    return Action(name, dict(params))


def _finish(params: dict[str, Any]) -> Action | str:
    extra = set(params) - {"answer"}
    if extra:
        return f"{FINISH} takes only answer, got {sorted(extra)}"
    answer = params.get("answer")
    if isinstance(answer, bool) or not isinstance(answer, str | int | float | type(None)):
        return f"{FINISH}: answer must be a string, got {answer!r}"
    return Action(FINISH, {"answer": answer if answer is None else str(answer)})


def _gui(action: Any, ctx: ParseContext, *, check_ids: bool = True) -> GUIAction | str:
    """A GUIAction from its dict, model coordinates (numbers or numeric strings) mapped to
    viewport pixels; an off-screen point is invalid, a right click is ``right_click``."""
    if not isinstance(action, dict):
        return ('action must be an object like {"kind": "click", "x": 100, "y": 200}, got '
                f"{type(action).__name__}")
    data = dict(action)
    for kx, ky in (("x", "y"), ("x2", "y2")):
        if data.get(kx) is not None and data.get(ky) is not None:
            pt = point_to_viewport(data[kx], data[ky], ctx, what=str(data.get("kind")),
                                   names=(kx, ky))
            if isinstance(pt, str):
                return pt
            data[kx], data[ky] = pt
    if data.get("kind") == "click" and data.get("button") == "right":
        data["kind"], data["button"] = click_kind("click", "right")
    try:
        act = GUIAction.model_validate(data)
    except ValidationError as exc:
        return f"invalid GUI action: {invalid_reason(exc, data.get('kind'))}"
    if check_ids and act.element is not None and ctx.element_ids is not None \
            and act.element not in ctx.element_ids:
        return f"no element {act.element} on this page"
    return act


def _intent(intent: Any, ctx: ParseContext) -> dict[str, Any] | None:
    """The stated intent as an action dict (normalised when it parses as an action)."""
    if not isinstance(intent, dict):
        return None
    parsed = _semantic(intent) if ctx.mode == "semantic" else _gui(intent, ctx, check_ids=False)
    return intent if isinstance(parsed, str) else parsed.to_dict()



# -- writing (webmdp synth export; parsed back by this module) ---------------------------------
def write_action(action: dict[str, Any], sp: Space, mode: str) -> dict[str, Any]:
    """The ``action`` object of a json-grammar reply: ``{"name", "params"}`` in semantic
    mode, a GUIAction dict with the point in the model's pixels in browser mode."""
    if mode == "semantic":
        if not isinstance(action.get("name"), str):
            raise Unwritable("not a semantic action")
        return {"name": action["name"], "params": dict(action.get("params") or {})}
    a = gui(action)
    d = a.to_dict()
    if a.x is not None and a.y is not None:
        d.pop("element", None)  # the point is what a pixel-trained model writes
        d["x"], d["y"] = sp.point(a.x, a.y)
    if a.x2 is not None and a.y2 is not None:
        d["x2"], d["y2"] = sp.point(a.x2, a.y2)
    if a.direction is not None:
        d.pop("dx", None), d.pop("dy", None)  # derived from direction and amount
    kind = d.pop("kind")
    return {"kind": kind, **d}


def write(thought: str, action: dict[str, Any], sp: Space, mode: str) -> str:
    return json.dumps({"thought": thought, "action": write_action(action, sp, mode)},
                      ensure_ascii=False)


def actions_doc(site: Site, mode: Mode) -> str:
    """The action list a chat prompt includes (semantic: the site's action schemas)."""
    return semantic_actions_doc(site) if mode == "semantic" else gui_actions_doc()


GRAMMAR = JsonGrammar()
INFO = GrammarInfo("json", __name__, family="any chat model (JSON actions)", channel="chat",
                   image_policy="none", history_images=1, screenshot=True,
                   axtree=True)
