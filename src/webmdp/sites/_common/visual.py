"""Pixel-only widgets (WebForge's visual complexity): charts and photos drawn server-side as
PNG, so the value they show is in no text of the page (DOM, attributes, accessibility tree).

Each widget has a fixed, documented geometry (:class:`Chart`, :data:`PHOTO`) so a decoder can
read the value back from a screenshot (:mod:`webmdp.agents.pixel`): a 1 px frame of a colour
only that kind of widget uses (:data:`FRAMES`) locates it, and the plot area, the axis range,
the bar width and the palette say where each value is. Rendering is deterministic (same input,
same bytes) and cached (a bounded LRU of data URIs), so a page render stays cheap.

Where a site shows one: a site's view calls the ``kit.html`` macros (``kit.bar_chart``,
``kit.line_chart``, ``kit.heat_map``, ``kit.photo``) on a field declared in its
``Site.pixel_fields``; the alt text names the chart, never the value.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

Rgb = tuple[int, int, int]

PHOTO_COLORS: dict[str, Rgb] = {
    "crimson": (200, 30, 45), "emerald": (16, 150, 90), "cobalt": (30, 70, 200),
    "amber": (245, 170, 10), "violet": (130, 60, 200)}
"""The colours a photo's subject comes in, by name: names no site uses in its text (a swatch
list says "Red", never "crimson"), well apart in RGB so a decoder (or a model) tells them
apart."""
HEAT_LEVELS: tuple[Rgb, ...] = ((239, 246, 255), (191, 219, 254), (96, 165, 250),
                                (37, 99, 235), (30, 58, 138))
"""A heat map cell's colour per level 0..4 (light to dark)."""
FRAMES: dict[str, Rgb] = {"bar": (201, 203, 207), "line": (202, 203, 207),
                          "heat": (203, 203, 207), "photo": (204, 203, 207)}
"""The 1 px frame colour of each widget kind: the same light grey to the eye, one exact RGB
per kind for the decoder."""
BAR_COLOR: Rgb = (37, 99, 235)
LINE_COLOR: Rgb = (147, 197, 253)
MARKER_COLOR: Rgb = (29, 78, 216)
_BG: Rgb = (255, 255, 255)
_GRID: Rgb = (235, 237, 240)
_AXIS: Rgb = (100, 116, 139)


@dataclass(frozen=True)
class Chart:
    """A chart's geometry: the image is ``width`` x ``height``; the plot area's left edge is
    ``left`` and its baseline (the row just below value 0) is ``base``; a value ``v`` (an int,
    0..``vmax``) is ``v * unit`` pixels tall; slot ``i`` of ``n`` starts at
    ``left + i * (plot_w // n)``, its bar ``bar_w`` wide and centred, a line's point at the
    slot's centre column, marked by a ``marker`` x ``marker`` square centred on it."""

    width: int = 360
    height: int = 200
    left: int = 40
    top: int = 20
    plot_w: int = 300
    vmax: int = 75
    unit: int = 2
    bar_w: int = 20
    marker: int = 7

    @property
    def base(self) -> int:
        return self.top + self.vmax * self.unit

    def slot(self, n: int) -> int:
        return self.plot_w // n

    def center(self, i: int, n: int) -> int:
        """The x of slot ``i``'s centre column."""
        return self.left + i * self.slot(n) + self.slot(n) // 2

    def y(self, v: int) -> int:
        """The row of a line point (the marker's centre) for value ``v``."""
        return self.base - 1 - v * self.unit


CHART = Chart()


@dataclass(frozen=True)
class Heat:
    """A heat map: ``rows`` x ``cols`` cells of ``cell`` px from (``left``, ``top``), each
    one colour of :data:`HEAT_LEVELS`."""

    left: int = 40
    top: int = 20
    cell: int = 24

    def size(self, rows: int, cols: int) -> tuple[int, int]:
        return self.left + cols * self.cell + 20, self.top + rows * self.cell + 20


