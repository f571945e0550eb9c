"""Fara-7B grammar: Microsoft's web agent on Qwen2.5-VL, with its own ``computer_use`` tool.

Fara writes its thoughts, then one ``<tool_call>{"name": "computer_use", "arguments": {...}}
</tool_call>`` (microsoft/fara ``src/fara/fara_agent.py``, ``_parse_thoughts_and_action``).
Its actions (``src/fara/_prompts.py``, ``FaraComputerUse``) map onto the browser as Fara's own
harness executes them (``fara_agent.execute_action``, ``browser/playwright_controller.py``):

- ``left_click`` / ``mouse_move``: at ``coordinate``, absolute pixels of the smart-resized
  screenshot (the default convention; ``ctx.coords`` can override it).
- ``type``: click ``coordinate`` (when given), select-all and delete when
  ``delete_existing_text``, type ``text``, then Enter unless ``press_enter`` is false (the
  harness defaults it to true).
- ``key``: the ``keys`` pressed together. ``scroll``: only the sign of ``pixels`` counts, one
  400 px wheel turn up (positive) or down (negative), as ``page_up`` / ``page_down`` do: the
  family's convention, kept on purpose, so its ``pixels`` is not scaled like qwen's.
- ``history_back`` -> go back; ``wait`` -> wait ``time`` s (3 s by default);
  ``pause_and_memorize_fact`` -> a zero-second wait with the fact in ``meta["fact"]`` (Fara
  keeps facts in its own memory; the page is untouched).
- ``terminate`` -> finish; the answer is the thought before it (Fara's final answer is its last
  thoughts), or an explicit ``answer`` argument.
- ``visit_url``, ``web_search`` and ``refresh`` are invalid here: the browser under test only
  reaches the benchmark's own site and has no reload action.

Numbers may be numeric strings, and a point off the screenshot is an invalid step whose error
names the bound (the policy every grammar shares, see ``base``).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from webmdp.agents.llm.grammars._text import stated_intent, tool_calls
from webmdp.agents.llm.grammars.base import (
    Coords,
    ParseContext,
    Parsed,
    as_number,
    invalid,
    system_prompt_for,
)
from webmdp.agents.llm.grammars.info import GrammarInfo
from webmdp.agents.llm.grammars.qwen import (
    SYSTEM_TEMPLATE,
    call_arguments,
    default_display,
    key_action,
    point,
    type_action,
    wait_action,
)
from webmdp.env.actions import GUIAction
from webmdp.trace import Mode

TOOL_NAME = "computer_use"
WAIT_SECONDS = 3.0
"""``wait`` without ``time``: Fara's harness sleeps 3 s."""
SCROLL_PX = 400.0
"""One Fara ``scroll``: the harness's ``page_up`` / ``page_down`` turn the wheel 400 px."""

ACTIONS = ("key", "type", "mouse_move", "left_click", "scroll", "history_back",
           "pause_and_memorize_fact", "wait", "terminate")
ALIASES = {"click": "left_click", "hover": "mouse_move", "keypress": "key",
           "input_text": "type", "sleep": "wait", "stop": "terminate"}
"""Other names Fara's harness accepts for the same actions."""
UNAVAILABLE = {
    "visit_url": "visit_url cannot be used: the browser under test only reaches this site "
                 "(there is no address bar); navigate by clicking links on the page",
    "web_search": "web_search cannot be used: the browser under test only reaches this site; "
                  "use the site's own search instead",
    "refresh": "refresh is not available in this benchmark's browser actions",
    "reload": "reload is not available in this benchmark's browser actions"}

TOOL_DESCRIPTION = """\
Operate a web browser with a mouse and keyboard; each turn you see a screenshot of the page.
* The screen's resolution is {width}x{height}.
* The browser shows one website: there is no address bar and no web search. Reach other pages \
by clicking links, and go back with history_back.
* Find an element's coordinates on the latest screenshot before you act on it, and click the \
centre of the element, not its edge.
* To scroll inside a box that overlays the page, mouse_move() over it first, then scroll().
* If a popup does not close with left_click() on its close button, try key(keys=['Escape']).
* On search boxes with suggestion popups, type() with press_enter=False and then left_click() \
the search button.
* On calendar widgets, left_click() the arrows to change month and the dates to pick them.
* When the task is done, write the answer it asks for in your thoughts, then call terminate."""

