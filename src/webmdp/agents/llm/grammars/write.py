"""Writing actions in a grammar: the shared half of each grammar module's ``write``.

A grammar module that can write (``uitars``, ``qwen``, ``json_grammar``) defines
``write(thought, action, space, mode) -> str``: a recorded step (its thought and the action
dict a trace holds) as the raw output the grammar's model would have written, in the family's
pixel convention (:class:`Space`). ``webmdp synth export`` calls it and parses the text back
with the same module's parser (:func:`same_action`); what a grammar cannot carry raises
:class:`Unwritable`, and the step is skipped and counted, never written wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from webmdp.agents.llm.grammars.base import VIEWPORT
from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction, normalize_key


class Unwritable(Exception):
    """The grammar cannot express this action (the message says why)."""


# -- writing one action in a grammar -----------------------------------------------------------
@dataclass(frozen=True)
class Space:
    """A grammar's pixel convention: the image its family is sent and the viewport."""

    image: tuple[int, int]
    viewport: tuple[int, int] = VIEWPORT

    @property
    def sx(self) -> float:
        """Viewport pixels per model unit, x."""
        return self.viewport[0] / self.image[0]

    @property
    def sy(self) -> float:
        return self.viewport[1] / self.image[1]

    def point(self, x: float | None, y: float | None) -> tuple[int, int]:
        """A viewport point in the model's pixels (rounded, kept on the image)."""
        if x is None or y is None:
            raise Unwritable("the action has no x, y (an element-id action)")
        px = min(max(round(x / self.sx), 0), self.image[0] - 1)
        py = min(max(round(y / self.sy), 0), self.image[1] - 1)
        return px, py


def num(v: float) -> str:
    """A number as a model writes it: ``5``, ``0.1``, ``5.14``."""
    return f"{round(v, 3):g}"


def quote(text: str) -> str:
    """A Python single-quoted string body with the escapes UI-TARS uses."""
    return (text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
            .replace("\r", "\\r").replace("\t", "\\t"))


_KEY_NAMES = {"Control": "ctrl", "Meta": "cmd", "Escape": "esc", "ArrowUp": "up",
              "ArrowDown": "down", "ArrowLeft": "left", "ArrowRight": "right"}


def key_tokens(chord: str) -> list[str]:
    """A normalised chord (``Control+a``) as the lowercase names these families write
    (``["ctrl", "a"]``), where lowercase reads back the same."""
    out = []
    for tok in [t for t in chord.split("+") if t] or [chord]:
        if tok in _KEY_NAMES:
            out.append(_KEY_NAMES[tok])
        elif len(tok) > 1 and normalize_key(tok.lower()) == tok:
            out.append(tok.lower())
        else:
            out.append(tok)
    return out


def plain(a: GUIAction, grammar: str) -> None:
    """Refuse what no pixel grammar carries: held keys and replacing fills."""
    if a.modifiers:
        raise Unwritable(f"{grammar} has no held keys ({'+'.join(a.modifiers)})")
    if a.replace:
        raise Unwritable(f"{grammar} has no replacing type")


def gui(action: dict[str, Any]) -> GUIAction:
    if "kind" not in action:
        raise Unwritable("not a GUI action")
    try:
        return GUIAction.model_validate(action)
    except ValueError as e:
        raise Unwritable(f"not a valid GUI action ({str(e).splitlines()[0]})") from None


# -- the round trip ----------------------------------------------------------------------------
def close(a: float | None, b: float | None, tol: float) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol


def same_action(recorded: GUIAction | Action, parsed: GUIAction | Action,
                space: Space) -> bool:
    """Whether ``parsed`` (read back from written text) is ``recorded`` up to the grammar's
    pixel convention: points and scroll distances within one unit of the model's coordinate
    space (plus the parser's 0.1 px rounding); a wait's seconds only when recorded."""
    if isinstance(recorded, Action) or isinstance(parsed, Action):
        if not (isinstance(recorded, Action) and isinstance(parsed, Action)):
            return False
        if recorded.name != parsed.name:
            return False
        rp, pp = dict(recorded.params), dict(parsed.params)
        if recorded.name == "Finish":
            return (rp.get("answer") or None) == (pp.get("answer") or None)
        return rp == pp
    tx, ty = space.sx + 0.1, space.sy + 0.1
    r, p = recorded, parsed
    if (r.kind, r.button) != (p.kind, p.button):
        return False
    if r.x is not None:
        if not (close(r.x, p.x, tx) and close(r.y, p.y, ty)):
            return False
    elif r.element != p.element or p.x is not None:
        return False
    if not (close(r.x2, p.x2, tx) and close(r.y2, p.y2, ty)):
        return False
    if not (close(r.dx, p.dx, max(tx, 0.5)) and close(r.dy, p.dy, max(ty, 0.5))):
        return False
    if r.seconds is not None and not close(r.seconds, p.seconds, 1e-6):
        return False
    return (r.text, r.key, r.option, r.modifiers, r.replace) == \
        (p.text, p.key, p.option, p.modifiers, p.replace) and \
        ((r.answer or "").strip() or None) == ((p.answer or "").strip() or None)


__all__ = ["Space", "Unwritable", "gui", "key_tokens", "num", "plain", "quote", "same_action"]