HEAT = Heat()


@dataclass(frozen=True)
class Photo:
    """A product or place photo ``size`` px square; its subject's colour fills the box
    ``body`` (x0, y0, x1, y1), whose centre (``probe``) a decoder samples."""

    size: int = 240
    body: tuple[int, int, int, int] = (70, 70, 170, 190)
    probe: tuple[int, int] = (150, 100)


PHOTO = Photo()


def _frame(draw: ImageDraw.ImageDraw, kind: str, w: int, h: int) -> None:
    draw.rectangle((0, 0, w - 1, h - 1), outline=FRAMES[kind])


def _clamp(values: Sequence[int]) -> tuple[int, ...]:
    out = tuple(int(v) for v in values)
    if any(not 0 <= v <= CHART.vmax for v in out):
        raise ValueError(f"chart values must be 0..{CHART.vmax}: {out}")
    return out


def _axes(draw: ImageDraw.ImageDraw, g: Chart, n: int) -> None:
    for v in range(0, g.vmax + 1, 25):
        draw.line((g.left, g.base - v * g.unit, g.left + g.plot_w, g.base - v * g.unit),
                  fill=_GRID)
    draw.line((g.left, g.base, g.left + g.plot_w, g.base), fill=_AXIS)
    draw.line((g.left - 1, g.top, g.left - 1, g.base), fill=_AXIS)
    for i in range(n):  # x ticks under each slot
        x = g.center(i, n)
        draw.line((x, g.base + 1, x, g.base + 4), fill=_AXIS)


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def bar_chart_png(values: Sequence[int]) -> bytes:
    """A bar chart of ``values`` (ints 0..75), one bar per slot, in :data:`CHART` geometry."""
    vals, g = _clamp(values), CHART
    img = Image.new("RGB", (g.width, g.height), _BG)
    draw = ImageDraw.Draw(img)
    _axes(draw, g, len(vals))
    for i, v in enumerate(vals):
        x0 = g.center(i, len(vals)) - g.bar_w // 2
        if v:
            draw.rectangle((x0, g.base - v * g.unit, x0 + g.bar_w - 1, g.base - 1),
                           fill=BAR_COLOR)
    _frame(draw, "bar", g.width, g.height)
    return _png(img)


def line_chart_png(values: Sequence[int]) -> bytes:
    """A line chart of ``values`` (ints 0..75): a point per slot, joined, each marked."""
    vals, g = _clamp(values), CHART
    img = Image.new("RGB", (g.width, g.height), _BG)
    draw = ImageDraw.Draw(img)
    _axes(draw, g, len(vals))
    pts = [(g.center(i, len(vals)), g.y(v)) for i, v in enumerate(vals)]
    if len(pts) > 1:
        draw.line(pts, fill=LINE_COLOR, width=2)
    r = g.marker // 2
    for x, y in pts:
        draw.rectangle((x - r, y - r, x + r, y + r), fill=MARKER_COLOR)
    _frame(draw, "line", g.width, g.height)
    return _png(img)


def heat_map_png(grid: Sequence[Sequence[int]]) -> bytes:
    """A heat map of ``grid`` (rows of levels 0..4) in :data:`HEAT` geometry."""
    rows = [tuple(int(v) for v in r) for r in grid]
    if any(not 0 <= v < len(HEAT_LEVELS) for r in rows for v in r):
        raise ValueError(f"heat map levels must be 0..{len(HEAT_LEVELS) - 1}")
    g, n_cols = HEAT, max((len(r) for r in rows), default=0)
    w, h = g.size(len(rows), n_cols)
    img = Image.new("RGB", (w, h), _BG)
    draw = ImageDraw.Draw(img)
    for i, r in enumerate(rows):
        for j, v in enumerate(r):
            x, y = g.left + j * g.cell, g.top + i * g.cell
            draw.rectangle((x, y, x + g.cell - 2, y + g.cell - 2), fill=HEAT_LEVELS[v])
    _frame(draw, "heat", w, h)
    return _png(img)


