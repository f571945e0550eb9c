"""Browser action space: coordinate-level and element-id actions (DESIGN.md, Modes).

The kinds cover what computer-use models emit and a browser allows: pointer actions (``click``
with a button, ``double_click``, ``triple_click``, ``right_click``, ``move`` (hover), ``drag``,
``mouse_down`` / ``mouse_up``), ``scroll`` (by pixels, or by ``direction`` and ``amount``),
keyboard (``type``, ``key`` with chords such as ``ctrl+shift+t``), form controls
(``select_option``), history (``go_back`` / ``go_forward``), ``wait`` and ``finish``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError, model_validator

from webmdp.core.spec import MAX_TEXT
from webmdp.errors import shown

GUIKind = Literal["click", "double_click", "triple_click", "right_click", "move", "drag",
                  "mouse_down", "mouse_up", "scroll", "type", "key", "select_option", "go_back",
                  "go_forward", "wait", "finish"]
Button = Literal["left", "right", "middle"]
Direction = Literal["up", "down", "left", "right"]

SCROLL_STEP_PX = 100
"""Pixels per unit of ``amount`` in a directional scroll (one mouse-wheel notch)."""
MAX_KEY = 64
"""The most characters of a key or chord name (``key``, each of ``modifiers``)."""
MAX_MODIFIERS = 8
"""The most keys held during one pointer action."""

KeyName = Annotated[str, Field(max_length=MAX_KEY)]

_POINTED = ("click", "double_click", "triple_click", "right_click", "move", "drag")
_KEY_ALIASES = {
    "ctrl": "Control", "control": "Control", "cmd": "Meta", "command": "Meta", "meta": "Meta",
    "super": "Meta", "win": "Meta", "alt": "Alt", "option": "Alt", "shift": "Shift",
    "enter": "Enter", "return": "Enter", "esc": "Escape", "escape": "Escape", "tab": "Tab",
    "space": "Space", " ": "Space", "backspace": "Backspace", "delete": "Delete", "del": "Delete",
    "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
    "arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight", "pageup": "PageUp", "page_up": "PageUp", "pagedown": "PageDown",
    "page_down": "PageDown", "home": "Home", "end": "End", "insert": "Insert",
    "capslock": "CapsLock",
}


def normalize_key(chord: str) -> str:
    """A key or chord in any common spelling (``ctrl+shift+t``, ``CTRL T``, ``Control+a``,
    xdotool's ``Return``) as Playwright's ``Control+Shift+t``."""
    text = chord.strip()
    parts = [p for p in text.replace(" ", "+").split("+") if p] if text not in ("+", " ") \
        else [text]
    out = []
    for p in parts:
        low = p.lower()
        if low in _KEY_ALIASES:
            out.append(_KEY_ALIASES[low])
        elif len(p) == 1:
            out.append(p.lower() if len(parts) > 1 else p)
        elif low.startswith("f") and low[1:].isdigit():
            out.append(low.upper())
        else:
            out.append(p[0].upper() + p[1:])
    return "+".join(out)


class GUIAction(BaseModel):
    """One browser action. Coordinates are viewport pixels; ``element`` targets an element id
    from the accessibility observation instead. Free strings are bounded (``text``, ``option``,
    ``answer``: :data:`~webmdp.core.spec.MAX_TEXT`; ``key`` and each modifier: :data:`MAX_KEY`),
    so no one action types or carries without end."""

    kind: GUIKind
    x: float | None = None
    y: float | None = None
    x2: float | None = None
    y2: float | None = None
    element: int | None = None
    button: Button = "left"
    dx: float = 0.0
    dy: float = 0.0
    direction: Direction | None = None
    amount: float | None = None
    text: str = Field("", max_length=MAX_TEXT)
    key: KeyName = ""
    option: str | None = Field(None, max_length=MAX_TEXT)
    seconds: float | None = None
    answer: str | None = Field(None, max_length=MAX_TEXT)
    modifiers: list[KeyName] = Field([], max_length=MAX_MODIFIERS)
    """Keys held during a pointer action (``["Shift"]``, ``["ctrl"]``), normalised."""
    replace: bool = False
    """``type`` into an element: select its content first, so the text replaces it."""

    @model_validator(mode="after")
    def _complete(self) -> GUIAction:
        has_point = self.element is not None or (self.x is not None and self.y is not None)
        if self.kind in _POINTED and not has_point:
            raise ValueError(f"{self.kind} needs x and y or an element id")
        if self.kind == "drag" and (self.x2 is None or self.y2 is None):
            raise ValueError("drag needs x2 and y2")
        if self.kind == "key":
            if not self.key.strip():
                raise ValueError("key needs a key name, e.g. Enter or ctrl+a")
            self.key = normalize_key(self.key)
        self.modifiers = [normalize_key(m) for m in self.modifiers if m.strip()]
        if self.kind == "select_option" and (self.element is None or self.option is None):
            raise ValueError("select_option needs an element id and an option")
        if self.kind == "scroll" and self.direction is not None:
            step = (self.amount if self.amount is not None else 3) * SCROLL_STEP_PX
            self.dx, self.dy = {"up": (0.0, -step), "down": (0.0, step), "left": (-step, 0.0),
                                "right": (step, 0.0)}[self.direction]
        return self

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(exclude_defaults=True, exclude={"kind"}) | {"kind": self.kind}


def invalid_reason(exc: ValidationError, kind: Any = None) -> str:
    """A :class:`GUIAction`'s validation errors as one line that never quotes a long value:
    ``type: text is 1000000 characters, at most 2000``, ``click needs x and y or an element
    id``. ``kind``: the kind the action asked for, named before a field's error."""
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(p) for p in err["loc"])
        value, limit = err.get("input"), (err.get("ctx") or {}).get("max_length")
        if err["type"] == "string_too_long" and isinstance(value, str):
            msg = f"{loc} is {len(value)} characters, at most {limit}"
        elif err["type"] == "too_long" and hasattr(value, "__len__"):
            msg = f"{loc} has {len(value)} items, at most {limit}"
        elif err["type"] == "literal_error" and loc == "kind":
            parts.append(f"unknown kind {shown(value)}")
            continue
        elif err["type"] == "value_error":  # the model's own check: it names the kind
            parts.append(str(err["msg"]).removeprefix("Value error, "))
            continue
        else:
            msg = f"{loc}: {err['msg']}" if loc else str(err["msg"])
        parts.append(f"{kind}: {msg}" if isinstance(kind, str) and len(kind) <= MAX_KEY
                     else msg)
    return "; ".join(parts).replace("\n", " ")


def click(x: float, y: float) -> GUIAction:
    return GUIAction(kind="click", x=x, y=y)


def type_text(text: str) -> GUIAction:
    return GUIAction(kind="type", text=text)


def key(name: str) -> GUIAction:
    return GUIAction(kind="key", key=name)


def finish(answer: str | None = None) -> GUIAction:
    return GUIAction(kind="finish", answer=answer)
