"""Annotated screenshots and zoomed crops (pixel checks on a synthetic page), and which
screenshot each step of a real browser trace acted on."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from webmdp.synth.annotate import (
    CROP_SIZE,
    CROP_ZOOM,
    GREEN,
    RED,
    annotate,
    before_shots,
    crop,
    focus_point,
    to_png,
)
from webmdp.trace import EpisodeTrace, GUIStep

W, H = 1280, 800


def page(marker: tuple[int, int] | None = None) -> bytes:
    img = Image.new("RGB", (W, H), (255, 255, 255))
    if marker is not None:  # a blue 3x3 dot to find in crops
        for dx in range(-1, 2):
            for dy in range(-1, 2):
                img.putpixel((marker[0] + dx, marker[1] + dy), (0, 0, 255))
    return to_png(img)


def reds(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    region = np.asarray(img.crop(box).convert("RGB"))
    return int(np.all(region == np.array(RED, np.uint8), axis=-1).sum())


def test_click_gets_a_red_circle_at_the_point_and_a_green_label() -> None:
    img = annotate(page(), {"kind": "click", "x": 600, "y": 400})
    assert img.size == (W, H)
    assert reds(img, (580, 380, 621, 421)) > 20  # the ring around the point
    assert img.getpixel((600, 400)) == (255, 255, 255)  # a ring, not a dot: the target shows
    assert reds(img, (0, 0, W, H)) == reds(img, (580, 380, 621, 421))
    assert img.getpixel((2, 2)) == GREEN  # the label's box at the top left
    assert img.getpixel((W - 2, H - 2)) == (255, 255, 255)


def test_scroll_and_drag_get_red_arrows_in_their_direction() -> None:
    img = annotate(page(), {"kind": "scroll", "x": 600, "y": 300, "dy": 500})
    assert reds(img, (590, 340, 611, 420)) > 20  # below the origin: scrolling down
    assert reds(img, (590, 150, 611, 270)) == 0
    centre = annotate(page(), {"kind": "scroll", "dy": -300})  # no point: the page centre
    assert reds(centre, (630, 300, 651, 380)) > 20
    drag = annotate(page(), {"kind": "drag", "x": 100, "y": 500, "x2": 500, "y2": 500})
    assert reds(drag, (200, 495, 400, 506)) > 100  # the shaft along y = 500
    assert reds(drag, (480, 480, 505, 521)) > 10  # the head at the end


def test_actions_without_coordinates_get_the_label_only() -> None:
    for action in ({"kind": "type", "text": "hello"}, {"kind": "click", "element": 12},
                   {"name": "Search", "params": {"query": "x"}}, {"kind": "finish"}):
        img = annotate(page(), action)
        assert reds(img, (0, 0, W, H)) == 0
        assert img.getpixel((2, 2)) == GREEN
    label = annotate(page(), {"kind": "click", "x": 1, "y": 1}, "custom")
    assert label.getpixel((2, 2)) == GREEN


def test_crop_is_centred_on_the_target_clamped_and_zoomed() -> None:
    zoom = crop(page(marker=(700, 300)), 700, 300)
    side = CROP_SIZE * CROP_ZOOM
    assert zoom.size == (side, side)
    assert zoom.getpixel((side // 2, side // 2)) == (0, 0, 255)
    edge = crop(page(marker=(10, 790)), 10, 790)  # near a corner: moved inside the image
    assert edge.size == (side, side)
    assert edge.getpixel((10 * CROP_ZOOM, side - 10 * CROP_ZOOM)) == (0, 0, 255)
    middle = crop(page(marker=(W // 2, H // 2)))  # no point: the page centre
    assert middle.getpixel((side // 2, side // 2)) == (0, 0, 255)
    ring = crop(annotate(page(), {"kind": "click", "x": 300, "y": 200}), 300, 200)
    assert reds(ring, (0, 0, side, side)) > 50  # the crop of the annotated screen shows it


def test_decoded_images_are_accepted() -> None:
    img = Image.open(io.BytesIO(page()))
    assert annotate(img, {"kind": "click", "x": 5, "y": 50}).size == (W, H)


def test_each_step_acted_on_the_previous_screenshot() -> None:
    steps = [GUIStep(index=0, action={"kind": "click", "x": 1, "y": 2}, screenshot="s/0.png"),
             GUIStep(index=1, action={"kind": "invalid"}, error="unparseable"),
             GUIStep(index=2, action={"kind": "type", "text": "a"}, screenshot="s/2.png"),
             GUIStep(index=3, action={"kind": "finish"})]
    trace = EpisodeTrace(task_id="t", site="shopping", template="x", agent="a",
                         mode="browser", seed=0, initial_screenshot="s/reset.png", steps=steps)
    assert before_shots(trace) == ["s/reset.png", "s/0.png", "s/0.png", "s/2.png"]
    assert focus_point(trace, 2) == (1.0, 2.0)  # typing: where the field was clicked
    assert focus_point(trace, 3) is None
