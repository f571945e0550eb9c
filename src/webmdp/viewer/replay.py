"""Turn-by-turn replay of one episode: what each step shows, and the action drawn on the
screenshot the agent saw.

Browser-mode envs save the screenshot taken *after* each step (``GUIStep.screenshot``) and the
page at reset (``EpisodeTrace.initial_screenshot``), so the observation step ``i`` acted on is
step ``i - 1``'s screenshot and the first step's is the reset one (older traces lack it: that
step shows its own after screenshot, labelled so). Marks are in viewport
pixels, the space GUI actions are recorded in (screenshots are taken at device scale 1).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from webmdp.eval.metrics import coverage, coverage_trajectory
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace, GUIStep, ModelCall, SemanticTransition

INITIAL = -1
"""``StepView.before`` (and the ``/shot`` step) of the page at reset."""
DEFAULT_SIZE = (1440, 900)
"""The envs' viewport, for a screenshot whose size cannot be read."""
SCROLL_ARROW_PX = 150.0
"""Drawn length of a scroll arrow; the distance scrolled is in its label."""
_POINT_LABELS = {"click": "click", "double_click": "double click", "triple_click": "triple click",
                 "right_click": "right click", "mouse_down": "mouse down",
                 "mouse_up": "mouse up"}


@dataclass(frozen=True)
class Mark:
    """One shape of the action overlay: ``point`` (a click), ``hover``, ``path`` (a drag from
    x,y to x2,y2), ``arrow`` (a scroll), ``text`` (typed text at x,y) or ``label``."""

    kind: str
    x: float
    y: float
    x2: float = 0.0
    y2: float = 0.0
    text: str = ""


@dataclass
class StepView:
    """Everything the replay shows about one GUI step."""

    index: int
    summary: str
    action: dict[str, Any]
    step: GUIStep
    calls: list[ModelCall]
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_s: float
    before: int | None
    """Index of the step whose screenshot this step acted on (``INITIAL``: the page at reset;
    None: not recorded)."""
    after: int | None
    marks: list[Mark] = field(default_factory=list)
    coverage: float | None = None
    size: tuple[int, int] = DEFAULT_SIZE

    @property
    def transitions(self) -> list[SemanticTransition]:
        return self.step.transitions

    @property
    def invalid(self) -> bool:
        return self.step.error is not None or any(t.error for t in self.step.transitions)


def params_text(params: dict[str, Any]) -> str:
    """``name=value, ...`` with JSON values, as the oracle's actions read in the papers."""
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in params.items())


def _num(v: Any) -> str:
    return f"{v:.0f}" if isinstance(v, int | float) else "?"


def summary(action: dict[str, Any]) -> str:
    """One line naming the action: a semantic action as ``Name(params)``, a GUI action by
    kind and its arguments."""
    if "name" in action:
        return f"{action['name']}({params_text(action.get('params') or {})})"
    kind = str(action.get("kind", "?"))
    where = (f" #{action['element']}" if action.get("element") is not None else
             f" ({_num(action.get('x'))}, {_num(action.get('y'))})" if "x" in action else "")
    if kind == "drag":
        return f"drag{where} \u2192 ({_num(action.get('x2'))}, {_num(action.get('y2'))})"
    if kind == "scroll":
        return f"scroll{where} by ({_num(action.get('dx', 0))}, {_num(action.get('dy', 0))})"
    if kind == "type":
        return f"type{where} {json.dumps(action.get('text', ''), ensure_ascii=False)}"
    if kind == "key":
        return f"key {action.get('key', '')}"
    if kind == "select_option":
        return f"select{where} {json.dumps(action.get('option'), ensure_ascii=False)}"
    if kind == "finish" and action.get("answer") is not None:
        return f"finish {json.dumps(action['answer'], ensure_ascii=False)}"
    return kind.replace("_", " ") + where


