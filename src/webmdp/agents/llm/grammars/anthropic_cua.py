"""Anthropic computer-use grammar: the ``computer`` tool (``computer_20250124`` and later).

An assistant turn is a list of content blocks: ``text`` and ``thinking`` blocks are the thought,
``tool_use`` blocks named ``computer`` are actions, in order. A turn with no ``tool_use`` ends
the episode with its text as the answer. The agent answers every ``tool_use`` with a
``tool_result`` carrying its id (``Parsed.meta``). ``raw`` is the JSON of the blocks (or of one
block, or a bare tool input); a turn that is plain text (not starting with ``[`` or ``{``) is a
text-only answer, unless it holds ``computer`` tool calls written as JSON (replayed or imported
outputs; the API path gives ``tool_use`` blocks): then, as in the qwen and fara grammars, the
calls are executed and the text around them is the thought, and a call that does not parse makes
the step invalid. A tool call never becomes the answer of a ``finish``. Coordinates are pixels
of the (scaled) screenshot the model saw (``ParseContext.image_size``), numbers or numeric
strings; a point off that screenshot is an invalid step whose error names the bound (the
policy every grammar shares, see ``base``). ``scroll_amount`` counts wheel notches (not scaled);
keys use xdotool names.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from pydantic import ValidationError

from webmdp.agents.llm.grammars._text import json_spans, without_spans
from webmdp.agents.llm.grammars.base import (
    Coords,
    ParseContext,
    Parsed,
    as_number,
    invalid,
    point_to_viewport,
    system_prompt_for,
)
from webmdp.agents.llm.grammars.info import GrammarInfo
from webmdp.env.actions import Button, GUIAction, GUIKind
from webmdp.trace import Mode

TOOL_TYPE = "computer_20250124"
TOOL_NAME = "computer"

CLICKS: dict[str, tuple[GUIKind, Button]] = {
    "left_click": ("click", "left"), "right_click": ("right_click", "left"),
    "middle_click": ("click", "middle"), "double_click": ("double_click", "left"),
    "triple_click": ("triple_click", "left")}
ACTIONS = (*CLICKS, "mouse_move", "left_click_drag", "left_mouse_down", "left_mouse_up", "scroll",
           "key", "hold_key", "type", "wait", "screenshot", "cursor_position", "zoom")
DIRECTIONS = ("up", "down", "left", "right")

# xdotool keysyms that Playwright spells differently (the rest go through normalize_key).
XDOTOOL_KEYS = {
    "return": "Enter", "kp_enter": "Enter", "backspace": "Backspace", "prior": "PageUp",
    "next": "PageDown", "minus": "Minus", "equal": "Equal", "period": "Period",
    "comma": "Comma", "slash": "Slash", "backslash": "Backslash", "semicolon": "Semicolon",
    "apostrophe": "Quote", "grave": "Backquote", "bracketleft": "BracketLeft",
    "bracketright": "BracketRight", "super_l": "Meta", "super_r": "Meta", "control_l": "Control",
    "control_r": "Control", "alt_l": "Alt", "alt_r": "Alt", "shift_l": "Shift",
    "shift_r": "Shift", "kp_add": "NumpadAdd", "kp_subtract": "NumpadSubtract",
    "kp_multiply": "NumpadMultiply", "kp_divide": "NumpadDivide", "kp_decimal": "NumpadDecimal",
    **{f"kp_{d}": f"Numpad{d}" for d in range(10)},
}

SYSTEM_PROMPT = """\
You are operating a Chromium browser to complete the user's task on one website. The screenshot \
shows only the web page: there is no address bar, desktop or terminal. Use the computer tool, \
one or a few actions at a time, and look at the next screenshot before going on. Click the \
centre of an element. When the task is done, reply with text only (no tool use): give the \
answer the task asks for, or a short confirmation when it asks for none."""


