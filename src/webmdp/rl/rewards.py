"""The reward modes a trainer picks: the exact terminal verdict, potential-based shaping of it,
or a cross-site task's rubric score.

Shaping follows Ng, Harada & Russell (1999): r = terminal + Φ(s') - Φ(s), Φ = 0 once the
episode ends, so an episode's rewards sum to terminal - Φ(s₀) and the optimal policy is
unchanged. Two potentials:

- ``dense``: Φ(s, seen) = 1 / (2 + D(s, seen)), D the informed distance
  (:func:`webmdp.tasks.informed.informed_distance`: the shortest way to a commit with the
  target's constraints and the hard negatives the oracle rules out seen on the way), plus the
  Finish step. Each step of the oracle, Finish included, earns a positive reward where the
  oracle is a shortest such path, and inspecting a hard negative is progress, not a detour.
- ``dense-state``: Φ(s) = 1 / (1 + d(s)) (:func:`webmdp.tasks.distance.value_of`), d the
  distance to a verifier goal from the state alone: the shaping of earlier runs, kept to
  reproduce them and as the ablation. It charges the oracle's visits to the hard negatives
  (a negative reward), and its sign tells the target from them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Literal

from webmdp.core.model import State
from webmdp.tasks.distance import DEFAULT_MAX_EXPANSIONS, distance_to_goal, value_of
from webmdp.tasks.informed import DEFAULT_INFORMED_EXPANSIONS, informed_distance
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace

RewardMode = Literal["terminal", "dense", "dense-state", "rubric"]
REWARD_MODES: tuple[RewardMode, ...] = ("terminal", "dense", "dense-state", "rubric")
SHAPED_MODES: tuple[RewardMode, ...] = ("dense", "dense-state")
"""The modes that add Φ(s') - Φ(s) to every step (:func:`potential`)."""
_SEARCH = threading.Lock()
"""The goal-distance caches are process-wide; sessions run on their own threads."""


def potential(task: Task, state: State, seen: Iterable[tuple[str, str]] | None = None, *,
              mode: RewardMode = "dense", max_expansions: int | None = None) -> float:
    """Φ of a shaped ``mode`` in ``state``, having seen ``seen`` (the episode's
    :attr:`Tracker.seen`; None: ``state``'s own screen, the seen set at an episode's start;
    ``dense-state`` ignores it). 0 when no goal is in reach or the search budget runs out;
    ``max_expansions`` None: the mode's default budget."""
    if mode not in SHAPED_MODES:
        raise ValueError(f"reward mode {mode!r} has no potential; shaped: {SHAPED_MODES}")
    with _SEARCH:
        if mode == "dense-state":
            budget = DEFAULT_MAX_EXPANSIONS if max_expansions is None else max_expansions
            return value_of(distance_to_goal(task, state, max_expansions=budget))
        budget = DEFAULT_INFORMED_EXPANSIONS if max_expansions is None else max_expansions
        found = informed_distance(task, state, seen, max_expansions=budget)
        return 0.0 if found is None else 1.0 / (2.0 + found)


def final_reward(mode: RewardMode, terminal: float, trace: EpisodeTrace | None) -> float:
    """The end-of-episode part of a reward: the verifier's 1/0, or under ``rubric`` the
    rubric root of a cross-site task (a single-site task has none: its verdict then)."""
    if mode == "rubric" and trace is not None and trace.rubric is not None:
        return float(trace.rubric.root)
    return terminal
