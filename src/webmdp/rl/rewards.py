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

Both distances are exact: the searches run without a budget (their bounds make that cheap,
``benchmarks/bench_rl.py``), so Φ is a pure function of (task, state, seen), the same in a
fresh process and a warm one. Φ = 0 means no goal can be reached any more (a wrong commit),
never that the search stopped looking: a caller that passes a budget the search runs out of
gets :class:`~webmdp.errors.DistanceUnknown`. Cross-site tasks, whose distances no search
settles, refuse both shaped modes in one line (:func:`check_shaping`). No process-wide lock:
a search holds its own task's lock (:func:`webmdp.tasks.distance.task_lock`).

Which reward suits which trainer (docs/rl.md): a trainer that scores whole rollouts (GRPO,
verifiers) learns nothing from shaping, since a finished ``dense`` episode sums to
terminal - Φ(s₀), a constant per task that cancels within a group: use ``terminal`` (or
``rubric``). Shaping pays where credit is given per step (PPO with GAE, step-level advantages)
and for episodes cut off by the step budget.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from webmdp.core.model import State
from webmdp.errors import DistanceUnknown
from webmdp.tasks.distance import reach, value_of
from webmdp.tasks.informed import informed_reach
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace

RewardMode = Literal["terminal", "dense", "dense-state", "rubric"]
REWARD_MODES: tuple[RewardMode, ...] = ("terminal", "dense", "dense-state", "rubric")
SHAPED_MODES: tuple[RewardMode, ...] = ("dense", "dense-state")
"""The modes that add Φ(s') - Φ(s) to every step (:func:`potential`)."""


SHAPING_REFUSED = ("the shaped rewards (dense, dense-state) are not offered for cross-site tasks: "
                   "their exact distances are out of reach (oracles of about 20 steps over "
                   "several sites, no search settles them); use rubric (partial credit) or "
                   "terminal")
"""Where an exact Φ cannot be had, the reward does not pretend (issue 42): refused, one line."""


def check_shaping(task: Task, mode: str) -> None:
    """Refuse a shaped ``mode`` for a task it cannot be exact on (a cross-site task)."""
    if mode in SHAPED_MODES and task.sites:
        raise ValueError(f"task {task.id}: {SHAPING_REFUSED}")


def potential(task: Task, state: State, seen: Iterable[tuple[str, str]] | None = None, *,
              mode: RewardMode = "dense", max_expansions: int | None = None) -> float:
    """Φ of a shaped ``mode`` in ``state``, having seen ``seen`` (the episode's
    :attr:`Tracker.seen`; None: ``state``'s own screen, the seen set at an episode's start;
    ``dense-state`` ignores it). 0 when no goal can be reached any more. ``max_expansions``:
    None (the default) searches until the distance is settled, which is exact; a budget the
    search runs out of raises :class:`~webmdp.errors.DistanceUnknown` instead of a 0."""
    if mode not in SHAPED_MODES:
        raise ValueError(f"reward mode {mode!r} has no potential; shaped: {SHAPED_MODES}")
    check_shaping(task, mode)
    if mode == "dense-state":
        found = reach(task, state, max_expansions=max_expansions)
    else:
        found = informed_reach(task, state, seen, max_expansions=max_expansions)
    if not found.known:
        raise DistanceUnknown(f"task {task.id}: the {mode} distance was not settled within "
                              f"{max_expansions} expansions; pass max_expansions=None for the "
                              "exact value")
    if found.distance is None:
        return 0.0
    return value_of(found.distance) if mode == "dense-state" else 1.0 / (2.0 + found.distance)


def final_reward(mode: RewardMode, terminal: float, trace: EpisodeTrace | None) -> float:
    """The end-of-episode part of a reward: the verifier's 1/0, or under ``rubric`` the
    rubric root of a cross-site task (a single-site task has none: its verdict then)."""
    if mode == "rubric" and trace is not None and trace.rubric is not None:
        return float(trace.rubric.root)
    return terminal
