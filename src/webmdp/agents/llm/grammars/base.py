"""What every action grammar shares: the parse result, the parse context, coordinate mapping.

A grammar is a pure function from one raw model output to our actions, plus the system prompt
or tool definition its model family expects. Raw output that does not parse is a
:class:`Parsed` with ``error`` set and the raw text kept; a parser never raises.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction
from webmdp.trace import Mode

VIEWPORT = (1440, 900)
"""Browser viewport (width, height) in CSS pixels: every parsed coordinate ends up here."""

Coords = Literal["relative1000", "absolute", "normalized1"]
"""``relative1000``: 0-1000 on both axes (UI-TARS-1, Qwen3-VL); ``absolute``: pixels of the
image the model saw (``ParseContext.image_size``, e.g. the smart-resized screenshot: UI-TARS-1.5,
Qwen2.5-VL, Fara); ``normalized1``: 0-1 floats."""


@dataclass(frozen=True)
class ParseContext:
    """Everything a parser needs besides the text: mode, the size of the image the model saw,
    the coordinate convention, and (element-id grammars) the ids on the page."""

    mode: Mode = "browser"
    image_size: tuple[int, int] = VIEWPORT
    viewport: tuple[int, int] = VIEWPORT
    coords: Coords = "absolute"
    element_ids: frozenset[int] | None = None


@dataclass
class Parsed:
    """One parsed model output.

    ``actions`` holds the action(s) to execute in order (usually one; empty when ``error``).
    ``intent`` is the action the model *stated* it meant in its thought, when it states one
    (element accuracy is computed from it later); ``None`` means: the executed action.
    ``meta`` carries protocol details (tool call ids, safety checks) the agent needs next turn.
    """

    raw: str
    actions: list[GUIAction | Action] = field(default_factory=list)
    thought: str = ""
    intent: dict[str, Any] | None = None
    error: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None and bool(self.actions)

    def to_json(self) -> dict[str, Any]:
        """What ``webmdp agents parse`` prints: the action(s) as dicts in viewport pixels."""
        if self.error is not None or not self.actions:
            return {"kind": "invalid", "error": self.error or "no action", "raw": self.raw}
        acts = [a.to_dict() for a in self.actions]
        out: dict[str, Any] = acts[0] if len(acts) == 1 else {"kind": "sequence", "actions": acts}
        if self.thought:
            out = {**out, "thought": self.thought}
        if self.intent is not None and self.intent != acts[0]:
            out = {**out, "intent": self.intent}  # what the thought said it would do
        return out


def system_prompt_for(grammar: Any, mode: Mode, prompt: str, actions_doc: str = "") -> str:
    """A grammar's system prompt for ``mode``, with the action list appended when given; a mode
    the grammar does not support is a programming error."""
    if mode not in grammar.modes:
        raise ValueError(f"{grammar.name} supports modes {grammar.modes}, not {mode!r}")
    return f"{prompt}\n\n{actions_doc}" if actions_doc else prompt


def invalid(raw: str, error: str, thought: str = "") -> Parsed:
    return Parsed(raw=raw, error=error, thought=thought)


def finalize(parsed: Parsed) -> Parsed:
    """Fold what grammars report in ``meta`` into the actions the browser executes: held keys
    (``modifiers`` / ``held_keys``) and replacing fills (``replace``)."""
    held = parsed.meta.get("modifiers") or parsed.meta.get("held_keys")
    mods = [held] if isinstance(held, str) else list(held or [])
    mods = [k for m in mods for k in str(m).replace(" ", "+").split("+") if k]
    for i, act in enumerate(parsed.actions):
        if not isinstance(act, GUIAction):
            continue
        changes: dict[str, Any] = {}
        if mods and act.kind in ("click", "double_click", "triple_click", "right_click",
                                 "drag", "scroll"):
            changes["modifiers"] = mods
        if parsed.meta.get("replace") and act.kind == "type":
            changes["replace"] = True
        if changes:
            parsed.actions[i] = GUIAction.model_validate(act.model_dump() | changes)
    return parsed


def parse_output(grammar: Grammar, raw: str, ctx: ParseContext) -> Parsed:
    """``grammar.parse`` then :func:`finalize`: what agents and ``agents parse`` execute."""
    return finalize(grammar.parse(raw, ctx))


class Grammar(Protocol):
    """An action grammar: the prompt its family expects and a pure parser."""

    name: str
    modes: tuple[Mode, ...]
    default_coords: Coords

    def system_prompt(self, *, mode: Mode, actions_doc: str = "") -> str: ...

    def parse(self, raw: str, ctx: ParseContext) -> Parsed: ...

    def tool_spec(self, image_size: tuple[int, int]) -> dict[str, Any] | None:
        """The provider tool definition (computer-use grammars), else None."""
        ...


# -- coordinates ------------------------------------------------------------------------------
IMAGE_FACTOR = 28
MIN_PIXELS = 100 * 28 * 28
MAX_PIXELS = 16384 * 28 * 28


def smart_resize(height: int, width: int, *, factor: int = IMAGE_FACTOR,
                 min_pixels: int = MIN_PIXELS, max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """Qwen2-VL / Qwen2.5-VL / UI-TARS image resizing: both sides multiples of ``factor``, the
    pixel count within [min_pixels, max_pixels], the aspect ratio kept. Returns (height, width)."""
    if max(height, width) / min(height, width) > 200:
        raise ValueError("aspect ratio over 200")
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


def to_viewport(x: float, y: float, ctx: ParseContext, coords: Coords | None = None
                ) -> tuple[float, float]:
    """Map a model coordinate in ``coords`` (default ``ctx.coords``) to viewport pixels,
    clamped to the viewport."""
    conv = coords or ctx.coords
    vw, vh = ctx.viewport
    if conv == "relative1000":
        px, py = x / 1000 * vw, y / 1000 * vh
    elif conv == "normalized1":
        px, py = x * vw, y * vh
    else:
        iw, ih = ctx.image_size
        px, py = x * vw / iw, y * vh / ih
    return (round(min(max(px, 0.0), vw - 1), 1), round(min(max(py, 0.0), vh - 1), 1))
