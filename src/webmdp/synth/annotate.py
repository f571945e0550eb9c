"""Screenshots annotated with the action taken on them, as WebSTAR's grader and thought writer
see them (seed 002, 3.2 and Appendix F, after GUIAct): a red circle at the action's target
point, a red arrow for a scroll (its direction) or a drag (from x,y to x2,y2), and the action's
name in a green label at the top left; plus a zoomed crop of the annotated screenshot centred on
the target.

Which screenshot a step acted on: browser envs save the page *after* each step
(``GUIStep.screenshot``, taken once the action has settled) and the page at reset
(``EpisodeTrace.initial_screenshot``). So step ``i`` acted on step ``i - 1``'s screenshot, and
step 0 on the reset one. A step that saved none (a ``finish``, or an invalid model output
recorded with no action) leaves the page as it was, so the next step acted on the latest
screenshot saved before it: :func:`before_shots` walks the trace once and answers that for
every step. Coordinates are viewport pixels, the space GUI actions are recorded in
(screenshots are taken at device scale 1).

Pure functions of PNG bytes and action dicts (Pillow); decoding the PNG is most of the cost
(``benchmarks/bench_synth.py``), so :func:`annotate` and :func:`crop` also take a decoded image.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from webmdp.agents.llm.images import encode_png as to_png
from webmdp.agents.llm.images import font as label_font
from webmdp.errors import ConfigError
from webmdp.trace import EpisodeTrace

RED = (230, 20, 20)
GREEN = (20, 150, 40)
LABEL_TEXT = (255, 255, 255)
CIRCLE_RADIUS = 14
LINE_WIDTH = 4
SCROLL_ARROW_PX = 120.0
"""Drawn length of a scroll arrow; the distance scrolled is in the label."""
ARROW_HEAD_PX = 18.0
LABEL_FONT_SIZE = 18
LABEL_PAD = 6
LABEL_MAX_CHARS = 60
CROP_SIZE = 256
"""Side of the square cut from the screenshot around the target (viewport pixels)."""
CROP_ZOOM = 2
"""The crop is upscaled by this factor (a 512 x 512 image by default)."""
POINTER_KINDS = frozenset({"click", "double_click", "triple_click", "right_click", "move",
                           "hover", "mouse_down", "mouse_up", "scroll", "drag"})
FOCUS_KINDS = frozenset({"type", "key", "select_option"})
"""Kinds that act on the focused element: their crop centres on the last pointer point."""
RECORD_RUN_OPTION = "webmdp run --mode browser --screenshots"
"""The run option that records the screenshots the model grader, thoughts and judge need."""

Image_ = Image.Image


# -- which screenshot each step acted on ---------------------------------------------------------
def before_shots(trace: EpisodeTrace) -> list[str | None]:
    """For every step, the screenshot (path relative to the trace file) of the page it acted on:
    the latest one saved before it (the reset screenshot for step 0), or None when the trace
    has none yet (a run without ``--screenshots``, or a trace older than the reset shot)."""
    out: list[str | None] = []
    last = trace.initial_screenshot
    for step in trace.steps:
        out.append(last)
        if step.screenshot:
            last = step.screenshot
    return out


def final_shot(trace: EpisodeTrace) -> str | None:
    """The screenshot of the page the episode ended on (the latest saved)."""
    for step in reversed(trace.steps):
        if step.screenshot:
            return step.screenshot
    return trace.initial_screenshot


def require_screenshots(trace: EpisodeTrace, path: Path | None = None) -> None:
    """A one-line :class:`ConfigError` naming the run option when ``trace`` recorded none."""
    if trace.initial_screenshot or any(s.screenshot for s in trace.steps):
        return
    where = f"{path}: " if path is not None else f"trace {trace.task_id} ({trace.agent}): "
    raise ConfigError(f"{where}the trace has no screenshots ({trace.mode} mode); record them "
                      f"with `{RECORD_RUN_OPTION}`")


def load_shot(trace_path: Path, rel: str) -> bytes:
    """The bytes of a screenshot named relative to its trace file; a one-line error if gone."""
    p = trace_path.parent / rel
    try:
        return p.read_bytes()
    except OSError:
        raise ConfigError(f"{p}: screenshot missing (named by {trace_path})") from None


class EpisodeScreens:
    """The annotated screenshots of one stored browser trace, made on demand and kept: step
    ``i``'s is the screenshot it acted on (:func:`before_shots`) marked with its action, and its
    zoom the crop of that around :func:`focus_point` (the page centre when there is none). Each
    file is decoded once however many windows it appears in. Raises :class:`ConfigError` for a
    trace with no screenshots, naming the run option that records them."""

    def __init__(self, trace: EpisodeTrace, trace_path: Path):
        require_screenshots(trace, trace_path)
        self.trace, self.path = trace, trace_path
        self.before = before_shots(trace)
        self._done: dict[int, tuple[bytes, bytes] | None] = {}

    def marked(self, index: int) -> tuple[bytes, bytes] | None:
        """(annotated screenshot, zoomed crop) as PNG for step ``index``; None if that step
        has no screenshot before it."""
        if index not in self._done:
            rel = self.before[index]
            if rel is None:
                self._done[index] = None
            else:
                action = self.trace.steps[index].action
                img = annotate(load_shot(self.path, rel), action)
                at = focus_point(self.trace, index)
                zoom = crop(img, *(at if at is not None else (None, None)))
                self._done[index] = (to_png(img), to_png(zoom))
        return self._done[index]

    def window(self, index: int, w: int) -> list[tuple[int, bytes]]:
        """(step, annotated PNG) of the last ``w`` steps up to ``index``, oldest first."""
        out: list[tuple[int, bytes]] = []
        for j in range(max(0, index - max(1, w) + 1), index + 1):
            got = self.marked(j)
            if got is not None:
                out.append((j, got[0]))
        return out

    def zoom(self, index: int) -> bytes | None:
        got = self.marked(index)
        return got[1] if got is not None else None


# -- the action --------------------------------------------------------------------------------
def target_point(action: dict[str, Any]) -> tuple[float, float] | None:
    """The viewport point an action targets, or None (semantic actions, element ids, typing,
    keys, finish)."""
    x, y = action.get("x"), action.get("y")
    if isinstance(x, int | float) and isinstance(y, int | float):
        return float(x), float(y)
    return None


def action_label(action: dict[str, Any]) -> str:
    """A short name of the action for the green label: ``click``, ``type "t-shirts"``,
    ``scroll down 514px``, ``Search(query="t-shirts")``."""
    if "name" in action:  # a semantic action
        params = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}"
                           for k, v in (action.get("params") or {}).items())
        text = f"{action['name']}({params})"
    else:
        kind = str(action.get("kind", "?"))
        text = kind.replace("_", " ")
        if kind == "type":
            text = f"type {json.dumps(action.get('text', ''), ensure_ascii=False)}"
        elif kind == "key":
            text = f"key {action.get('key', '')}"
        elif kind == "scroll":
            dx, dy = float(action.get("dx") or 0), float(action.get("dy") or 0)
            way = ("down" if dy > 0 else "up") if abs(dy) >= abs(dx) else \
                ("right" if dx > 0 else "left")
            text = f"scroll {way} {max(abs(dx), abs(dy)):.0f}px"
        elif kind == "select_option":
            text = f"select {json.dumps(action.get('option'), ensure_ascii=False)}"
        elif kind == "finish" and action.get("answer") is not None:
            text = f"finish {json.dumps(action['answer'], ensure_ascii=False)}"
        if action.get("element") is not None:
            text += f" #{action['element']}"
    return text if len(text) <= LABEL_MAX_CHARS else text[:LABEL_MAX_CHARS - 1] + "\u2026"


def action_text(action: dict[str, Any]) -> str:
    """The action in full for a prompt: its label plus where it acts (``click at (637, 30)``,
    ``drag from (10, 20) to (200, 20)``); semantic actions as ``Name(params)``."""
    text = action_label(action) if "name" in action else _untruncated(action)
    point = target_point(action)
    if point is None or "name" in action:
        return text
    where = f"at ({point[0]:.0f}, {point[1]:.0f})"
    if action.get("kind") == "drag" and isinstance(action.get("x2"), int | float):
        where = f"from ({point[0]:.0f}, {point[1]:.0f}) to ({float(action['x2']):.0f}, " \
                f"{float(action.get('y2') or 0):.0f})"
    return f"{text} {where}"


def _untruncated(action: dict[str, Any]) -> str:
    kind = action.get("kind")
    if kind == "type":
        return f"type {json.dumps(action.get('text', ''), ensure_ascii=False)}"
    if kind == "finish" and action.get("answer") is not None:
        return f"finish {json.dumps(action['answer'], ensure_ascii=False)}"
    return action_label(action)


def focus_point(trace: EpisodeTrace, index: int) -> tuple[float, float] | None:
    """Where step ``index`` acts on screen: its own target point, else (typing, a key, a
    select) the point the pointer last acted on before it, the field it focused; None when
    neither exists."""
    steps = trace.steps
    own = target_point(steps[index].action)
    if own is not None or steps[index].action.get("kind") not in FOCUS_KINDS:
        return own
    for step in reversed(steps[:index]):
        p = target_point(step.action)
        if p is not None:
            return p
    return None


# -- drawing -----------------------------------------------------------------------------------
def decode(png: bytes | Image_) -> Image_:
    """An RGB image from PNG bytes (or the image itself, converted if need be)."""
    if isinstance(png, Image.Image):
        return png if png.mode == "RGB" else png.convert("RGB")
    img = Image.open(io.BytesIO(png))
    return img.convert("RGB") if img.mode != "RGB" else _loaded(img)


def _loaded(img: Image_) -> Image_:
    img.load()
    return img


def annotate(png: bytes | Image_, action: dict[str, Any], label: str | None = None) -> Image_:
    """The screenshot with ``action`` drawn on it: a red circle at its target point (pointer
    kinds with x, y), a red arrow for a scroll (from its point, or the page centre, in its
    direction) and for a drag (x,y -> x2,y2), and ``label`` (default :func:`action_label`) in a
    green box at the top left. An action with no point (a semantic action, an element id, typing,
    a key, finish) gets the label only. Given a decoded image, draws on it in place."""
    img = decode(png)
    draw = ImageDraw.Draw(img)
    kind = action.get("kind")
    point = target_point(action)
    if kind == "scroll":
        at = point or (img.width / 2, img.height / 2)
        dx, dy = float(action.get("dx") or 0.0), float(action.get("dy") or 0.0)
        norm = math.hypot(dx, dy)
        if norm > 0:
            _arrow(draw, at, (at[0] + dx / norm * SCROLL_ARROW_PX,
                              at[1] + dy / norm * SCROLL_ARROW_PX))
        _circle(draw, at)
    elif kind == "drag" and point is not None and isinstance(action.get("x2"), int | float) \
            and isinstance(action.get("y2"), int | float):
        _arrow(draw, point, (float(action["x2"]), float(action["y2"])))
        _circle(draw, point)
    elif point is not None and (kind in POINTER_KINDS or kind is None):
        _circle(draw, point)
    _label(draw, label if label is not None else action_label(action))
    return img


def crop(png: bytes | Image_, x: float | None = None, y: float | None = None,
         size: int = CROP_SIZE, zoom: int = CROP_ZOOM) -> Image_:
    """A ``size`` x ``size`` square centred on (x, y), moved inside the image where the point is
    near an edge, upscaled ``zoom`` times. With no point (an action without coordinates) it is
    the page centre. Pass the annotated image to see the circle in the crop, as the seed does."""
    img = decode(png)
    w, h = img.size
    cx = w / 2 if x is None else float(x)
    cy = h / 2 if y is None else float(y)
    sw, sh = min(size, w), min(size, h)
    left = round(min(max(cx - sw / 2, 0), w - sw))
    top = round(min(max(cy - sh / 2, 0), h - sh))
    box = img.crop((left, top, left + sw, top + sh))
    return box.resize((sw * zoom, sh * zoom), Image.Resampling.BILINEAR) if zoom != 1 else box


def _circle(draw: ImageDraw.ImageDraw, at: tuple[float, float]) -> None:
    x, y, r = at[0], at[1], CIRCLE_RADIUS
    draw.ellipse((x - r, y - r, x + r, y + r), outline=RED, width=LINE_WIDTH)


def _arrow(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float]) -> None:
    draw.line((a, b), fill=RED, width=LINE_WIDTH)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    head = [b] + [(b[0] - ARROW_HEAD_PX * math.cos(ang + s * math.pi / 7),
                   b[1] - ARROW_HEAD_PX * math.sin(ang + s * math.pi / 7)) for s in (1, -1)]
    draw.polygon(head, fill=RED)


def _label(draw: ImageDraw.ImageDraw, text: str) -> None:
    font = label_font(LABEL_FONT_SIZE)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    box = (0, 0, right - left + 2 * LABEL_PAD, bottom - top + 2 * LABEL_PAD)
    draw.rectangle(box, fill=GREEN)
    draw.text((LABEL_PAD - left, LABEL_PAD - top), text, fill=LABEL_TEXT, font=font)


__all__ = ["CROP_SIZE", "CROP_ZOOM", "GREEN", "RECORD_RUN_OPTION", "RED", "EpisodeScreens",
           "action_label", "action_text", "annotate", "before_shots", "crop", "decode",
           "final_shot", "focus_point", "load_shot", "require_screenshots", "target_point",
           "to_png"]
