"""Qwen2.5-VL / Qwen3-VL grammar: the ``computer_use`` function tool.

The model writes its thought, then one or more ``<tool_call>{"name": "computer_use",
"arguments": {"action": ..., ...}}</tool_call>`` blocks, executed in order. Actions are those of
the Qwen cookbooks' ``ComputerUse`` tool (``cookbooks/utils/agent_function_call.py``):
Qwen2.5-VL's ``key``, ``type``, ``mouse_move``, ``left_click``, ``left_click_drag``,
``right_click``, ``middle_click``, ``double_click``, ``scroll``, ``wait``, ``terminate``, and
Qwen3-VL's ``triple_click``, ``hscroll`` and ``answer``. ``coordinate`` is ``[x, y]``: absolute
pixels of the smart-resized screenshot for Qwen2.5-VL (the default), 0-1000 for Qwen3-VL (the
Qwen3-VL docs as quoted in QwenLM/Qwen3-VL#1741), chosen by ``ctx.coords``. A click without
``coordinate`` clicks where an earlier call of the same output left the pointer;
``left_click_drag`` drags from there, or from wherever the pointer is (mouse down, move, mouse
up). ``scroll`` / ``hscroll`` ``pixels`` is signed (positive scrolls up / right) and, like
``coordinate``, in the space of the screen the prompt declares: scaled to the viewport by the
factors coordinates are (as openai-cua's ``scroll_x`` / ``scroll_y`` are), unless
``scroll_unit_px`` says each unit is a wheel notch of so many viewport pixels. Numbers may be
written as numeric strings; a point off the screenshot is an invalid step whose error names the
bound (the shared policy, see ``base``).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from webmdp.agents.llm.grammars._text import stated_intent, tool_calls
from webmdp.agents.llm.grammars.base import (
    VIEWPORT,
    Coords,
    ParseContext,
    Parsed,
    as_number,
    invalid,
    point_to_viewport,
    scroll_to_viewport,
    smart_resize,
    system_prompt_for,
)
from webmdp.agents.llm.grammars.info import GrammarInfo
from webmdp.agents.llm.grammars.write import Space, Unwritable, gui, key_tokens, plain
from webmdp.env.actions import Button, GUIAction, GUIKind
from webmdp.trace import Mode

TOOL_NAME = "computer_use"
WAIT_SECONDS = 5.0
"""``wait`` without the ``time`` the schema requires: 5 s, UI-TARS's fixed wait."""

CLICKS: dict[str, tuple[GUIKind, Button]] = {
    "left_click": ("click", "left"), "right_click": ("right_click", "left"),
    "middle_click": ("click", "middle"), "double_click": ("double_click", "left"),
    "triple_click": ("triple_click", "left")}
ACTIONS = ("key", "type", "mouse_move", *CLICKS, "left_click_drag", "scroll", "hscroll", "wait",
           "terminate", "answer")

TOOL_DESCRIPTION = """\
Operate a web browser with a mouse and keyboard; each turn you see a screenshot of the page.
* The screen's resolution is {width}x{height}.
* The browser shows one website: there is no address bar, no other tab and no desktop.
* Find an element's coordinates on the latest screenshot before you move the pointer to it, \
and click the centre of the element, not its edge.
* Pages can take a moment to change after an action: wait, then look at the next screenshot.
* When the task is done, use `answer` with the answer the task asks for, or `terminate` with \
status success when it asks for none; terminate with status failure if it cannot be done."""

ACTION_DESCRIPTION = """\
The action to perform:
* `key`: press the keys in `keys` together (pressed in order, released in reverse order).
* `type`: type `text` into the focused element; end it with a newline to submit.
* `mouse_move`: move the pointer to `coordinate`.
* `left_click`: left-click at `coordinate`.
* `left_click_drag`: press the left button at the pointer and drag it to `coordinate`.
* `right_click`: right-click at `coordinate`.
* `middle_click`: middle-click at `coordinate`.
* `double_click`: double-click at `coordinate`.
* `triple_click`: triple-click at `coordinate` (selects a line of text).
* `scroll`: turn the mouse wheel by `pixels` (at `coordinate` when given).
* `hscroll`: scroll sideways by `pixels` (at `coordinate` when given).
* `wait`: wait `time` seconds for the page to change.
* `terminate`: end the task with `status` success or failure.
* `answer`: end the task with `text` as the answer."""

