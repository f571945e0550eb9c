"""The reward modes a trainer picks: the exact terminal verdict, potential-based shaping of it,
or a cross-site task's rubric score.

Shaping follows Ng, Harada & Russell (1999): r = terminal + Φ(s') - Φ(s) with
Φ(s) = V(s) = 1 / (1 + d(s)) (:func:`webmdp.tasks.distance.value_of`), Φ = 0 at a terminal
state, so an episode's rewards sum to terminal - Φ(s₀) and the optimal policy is unchanged.
"""

from __future__ import annotations

import threading
from typing import Literal

from webmdp.core.model import State
from webmdp.tasks.distance import DEFAULT_MAX_EXPANSIONS, distance_to_goal, value_of
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace

RewardMode = Literal["terminal", "dense", "rubric"]
REWARD_MODES: tuple[RewardMode, ...] = ("terminal", "dense", "rubric")
_SEARCH = threading.Lock()
"""The goal-distance caches are process-wide; sessions run on their own threads."""


def potential(task: Task, state: State, *, max_expansions: int = DEFAULT_MAX_EXPANSIONS) -> float:
    """Φ(s): 0 when no goal is in reach or the search budget runs out."""
    with _SEARCH:
        return value_of(distance_to_goal(task, state, max_expansions=max_expansions))


def final_reward(mode: RewardMode, terminal: float, trace: EpisodeTrace | None) -> float:
    """The end-of-episode part of a reward: the verifier's 1/0, or under ``rubric`` the
    rubric root of a cross-site task (a single-site task has none: its verdict then)."""
    if mode == "rubric" and trace is not None and trace.rubric is not None:
        return float(trace.rubric.root)
    return terminal
