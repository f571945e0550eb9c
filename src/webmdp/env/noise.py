"""Real-web noise in browser mode (WebForge): a cookie banner, a promotional modal, a newsletter
slide-in, a slow image and dispatch latency.

Noise lives in the browser environment, never in the server: the MDP, its pages and its traces
of semantic transitions are the same with or without it. :func:`schedule` is a pure function of
``(level, seed)`` (the episode's seed), so an episode's noise replays identically on any
machine; :class:`NoiseRuntime` applies a schedule to one episode's page (``noise.js``, injected
identically into every episode: nothing task-specific reaches the page).

Levels:

- ``none``: no noise.
- ``light``: the cookie banner (shown once the agent has taken its first step) and dispatch
  latency drawn from the seed (20-120 ms).
- ``real``: light, plus the promotional modal at a seeded step (2-6; it blocks every click
  until closed), the newsletter slide-in at a seeded step (3-8) and a slow decorative image.
- ``real-time``: real, but every element appears on the page's own clock (banner after about
  1 s, modal after 5-15 s, slide-in after 3-8 s) as on the real web; which step first sees
  it then depends on the machine's speed, so GUI traces do not replay step for step.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

NoiseLevel = Literal["none", "light", "real", "real-time"]
NOISE_LEVELS: tuple[str, ...] = ("none", "light", "real", "real-time")
SCRIPT = (Path(__file__).parent / "noise.js").read_text()
"""The page script; the same text for every episode (it holds no schedule and no task data)."""

BANNER, MODAL, SLIDE_IN, IMAGE = "cookie-banner", "promo-modal", "newsletter", "slow-image"
IMAGE_PATH = "/__webmdp_noise/promo.png"
"""The slow image's URL path on the server's origin; the env's route answers it (the server
never sees the request)."""
LATENCY_MS = (20, 120)
# A 4 x 4 orange PNG: the decorative image's body.
_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000004000000040802000000269309290000001049444154789c"
    "63f8d0a301470cc47100b7521a41c98f7bee0000000049454e44ae426082")


@dataclass(frozen=True)
class NoiseElement:
    """One element and when it appears: after ``at_step`` agent steps (0: on the first page),
    or ``at_ms`` milliseconds after the first load (the page's clock)."""

    name: str
    at_step: int | None = None
    at_ms: int | None = None


@dataclass(frozen=True)
class NoiseSchedule:
    """What noise one episode sees: elements with their triggers, the slow image's delay and
    the range latency is drawn from (``latency_ms(i)`` for the i-th dispatch)."""

    level: str
    seed: int
    elements: tuple[NoiseElement, ...] = ()
    image_delay_ms: int | None = None
    latency_range_ms: tuple[int, int] | None = None

    @property
    def active(self) -> bool:
        return self.level != "none"

    def latency_ms(self, i: int) -> int:
        """Latency added to the i-th dispatch (0 without latency): uniform over the range,
        drawn from ``(seed, i)`` alone."""
        if self.latency_range_ms is None:
            return 0
        return random.Random(f"noise:{self.seed}:latency:{i}").randint(*self.latency_range_ms)


def check_level(level: str) -> str:
    """``level`` if it is one of :data:`NOISE_LEVELS`, else a one-line ``ConfigError``."""
    from webmdp.errors import unknown_choice

    if level not in NOISE_LEVELS:
        raise unknown_choice("noise level", level, NOISE_LEVELS)
    return level


def schedule(level: str, seed: int) -> NoiseSchedule:
    """The noise of an episode with ``seed`` at ``level``; a pure function of both."""
    check_level(level)
    if level == "none":
        return NoiseSchedule(level, seed)
    rng = random.Random(f"noise:{seed}:{level}")
    if level == "light":
        return NoiseSchedule(level, seed, (NoiseElement(BANNER, at_step=1),),
                             latency_range_ms=LATENCY_MS)
    image_delay = rng.randint(800, 2500)
    if level == "real":
        elements = (NoiseElement(BANNER, at_step=1),
                    NoiseElement(MODAL, at_step=rng.randint(2, 6)),
                    NoiseElement(SLIDE_IN, at_step=rng.randint(3, 8)),
                    NoiseElement(IMAGE, at_step=0))
    else:  # real-time
        elements = (NoiseElement(BANNER, at_ms=rng.randint(800, 1500)),
                    NoiseElement(MODAL, at_ms=rng.randint(5000, 15000)),
                    NoiseElement(SLIDE_IN, at_ms=rng.randint(3000, 8000)),
                    NoiseElement(IMAGE, at_step=0))
    return NoiseSchedule(level, seed, elements, image_delay_ms=image_delay,
                         latency_range_ms=LATENCY_MS)


class NoiseRuntime:
    """One episode's noise on its page: which elements are due, which the agent dismissed,
    the latency to add to each dispatch and the slow image's held request.

    The page is told what to show in the same round trip that settles and observes
    (:meth:`sync_arg`); it answers with the clicks that landed on noise and what it shows
    (:meth:`read_report`). Elements dismissed stay dismissed across reloads; elements due and
    not dismissed are shown again on a reloaded page.
    """

    def __init__(self, plan: NoiseSchedule):
        self.plan = plan
        self.loaded_at: float | None = None  # wall clock (s) of the first load
        self.shown: set[str] = set()
        self.dismissed: set[str] = set()
        self.dispatches = 0
        self.latency_s = 0.0  # total latency added so far (benchmarks subtract it)
        self._held: list[tuple[float, Any]] = []  # (due time, route) of the slow image

    def sync_arg(self, steps_taken: int) -> dict[str, Any]:
        """What the page should show after ``steps_taken`` agent steps: ``show`` (names due
        now) and ``at`` (names due on the page's clock, as epoch milliseconds)."""
        if self.loaded_at is None:
            self.loaded_at = time.time()
        show = [e.name for e in self.plan.elements if e.at_step is not None
                and e.at_step <= steps_taken and e.name not in self.dismissed]
        show += [n for n in sorted(self.shown) if n not in self.dismissed and n not in show]
        at = {e.name: round(self.loaded_at * 1000 + e.at_ms) for e in self.plan.elements
              if e.at_ms is not None and e.name not in self.dismissed and e.name not in show}
        return {"show": show, "at": at}

    def read_report(self, report: dict[str, Any] | None) -> str | None:
        """Take the page's report; the noise element(s) this step's input landed on (comma
        separated), or None."""
        if not report:
            return None
        self.shown.update(report.get("shown", []))
        self.dismissed.update(report.get("dismissed", []))
        hits = list(dict.fromkeys(report.get("hits", [])))
        return ",".join(hits) or None

    # -- network (called from the env's route handler) --------------------------------------
    def is_dispatch(self, method: str, path: str) -> bool:
        return method == "POST" and path.endswith(("/dispatch", "/back"))

    def delay_dispatch(self) -> None:
        """Hold the current dispatch for its seeded latency (the route handler's thread is
        the one driving the page, so the step waits for it as for a slow server)."""
        ms = self.plan.latency_ms(self.dispatches)
        self.dispatches += 1
        if ms:
            self.latency_s += ms / 1000
            time.sleep(ms / 1000)

    def hold_image(self, route: Any) -> None:
        """Keep the slow image's request unanswered until its delay has passed."""
        self._held.append((time.perf_counter() + (self.plan.image_delay_ms or 0) / 1000, route))

    def release_due(self, *, all_now: bool = False) -> None:
        """Answer every held image request whose delay has passed (at a step boundary), or
        every one (``all_now``: before the page closes, so no request is left pending)."""
        now = float("inf") if all_now else time.perf_counter()
        due = [r for t, r in self._held if t <= now]
        self._held = [(t, r) for t, r in self._held if t > now]
        for route in due:
            try:
                route.fulfill(status=200, content_type="image/png", body=_PNG)
            except Exception as exc:  # the page that asked was navigated away or closed
                if "closed" not in str(exc) and "handled" not in str(exc) \
                        and "not found" not in str(exc).lower():
                    raise