class AnthropicCUAGrammar:
    """Anthropic ``computer`` tool calls -> :class:`GUIAction` (viewport pixels)."""

    name = "anthropic-cua"
    modes: tuple[Mode, ...] = ("browser",)
    default_coords: Coords = "absolute"

    def system_prompt(self, *, mode: Mode, actions_doc: str = "") -> str:
        return system_prompt_for(self, mode, SYSTEM_PROMPT, actions_doc)

    def tool_spec(self, image_size: tuple[int, int]) -> dict[str, Any]:
        width, height = image_size
        return {"type": TOOL_TYPE, "name": TOOL_NAME, "display_width_px": width,
                "display_height_px": height}

    def parse(self, raw: str, ctx: ParseContext) -> Parsed:
        text = raw.strip() if isinstance(raw, str) else ""
        if not text:
            return invalid(raw, "empty response")
        if text[0] not in "[{":  # clients pass a text-only turn as its plain text
            return _from_prose(raw, text, [], ctx) or Parsed(
                raw=raw, actions=[GUIAction(kind="finish", answer=text)])
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            return _from_prose(raw, text, [], ctx, broken=f"not JSON: {exc}") \
                or invalid(raw, f"not JSON: {exc}")
        blocks = _blocks(data)
        if isinstance(blocks, str):
            return invalid(raw, blocks)
        return _read_blocks(raw, blocks, ctx)


def _read_blocks(raw: str, blocks: list[dict[str, Any]], ctx: ParseContext, *,
                 from_prose: bool = False) -> Parsed:
    """The actions of a turn's content blocks; a turn without ``tool_use`` is its text as the
    answer (after :func:`_from_prose` found no call written in that text)."""
    texts: list[str] = []
    thinking: list[str] = []
    reader = _Reader(ctx)
    ids: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind in ("text", "thinking"):
            if not isinstance(block.get(kind), str):
                return invalid(raw, f"{kind} block without a {kind} string",
                               _join(thinking + texts))
            (texts if kind == "text" else thinking).append(block[kind])
        elif kind == "redacted_thinking":
            continue
        elif kind == "tool_use":
            if block.get("name") != TOOL_NAME:
                return invalid(raw, f"tool {block.get('name')!r} is not offered; only "
                                    f"{TOOL_NAME!r}", _join(thinking + texts))
            err = reader.read(block.get("input"))
            if err:
                return invalid(raw, err, _join(thinking + texts))
            if isinstance(block.get("id"), str):
                ids.append(block["id"])
        else:
            return invalid(raw, f"content block of type {kind!r} is not part of the "
                                "computer-use grammar", _join(thinking + texts))
    if reader.actions:
        meta: dict[str, Any] = {**reader.notes}
        if ids:
            meta["tool_use_id"] = ids[0]
        if len(ids) > 1:
            meta["tool_use_ids"] = ids
        return Parsed(raw=raw, actions=list(reader.actions), thought=_join(thinking + texts),
                      meta=meta)
    if texts:
        if not from_prose:
            found = _from_prose(raw, _join(texts), thinking, ctx)
            if found is not None:
                return found
        return Parsed(raw=raw, actions=[GUIAction(kind="finish", answer=_join(texts))],
                      thought=_join(thinking))
    return invalid(raw, "no tool_use and no text in the response", _join(thinking))


_CALL_KEY_RE = re.compile(r"""["']action["']\s*:|["']type["']\s*:\s*["']tool_use["']""")


def _from_prose(raw: str, text: str, thinking: list[str], ctx: ParseContext, *,
                broken: str | None = None) -> Parsed | None:
    """Text that holds ``computer`` tool calls written as JSON (a ``tool_use`` block, a list of
    blocks, or a bare input with an ``action``): the calls executed, the text around them the
    thought; invalid when a call does not parse, or when the text holds a call that is not
    valid JSON (``broken``: the error then; the thought is the text before that call). None
    when the text holds no call (it is an answer)."""
    spans = [(start, end, calls) for start, end, value in json_spans(text)
             if (calls := _tool_calls(value)) is not None]
    if not spans:
        key = _CALL_KEY_RE.search(text)
        if key is None:
            return None
        opening = text.rfind("{", 0, key.start())
        before = without_spans(text[:max(opening, 0)], []).rstrip("[").strip()
        return invalid(raw, broken or "the text holds a computer tool call that is not valid "
                                      "JSON; write it as a tool_use block or a JSON tool input",
                       _join([*thinking, before]))
    prose = without_spans(text, [(start, end) for start, end, _ in spans])
    blocks: list[dict[str, Any]] = [{"type": "thinking", "thinking": t} for t in thinking]
    blocks.append({"type": "text", "text": prose})
    blocks.extend(block for _, _, calls in spans for block in calls)
    return _read_blocks(raw, blocks, ctx, from_prose=True)


