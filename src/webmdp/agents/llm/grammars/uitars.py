"""UI-TARS grammar: ``Thought: ...`` then ``Action: click(start_box='(x,y)')``.

UI-TARS-1.5 writes a thought and one action call (several, separated by blank lines, now and
then); UI-TARS-1 could also write ``Reflection: ... Action_Summary: ...``. A point is written
``'(x,y)'``, ``'<|box_start|>(x,y)<|box_end|>'``, ``'<point>x y</point>'`` (argument ``point=``)
or as a box ``'(x1,y1,x2,y2)'`` (its centre is used). UI-TARS-1.5 gives absolute pixels of the
smart-resized screenshot it saw (bytedance/UI-TARS ``README_coordinates.md``; maintainers in
bytedance/UI-TARS#189 and #119), UI-TARS-1 gave 0-1000 relative ones: ``ctx.coords`` picks,
``absolute`` by default. A point outside the screenshot (of a box, its centre) is an invalid
step whose error names the bound (see ``base``). ``scroll`` turns the wheel 5 notches
(``SCROLL_AMOUNT``, the official parser's ``pyautogui.scroll(±5)``), not scaled. ``type``
content uses Python escapes, and a trailing ``\\n`` submits.
Only the calls right after the first ``Action:`` line are executed: a model that goes on to
write the next turns' Thought/Action is cut off there (``meta["ignored"]``).
"""

from __future__ import annotations

import math
import re
from typing import Any

from pydantic import ValidationError

from webmdp.agents.llm.grammars._text import (
    Call,
    clean_thought,
    numbers,
    read_call,
    stated_intent,
    unescape,
)
from webmdp.agents.llm.grammars.base import (
    Coords,
    ParseContext,
    Parsed,
    invalid,
    point_to_viewport,
    system_prompt_for,
)
from webmdp.agents.llm.grammars.info import GrammarInfo
from webmdp.agents.llm.grammars.write import (
    Space,
    Unwritable,
    gui,
    key_tokens,
    num,
    plain,
    quote,
)
from webmdp.env.actions import SCROLL_STEP_PX, Button, Direction, GUIAction, GUIKind
from webmdp.trace import Mode

WAIT_SECONDS = 5.0
"""``wait()``: "Sleep for 5s and take a screenshot" (the UI-TARS action space)."""
SCROLL_AMOUNT = 5
"""Wheel notches per ``scroll``: the official parser emits ``pyautogui.scroll(±5)``."""

POINTER: dict[str, tuple[GUIKind, Button]] = {
    "click": ("click", "left"), "left_single": ("click", "left"), "left_click": ("click", "left"),
    "left_double": ("double_click", "left"), "double_click": ("double_click", "left"),
    "right_single": ("right_click", "left"), "right_click": ("right_click", "left"),
    "middle_click": ("click", "middle"), "hover": ("move", "left"),
    "mouse_move": ("move", "left")}
DRAG = ("drag", "select", "left_click_drag")
DIRECTIONS: dict[str, Direction] = {"up": "up", "down": "down", "left": "left", "right": "right"}
OTHER = ("hotkey", "press", "type", "scroll", "wait", "finished", "call_user", "navigate_back")
ACTIONS = (*POINTER, *DRAG, *OTHER)

_SITE_ONLY = "the browser only reaches the site under test (there is no address bar)"
_MOBILE = "is a mobile action; this is a desktop browser"
UNAVAILABLE = {
    "keydown": "holding a key is not supported; use hotkey(key='...')",
    "keyup": "holding a key is not supported; use hotkey(key='...')",
    "release": "holding a key is not supported; use hotkey(key='...')",
    "open_url": _SITE_ONLY, "navigate": _SITE_ONLY,
    "long_press": f"long_press {_MOBILE}", "open_app": f"open_app {_MOBILE}",
    "press_home": f"press_home {_MOBILE}", "press_back": f"press_back {_MOBILE}"}
"""Actions of other UI-TARS action spaces (mobile, Doubao) that a single-site browser lacks."""