SYSTEM_TEMPLATE = """\
You are a helpful assistant.

# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{tools}
</tools>

For each function call, return a json object with function name and arguments within \
<tool_call></tool_call> XML tags:
<tool_call>
{{"name": <function-name>, "arguments": <args-json-object>}}
</tool_call>"""
"""Qwen-Agent's Nous function-calling layout, the one the Qwen-VL chat templates train on."""


def default_display() -> tuple[int, int]:
    """(width, height) of the smart-resized viewport screenshot the model is sent."""
    h, w = smart_resize(VIEWPORT[1], VIEWPORT[0])
    return w, h


def tool_function(image_size: tuple[int, int]) -> dict[str, Any]:
    """The ``computer_use`` function schema for a screenshot of ``image_size`` (width, height)."""
    width, height = image_size
    props: dict[str, Any] = {
        "action": {"description": ACTION_DESCRIPTION, "enum": list(ACTIONS), "type": "string"},
        "keys": {"description": "Required only by `action=key`.", "type": "array"},
        "text": {"description": "Required only by `action=type` and `action=answer`.",
                 "type": "string"},
        "coordinate": {"description": "(x, y): pixels from the left and top edges of the "
                       "screenshot. Required by the click and move actions.", "type": "array"},
        "pixels": {"description": "How far to scroll; positive scrolls up (right for "
                   "`hscroll`), negative down (left). Required only by `action=scroll` and "
                   "`action=hscroll`.", "type": "number"},
        "time": {"description": "Seconds to wait. Required only by `action=wait`.",
                 "type": "number"},
        "status": {"description": "How the task ended. Required only by `action=terminate`.",
                   "type": "string", "enum": ["success", "failure"]},
    }
    return {"type": "function", "function": {
        "name": TOOL_NAME, "description": TOOL_DESCRIPTION.format(width=width, height=height),
        "parameters": {"properties": props, "required": ["action"], "type": "object"}}}


class QwenGrammar:
    """Qwen-VL ``computer_use`` tool calls -> :class:`GUIAction` (viewport pixels).

    ``display_size`` is the resolution the system prompt declares (default: the smart-resized
    viewport, 1428x896; Qwen3-VL setups often declare 1000x1000 for 0-1000 coordinates).
    ``scroll_unit_px``: None (the default) reads ``pixels`` as the schema says, pixels of the
    declared screen, scaled to the viewport like coordinates; a number reads each unit of
    ``pixels`` as a wheel notch of that many viewport pixels (100 for models that give notches,
    as the cookbooks' pyautogui executors read them), not scaled."""

    name = "qwen"
    modes: tuple[Mode, ...] = ("browser",)
    default_coords: Coords = "absolute"

    def __init__(self, *, display_size: tuple[int, int] | None = None,
                 scroll_unit_px: float | None = None):
        self.display_size = display_size or default_display()
        self.scroll_unit_px = scroll_unit_px

    def system_prompt(self, *, mode: Mode, actions_doc: str = "") -> str:
        prompt = SYSTEM_TEMPLATE.format(
            tools=json.dumps(tool_function(self.display_size), ensure_ascii=False))
        return system_prompt_for(self, mode, prompt, actions_doc)

    def tool_spec(self, image_size: tuple[int, int]) -> dict[str, Any]:
        return tool_function(image_size)

    def parse(self, raw: str, ctx: ParseContext) -> Parsed:
        text = raw if isinstance(raw, str) else ""
        if ctx.mode not in self.modes:
            return invalid(raw, f"{self.name} parses browser-mode outputs, not {ctx.mode!r}")
        found = tool_calls(text)
        if found.error:
            return invalid(raw, found.error, found.thought)
        actions: list[GUIAction] = []
        meta: dict[str, Any] = {}
        pointer: tuple[float, float] | None = None
        for n, call in enumerate(found.calls):
            args = call_arguments(call, TOOL_NAME)
            if isinstance(args, str):
                return invalid(raw, _where(n, len(found.calls)) + args, found.thought)
            result = self._convert(args, ctx, pointer, meta)
            if isinstance(result, str):
                return invalid(raw, _where(n, len(found.calls)) + result, found.thought)
            actions.extend(result)
            pointer = _last_point(actions, pointer)
        return Parsed(raw=raw, actions=list(actions), thought=found.thought,
                      intent=stated_intent(found.thought), meta=meta)

    def _convert(self, args: dict[str, Any], ctx: ParseContext,
                 pointer: tuple[float, float] | None,
                 meta: dict[str, Any]) -> list[GUIAction] | str:
        action = args.get("action")
        try:
            if action in CLICKS:
                kind, button = CLICKS[action]
                pt = point(args, ctx, action) if "coordinate" in args else pointer
                if pt is None:
                    return f"{action} needs coordinate [x, y]"
                if isinstance(pt, str):
                    return pt
                return [GUIAction(kind=kind, x=pt[0], y=pt[1], button=button)]
            if action == "mouse_move":
                pt = point(args, ctx, action)
                return pt if isinstance(pt, str) else [GUIAction(kind="move", x=pt[0], y=pt[1])]
            if action == "left_click_drag":
                return _drag(args, ctx, pointer)
            if action in ("scroll", "hscroll"):
                return self._scroll(args, ctx, action)
            if action == "key":
                return key_action(args.get("keys"))
            if action == "type":
                return type_action(args.get("text"))
            if action == "wait":
                return wait_action(args, WAIT_SECONDS)
            if action == "terminate":
                status = args.get("status", "success")
                if status not in ("success", "failure"):
                    return f"terminate status must be 'success' or 'failure', got {status!r}"
                meta["status"] = status
                return [GUIAction(kind="finish")]
            if action == "answer":
                text = args.get("text")
                if not isinstance(text, str) or not text.strip():
                    return "answer needs text: the answer as a string"
                return [GUIAction(kind="finish", answer=text.strip())]
        except ValidationError as exc:
            return f"{action}: {exc.errors()[0]['msg']}"
        if action is None:
            return "arguments have no action"
        return f"unknown action {action!r}; expected one of {', '.join(ACTIONS)}"

    def _scroll(self, args: dict[str, Any], ctx: ParseContext,
                action: str) -> list[GUIAction] | str:
        pixels = as_number(args.get("pixels"))
        if pixels is None or pixels == 0:
            return f"{action} needs pixels: a non-zero number (positive scrolls up / right)"
        at: tuple[float, float] | str | None = point(args, ctx, action) \
            if "coordinate" in args else None
        if isinstance(at, str):
            return at
        dx, dy = (pixels, 0.0) if action == "hscroll" else (0.0, -pixels)
        if self.scroll_unit_px is None:
            dx, dy = scroll_to_viewport(dx, dy, ctx)
        else:
            dx, dy = dx * self.scroll_unit_px, dy * self.scroll_unit_px
        return [GUIAction(kind="scroll", dx=dx, dy=dy, x=at[0] if at else None,
                          y=at[1] if at else None)]