def _tool_calls(value: Any) -> list[dict[str, Any]] | None:
    """The ``tool_use`` blocks a JSON value written in text holds, None when it holds none."""
    blocks = _blocks(value)
    if isinstance(blocks, str):
        return None
    calls = [b for b in blocks if b.get("type") == "tool_use"]
    return calls or None


def _blocks(data: Any) -> list[dict[str, Any]] | str:
    """Content blocks of a message, a single block, or a bare tool input (as one tool_use)."""
    if isinstance(data, dict) and isinstance(data.get("content"), list):
        data = data["content"]
    if isinstance(data, dict):
        if "action" in data and "type" not in data:
            return [{"type": "tool_use", "name": TOOL_NAME, "input": data}]
        data = [data]
    if not isinstance(data, list) or not data:
        return "expected a tool_use block, a tool input or a non-empty list of content blocks"
    if not all(isinstance(b, dict) for b in data):
        return "every content block must be a JSON object"
    return data


def _join(parts: list[str]) -> str:
    return "\n".join(p.strip() for p in parts if p.strip())


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _seconds(inp: dict[str, Any], what: str) -> float | str:
    dur = inp.get("duration")
    if isinstance(dur, int | float) and _number(dur) and dur >= 0:
        return float(dur)
    return f"{what} needs duration: a non-negative number of seconds, got {dur!r}"


def xdotool_chord(chord: str) -> str:
    """An xdotool key chord (``ctrl+s``, ``Return``, ``KP_0``) in Playwright's spelling."""
    return "+".join(XDOTOOL_KEYS.get(p.lower(), p) for p in chord.split("+") if p)


