"""Agents for visual-only information (WebForge visual complexity; ``Site.pixel_fields``).

``pixel`` reads the toolkit's widgets (:mod:`webmdp.sites._common.visual`) from the page's
screenshot with :func:`read_widgets`, a decoder of their documented geometry: a widget is
found by its frame colour, a bar's value is its height, a line point's value is its marker's
row, a photo's colour is the nearest named colour at its probe point. ``axtext`` is the
text-only baseline: the same plan, but it looks for the values in the accessibility tree, where
they never are, so it picks among the candidates at random.

Both are browser-mode agents for a :class:`~webmdp.sites._common.visualtask.VisualPick` task:
they take the oracle's list steps to reach the group (navigation), visit every candidate (the
target and its hard negatives, in id order: the group the instruction names), read each one's
page, choose by the instruction's rule (the colour asked, the chart's measure), then open the
chosen one and do the oracle's commit on it, or, where the task asks for a value
(``direct``), report the template's answer for the chosen one. Neither reads the MDP or the
page's DOM text for a pixel-only value; on a task that is not visual they replay the oracle.
"""

from __future__ import annotations

import io
import random
from collections import deque
from typing import Any

import numpy as np
from PIL import Image

from webmdp.agents.base import SemanticView
from webmdp.agents.builtin import PlanningAgent
from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.errors import ConfigError
from webmdp.sites import get_site
from webmdp.sites._common.visual import (
    BAR_COLOR,
    CHART,
    FRAMES,
    HEAT,
    HEAT_LEVELS,
    MARKER_COLOR,
    PHOTO,
    PHOTO_COLORS,
    Rgb,
)
from webmdp.sites._common.visualtask import MEASURES, VisualPick
from webmdp.tasks.model import Task
from webmdp.tasks.variants import template_of
from webmdp.trace import Mode

_AXIS_TICK = (100, 116, 139)


# -- the decoder -------------------------------------------------------------------------------
def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)


def _is(arr: np.ndarray, rgb: Rgb) -> np.ndarray:
    return np.all(arr == np.array(rgb, dtype=np.int16), axis=-1)


def locate(arr: np.ndarray, kind: str) -> tuple[int, int, int, int] | None:
    """The box (x, y, width, height) of the widget of ``kind`` on a screenshot: the extent of
    its frame colour, kept only when the whole frame is on screen (each edge at least 90%
    frame-coloured: a page may round the corners of a photo)."""
    ys, xs = np.nonzero(_is(arr, FRAMES[kind]))
    if not len(xs):
        return None
    x0, y0, x1, y1 = int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())
    frame = FRAMES[kind]
    edges = (arr[y0, x0:x1 + 1], arr[y1, x0:x1 + 1], arr[y0:y1 + 1, x0], arr[y0:y1 + 1, x1])
    if not all(_is(e, frame).mean() >= 0.9 for e in edges):
        return None
    return x0, y0, x1 - x0 + 1, y1 - y0 + 1


def _slots(arr: np.ndarray) -> int:
    """How many slots a chart has: its x ticks under the baseline."""
    row = _is(arr[CHART.base + 4, CHART.left:CHART.left + CHART.plot_w], _AXIS_TICK)
    return int(row.sum())


