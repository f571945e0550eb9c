"""Synth speed: annotating a step's screenshot (red circle / arrow, green label) plus its zoomed
crop, on a 1280 x 800 PNG, against a bare PNG decode + encode of the same image measured in the
same run (the ratio is what compares across machines). Target: under 15 ms per step.

The page is a real screenshot when one is found under ``$WEBMDP_BENCH_SHOT`` (a PNG), else a
synthetic page with text and boxes; either way it is cut / padded to 1280 x 800 and stored as
PNG at zlib level 1 (close to Chromium's fast screenshots).
"""

from __future__ import annotations

import io
import os
import statistics
import time
from collections.abc import Callable

from PIL import Image, ImageDraw

from webmdp.synth.annotate import annotate, crop, decode, to_png

SIZE = (1280, 800)
ACTIONS = ({"kind": "click", "x": 640.0, "y": 30.0},
           {"kind": "scroll", "x": 720.0, "y": 450.0, "dy": 514.0},
           {"kind": "drag", "x": 100.0, "y": 500.0, "x2": 600.0, "y2": 520.0},
           {"kind": "type", "text": "t-shirts\n"},
           {"kind": "click", "x": 1270.0, "y": 795.0})


def page() -> bytes:
    path = os.environ.get("WEBMDP_BENCH_SHOT")
    if path and os.path.isfile(path):
        src = Image.open(path).convert("RGB")
        img = Image.new("RGB", SIZE, (255, 255, 255))
        img.paste(src.crop((0, 0, min(SIZE[0], src.width), min(SIZE[1], src.height))))
    else:
        img = Image.new("RGB", SIZE, (250, 250, 250))
        d = ImageDraw.Draw(img)
        for i in range(40):
            y = 60 + i * 18
            d.rectangle((40 + (i % 4) * 300, y, 300 + (i % 4) * 300, y + 12),
                        fill=(200 - i * 3, 220 - i * 2, 240))
            d.text((50, y), f"Product {i}: a line of text to make the page look real", fill=0)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def per_call_ms(fn: Callable[[], object], n: int) -> float:
    """Median of 5 rounds of ``n`` calls, in ms per call."""
    rounds = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        rounds.append((time.perf_counter() - t0) / n * 1000)
    return statistics.median(rounds)


def main(n: int = 20) -> None:
    png = page()
    decoded = decode(png)
    k = iter(range(10 ** 9))

    def step_from_bytes() -> None:
        a = ACTIONS[next(k) % len(ACTIONS)]
        img = annotate(png, a)
        crop(img, a.get("x"), a.get("y"))  # type: ignore[arg-type]

    def step_on_decoded() -> None:
        a = ACTIONS[next(k) % len(ACTIONS)]
        img = annotate(decoded.copy(), a)
        crop(img, a.get("x"), a.get("y"))  # type: ignore[arg-type]

    def request_images() -> None:  # what the model grader sends: both as PNG
        a = ACTIONS[next(k) % len(ACTIONS)]
        img = annotate(png, a)
        to_png(img)
        to_png(crop(img, a.get("x"), a.get("y")))  # type: ignore[arg-type]

    decode_ms = per_call_ms(lambda: decode(png), n)
    base_ms = per_call_ms(lambda: to_png(decode(png)), n)
    full_ms = per_call_ms(step_from_bytes, n)
    draw_ms = per_call_ms(step_on_decoded, n)
    req_ms = per_call_ms(request_images, max(5, n // 4))
    print(f"## synth: annotation + crop on a {SIZE[0]}x{SIZE[1]} PNG ({len(png) // 1024} KiB)")
    print(f"  baseline: PNG decode + encode (level 1)    {base_ms:6.2f} ms")
    print(f"  PNG decode alone                           {decode_ms:6.2f} ms")
    print(f"  annotate + crop, from PNG bytes            {full_ms:6.2f} ms/step "
          f"({full_ms / base_ms:.2f}x baseline; target < 15 ms: "
          f"{'met' if full_ms < 15 else 'NOT met'})")
    print(f"  annotate + crop, on a decoded image        {draw_ms:6.2f} ms/step "
          f"({draw_ms / base_ms:.2f}x baseline)")
    print(f"  + both encoded as PNG for a model request  {req_ms:6.2f} ms/step "
          f"({req_ms / base_ms:.2f}x baseline)")


if __name__ == "__main__":
    main()