class _Reader:
    """Reads tool inputs in order, tracking the cursor within one turn (clicks without a
    coordinate happen where the previous action left the pointer)."""

    def __init__(self, ctx: ParseContext) -> None:
        self.ctx = ctx
        self.actions: list[GUIAction] = []
        self.notes: dict[str, Any] = {}
        self.cursor: tuple[float, float] | None = None

    def read(self, inp: Any) -> str | None:
        if not isinstance(inp, dict):
            return "tool_use input must be a JSON object"
        action = inp.get("action")
        try:
            out = self._convert(action, inp)
        except ValidationError as exc:
            return f"{action}: {exc.errors()[0]['msg']}"
        if isinstance(out, str):
            return out
        self.actions.extend(out)
        return None

    def _convert(self, action: Any, inp: dict[str, Any]) -> list[GUIAction] | str:
        if action in CLICKS:
            kind, button = CLICKS[action]
            pt = self._point(inp, "coordinate", action)
            if isinstance(pt, str):
                return pt
            self._hold(inp)
            return [GUIAction(kind=kind, x=pt[0], y=pt[1], button=button)]
        if action == "mouse_move":
            pt = self._point(inp, "coordinate", action, required=True)
            return pt if isinstance(pt, str) else [GUIAction(kind="move", x=pt[0], y=pt[1])]
        if action == "left_click_drag":
            return self._drag(inp)
        if action in ("left_mouse_down", "left_mouse_up"):
            press: GUIKind = "mouse_down" if action == "left_mouse_down" else "mouse_up"
            if inp.get("coordinate") is None:
                return [GUIAction(kind=press)]
            pt = self._point(inp, "coordinate", action)
            return pt if isinstance(pt, str) else [GUIAction(kind=press, x=pt[0], y=pt[1])]
        if action == "scroll":
            return self._scroll(inp)
        if action in ("key", "hold_key"):
            return self._key(action, inp)
        if action == "type":
            if not isinstance(inp.get("text"), str):
                return "type needs text: a string"
            return [GUIAction(kind="type", text=inp["text"])]
        if action == "wait":
            dur = _seconds(inp, action)
            return dur if isinstance(dur, str) else [GUIAction(kind="wait", seconds=dur)]
        if action in ("screenshot", "cursor_position"):
            return [GUIAction(kind="wait", seconds=0.0)]  # a fresh observation is the result
        if action == "zoom":
            return self._zoom(inp)
        if action is None:
            return "tool input has no action"
        return f"unknown action {action!r} (expected one of {', '.join(ACTIONS)})"

    def _point(self, inp: dict[str, Any], key: str, what: str, *,
               required: bool = False) -> tuple[float, float] | str:
        """A coordinate in viewport pixels; without one, the cursor this turn left behind."""
        coord = inp.get(key)
        if coord is None:
            if required or self.cursor is None:
                return (f"{what} needs {key} [x, y] (the cursor position before this turn is "
                        "not known to the parser)")
            return self.cursor
        if not (isinstance(coord, list | tuple) and len(coord) == 2
                and all(as_number(c) is not None for c in coord)):
            return f"{what}: {key} must be [x, y] numbers, got {coord!r}"
        pt = point_to_viewport(coord[0], coord[1], self.ctx, "absolute", what=what)
        if isinstance(pt, str):
            return pt
        self.cursor = pt
        return self.cursor

    def _hold(self, inp: dict[str, Any]) -> None:
        # GUIAction has no modifier field: keys held during a click or scroll are reported.
        if isinstance(inp.get("text"), str) and inp["text"].strip():
            self.notes["held_keys"] = inp["text"]

    def _drag(self, inp: dict[str, Any]) -> list[GUIAction] | str:
        start = self._point(inp, "start_coordinate", "left_click_drag")
        if isinstance(start, str):
            return start
        end = self._point(inp, "coordinate", "left_click_drag", required=True)
        if isinstance(end, str):
            return end
        self._hold(inp)
        return [GUIAction(kind="drag", x=start[0], y=start[1], x2=end[0], y2=end[1])]

    def _scroll(self, inp: dict[str, Any]) -> list[GUIAction] | str:
        direction, amount = inp.get("scroll_direction"), inp.get("scroll_amount")
        if direction not in DIRECTIONS:
            return f"scroll needs scroll_direction: one of {', '.join(DIRECTIONS)}, " \
                   f"got {direction!r}"
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            return f"scroll needs scroll_amount: a non-negative integer, got {amount!r}"
        self._hold(inp)
        if inp.get("coordinate") is None and self.cursor is None:
            return [GUIAction(kind="scroll", direction=direction, amount=amount)]
        pt = self._point(inp, "coordinate", "scroll")
        if isinstance(pt, str):
            return pt
        return [GUIAction(kind="scroll", x=pt[0], y=pt[1], direction=direction, amount=amount)]

    def _key(self, action: str, inp: dict[str, Any]) -> list[GUIAction] | str:
        text = inp.get("text")
        if not isinstance(text, str) or not text.split():
            return f"{action} needs text: xdotool key names such as 'ctrl+s' or 'Return'"
        repeat = inp.get("repeat", 1)
        if not isinstance(repeat, int) or isinstance(repeat, bool) or not 1 <= repeat <= 100:
            return f"{action}: repeat must be an integer from 1 to 100, got {repeat!r}"
        if action == "hold_key":
            dur = _seconds(inp, action)
            if isinstance(dur, str):
                return dur
            # Approximation: a browser key press stands for holding the key down for
            # ``duration`` seconds; repeated keydown events while held are not reproduced.
            self.notes["hold_seconds"] = dur
        # xdotool takes several space-separated chords in one call: press them in order.
        return [GUIAction(kind="key", key=xdotool_chord(chord))
                for _ in range(repeat) for chord in text.split()]

    def _zoom(self, inp: dict[str, Any]) -> list[GUIAction] | str:
        region = inp.get("region")
        if not (isinstance(region, list | tuple) and len(region) == 4
                and all(as_number(c) is not None for c in region)):
            return f"zoom needs region: [x1, y1, x2, y2] numbers, got {region!r}"
        top_left = point_to_viewport(region[0], region[1], self.ctx, "absolute", what="zoom",
                                     names=("x1", "y1"))
        if isinstance(top_left, str):
            return top_left
        bottom_right = point_to_viewport(region[2], region[3], self.ctx, "absolute",
                                         what="zoom", names=("x2", "y2"))
        if isinstance(bottom_right, str):
            return bottom_right
        (x1, y1), (x2, y2) = top_left, bottom_right
        self.notes["zoom"] = [x1, y1, x2, y2]  # the agent answers with a crop of this region
        return [GUIAction(kind="wait", seconds=0.0)]


GRAMMAR = AnthropicCUAGrammar()
INFO = GrammarInfo("anthropic-cua", __name__, family="Claude computer use (Messages API)",
                   channel="computer", image_policy="anthropic", history_images=3,
                   screenshot=True, axtree=False)
