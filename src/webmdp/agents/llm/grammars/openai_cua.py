"""OpenAI computer-use grammar: the Responses API ``computer_use_preview`` tool.

A response is a list of output items: ``reasoning`` (its summary is the thought), ``message``
(text; without a ``computer_call`` it is the final answer) and ``computer_call`` (one ``action``,
or the GA tool's batched ``actions``). The agent must answer each call with its ``call_id`` and
acknowledge its ``pending_safety_checks``; both travel in ``Parsed.meta``. Coordinates are pixels
of the screenshot the model saw (``ParseContext.image_size``), numbers or numeric strings; a point
off that screenshot is an invalid step whose error names the bound, and ``scroll_x`` /
``scroll_y`` are scaled to the viewport like coordinates (the policies every grammar shares, see
``base``). A ``click`` with ``button: "right"`` is a ``right_click``, as in the other grammars.
A message that holds actions written as JSON (replayed or imported outputs) runs them with the
rest of its text as the thought, or is invalid when one does not parse; it is never a
``finish`` whose answer is a call.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from webmdp.agents.llm.grammars._text import json_spans, without_spans
from webmdp.agents.llm.grammars.base import (
    Coords,
    ParseContext,
    Parsed,
    as_number,
    click_kind,
    invalid,
    point_to_viewport,
    scroll_to_viewport,
    system_prompt_for,
)
from webmdp.agents.llm.grammars.info import GrammarInfo
from webmdp.env.actions import Button, GUIAction
from webmdp.trace import Mode

WAIT_SECONDS = 2.0
"""A ``wait`` carries no duration; the OpenAI guide's sample loop sleeps 2 s."""

ACTION_TYPES = ("click", "double_click", "drag", "keypress", "move", "scroll", "type", "wait",
                "screenshot")
_BUTTONS: dict[str, Button] = {"left": "left", "right": "right", "wheel": "middle"}
_HISTORY = {"back": "go_back", "forward": "go_forward"}

SYSTEM_PROMPT = """\
You are operating a web browser to complete the user's task on one website. Each turn you see a \
screenshot of the browser viewport and act with the computer tool: click, double_click, drag, \
keypress, move, scroll, type, wait or screenshot. Stay on the site you are given; there is no \
address bar. Act one step at a time and check the next screenshot before going on. When the \
task is done, reply with a message (and no computer call) that gives the answer the task asks \
for, or a short confirmation when it asks for none."""


class OpenAICUAGrammar:
    """Responses API computer-use items -> :class:`GUIAction` (viewport pixels)."""

    name = "openai-cua"
    modes: tuple[Mode, ...] = ("browser",)
    default_coords: Coords = "absolute"

    def system_prompt(self, *, mode: Mode, actions_doc: str = "") -> str:
        return system_prompt_for(self, mode, SYSTEM_PROMPT, actions_doc)

    def tool_spec(self, image_size: tuple[int, int]) -> dict[str, Any]:
        width, height = image_size
        return {"type": "computer_use_preview", "display_width": width,
                "display_height": height, "environment": "browser"}

    def parse(self, raw: str, ctx: ParseContext) -> Parsed:
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, TypeError) as exc:
            return invalid(raw, f"not JSON: {exc}")
        items = _items(data)
        if isinstance(items, str):
            return invalid(raw, items)
        thoughts: list[str] = []
        messages: list[str] = []
        actions: list[GUIAction] = []
        call_ids: list[str] = []
        checks: list[Any] = []
        notes: dict[str, Any] = {}
        for item in items:
            kind = item.get("type")
            if kind == "reasoning":
                thoughts.extend(_texts(item.get("summary"), "summary_text"))
            elif kind == "message":
                messages.extend(_texts(item.get("content"), "output_text"))
                refusals = _texts(item.get("content"), "refusal", key="refusal")
                if refusals:
                    notes["refusal"] = True
                    messages.extend(refusals)
            elif kind == "computer_call":
                err = _read_call(item, ctx, actions, notes)
                if err:
                    return invalid(raw, err, _join(thoughts + messages))
                if isinstance(item.get("call_id"), str):
                    call_ids.append(item["call_id"])
                checks.extend(item.get("pending_safety_checks") or [])
            else:
                return invalid(raw, f"output item of type {kind!r} is not part of the "
                                    "computer-use grammar", _join(thoughts + messages))
        if actions:
            meta: dict[str, Any] = {"pending_safety_checks": checks, **notes}
            if call_ids:
                meta["call_id"] = call_ids[0]
            if len(call_ids) > 1:
                meta["call_ids"] = call_ids
            return Parsed(raw=raw, actions=list(actions), thought=_join(thoughts + messages),
                          meta=meta)
        if messages:
            answer = _join(messages)
            written = _calls_in_text(raw, answer, thoughts, ctx, notes)
            if written is not None:
                return written
            return Parsed(raw=raw, actions=[GUIAction(kind="finish", answer=answer)],
                          thought=_join(thoughts), meta=notes)
        return invalid(raw, "no computer_call and no message in the output", _join(thoughts))


