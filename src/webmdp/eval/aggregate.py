"""Aggregates of episode metrics (WebSTEP Table 2) and their breakdowns (Tables 9-17)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from statistics import fmean
from typing import Literal

from pydantic import BaseModel

from webmdp.core.spec import SkillCategory
from webmdp.eval.metrics import EpisodeMetrics

BreakdownKey = Literal[
    "template", "hard_negative_count", "oracle_length", "access_level", "agent", "site", "mode",
    "agent_mode",
]
BREAKDOWNS: tuple[BreakdownKey, ...] = (
    "agent", "agent_mode", "site", "template", "hard_negative_count", "oracle_length",
    "access_level",
)
LENGTH_BUCKETS: tuple[str, ...] = ("1-3", "4-6", "7-9", "10+")
ACCESS_LEVELS: tuple[str, ...] = ("card", "filter", "detail")
SKILL_ORDER: tuple[str, ...] = tuple(c.value for c in (
    SkillCategory.SEARCH, SkillCategory.FILTER, SkillCategory.INSPECT, SkillCategory.NAVIGATE,
    SkillCategory.COMMIT,
))


class Aggregate(BaseModel):
    """Overall metrics of a set of episodes; rates are fractions in [0, 1], None when undefined."""

    terminal_sr: float | None
    safe_pass_sr: float | None
    exploration_sr: float | None
    execution_sr: float | None
    coverage_at_commit: float | None
    gui_steps: float | None
    semantic_steps: float | None
    gui_semantic_ratio: float | None
    episodes: int
    infra_errors: int


def _mean(values: Sequence[float]) -> float | None:
    return fmean(values) if values else None


def aggregate(rows: Sequence[EpisodeMetrics]) -> Aggregate:
    """Means over the non-infra-error episodes; execution SR is the (strict) terminal SR among
    exploration-successful episodes; the GUI/semantic ratio is the mean of per-episode ratios."""
    ok = [r for r in rows if not r.infra_error]
    explored = [r for r in ok if r.exploration_success]
    return Aggregate(
        terminal_sr=_mean([float(r.terminal_success) for r in ok]),
        safe_pass_sr=_mean([float(r.safe_pass) for r in ok]),
        exploration_sr=_mean([float(r.exploration_success) for r in ok]),
        execution_sr=_mean([float(r.terminal_success) for r in explored]),
        coverage_at_commit=_mean([r.coverage_at_commit for r in ok]),
        gui_steps=_mean([float(r.gui_steps) for r in ok]),
        semantic_steps=_mean([float(r.semantic_steps) for r in ok]),
        gui_semantic_ratio=_mean([r.gui_semantic_ratio for r in ok]),
        episodes=len(ok),
        infra_errors=len(rows) - len(ok),
    )


def length_bucket(n: int) -> str:
    """Oracle-length bucket: 1-3, 4-6, 7-9 or 10+ (lengths below 1 fall in 1-3)."""
    if n <= 3:
        return "1-3"
    if n <= 6:
        return "4-6"
    return "7-9" if n <= 9 else "10+"


def agent_label(row: EpisodeMetrics) -> str:
    """``agent (mode)``: the row label of the report tables."""
    return f"{row.agent} ({row.mode})"


_KEYS: dict[str, Callable[[EpisodeMetrics], str]] = {
    "template": lambda r: r.template,
    "hard_negative_count": lambda r: str(r.hard_negative_count),
    "oracle_length": lambda r: length_bucket(r.oracle_length),
    "access_level": lambda r: r.access_level,
    "agent": lambda r: r.agent,
    "site": lambda r: r.site,
    "mode": lambda r: r.mode,
    "agent_mode": agent_label,
}


def _order(by: str, key: str) -> tuple[int, int, str]:
    if by == "hard_negative_count":
        return (0, int(key), "")
    if by == "oracle_length":
        return (0, LENGTH_BUCKETS.index(key), "")
    if by == "access_level" and key in ACCESS_LEVELS:
        return (0, ACCESS_LEVELS.index(key), "")
    return (1, 0, key)


def group(rows: Sequence[EpisodeMetrics], by: str) -> dict[str, list[EpisodeMetrics]]:
    """Rows grouped by a breakdown key, groups in natural order (numeric, bucket, level, name)."""
    if by not in _KEYS:
        raise ValueError(f"unknown breakdown '{by}'; valid: {', '.join(sorted(_KEYS))}")
    groups: dict[str, list[EpisodeMetrics]] = {}
    for r in rows:
        groups.setdefault(_KEYS[by](r), []).append(r)
    return {k: groups[k] for k in sorted(groups, key=lambda k: _order(by, k))}


def breakdown(rows: Sequence[EpisodeMetrics], by: str) -> dict[str, Aggregate]:
    """An :class:`Aggregate` per group of ``by`` (see :data:`BREAKDOWNS`, plus ``mode``)."""
    return {k: aggregate(g) for k, g in group(rows, by).items()}


def skill_invocation(rows: Sequence[EpisodeMetrics]) -> dict[str, float | None]:
    """Per category (4.2, Table 14): the fraction of episodes whose oracle uses the category in
    which the agent invoked it; None when no episode requires it. Infra errors excluded."""
    out: dict[str, float | None] = {}
    ok = [r for r in rows if not r.infra_error]
    for k in SKILL_ORDER:
        flags = [float(r.skills_invoked[k]) for r in ok if k in r.skills_invoked]
        out[k] = _mean(flags)
    return out