# -- shared with the Fara grammar -------------------------------------------------------------
def call_arguments(call: dict[str, Any], *names: str) -> dict[str, Any] | str:
    """The ``arguments`` of a ``{"name": ..., "arguments": {...}}`` call (``arguments`` may be
    a JSON string, as OpenAI-style APIs send it), or a bare ``{"action": ...}`` object."""
    if "arguments" not in call:
        return call if "action" in call else "expected {\"name\": ..., \"arguments\": {...}}"
    name = call.get("name")
    if name is not None and name not in (*names, "computer"):
        return f"unknown function {name!r}; the only tool is {names[0]}"
    args = call["arguments"]
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except json.JSONDecodeError as exc:
            return f"arguments are not JSON: {exc.msg}"
    if not isinstance(args, dict):
        return "arguments must be a JSON object"
    return args


def point(args: dict[str, Any], ctx: ParseContext, action: str) -> tuple[float, float] | str:
    """``coordinate`` ([x, y], numbers or numeric strings) in viewport pixels, or why it is
    malformed, missing or off screen."""
    value = args.get("coordinate")
    if value is None:
        return f"{action} needs coordinate [x, y]"
    if isinstance(value, str):
        value = value.strip("[]() ").split(",")
    if isinstance(value, dict) and "x" in value and "y" in value:
        value = [value["x"], value["y"]]
    if not isinstance(value, list | tuple) or len(value) != 2:
        return f"{action}: coordinate must be [x, y], got {value!r}"
    if as_number(value[0]) is None or as_number(value[1]) is None:
        return f"{action}: coordinate must hold two numbers, got {value!r}"
    return point_to_viewport(value[0], value[1], ctx, what=action)


def key_action(keys: Any) -> list[GUIAction] | str:
    """``keys`` (a list pressed together, or one string) as one key chord."""
    if isinstance(keys, str):
        keys = [keys]
    if not isinstance(keys, list) or not keys or not all(
            isinstance(k, str) and k.strip() for k in keys):
        return "key needs keys: a non-empty list of key names, e.g. [\"ctrl\", \"a\"]"
    return [GUIAction(kind="key", key="+".join(k.strip() for k in keys))]


