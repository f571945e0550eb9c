"""Browser action space: coordinate-level and element-id actions (DESIGN.md, Modes)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, model_validator

GUIKind = Literal["click", "double_click", "right_click", "drag", "scroll", "type", "key", "wait",
                  "finish"]


class GUIAction(BaseModel):
    """One browser action. Coordinates are viewport pixels; ``element`` targets an element id
    from the accessibility observation instead (``click`` / ``double_click`` / ``right_click`` /
    ``type`` / ``scroll``)."""

    kind: GUIKind
    x: float | None = None
    y: float | None = None
    x2: float | None = None
    y2: float | None = None
    element: int | None = None
    dx: float = 0.0
    dy: float = 0.0
    text: str = ""
    key: str = ""
    seconds: float = 0.5
    answer: str | None = None

    @model_validator(mode="after")
    def _complete(self) -> GUIAction:
        needs_point = self.kind in ("click", "double_click", "right_click", "drag")
        if needs_point and self.element is None and (self.x is None or self.y is None):
            raise ValueError(f"{self.kind} needs x and y or an element id")
        if self.kind == "drag" and (self.x2 is None or self.y2 is None):
            raise ValueError("drag needs x2 and y2")
        if self.kind == "key" and not self.key:
            raise ValueError("key needs a key name, e.g. Enter or Control+a")
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