_RENAME = {"point": "start_box", "start_point": "start_box", "end_point": "end_box"}
_ACTION_RE = re.compile(r"^[ \t]*Action[ \t]*[:\uff1a][ \t]*", re.MULTILINE)
_ANY_ACTION_RE = re.compile(r"\bAction[ \t]*[:\uff1a][ \t]*")
_THINK_RE = re.compile(r"<think>(.*?)</think>", re.DOTALL | re.IGNORECASE)
_CALL_START_RE = re.compile(r"[A-Za-z_]\w*\s*\(")
_GREEDY_RE = re.compile(r"(type|finished)\(\s*content\s*=\s*(['\"])(.*)\2\s*\)", re.DOTALL)

SYSTEM_PROMPT = """\
You are a GUI agent operating a web browser. Each turn you get the task, the actions you took \
so far and the latest screenshots; decide the single next action that moves the task forward.

## Output Format
```
Thought: ...
Action: ...
```

## Action Space
click(start_box='<|box_start|>(x1,y1)<|box_end|>')
left_double(start_box='<|box_start|>(x1,y1)<|box_end|>')
right_single(start_box='<|box_start|>(x1,y1)<|box_end|>')
drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')
hotkey(key='') # Keys in lowercase, separated by spaces, at most 3, e.g. hotkey(key='ctrl a').
type(content='') # Escape quotes and newlines in content as \\', \\" and \\n. End the content \
with \\n to submit it.
scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left') \
# Reveal more of the page on the `direction` side.
wait() # Pause 5 seconds, then look at the new screenshot.
finished(content='') # The task is done; put the answer the task asks for in content \
(same escapes as type).
call_user() # Stop and hand over to the user when the task cannot be done.

## Note
- Write the Thought in English: a short plan, then one sentence naming the next action and the \
element it targets.
- The browser shows one website only: there is no address bar, no other tab and no desktop.
- Coordinates are pixels of the screenshot you see."""


class UITarsGrammar:
    """UI-TARS / UI-TARS-1.5 ``Thought:`` / ``Action:`` output -> :class:`GUIAction`."""

    name = "uitars"
    modes: tuple[Mode, ...] = ("browser",)
    default_coords: Coords = "absolute"

    def system_prompt(self, *, mode: Mode, actions_doc: str = "") -> str:
        return system_prompt_for(self, mode, SYSTEM_PROMPT, actions_doc)

    def tool_spec(self, image_size: tuple[int, int]) -> None:
        return None

    def parse(self, raw: str, ctx: ParseContext) -> Parsed:
        text = raw.strip() if isinstance(raw, str) else ""
        if ctx.mode not in self.modes:
            return invalid(raw, f"{self.name} parses browser-mode outputs, not {ctx.mode!r}")
        if not text:
            return invalid(raw, "empty output")
        meta: dict[str, Any] = {}
        think = _THINK_RE.search(text)
        if think:
            meta["reasoning"] = think.group(1).strip()
            text = (text[:think.start()] + text[think.end():]).strip()
        marker = _ACTION_RE.search(text) or _ANY_ACTION_RE.search(text)
        thought = _thought(text[:marker.start()] if marker else text, meta)
        if not thought and "reasoning" in meta:
            thought = meta["reasoning"]
        if marker is None:
            return invalid(raw, "no 'Action:' line; write 'Thought: ...' then 'Action: "
                           "click(start_box=...)'", thought)
        calls = _calls(_unfence(text[marker.end():]), meta)
        if isinstance(calls, str):
            return invalid(raw, calls, thought)
        actions: list[GUIAction] = []
        for call in calls:
            result = _convert(call, ctx, meta)
            if isinstance(result, str):
                return invalid(raw, result, thought)
            actions.extend(result)
        return Parsed(raw=raw, actions=list(actions), thought=thought,
                      intent=stated_intent(thought), meta=meta)


def _thought(head: str, meta: dict[str, Any]) -> str:
    """The thought before ``Action:``: ``Thought:``, or UI-TARS-1's ``Action_Summary:`` (its
    ``Reflection:`` goes to ``meta``), or the bare text."""
    summary = head.find("Action_Summary:")
    reflection = head.find("Reflection:")
    if summary >= 0:
        if 0 <= reflection < summary:
            meta["reflection"] = head[reflection + len("Reflection:"):summary].strip()
        return head[summary + len("Action_Summary:"):].strip()
    at = head.find("Thought:")
    return clean_thought(head[at + len("Thought:"):] if at >= 0 else head)