def _calls_in_text(raw: str, text: str, thoughts: list[str], ctx: ParseContext,
                   notes: dict[str, Any]) -> Parsed | None:
    """A message that holds computer actions written as JSON (``computer_call`` items or bare
    actions; replayed or imported outputs): the actions executed with the text around them as
    the thought, or invalid when one does not parse. None when it holds none (it is the
    answer): a tool call never becomes the answer of a ``finish``."""
    spans = [(start, end, value) for start, end, value in json_spans(text)
             if isinstance(value, dict) and (value.get("type") == "computer_call"
                                             or value.get("type") in ACTION_TYPES)]
    if not spans:
        return None
    thought = _join([*thoughts, without_spans(text, [(s, e) for s, e, _ in spans])])
    actions: list[GUIAction] = []
    for _, _, value in spans:
        item = value if value.get("type") == "computer_call" else \
            {"type": "computer_call", "action": value}
        err = _read_call(item, ctx, actions, notes)
        if err:
            return invalid(raw, err, thought)
    return Parsed(raw=raw, actions=list(actions), thought=thought,
                  meta={"pending_safety_checks": [], **notes})


def _items(data: Any) -> list[dict[str, Any]] | str:
    """The output items of a response, a single item, or a bare action (as one call)."""
    if isinstance(data, dict) and isinstance(data.get("output"), list):
        data = data["output"]
    if isinstance(data, dict):
        kind = str(data.get("type", ""))
        if kind not in ("message", "reasoning") and not kind.endswith(("_call", "_output")):
            return [{"type": "computer_call", "action": data}]  # a bare action
        data = [data]
    if not isinstance(data, list) or not data:
        return "expected a computer_call item, an action object or a non-empty list of items"
    if not all(isinstance(i, dict) for i in data):
        return "every output item must be a JSON object"
    return data


def _texts(parts: Any, kind: str, *, key: str = "text") -> list[str]:
    if isinstance(parts, str):
        return [parts] if kind == "output_text" else []
    if not isinstance(parts, list):
        return []
    return [p[key] for p in parts
            if isinstance(p, dict) and p.get("type") == kind and isinstance(p.get(key), str)]


def _join(parts: list[str]) -> str:
    return "\n".join(p.strip() for p in parts if p.strip())


def _read_call(item: dict[str, Any], ctx: ParseContext, out: list[GUIAction],
               notes: dict[str, Any]) -> str | None:
    """Append a call's action(s) to ``out``; the reason when one does not parse."""
    batch = item.get("actions")
    acts = batch if isinstance(batch, list) else [item.get("action")]
    if not acts:
        return "computer_call has an empty actions list"
    for act in acts:
        if not isinstance(act, dict):
            return "computer_call has no action object"
        result = convert(act, ctx, notes)
        if isinstance(result, str):
            return result
        out.append(result)
    return None