ACTION_DESCRIPTION = """\
The action to perform:
* `key`: press the keys in `keys` together, e.g. "Enter", "Escape", "Tab", "Backspace", \
"ArrowDown", "PageDown", "Control".
* `type`: click `coordinate`, then type `text` (see `press_enter`, `delete_existing_text`).
* `mouse_move`: move the pointer to `coordinate`.
* `left_click`: left-click at `coordinate`.
* `scroll`: scroll the page; positive `pixels` scrolls up, negative down.
* `history_back`: go back to the previous page.
* `pause_and_memorize_fact`: remember `fact` for later steps.
* `wait`: wait `time` seconds for the page to change.
* `terminate`: end the task with `status` success or failure."""


def tool_function(image_size: tuple[int, int]) -> dict[str, Any]:
    """Fara's ``computer_use`` function schema (with the typing options its harness uses)."""
    width, height = image_size
    props: dict[str, Any] = {
        "action": {"description": ACTION_DESCRIPTION, "enum": list(ACTIONS), "type": "string"},
        "keys": {"description": "Required only by `action=key`.", "type": "array"},
        "text": {"description": "Required only by `action=type`.", "type": "string"},
        "press_enter": {"description": "Whether to press Enter after typing. Required only by "
                        "`action=type`.", "type": "boolean"},
        "delete_existing_text": {"description": "Whether to clear the field before typing. "
                                 "Required only by `action=type`.", "type": "boolean"},
        "coordinate": {"description": "(x, y): pixels from the left and top edges of the "
                       "screenshot. Required only by `action=left_click`, `action=mouse_move` "
                       "and `action=type`.", "type": "array"},
        "pixels": {"description": "Which way to scroll: positive up, negative down. Required "
                   "only by `action=scroll`.", "type": "number"},
        "fact": {"description": "The fact to remember. Required only by "
                 "`action=pause_and_memorize_fact`.", "type": "string"},
        "time": {"description": "Seconds to wait. Required only by `action=wait`.",
                 "type": "number"},
        "status": {"description": "How the task ended. Required only by `action=terminate`.",
                   "type": "string", "enum": ["success", "failure"]},
    }
    return {"type": "function", "function": {
        "name": TOOL_NAME, "description": TOOL_DESCRIPTION.format(width=width, height=height),
        "parameters": {"properties": props, "required": ["action"], "type": "object"}}}


class FaraGrammar:
    """Fara-7B ``computer_use`` tool calls -> :class:`GUIAction` (viewport pixels).

    ``display_size`` is the resolution the system prompt declares (default: the smart-resized
    viewport, 1428x896, which is what Fara's harness declares for a 1440x900 browser)."""

    name = "fara"
    modes: tuple[Mode, ...] = ("browser",)
    default_coords: Coords = "absolute"

    def __init__(self, *, display_size: tuple[int, int] | None = None):
        self.display_size = display_size or default_display()

    def system_prompt(self, *, mode: Mode, actions_doc: str = "") -> str:
        prompt = SYSTEM_TEMPLATE.format(
            tools=json.dumps(tool_function(self.display_size), ensure_ascii=False))
        return system_prompt_for(self, mode, prompt, actions_doc)

    def tool_spec(self, image_size: tuple[int, int]) -> None:
        return None

    def parse(self, raw: str, ctx: ParseContext) -> Parsed:
        text = raw if isinstance(raw, str) else ""
        if ctx.mode not in self.modes:
            return invalid(raw, f"{self.name} parses browser-mode outputs, not {ctx.mode!r}")
        found = tool_calls(text)
        if found.error:
            return invalid(raw, found.error, found.thought)
        actions: list[GUIAction] = []
        meta: dict[str, Any] = {}
        for n, call in enumerate(found.calls):
            where = f"tool call {n + 1}: " if len(found.calls) > 1 else ""
            args = call_arguments(call, TOOL_NAME)
            if isinstance(args, str):
                return invalid(raw, where + args, found.thought)
            result = _convert(args, ctx, found.thought, meta)
            if isinstance(result, str):
                return invalid(raw, where + result, found.thought)
            actions.extend(result)
        return Parsed(raw=raw, actions=list(actions), thought=found.thought,
                      intent=stated_intent(found.thought), meta=meta)