def _unfence(text: str) -> str:
    """The action text without Markdown fences or backticks around it."""
    text = re.sub(r"^[ \t]*```[\w-]*[ \t]*$", "", text, flags=re.MULTILINE)
    return text.strip().strip("`").strip()


def _calls(text: str, meta: dict[str, Any]) -> list[Call] | str:
    """The calls after ``Action:``: the first, then each further call that starts right after
    the previous one (blank lines between them). Trailing text that is not a call (a comment,
    a hallucinated next turn) is ignored."""
    if not text:
        return "'Action:' is empty; write one action, e.g. click(start_box='(x,y)')"
    calls: list[Call] = []
    pos = 0
    while True:
        call = read_call(text, pos)
        if isinstance(call, str):
            call = _greedy(text, pos) or call
        if isinstance(call, str):
            return call if not calls else f"action {len(calls) + 1}: {call}"
        calls.append(call)
        pos = call.end
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return calls
        if not _CALL_START_RE.match(text, pos):
            meta["ignored"] = text[pos:pos + 200]
            return calls


def _greedy(text: str, pos: int) -> Call | None:
    """``type`` / ``finished`` content with unescaped quotes inside, read up to the last
    closing ``')`` before a blank line, as the official UI-TARS parser does."""
    stop = text.find("\n\n", pos)
    segment = text[pos:stop if stop >= 0 else len(text)]
    m = _GREEDY_RE.match(segment)
    if m is None:
        return None
    return Call(m.group(1), kwargs={"content": unescape(m.group(3))}, end=pos + m.end())


def _convert(call: Call, ctx: ParseContext, meta: dict[str, Any]) -> list[GUIAction] | str:
    """One UI-TARS call as browser actions, or the reason it cannot be one."""
    name = call.name.lower()
    kw = {_RENAME.get(k, k): v for k, v in call.kwargs.items()}
    try:
        if name in POINTER:
            kind, button = POINTER[name]
            pt = _point(kw, call, "start_box", ctx)
            if isinstance(pt, str):
                return pt
            return [GUIAction(kind=kind, x=pt[0], y=pt[1], button=button)]
        if name in DRAG:
            start = _point(kw, call, "start_box", ctx)
            end = _point(kw, call, "end_box", ctx, position=1)
            if isinstance(start, str) or isinstance(end, str):
                return start if isinstance(start, str) else str(end)
            return [GUIAction(kind="drag", x=start[0], y=start[1], x2=end[0], y2=end[1])]
        if name in ("hotkey", "press"):
            keys = kw.get("key") or kw.get(name) or (call.args[0] if call.args else "")
            if not keys.strip():
                return f"{name} needs key='...', e.g. {name}(key='ctrl c')"
            return [GUIAction(kind="key", key="+".join(keys.split()))]
        if name == "type":
            content = kw.get("content", call.args[0] if call.args else None)
            if not content:
                return "type needs non-empty content='...'"
            return [GUIAction(kind="type", text=content)]
        if name == "scroll":
            return _scroll(kw, call, ctx)
        if name == "wait":
            seconds = _float(kw.get("seconds") or kw.get("time") or "", WAIT_SECONDS)
            if seconds is None:
                return "wait(seconds=...) needs a number of seconds"
            return [GUIAction(kind="wait", seconds=seconds)]
        if name == "finished":
            answer = kw.get("content", call.args[0] if call.args else "")
            return [GUIAction(kind="finish", answer=answer.strip() or None)]
        if name == "call_user":
            meta["call_user"] = True
            return [GUIAction(kind="finish")]
        if name == "navigate_back":
            return [GUIAction(kind="go_back")]
    except ValidationError as exc:
        return f"{name}: {exc.errors()[0]['msg']}"
    if name in UNAVAILABLE:
        return f"{name} is not available: {UNAVAILABLE[name]}"
    return f"unknown action {call.name!r}; expected one of {', '.join(ACTIONS)}"


