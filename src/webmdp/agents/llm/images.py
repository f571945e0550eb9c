"""The image side of an observation: sizes, resizing per model family, set-of-marks, encoding.

Pure functions over PNG bytes. A model's click coordinates live in the pixels of the image it
saw, so :func:`model_image_size` is the one place that says which image each family sees.
Set-of-marks follows VisualWebArena / BrowserGym: a coloured box around every interactive
element in the viewport and its element id in a filled label at the box's top-left corner.
"""

from __future__ import annotations

import base64
import io
import math
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from PIL import Image, ImageDraw, ImageFont

from webmdp.errors import unknown_choice

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
"""(x0, y0, x1, y1) in image pixels, both corners inclusive (Pillow's rectangle convention)."""

VIEWPORT = (1440, 900)
"""Browser viewport (width, height), as in ``grammars.base``."""

ResizePolicy = Literal["smart_resize", "anthropic", "none"]

RESIZE_POLICIES: dict[str, ResizePolicy] = {
    "smart_resize": "smart_resize",
    "anthropic": "anthropic",
    "none": "none",
    # model families
    "qwen2-vl": "smart_resize",
    "qwen2.5-vl": "smart_resize",
    "ui-tars": "smart_resize",
    "claude": "anthropic",
    "anthropic-cua": "anthropic",
}
"""Resize policy by name: the policies themselves and the model families that use them."""

ANTHROPIC_MAX_LONG_EDGE = 1568
ANTHROPIC_MAX_PIXELS = 1_150_000
"""Anthropic's API downsamples images beyond these bounds before Claude sees them (computer-use
docs, "Handle coordinate scaling for higher resolutions")."""

PALETTE: tuple[RGB, ...] = (
    (214, 39, 40),    # red
    (31, 119, 180),   # blue
    (30, 125, 30),    # green
    (148, 73, 189),   # purple
    (196, 80, 0),     # orange
    (0, 128, 128),    # teal
    (200, 30, 140),   # magenta
    (120, 80, 40),    # brown
    (60, 60, 160),    # indigo
    (110, 110, 0),    # olive
)
"""Mark colours, dark enough for white label text; element ids are consecutive in document
order, so neighbours get different colours."""

OUTLINE_WIDTH = 2
LABEL_PAD = 2
FONT_SIZE = 14
LABEL_TEXT: RGB = (255, 255, 255)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# -- sizes and resizing ------------------------------------------------------------------------
def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) read from the PNG header, without decoding the image."""
    if png[:8] != PNG_SIGNATURE or png[12:16] != b"IHDR":
        raise ValueError("not a PNG image")
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def resize_png(png: bytes, size: tuple[int, int]) -> bytes:
    """``png`` resampled (Lanczos) to ``size`` (width, height); the input itself when it
    already has that size."""
    if size[0] < 1 or size[1] < 1:
        raise ValueError(f"image size must be positive, got {size}")
    if png_size(png) == tuple(size):
        return png
    with Image.open(io.BytesIO(png)) as img:
        src = img if img.mode in ("RGB", "RGBA", "L", "LA") else img.convert("RGBA")
        return encode_png(src.resize((size[0], size[1]), Image.Resampling.LANCZOS))


def model_image_size(family_or_policy: str,
                     viewport: tuple[int, int] = VIEWPORT) -> tuple[int, int]:
    """(width, height) of the screenshot a model family is sent, for a ``viewport`` screenshot.

    ``smart_resize``: Qwen2/2.5-VL and UI-TARS resize every image to multiples of 28 before
    the model sees it, so we send that size. ``anthropic``: the computer-use docs' scale factor
    ``min(1, 1568 / long edge, sqrt(1.15 MP / pixels))``, both sides truncated, which keeps the
    aspect ratio and makes the API leave the image alone (1440x900 -> 1356x847). We follow the
    docs' formula rather than the reference demo's fixed XGA/WXGA targets because the formula is
    what the API applies to any size. ``none``: the viewport unchanged.
    """
    policy = RESIZE_POLICIES.get(family_or_policy.lower())
    if policy is None:
        raise unknown_choice("image resize policy", family_or_policy, list(RESIZE_POLICIES))
    width, height = viewport
    if policy == "smart_resize":
        # imported here: the grammars package imports this module while it initialises
        from webmdp.agents.llm.grammars.base import smart_resize

        h, w = smart_resize(height, width)
        return w, h
    if policy == "anthropic":
        scale = min(1.0, ANTHROPIC_MAX_LONG_EDGE / max(width, height),
                    math.sqrt(ANTHROPIC_MAX_PIXELS / (width * height)))
        return int(width * scale), int(height * scale)
    return width, height


# -- set-of-marks ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mark:
    """One drawn mark: the element id, its colour, its outlined box and its label's box."""

    element_id: int
    color: RGB
    box: Box
    label: Box