def decode_bars(arr: np.ndarray) -> list[int]:
    """A bar chart's values (``arr``: the widget's pixels): each bar's height at its centre
    column, in value units."""
    n, g = _slots(arr), CHART
    out = []
    for i in range(n):
        col = _is(arr[g.top:g.base, g.center(i, n)], BAR_COLOR)
        out.append(int(col.sum()) // g.unit)
    return out


def decode_line(arr: np.ndarray) -> list[int]:
    """A line chart's values: each marker's centre row at its slot's centre column."""
    n, g = _slots(arr), CHART
    out = []
    for i in range(n):
        rows = np.nonzero(_is(arr[:, g.center(i, n)], MARKER_COLOR))[0]
        mid = (int(rows.min()) + int(rows.max())) // 2
        out.append((g.base - 1 - mid) // g.unit)
    return out


def decode_heat(arr: np.ndarray) -> list[list[int]]:
    """A heat map's levels: each cell's centre, the nearest of :data:`HEAT_LEVELS`."""
    g = HEAT
    cols = (arr.shape[1] - g.left - 20) // g.cell
    rows = (arr.shape[0] - g.top - 20) // g.cell
    return [[_nearest(arr[g.top + i * g.cell + g.cell // 2, g.left + j * g.cell + g.cell // 2],
                      dict(enumerate(HEAT_LEVELS))) for j in range(cols)] for i in range(rows)]


def decode_photo(arr: np.ndarray) -> str:
    """A photo's subject colour: the nearest :data:`PHOTO_COLORS` name at its probe point."""
    x, y = PHOTO.probe
    return str(_nearest(arr[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3).mean(axis=0),
                        PHOTO_COLORS))


def _nearest(rgb: np.ndarray, palette: dict[Any, Rgb]) -> Any:
    return min(palette, key=lambda k: float(((np.array(palette[k]) - rgb) ** 2).sum()))


_DECODERS = {"bar": decode_bars, "line": decode_line, "heat": decode_heat,
             "photo": decode_photo}


def read_widgets(png: bytes) -> dict[str, Any]:
    """Every toolkit widget wholly on a screenshot (or a widget's own PNG), decoded: kind ->
    value (``bar`` / ``line``: ints, ``heat``: rows of levels, ``photo``: a colour name)."""
    arr = _pixels(png)
    out: dict[str, Any] = {}
    for kind, decode in _DECODERS.items():
        box = locate(arr, kind)
        if box is not None:
            x, y, w, h = box
            out[kind] = decode(arr[y:y + h, x:x + w])
    return out


# -- the agents --------------------------------------------------------------------------------
class _Read:
    """A plan marker: read the page of candidate ``eid`` now."""

    def __init__(self, eid: str) -> None:
        self.eid = eid


class VisualChoiceAgent(PlanningAgent):
    """Reach the group, read every candidate's page, choose by the instruction's rule, commit.
    Subclasses say how a page is read (:meth:`read`)."""

    name = "visual"

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.readings: dict[str, dict[str, Any]] = {}
        self.chosen: str | None = None
        self.reported: str | None = None
        self._obs: dict[str, Any] = {}

    def reset(self, task: Task, mode: Mode) -> None:
        if mode != "browser":
            raise ConfigError(f"agent '{self.name}' reads the rendered page: run it in "
                              "browser mode")
        super().reset(task, mode)

    def start(self, task: Task) -> None:
        self.rng = random.Random(f"{self.seed}:{task.id}")
        self.readings, self.chosen, self.reported = {}, None, None
        oracle = task.oracle_actions()
        tpl = template_of(get_site(task.site), task.template)
        self.tpl = tpl if isinstance(tpl, VisualPick) else None
        if self.tpl is None:
            self._plan: deque[Action | _Read] = deque(oracle)
            return
        opened, back, self.param = self.tpl.opener
        first = next(i for i, a in enumerate(oracle) if a.name == opened)
        last = max(i for i, a in enumerate(oracle)
                   if a.name == opened and a.params.get(self.param) == task.target)
        self.opened, self.target = opened, task.target
        self.commit = oracle[last + 1:]
        self.candidates = sorted([task.target, *task.hard_negatives])
        plan: list[Action | _Read] = list(oracle[:first])
        for eid in self.candidates:
            plan += [Action(opened, {self.param: eid}), _Read(eid), Action(back)]
        self._plan = deque(plan)

    def act(self, obs: dict[str, Any]) -> Any:
        self._obs = obs
        return super().act(obs)

    def choose(self, view: SemanticView) -> Action | None:
        while self._plan:
            step = self._plan.popleft()
            if not isinstance(step, _Read):
                return step
            self.readings[step.eid] = self.read(self._obs)
            if not any(isinstance(s, _Read) for s in self._plan):
                self._plan.pop()  # no Back after the last candidate: decide here
                self._decide()
        return None

    def read(self, obs: dict[str, Any]) -> dict[str, Any]:
        """What this agent can read of the pixel fields on the page: field -> value."""
        raise NotImplementedError

    def final_answer(self, obs: dict[str, Any]) -> str | None:
        """The pick's value on a task that asks for one (the template's answer for the
        pick: these agents prove the choice decodable, not the reading of text), then the
        confirmation code on screen, if any."""
        parts = [self.reported, super().final_answer(obs)]
        return "; ".join(p for p in parts if p) or None

    def _decide(self) -> None:
        assert self.tpl is not None
        tpl, task = self.tpl, self.task
        assert task is not None
        pool = list(self.candidates)
        if tpl.photo:
            want = task.params["colour"]
            known = [c for c in pool if self.readings[c].get(tpl.photo) == want]
            pool = known or pool
        if tpl.chart:
            score = MEASURES[tpl.measure]
            scored = {c: score(self.readings[c][tpl.chart]) for c in pool
                      if self.readings[c].get(tpl.chart)}
            if scored:
                top = max(scored.values())
                pool = [c for c, s in scored.items() if s == top]
        self.chosen = pool[0] if len(pool) == 1 else self.rng.choice(pool)
        self.reported = tpl.answer_for(World.from_dict(task.world), self.chosen)
        if not self.commit:  # a report: nothing to do on the pick's page
            return
        here = self.candidates[-1]  # the page the agent is on
        swap = {self.target: self.chosen}
        commit = [Action(a.name, {k: swap.get(v, v) if isinstance(v, str) else v
                                  for k, v in a.params.items()}) for a in self.commit]
        if self.chosen != here:
            _, back, _ = tpl.opener
            commit = [Action(back), Action(self.opened, {self.param: self.chosen}), *commit]
        self._plan.extend(commit)


class PixelAgent(VisualChoiceAgent):
    """Reads pixel-only values from the screenshot with :func:`read_widgets`."""

    name = "pixel"

    def read(self, obs: dict[str, Any]) -> dict[str, Any]:
        assert self.tpl is not None
        shot = obs.get("screenshot")
        if shot is None:
            raise ConfigError("agent 'pixel' needs screenshots: observation 'screenshot' or "
                              "'both'")
        found = read_widgets(shot)
        out: dict[str, Any] = {}
        if self.tpl.photo and "photo" in found:
            out[self.tpl.photo] = found["photo"]
        charts = [found[k] for k in ("line", "bar") if k in found]
        if self.tpl.chart and charts:
            out[self.tpl.chart] = charts[0]
        return out


class AxTextAgent(VisualChoiceAgent):
    """The text-only baseline: looks for the asked colour and the chart's numbers in the
    accessibility tree (names, alt texts, captions) and finds neither."""

    name = "axtext"

    def read(self, obs: dict[str, Any]) -> dict[str, Any]:
        assert self.tpl is not None and self.task is not None
        text = " ".join(str(n.get("name", "")) for n in obs.get("nodes", [])).lower()
        out: dict[str, Any] = {}
        if self.tpl.photo and self.task.params["colour"] in text:
            out[self.tpl.photo] = self.task.params["colour"]
        return out
