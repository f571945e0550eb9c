"""Browser action space: coordinate-level and element-id actions (DESIGN.md, Modes).

The kinds cover what computer-use models emit and a browser allows: pointer actions (``click``
with a button, ``double_click``, ``triple_click``, ``right_click``, ``move`` (hover), ``drag``,
``mouse_down`` / ``mouse_up``), ``scroll`` (by pixels, or by ``direction`` and ``amount``),
keyboard (``type``, ``key`` with chords such as ``ctrl+shift+t``), form controls
(``select_option``), history (``go_back`` / ``go_forward``), ``wait`` and ``finish``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, model_validator

GUIKind = Literal["click", "double_click", "triple_click", "right_click", "move", "drag",
                  "mouse_down", "mouse_up", "scroll", "type", "key", "select_option", "go_back",
                  "go_forward", "wait", "finish"]
Button = Literal["left", "right", "middle"]
Direction = Literal["up", "down", "left", "right"]

SCROLL_STEP_PX = 100
"""Pixels per unit of ``amount`` in a directional scroll (one mouse-wheel notch)."""

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
    from the accessibility observation instead."""

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
    text: str = ""
    key: str = ""
    option: str | None = None
    seconds: float | None = None
    answer: str | None = None
    modifiers: list[str] = []
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


def click(x: float, y: float) -> GUIAction:
    return GUIAction(kind="click", x=x, y=y)


def type_text(text: str) -> GUIAction:
    return GUIAction(kind="type", text=text)


def key(name: str) -> GUIAction:
    return GUIAction(kind="key", key=name)


def finish(answer: str | None = None) -> GUIAction:
    return GUIAction(kind="finish", answer=answer)
