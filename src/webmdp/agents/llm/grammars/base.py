"""What every action grammar shares: the parse result, the parse context, coordinate mapping.

A grammar is a pure function from one raw model output to our actions, plus the system prompt
or tool definition its model family expects. Raw output that does not parse is a
:class:`Parsed` with ``error`` set and the raw text kept; a parser never raises.

What every grammar reads the same way (the helpers below hold it, so that no grammar repeats it):

- **Numbers.** A coordinate or distance is a finite int or float, or a string holding only one
  (``"640"``, ``" 12.5 "``): :func:`as_number`. Booleans, NaN, infinity and ``"640px"`` are not.
- **Off-screen points.** A point outside the image the model saw is an invalid step, never
  clamped to the screen edge: a silent click at the edge would hide the model's error. The
  error names the bound in the model's coordinate space (:func:`point_to_viewport`), e.g.
  ``x=1500 is outside the screen: x must be within 0..1279 (pixels of the 1280x800
  screenshot)``. The bounds are 0..width-1 and 0..height-1 for ``absolute`` pixels, 0..1000
  for ``relative1000`` and 0..1 for ``normalized1``, edges included. A box counts by its
  centre, the point that is clicked.
- **Scroll distances** given in the model's coordinate space (qwen ``pixels``, openai-cua
  ``scroll_x`` / ``scroll_y``) are scaled to the viewport by the same factors as coordinates
  (:func:`scroll_to_viewport`). Wheel notches (uitars, anthropic-cua) and Fara's sign-only
  page step are not distances on the image and are not scaled.
- **Action kinds.** A right click is ``right_click``, never ``click`` with ``button="right"``
  (:func:`click_kind`), so that action statistics compare across families.
- **Prose around a call** is the thought and the call is executed, or the step is invalid;
  a tool call never becomes the answer of a ``finish``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import ValidationError

from webmdp.core.spec import Action
from webmdp.env.actions import Button, GUIAction, GUIKind, invalid_reason
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
    """``grammar.parse`` then :func:`finalize`: what agents and ``agents parse`` execute. An
    action out of :class:`GUIAction`'s bounds (a 3000-character answer) is an invalid step."""
    try:
        return finalize(grammar.parse(raw, ctx))
    except ValidationError as exc:
        return invalid(raw, f"invalid GUI action: {invalid_reason(exc)}")


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


_NUMBER_RE = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def as_number(value: Any) -> float | None:
    """A number as a model writes it: a finite int or float (not a bool), or a string that
    holds only such a number (``"640"``, ``" -12.5 "``); None for anything else."""
    if isinstance(value, str):
        text = value.strip()
        if not _NUMBER_RE.fullmatch(text):
            return None
        value = float(text)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _scale(ctx: ParseContext, coords: Coords | None) -> tuple[float, float]:
    """Viewport pixels per unit of the model's coordinate space, (x, y)."""
    conv = coords or ctx.coords
    vw, vh = ctx.viewport
    if conv == "relative1000":
        return vw / 1000, vh / 1000
    if conv == "normalized1":
        return float(vw), float(vh)
    iw, ih = ctx.image_size
    return vw / iw, vh / ih


def model_bounds(ctx: ParseContext, coords: Coords | None = None) -> tuple[float, float, str]:
    """The largest x and y a point may have in the model's coordinate space (the smallest is
    0), and that space in words."""
    conv = coords or ctx.coords
    if conv == "relative1000":
        return 1000.0, 1000.0, "relative 0-1000 coordinates"
    if conv == "normalized1":
        return 1.0, 1.0, "normalized 0-1 coordinates"
    w, h = ctx.image_size
    return float(w - 1), float(h - 1), f"pixels of the {w}x{h} screenshot"


def off_screen(x: float, y: float, ctx: ParseContext, coords: Coords | None = None, *,
               names: tuple[str, str] = ("x", "y")) -> str | None:
    """Why the model point (x, y) lies outside the image the model saw, naming the bound in
    the model's coordinate space (``names``: what the axes are called in the output); None when
    it is on screen (edges included)."""
    max_x, max_y, space = model_bounds(ctx, coords)
    for axis, value, high in ((names[0], x, max_x), (names[1], y, max_y)):
        if not 0 <= value <= high:
            return (f"{axis}={value:g} is outside the screen: {axis} must be within "
                    f"0..{high:g} ({space})")
    return None


def point_to_viewport(x: Any, y: Any, ctx: ParseContext, coords: Coords | None = None, *,
                      what: str = "", names: tuple[str, str] = ("x", "y")
                      ) -> tuple[float, float] | str:
    """A point the model wrote (numbers or numeric strings, in ``coords``, default
    ``ctx.coords``) in viewport pixels; the reason, prefixed with ``what``, when a coordinate is
    not a number or the point is off screen (the one off-screen policy of every grammar)."""
    prefix = f"{what}: " if what else ""
    px, py = as_number(x), as_number(y)
    if px is None or py is None:
        return f"{prefix}{names[0]} and {names[1]} must be numbers, got {x!r}, {y!r}"
    err = off_screen(px, py, ctx, coords, names=names)
    if err:
        return prefix + err
    return to_viewport(px, py, ctx, coords)


def to_viewport(x: float, y: float, ctx: ParseContext, coords: Coords | None = None
                ) -> tuple[float, float]:
    """Map a model coordinate in ``coords`` (default ``ctx.coords``) to viewport pixels. The
    result is kept inside the viewport (a point on the far edge of a 0-1000 or 0-1 space maps to
    the last pixel); grammars reject off-screen points first, with :func:`point_to_viewport`."""
    sx, sy = _scale(ctx, coords)
    vw, vh = ctx.viewport
    px, py = x * sx, y * sy
    return (round(min(max(px, 0.0), vw - 1), 1), round(min(max(py, 0.0), vh - 1), 1))


def scroll_to_viewport(dx: float, dy: float, ctx: ParseContext, coords: Coords | None = None
                       ) -> tuple[float, float]:
    """A scroll distance in the model's coordinate space in viewport pixels: scaled by the
    factors of :func:`to_viewport`, signs kept, not clamped."""
    sx, sy = _scale(ctx, coords)
    return round(dx * sx, 1) + 0.0, round(dy * sy, 1) + 0.0


def click_kind(kind: GUIKind, button: Button) -> tuple[GUIKind, Button]:
    """A click's kind and button with a right click as ``right_click`` (button left), the one
    spelling every grammar emits."""
    if kind == "click" and button == "right":
        return "right_click", "left"
    return kind, button