def _point(kw: dict[str, str], call: Call, key: str, ctx: ParseContext, *,
           position: int = 0) -> tuple[float, float] | str:
    """A point argument in viewport pixels; a box gives its centre."""
    value = kw.get(key, call.args[position] if len(call.args) > position else None)
    if value is None:
        return f"{call.name} needs {key}='(x,y)'"
    nums = numbers(value)
    if len(nums) == 2:
        x, y = nums
    elif len(nums) == 4:
        x, y = (nums[0] + nums[2]) / 2, (nums[1] + nums[3]) / 2
    else:
        return (f"{call.name}: {key} must hold a point (x,y) or a box (x1,y1,x2,y2), "
                f"got {value!r}")
    return point_to_viewport(x, y, ctx, what=call.name)


def _scroll(kw: dict[str, str], call: Call, ctx: ParseContext) -> list[GUIAction] | str:
    written = kw.get("direction", "").strip().lower()
    direction = DIRECTIONS.get(written)
    if direction is None:
        return f"scroll needs direction='up', 'down', 'left' or 'right', got {written!r}"
    amount = _float(kw.get("steps", ""), SCROLL_AMOUNT)
    if amount is None or amount <= 0:
        return "scroll steps must be a positive number"
    at: tuple[float | None, float | None] = (None, None)
    if "start_box" in kw or call.args:
        pt = _point(kw, call, "start_box", ctx)
        if isinstance(pt, str):
            return pt
        at = pt
    return [GUIAction(kind="scroll", x=at[0], y=at[1], direction=direction, amount=amount)]


def _float(text: str, default: float) -> float | None:
    if not text.strip():
        return default
    nums = numbers(text)
    return nums[0] if len(nums) == 1 else None



# -- writing (webmdp synth export; parsed back by this module) ---------------------------------
def write_action(a: GUIAction, sp: Space) -> str:
    """One GUIAction as a UI-TARS call (absolute pixels of the smart-resized screenshot)."""
    plain(a, "uitars")
    names = {("click", "left"): "click", ("click", "middle"): "middle_click",
             ("double_click", "left"): "left_double", ("right_click", "left"): "right_single",
             ("move", "left"): "hover"}
    if (a.kind, a.button) in names:
        return "{}(start_box='({},{})')".format(names[(a.kind, a.button)], *sp.point(a.x, a.y))
    if a.kind == "drag":
        return "drag(start_box='({},{})', end_box='({},{})')".format(
            *sp.point(a.x, a.y), *sp.point(a.x2, a.y2))
    if a.kind == "scroll":
        if a.dx and a.dy:
            raise Unwritable("uitars scrolls one axis at a time")
        dist = a.dy or a.dx
        if not dist:
            raise Unwritable("a scroll of 0 pixels")
        direction = ("down" if dist > 0 else "up") if a.dy else \
            ("right" if dist > 0 else "left")
        steps = abs(dist) / SCROLL_STEP_PX
        args = [f"direction='{direction}'"]
        if a.x is not None and a.y is not None:
            args.insert(0, "start_box='({},{})'".format(*sp.point(a.x, a.y)))
        if not math.isclose(steps, SCROLL_AMOUNT):
            args.append(f"steps='{num(steps)}'")
        return f"scroll({', '.join(args)})"
    if a.kind == "type":
        if a.element is not None and a.x is None:
            raise Unwritable("uitars types into the focused field, not an element id")
        return f"type(content='{quote(a.text)}')"
    if a.kind == "key":
        return f"hotkey(key='{' '.join(key_tokens(a.key))}')"
    if a.kind == "wait":
        if a.seconds is None or math.isclose(a.seconds, WAIT_SECONDS):
            return "wait()"
        return f"wait(seconds='{num(a.seconds)}')"
    if a.kind == "finish":
        return f"finished(content='{quote(a.answer or '')}')"
    if a.kind == "go_back":
        return "navigate_back()"
    raise Unwritable(f"uitars has no {a.kind} ({a.button} button)" if a.kind == "click"
                     else f"uitars has no {a.kind}")


def write(thought: str, action: dict[str, Any], sp: Space, mode: str) -> str:
    call = write_action(gui(action), sp)
    return f"Thought: {thought}\nAction: {call}" if thought else f"Action: {call}"

GRAMMAR = UITarsGrammar()
INFO = GrammarInfo("uitars", __name__, family="UI-TARS / UI-TARS-1.5", channel="chat",
                   image_policy="smart_resize", history_images=5, screenshot=True,
                   axtree=False)