def mark_color(element_id: int) -> RGB:
    """The palette colour of an element's mark."""
    return PALETTE[element_id % len(PALETTE)]


def layout_marks(nodes: Iterable[Mapping[str, Any]], image_size: tuple[int, int], *,
                 viewport: tuple[int, int] | None = None) -> list[Mark]:
    """Where :func:`set_of_marks` draws, in drawing order: one mark per interactive node in the
    viewport (``id`` not None, ``in_viewport``) whose box is not empty on the image.

    Node boxes (centre ``x``, ``y``, size ``w``, ``h``) are in ``viewport`` CSS pixels (default:
    the image size) and are scaled to the image and clipped to it. A label sits just above its
    box's top-left corner, or inside the corner when there is no room above; it never leaves
    the image."""
    width, height = image_size
    sx, sy = (1.0, 1.0) if viewport is None else (width / viewport[0], height / viewport[1])
    label_font = font()
    marks = []
    for node in nodes:
        eid = node.get("id")
        if eid is None or not node.get("in_viewport"):
            continue
        left, top = (node["x"] - node["w"] / 2) * sx, (node["y"] - node["h"] / 2) * sy
        x0, y0 = max(0, round(left)), max(0, round(top))
        x1 = min(width, round(left + node["w"] * sx)) - 1
        y1 = min(height, round(top + node["h"] * sy)) - 1
        if x1 < x0 or y1 < y0:
            continue
        tl, tt, tr, tb = label_font.getbbox(str(eid))
        lw, lh = tr - tl + 2 * LABEL_PAD, tb - tt + 2 * LABEL_PAD
        lx = min(x0, width - lw)
        ly = y0 - lh if y0 - lh >= 0 else min(y0, height - lh)
        label = (max(0, lx), max(0, ly), max(0, lx) + lw - 1, max(0, ly) + lh - 1)
        marks.append(Mark(int(eid), mark_color(int(eid)), (x0, y0, x1, y1), label))
    return marks


def set_of_marks(png: bytes, nodes: Sequence[Mapping[str, Any]], *,
                 viewport: tuple[int, int] | None = None) -> bytes:
    """The screenshot with a set-of-marks overlay (see :func:`layout_marks`): all box outlines
    first, then all labels, so every label stays readable. Same inputs, same bytes."""
    with Image.open(io.BytesIO(png)) as img:
        canvas = img.convert("RGB")
    draw = ImageDraw.Draw(canvas)
    marks = layout_marks(nodes, canvas.size, viewport=viewport)
    for m in marks:
        draw.rectangle(m.box, outline=m.color, width=OUTLINE_WIDTH)
    label_font = font()
    for m in marks:
        draw.rectangle(m.label, fill=m.color)
        text = str(m.element_id)
        tl, tt, _, _ = label_font.getbbox(text)
        draw.text((m.label[0] + LABEL_PAD - tl, m.label[1] + LABEL_PAD - tt), text,
                  fill=LABEL_TEXT, font=label_font)
    return encode_png(canvas)


# -- encoding ----------------------------------------------------------------------------------
def b64(png: bytes) -> str:
    """Base64 text of the image (Anthropic image blocks)."""
    return base64.b64encode(png).decode("ascii")


def data_url(png: bytes) -> str:
    """``data:image/png;base64,...`` (OpenAI-style ``image_url`` parts)."""
    return "data:image/png;base64," + b64(png)


def encode_png(img: Image.Image) -> bytes:
    """PNG at zlib level 1: screenshots barely shrink at higher levels, and encoding at the
    default level took most of a model step's harness time (benchmarks/bench_model_agent.py)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


@cache
def font(size: int = FONT_SIZE) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's default font at ``size`` (cached per size)."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, ImportError):  # Pillow < 10.1 or no FreeType: the fixed bitmap font
        return ImageFont.load_default()


__all__ = ["PALETTE", "RESIZE_POLICIES", "Mark", "ResizePolicy", "b64", "data_url",
           "encode_png", "font", "layout_marks", "mark_color", "model_image_size", "png_size",
           "resize_png",
           "set_of_marks"]
