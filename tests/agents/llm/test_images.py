"""Screenshot sizes per model family, resizing, set-of-marks and encodings."""

from __future__ import annotations

import base64
import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from support import site_tasks
from webmdp.agents.llm.images import (
    OUTLINE_WIDTH,
    PALETTE,
    b64,
    data_url,
    layout_marks,
    mark_color,
    model_image_size,
    png_size,
    resize_png,
    set_of_marks,
)
from webmdp.env.browser import BrowserEnv
from webmdp.errors import ConfigError

WHITE = (255, 255, 255)


def _png(size: tuple[int, int], color: tuple[int, int, int] = WHITE) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, format="PNG")
    return buf.getvalue()


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _node(eid: int | None, box: tuple[float, float, float, float], *,
          in_viewport: bool = True) -> dict[str, Any]:
    """A node as axtree.js reports it, from a (left, top, right, bottom) box."""
    left, top, right, bottom = box
    return {"id": eid, "role": "button" if eid is not None else "text", "name": "x",
            "x": (left + right) / 2, "y": (top + bottom) / 2, "w": right - left,
            "h": bottom - top, "in_viewport": in_viewport}


def _contrast_with_white(color: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of white text on ``color``."""
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in color)
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


# -- sizes and resizing ------------------------------------------------------------------------
def test_png_size_reads_the_header() -> None:
    assert png_size(_png((300, 200))) == (300, 200)
    with pytest.raises(ValueError, match="not a PNG"):
        png_size(b"GIF89a" + bytes(30))


def test_resize_png_downscales_and_keeps_content() -> None:
    img = Image.new("RGB", (400, 200), WHITE)
    img.paste((0, 0, 0), (0, 0, 200, 200))  # left half black
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    out = resize_png(buf.getvalue(), (200, 100))
    assert png_size(out) == (200, 100)
    small = _image(out)
    assert small.getpixel((50, 50)) == (0, 0, 0)
    assert small.getpixel((150, 50)) == WHITE


def test_resize_png_returns_the_input_when_already_that_size() -> None:
    png = _png((120, 80))
    assert resize_png(png, (120, 80)) is png
    with pytest.raises(ValueError):
        resize_png(png, (0, 80))


def test_smart_resize_size_for_the_viewport() -> None:
    assert model_image_size("smart_resize") == (1428, 896)
    assert model_image_size("ui-tars", (1440, 900)) == (1428, 896)
    w, h = model_image_size("smart_resize", (1000, 500))
    assert w % 28 == 0 and h % 28 == 0


def test_anthropic_size_keeps_aspect_and_bounds() -> None:
    w, h = model_image_size("anthropic", (1440, 900))
    assert abs(w / h - 1440 / 900) / (1440 / 900) < 0.01
    assert max(w, h) <= 1568 and w * h <= 1_150_000
    assert w * h > 0.99 * 1_150_000  # scaled down only as far as the bound requires
    assert (w, h) == (1356, 847)
    # the docs' own example, and a panorama that the long-edge bound limits
    assert model_image_size("anthropic", (1512, 982)) == (1330, 864)
    wide = model_image_size("claude", (3200, 400))
    assert wide[0] == 1568 and wide[1] == 196
    # small screens are left alone
    assert model_image_size("anthropic", (1024, 768)) == (1024, 768)


def test_none_keeps_the_viewport_and_unknown_policies_are_refused() -> None:
    assert model_image_size("none", (1440, 900)) == (1440, 900)
    with pytest.raises(ConfigError, match="valid choices"):
        model_image_size("bilinear")


# -- set-of-marks ------------------------------------------------------------------------------
def test_palette_neighbours_differ_and_labels_are_readable() -> None:
    assert [mark_color(i) for i in range(12)] == [PALETTE[i % len(PALETTE)] for i in range(12)]
    assert all(mark_color(i) != mark_color(i + 1) for i in range(100))
    assert len(set(PALETTE)) == len(PALETTE)
    assert all(_contrast_with_white(c) >= 4.5 for c in PALETTE)


def test_set_of_marks_outlines_the_box_and_labels_its_corner() -> None:
    png = _png((400, 300))
    nodes = [_node(1, (100, 100, 200, 150))]
    out = set_of_marks(png, nodes)
    assert png_size(out) == (400, 300)
    img, c = _image(out), mark_color(1)
    # left edge: the outline's two pixels, the element's inside and the outside untouched
    assert img.getpixel((100, 125)) == c and img.getpixel((101, 125)) == c
    assert img.getpixel((102, 125)) == WHITE and img.getpixel((99, 125)) == WHITE
    # right and bottom edges: the box's last pixel row/column is x=199, y=149
    assert img.getpixel((199, 125)) == c and img.getpixel((200, 125)) == WHITE
    assert img.getpixel((150, 149)) == c and img.getpixel((150, 150)) == WHITE
    # the label sits on the box's top-left corner, just above it: filled, with white text
    (mark,) = layout_marks(nodes, (400, 300))
    x0, y0, x1, y1 = mark.label
    assert (x0, y1) == (100, 99) and y0 >= 0 and x1 > x0
    assert img.getpixel((x0, y0)) == c and img.getpixel((x1, y1)) == c
    label = img.crop((x0, y0, x1 + 1, y1 + 1)).convert("L").tobytes()
    text_pixels = sum(1 for v in label if v > 200)  # palette grey levels are all < 120
    assert 5 < text_pixels < 0.7 * len(label)
    assert img.getpixel((x1 + 1, y1)) == WHITE and img.getpixel((x0, y0 - 1)) == WHITE


def test_label_moves_inside_the_box_at_the_top_of_the_image() -> None:
    nodes = [_node(2, (20, 3, 100, 40)), _node(3, (390, 50, 400, 70))]
    img = _image(set_of_marks(_png((400, 300)), nodes))
    top, right = layout_marks(nodes, (400, 300))
    assert top.label[:2] == (20, 3)  # no room above: inside the corner
    assert img.getpixel((20, 3)) == mark_color(2)
    assert top.label[3] < 40
    # a label at the right border is pushed back into the image
    assert right.label[2] == 399 and img.getpixel((399, right.label[3])) == mark_color(3)


def test_only_interactive_nodes_in_the_viewport_are_marked() -> None:
    png = _png((400, 300))
    nodes = [
        _node(1, (100, 100, 200, 150)),
        _node(None, (10, 200, 120, 230)),                     # a text node
        _node(7, (250, 200, 350, 260), in_viewport=False),    # scrolled away
    ]
    out = set_of_marks(png, nodes)
    assert [m.element_id for m in layout_marks(nodes, (400, 300))] == [1]
    diff = ImageChops.difference(_image(out), _image(png)).getbbox()
    assert diff is not None
    # every change lies above y=151 (the box of node 1 and its label), none at the others
    assert diff[3] <= 151


def test_set_of_marks_is_deterministic_and_changes_the_image() -> None:
    png = _png((400, 300), (240, 240, 240))
    nodes = [_node(i, (20 + 60 * i, 100, 70 + 60 * i, 140)) for i in range(1, 6)]
    first = set_of_marks(png, nodes)
    assert first == set_of_marks(png, [dict(n) for n in nodes])
    assert first != png


def test_boxes_are_clipped_and_scaled_from_the_viewport() -> None:
    # the screenshot is twice the viewport (a device scale factor of 2)
    nodes = [_node(4, (100, 100, 200, 150)), _node(5, (380, 10, 460, 40))]
    img = _image(set_of_marks(_png((800, 600)), nodes, viewport=(400, 300)))
    scaled, clipped = layout_marks(nodes, (800, 600), viewport=(400, 300))
    assert scaled.box == (200, 200, 399, 299)
    assert img.getpixel((200, 250)) == mark_color(4) and img.getpixel((198, 250)) == WHITE
    assert clipped.box == (760, 20, 799, 79)
    assert img.getpixel((799, 50)) == mark_color(5)


def test_encodings() -> None:
    png = _png((4, 4))
    assert base64.b64decode(b64(png)) == png
    url = data_url(png)
    assert url.startswith("data:image/png;base64,")
    assert base64.b64decode(url.split(",", 1)[1]) == png


# -- a real page -------------------------------------------------------------------------------
def _expected_box(node: dict[str, Any], size: tuple[int, int]) -> tuple[int, int, int, int]:
    left, top = node["x"] - node["w"] / 2, node["y"] - node["h"] / 2
    return (max(0, round(left)), max(0, round(top)),
            min(size[0], round(left + node["w"])) - 1, min(size[1], round(top + node["h"])) - 1)


def _on_outline(p: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    x, y = p
    x0, y0, x1, y1 = box
    inside = x0 <= x <= x1 and y0 <= y <= y1
    core = (x0 + OUTLINE_WIDTH <= x <= x1 - OUTLINE_WIDTH
            and y0 + OUTLINE_WIDTH <= y <= y1 - OUTLINE_WIDTH)
    return inside and not core


def _within(p: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


@pytest.mark.browser
def test_set_of_marks_on_a_real_page(server, host) -> None:  # type: ignore[no-untyped-def]
    env = BrowserEnv(site_tasks("shopping")[0], agent="test", server=server, host=host)
    try:
        obs, _ = env.reset()
    finally:
        env.close()
    shot, nodes = obs["screenshot"], obs["nodes"]
    out = set_of_marks(shot, nodes)
    size = png_size(shot)
    assert png_size(out) == size == (1440, 900)
    wanted = [n for n in nodes if n["id"] is not None and n["in_viewport"]]
    marks = layout_marks(nodes, size)
    assert len(wanted) >= 5
    assert [m.element_id for m in marks] == [n["id"] for n in wanted]
    img = _image(out)
    for i, (mark, node) in enumerate(zip(marks, wanted, strict=True)):
        box = _expected_box(node, size)
        assert mark.box == box and mark.color == mark_color(node["id"])
        x0, y0, x1, y1 = box
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        # edge midpoints that no later outline and no label paints over
        points = [p for p in ((x0, cy), (x1, cy), (cx, y0), (cx, y1))
                  if not any(_on_outline(p, m.box) for m in marks[i + 1:])
                  and not any(_within(p, m.label) for m in marks)]
        assert points, f"every edge of mark {mark.element_id} is covered"
        assert all(img.getpixel(p) == mark.color for p in points), (mark, points)
    # pixels away from every outline and label are the screenshot's own
    diff = ImageChops.difference(img, _image(shot)).convert("L").point(lambda v: 255 if v else 0)
    changed = [(i % size[0], i // size[0]) for i, v in enumerate(diff.tobytes()) if v]
    assert changed
    assert all(any(_on_outline(p, m.box) or _within(p, m.label) for m in marks)
               for p in changed)