def marks(action: dict[str, Any], pointer: tuple[float, float] | None,
          size: tuple[int, int]) -> list[Mark]:
    """The overlay of one GUI action. ``pointer``: where the pointer last acted, where typed
    text and keys are drawn (the field it clicked)."""
    kind = str(action.get("kind", ""))
    point = _point(action)
    has_point = point is not None
    at = point or pointer or (24.0, 24.0)
    if kind in _POINT_LABELS and has_point:
        return [Mark("point", *at, text=_POINT_LABELS[kind])]
    if kind == "move" and has_point:
        return [Mark("hover", *at, text="hover")]
    if kind == "drag" and has_point and "x2" in action:
        return [Mark("path", *at, float(action["x2"]), float(action["y2"]), text="drag")]
    if kind == "scroll":
        return [_scroll(action, at if has_point else (size[0] / 2, size[1] / 2))]
    if kind == "type":
        return [Mark("text", *at, text=str(action.get("text", "")))]
    if kind in ("key", "select_option", "go_back", "go_forward", "wait", "finish") or \
            action.get("element") is not None:
        return [Mark("label", *at, text=summary(action))]
    return []


def _point(action: dict[str, Any]) -> tuple[float, float] | None:
    x, y = action.get("x"), action.get("y")
    if isinstance(x, int | float) and isinstance(y, int | float):
        return float(x), float(y)
    return None


def _scroll(action: dict[str, Any], at: tuple[float, float]) -> Mark:
    dx, dy = float(action.get("dx") or 0.0), float(action.get("dy") or 0.0)
    norm = (dx * dx + dy * dy) ** 0.5 or 1.0
    return Mark("arrow", *at, at[0] + dx / norm * SCROLL_ARROW_PX,
                at[1] + dy / norm * SCROLL_ARROW_PX,
                text=f"scroll {abs(dy) if dy else abs(dx):.0f}px")


def png_size(path: Path) -> tuple[int, int] | None:
    """Width and height of an image file (Pillow reads the header only), or None."""
    try:
        with Image.open(path) as im:
            return im.size
    except (OSError, ValueError):
        return None


def _tokens(calls: list[ModelCall], attr: str) -> int | None:
    got = [getattr(c, attr) for c in calls if getattr(c, attr) is not None]
    return sum(got) if got else None


def step_coverage(trace: EpisodeTrace, task: Task) -> list[float]:
    """COV after each GUI step (C.4, eq. 2, via :mod:`webmdp.eval.metrics`): the coverage of
    the last valid transition at or before it; before any, the reset's."""
    valid = [t for s in trace.steps for t in s.transitions if t.error is None]
    traj, _ = coverage_trajectory(task.info_constraints, trace.initial_revealed, valid)
    cov = coverage(task.info_constraints, {(e, f) for e, f in trace.initial_revealed})
    out, seen = [], 0
    for s in trace.steps:
        seen += sum(t.error is None for t in s.transitions)
        out.append(traj[seen - 1] if seen else cov)
    return out


def step_views(trace: EpisodeTrace, task: Task | None, first_shot: Path | None = None
               ) -> list[StepView]:
    """Every step of ``trace`` for the replay. ``first_shot``: the file of its first
    screenshot, whose size the overlays are drawn in (all share the viewport); ``task`` gives
    coverage (None: not computed)."""
    cov = step_coverage(trace, task) if task is not None else [None] * len(trace.steps)
    size = (png_size(first_shot) if first_shot is not None else None) or DEFAULT_SIZE
    out: list[StepView] = []
    pointer: tuple[float, float] | None = None
    last_shot: int | None = INITIAL if trace.initial_screenshot else None
    for i, s in enumerate(trace.steps):
        calls = s.notes.model_calls if s.notes else []
        after = i if s.screenshot else None
        view = StepView(
            index=i, summary=summary(s.action), action=s.action, step=s, calls=calls,
            prompt_tokens=_tokens(calls, "prompt_tokens"),
            completion_tokens=_tokens(calls, "completion_tokens"),
            latency_s=sum(c.latency_s for c in calls), before=last_shot, after=after,
            marks=marks(s.action, pointer, size) if "kind" in s.action else [],
            coverage=cov[i], size=size)
        out.append(view)
        pointer = _point(s.action) or pointer
        if after is not None:
            last_shot = after
    return out