def photo_png(color: str, shape: str = "box") -> bytes:
    """A deterministic "photo": a backdrop, a shadow and a subject in ``color`` (a name of
    :data:`PHOTO_COLORS`), shaped as a ``box`` (a product), a ``house``, a ``mug`` or a
    ``bowl`` (a dish: a rim and steam)."""
    rgb, g = PHOTO_COLORS[color], PHOTO
    img = Image.new("RGB", (g.size, g.size), (244, 244, 242))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 200, g.size, g.size), fill=(226, 224, 220))  # the floor
    draw.ellipse((50, 184, 190, 206), fill=(200, 198, 194))  # the shadow
    x0, y0, x1, y1 = g.body
    if shape == "house":
        draw.polygon(((x0 - 20, y0), ((x0 + x1) // 2, y0 - 50), (x1 + 20, y0)),
                     fill=(90, 70, 60))
    if shape == "mug":
        draw.ellipse((x1 - 12, y0 + 30, x1 + 30, y0 + 90), outline=rgb, width=10)
    if shape == "bowl":
        for dx in (-25, 0, 25):  # steam
            cx = (x0 + x1) // 2 + dx
            draw.arc((cx - 8, y0 - 48, cx + 8, y0 - 28), 90, 270, fill=(170, 170, 176), width=3)
            draw.arc((cx - 8, y0 - 30, cx + 8, y0 - 10), 270, 90, fill=(170, 170, 176), width=3)
    draw.rounded_rectangle(g.body, radius=10, fill=rgb)
    draw.rectangle((x0 + 12, y0 + 12, x0 + 20, y1 - 12), fill=_lighter(rgb))  # a highlight
    if shape == "house":
        draw.rectangle((x0 + 38, y1 - 50, x0 + 62, y1), fill=(60, 45, 40))  # the door
    if shape == "bowl":
        draw.ellipse((x0 - 24, y0 - 8, x1 + 24, y0 + 16), fill=_lighter(rgb))  # the rim
    _frame(draw, "photo", g.size, g.size)
    return _png(img)


def _lighter(rgb: Rgb) -> Rgb:
    return tuple(min(255, c + (255 - c) // 2) for c in rgb)  # type: ignore[return-value]


def _uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


@lru_cache(maxsize=512)
def _cached(kind: str, value: tuple, shape: str) -> str:
    if kind == "bar":
        return _uri(bar_chart_png(value))
    if kind == "line":
        return _uri(line_chart_png(value))
    if kind == "heat":
        return _uri(heat_map_png(value))
    return _uri(photo_png(value[0], shape))


def widget_uri(kind: str, value: object, shape: str = "box") -> str:
    """The ``data:image/png;base64,...`` URI of a widget (``bar`` / ``line``: a list of ints;
    ``heat``: a list of rows; ``photo``: a colour name), cached."""
    if kind == "heat":
        key: tuple = tuple(tuple(r) for r in value)  # type: ignore[attr-defined]
    elif kind == "photo":
        key = (str(value),)
    elif kind in ("bar", "line"):
        key = tuple(value)  # type: ignore[arg-type]
    else:
        raise ValueError(f"unknown widget kind {kind!r}")
    return _cached(kind, key, shape)


def widget_size(kind: str, value: object) -> tuple[int, int]:
    """The widget's image size in px (its ``<img>`` shows it at exactly this size)."""
    if kind == "photo":
        return PHOTO.size, PHOTO.size
    if kind == "heat":
        rows = list(value)  # type: ignore[call-overload]
        return HEAT.size(len(rows), max((len(r) for r in rows), default=0))
    return CHART.width, CHART.height


cache_info = _cached.cache_info
cache_clear = _cached.cache_clear