def type_action(text: Any) -> list[GUIAction] | str:
    if not isinstance(text, str) or not text:
        return "type needs text: a non-empty string"
    return [GUIAction(kind="type", text=text)]


def wait_action(args: dict[str, Any], default: float) -> list[GUIAction] | str:
    seconds = as_number(args.get("time", args.get("duration", default)))
    if seconds is None or seconds < 0:
        return "wait needs time: a number of seconds"
    return [GUIAction(kind="wait", seconds=float(seconds))]


def _drag(args: dict[str, Any], ctx: ParseContext,
          pointer: tuple[float, float] | None) -> list[GUIAction] | str:
    end = point(args, ctx, "left_click_drag")
    if isinstance(end, str):
        return end
    if pointer is not None:
        return [GUIAction(kind="drag", x=pointer[0], y=pointer[1], x2=end[0], y2=end[1])]
    return [GUIAction(kind="mouse_down"), GUIAction(kind="move", x=end[0], y=end[1]),
            GUIAction(kind="mouse_up")]


def _last_point(actions: list[GUIAction],
                pointer: tuple[float, float] | None) -> tuple[float, float] | None:
    """Where the pointer is after ``actions`` (None: unknown to the parser)."""
    for act in reversed(actions):
        if act.kind == "drag" and act.x2 is not None and act.y2 is not None:
            return act.x2, act.y2
        if act.x is not None and act.y is not None:
            return act.x, act.y
    return pointer


def _where(n: int, total: int) -> str:
    return f"tool call {n + 1}: " if total > 1 else ""



# -- writing (webmdp synth export; parsed back by this module) ---------------------------------
def write_arguments(a: GUIAction, sp: Space) -> dict[str, Any]:
    """One GUIAction as Qwen-VL ``computer_use`` arguments."""
    plain(a, "qwen")
    clicks = {("click", "left"): "left_click", ("click", "middle"): "middle_click",
              ("right_click", "left"): "right_click", ("double_click", "left"): "double_click",
              ("triple_click", "left"): "triple_click", ("move", "left"): "mouse_move"}
    if (a.kind, a.button) in clicks:
        return {"action": clicks[(a.kind, a.button)], "coordinate": list(sp.point(a.x, a.y))}
    if a.kind == "scroll":
        if a.dx and a.dy:
            raise Unwritable("qwen scrolls one axis at a time")
        if a.dy:  # pixels of the declared screen, positive scrolls up
            args: dict[str, Any] = {"action": "scroll", "pixels": -round(a.dy / sp.sy)}
        elif a.dx:
            args = {"action": "hscroll", "pixels": round(a.dx / sp.sx)}
        else:
            raise Unwritable("a scroll of 0 pixels")
        if args["pixels"] == 0:
            raise Unwritable("a scroll under one pixel of the screenshot")
        if a.x is not None and a.y is not None:
            args["coordinate"] = list(sp.point(a.x, a.y))
        return args
    if a.kind == "type":
        if a.element is not None and a.x is None:
            raise Unwritable("qwen types into the focused field, not an element id")
        return {"action": "type", "text": a.text}
    if a.kind == "key":
        return {"action": "key", "keys": key_tokens(a.key)}
    if a.kind == "wait":
        return {"action": "wait", "time": WAIT_SECONDS if a.seconds is None else a.seconds}
    if a.kind == "finish":
        if a.answer and a.answer.strip():
            return {"action": "answer", "text": a.answer}
        return {"action": "terminate", "status": "success"}
    raise Unwritable(f"qwen has no single {a.kind} action" if a.kind == "drag"
                     else f"qwen has no {a.kind}")


def write(thought: str, action: dict[str, Any], sp: Space, mode: str) -> str:
    call = {"name": "computer_use", "arguments": write_arguments(gui(action), sp)}
    block = f"<tool_call>\n{json.dumps(call, ensure_ascii=False)}\n</tool_call>"
    return f"{thought}\n{block}" if thought else block

GRAMMAR = QwenGrammar()
INFO = GrammarInfo("qwen", __name__, family="Qwen2.5-VL / Qwen3-VL computer_use", channel="chat",
                   image_policy="smart_resize", history_images=3, screenshot=True,
                   axtree=False)