def convert(action: dict[str, Any], ctx: ParseContext,
            notes: dict[str, Any] | None = None) -> GUIAction | str:
    """One computer-use action as a :class:`GUIAction`, or the reason it is malformed."""
    notes = notes if notes is not None else {}
    kind = action.get("type")
    try:
        if kind in ("click", "double_click", "move"):
            button = action.get("button", "left")
            if kind == "click" and button in _HISTORY:
                return GUIAction(kind=_HISTORY[button])
            if kind == "click" and button not in _BUTTONS:
                return f"click: unknown button {button!r}"
            pt = _point(action, ctx, kind)
            if isinstance(pt, str):
                return pt
            if action.get("keys"):
                notes["held_keys"] = action["keys"]
            if kind == "click":
                click, btn = click_kind("click", _BUTTONS[button])
                return GUIAction(kind=click, x=pt[0], y=pt[1], button=btn)
            return GUIAction(kind=kind, x=pt[0], y=pt[1])
        if kind == "drag":
            return _drag(action, ctx)
        if kind == "keypress":
            keys = action.get("keys")
            if not isinstance(keys, list) or not keys or not all(
                    isinstance(k, str) and k.strip() for k in keys):
                return "keypress needs keys: a non-empty list of key names"
            return GUIAction(kind="key", key="+".join(k.strip() for k in keys))
        if kind == "scroll":
            return _scroll(action, ctx)
        if kind == "type":
            if not isinstance(action.get("text"), str):
                return "type needs text: a string"
            return GUIAction(kind="type", text=action["text"])
        if kind == "wait":
            return GUIAction(kind="wait", seconds=WAIT_SECONDS)
        if kind == "screenshot":
            return GUIAction(kind="wait", seconds=0.0)
    except ValidationError as exc:
        return f"{kind}: {exc.errors()[0]['msg']}"
    if kind is None:
        return "action has no type"
    return f"unknown action type {kind!r} (expected one of {', '.join(ACTION_TYPES)})"


def _point(obj: dict[str, Any], ctx: ParseContext, what: str) -> tuple[float, float] | str:
    x, y = obj.get("x"), obj.get("y")
    if x is None or y is None:
        return f"{what} needs x and y"
    return point_to_viewport(x, y, ctx, "absolute", what=what)


def _drag(action: dict[str, Any], ctx: ParseContext) -> GUIAction | str:
    path = action.get("path")
    if not isinstance(path, list) or len(path) < 2 or not all(isinstance(p, dict) for p in path):
        return "drag needs a path of at least two {x, y} points"
    start, end = _point(path[0], ctx, "drag"), _point(path[-1], ctx, "drag")
    if isinstance(start, str):
        return start
    if isinstance(end, str):
        return end
    return GUIAction(kind="drag", x=start[0], y=start[1], x2=end[0], y2=end[1])


def _scroll(action: dict[str, Any], ctx: ParseContext) -> GUIAction | str:
    pt = _point(action, ctx, "scroll")
    if isinstance(pt, str):
        return pt
    sx, sy = action.get("scroll_x", 0), action.get("scroll_y", 0)
    nx, ny = as_number(sx), as_number(sy)
    if nx is None or ny is None:
        return f"scroll: scroll_x and scroll_y must be numbers, got {sx!r}, {sy!r}"
    # Scroll offsets are screenshot pixels too: scaled like coordinates (not clamped).
    dx, dy = scroll_to_viewport(nx, ny, ctx, "absolute")
    return GUIAction(kind="scroll", x=pt[0], y=pt[1], dx=dx, dy=dy)


GRAMMAR = OpenAICUAGrammar()
INFO = GrammarInfo("openai-cua", __name__, family="OpenAI computer use (Responses API)",
                   channel="computer", image_policy="none", history_images=1,
                   screenshot=True, axtree=False)