def _convert(args: dict[str, Any], ctx: ParseContext, thought: str,
             meta: dict[str, Any]) -> list[GUIAction] | str:
    """One Fara action as browser actions, or the reason it cannot be one."""
    raw_action = args.get("action")
    action = ALIASES.get(raw_action, raw_action) if isinstance(raw_action, str) else raw_action
    try:
        if action in ("left_click", "mouse_move"):
            pt = point(args, ctx, action)
            if isinstance(pt, str):
                return pt
            return [GUIAction(kind="click" if action == "left_click" else "move",
                              x=pt[0], y=pt[1])]
        if action == "type":
            return _type(args, ctx)
        if action == "key":
            return key_action(args.get("keys"))
        if action == "scroll":
            return _scroll(args, ctx)
        if action == "history_back":
            return [GUIAction(kind="go_back")]
        if action == "wait":
            return wait_action(args, WAIT_SECONDS)
        if action == "pause_and_memorize_fact":
            fact = args.get("fact")
            if not isinstance(fact, str) or not fact.strip():
                return "pause_and_memorize_fact needs fact: a non-empty string"
            meta["fact"] = fact.strip()
            return [GUIAction(kind="wait", seconds=0.0)]
        if action == "terminate":
            status = args.get("status", "success")
            if status not in ("success", "failure"):
                return f"terminate status must be 'success' or 'failure', got {status!r}"
            meta["status"] = status
            answer = args.get("answer")
            answer = answer.strip() if isinstance(answer, str) and answer.strip() else thought
            return [GUIAction(kind="finish", answer=answer or None)]
    except ValidationError as exc:
        return f"{action}: {exc.errors()[0]['msg']}"
    if action in UNAVAILABLE:
        return UNAVAILABLE[action]
    if action is None:
        return "arguments have no action"
    return f"unknown action {raw_action!r}; expected one of {', '.join(ACTIONS)}"


def _type(args: dict[str, Any], ctx: ParseContext) -> list[GUIAction] | str:
    text = args.get("text", args.get("text_value"))
    typed = type_action(text)
    if isinstance(typed, str):
        return typed
    press_enter = args.get("press_enter", True)
    clear = args.get("delete_existing_text", False)
    if not isinstance(press_enter, bool) or not isinstance(clear, bool):
        return "type: press_enter and delete_existing_text must be true or false"
    out: list[GUIAction] = []
    if "coordinate" in args:
        pt = point(args, ctx, "type")
        if isinstance(pt, str):
            return pt
        out.append(GUIAction(kind="click", x=pt[0], y=pt[1]))
    if clear:
        out += [GUIAction(kind="key", key="ctrl+a"), GUIAction(kind="key", key="Backspace")]
    body = str(text)
    if press_enter and not body.endswith("\n"):
        body += "\n"
    return [*out, GUIAction(kind="type", text=body)]


def _scroll(args: dict[str, Any], ctx: ParseContext) -> list[GUIAction] | str:
    pixels = as_number(args.get("pixels"))
    if pixels is None or pixels == 0:
        return "scroll needs pixels: a non-zero number (positive scrolls up, negative down)"
    at = point(args, ctx, "scroll") if "coordinate" in args else None
    if isinstance(at, str):
        return at
    return [GUIAction(kind="scroll", dy=-SCROLL_PX if pixels > 0 else SCROLL_PX,
                      x=at[0] if at else None, y=at[1] if at else None)]


GRAMMAR = FaraGrammar()
INFO = GrammarInfo("fara", __name__, family="Fara-7B", channel="chat",
                   image_policy="smart_resize", history_images=3, screenshot=True,
                   axtree=False)
