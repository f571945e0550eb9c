"""Bifurcation points (WebSTEP 4.3, Figure 5): where a failing trajectory leaves a successful one.

A failing episode is aligned with a successful trajectory of the same task (the shortest
successful episode of another agent, else the task's oracle) at shared semantic states, compared
by key only. The *bifurcation point* is the last shared state before divergence; the two next
actions there say how the failure began. Definitions, edge cases and what a state key covers:
``docs/alignment-state.md``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from webmdp.core.model import State, World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.errors import ConfigError, InvalidAction, WebMDPError
from webmdp.eval.aggregate import SKILL_ORDER
from webmdp.eval.metrics import COMMIT, SITE_SPEC_KEY, SiteData, category_of, site_data
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace, SemanticTransition
from webmdp.tracking import state_key

Kind = Literal["wrong_branch", "delayed_commit", "premature_commit", "wrong_commit",
               "stopped_early"]
PAPER_KINDS: tuple[Kind, ...] = ("wrong_branch", "delayed_commit", "premature_commit")
"""The three kinds of WebSTEP 4.3 (the panels of Figure 5)."""
KINDS: tuple[Kind, ...] = (*PAPER_KINDS, "wrong_commit", "stopped_early")
"""Ours too: both next actions commit (differently); the failing trajectory ends there."""
ORACLE = "oracle"
"""The reference name of a task's oracle trajectory, replayed through the site's MDP."""
INITIAL = "<initial>"
"""Initial key of a task whose site cannot be replayed: every episode of a task starts in the
same state by construction, so one shared sentinel stands for it."""

Episode = tuple[EpisodeTrace, Task]


@dataclass(frozen=True)
class Move:
    """One valid transition of a trajectory, as the classification reads it."""

    action: str
    params: dict[str, Any]
    category: str
    commit: bool
    """Category commit and changes application state (as :func:`metrics.commit_index`)."""


@dataclass(frozen=True)
class Trajectory:
    """States ``s_0 .. s_T`` (alignment keys) and the moves between them: ``moves[t]`` takes
    ``states[t]`` to ``states[t + 1]``."""

    task_id: str
    agent: str
    mode: str
    states: tuple[str, ...]
    moves: tuple[Move, ...]

    def __post_init__(self) -> None:
        if len(self.states) != len(self.moves) + 1:
            raise ValueError(f"{len(self.states)} states for {len(self.moves)} moves")

    @property
    def label(self) -> str:
        """``agent (mode)`` as the report tables name it; the oracle is ``oracle``."""
        return f"{self.agent} ({self.mode})" if self.mode else self.agent


class Bifurcation(BaseModel):
    """One failing episode's bifurcation point against its reference (WebSTEP 4.3)."""

    task_id: str
    agent: str
    mode: str
    reference: str = Field(description="'agent (mode)' of the successful episode, or 'oracle'")
    kind: Kind
    index: int = Field(description="the bifurcation state in the failing trajectory: 0 = the "
                                    "initial state, t = after its t-th valid transition (of "
                                    "the path a restore rewound)")
    reference_index: int = Field(description="the same state in the reference trajectory")
    state_key: str
    failing_action: str | None = Field(description="next action of the failing trajectory; "
                                                   "None: it ends here")
    failing_category: str | None
    reference_action: str | None = Field(description="next action of the reference; None: it "
                                                      "ends (succeeds) here")
    reference_category: str | None
    suffix_categories: list[str] = Field(
        description="delayed commit: the failing suffix; premature commit: the reference "
                    "suffix skipped up to its next commit; stopped early: the whole remaining "
                    "reference suffix; wrong branch / commit: empty")
    failing_length: int
    reference_length: int

    def plotted(self) -> list[str]:
        """The categories Figure 5's bottom row counts for this row: the failing next action
        for a wrong branch (or commit), else the suffix."""
        if self.kind in ("wrong_branch", "wrong_commit"):
            return [self.failing_category or "unknown"]
        return list(self.suffix_categories)


# -- trajectories -----------------------------------------------------------------------------
_Replayed = tuple[State, str, str]
"""A replayed transition's result: the state after, its alignment key, its full digest."""


@dataclass
class _Context:
    """What building a task's trajectories needs: its site's MDP when we implement it, and
    the transitions replayed so far (the MDP is deterministic, so episodes of one task share
    them: a replay pays once per distinct (state, action))."""

    task: Task
    data: SiteData | None
    site: Site | None
    world: World | None
    memo: dict[tuple[str, str, str], _Replayed] = field(default_factory=dict)

    @classmethod
    def of(cls, task: Task) -> _Context:
        try:
            data: SiteData | None = site_data(task)
        except ConfigError:
            data = None
        site = data if isinstance(data, Site) and SITE_SPEC_KEY not in task.world else None
        world = World.from_dict(task.world) if site is not None else None
        return cls(task, data, site, world)

    def initial(self) -> tuple[str, str, State | None]:
        """Alignment key, full digest and state of ``s_0``."""
        if self.site is None or self.world is None:
            return INITIAL, INITIAL, None
        s0 = self.site.initial_state(self.world)
        full = state_key(s0)
        return self.key(s0, full), full, s0

    def key(self, state: State, full: str) -> str:
        assert self.site is not None
        aligned = self.site.alignment_state(state)
        return full if aligned is state else state_key(aligned)

    def step(self, before: State, full: str, action: Action) -> _Replayed:
        """``T(before, action)`` through the site (raises :class:`InvalidAction`)."""
        assert self.site is not None and self.world is not None
        memo_key = (full, action.name, repr(sorted(action.params.items())))
        got = self.memo.get(memo_key)
        if got is None:
            after = self.site.step(before, action, self.world)
            after_full = state_key(after)
            got = self.memo[memo_key] = (after, self.key(after, after_full), after_full)
        return got

    def move(self, t: SemanticTransition) -> Move:
        cat = (category_of(t, self.data) if self.data is not None else t.category) or "unknown"
        return Move(t.action, dict(t.params), cat, t.changes_state and cat == COMMIT)


@dataclass
class _Path:
    """A trajectory under construction: ``full`` digests (as traces record them) let a
    restore rewind it; ``states`` hold the MDP states while a replay runs."""

    keys: list[str]
    full: list[str]
    states: list[State | None]
    moves: list[Move] = field(default_factory=list)

    def add(self, move: Move, key: str, full: str, state: State | None) -> None:
        self.moves.append(move)
        self.keys.append(key)
        self.full.append(full)
        self.states.append(state)

    def rewind(self, full: str) -> None:
        """Back to the last position in state ``full`` (a tree search's restore)."""
        for i in range(len(self.full) - 1, -1, -1):
            if self.full[i] == full:
                del self.keys[i + 1:], self.full[i + 1:], self.states[i + 1:], self.moves[i:]
                return


def _path(trace: EpisodeTrace, ctx: _Context, replay: bool) -> _Path | None:
    """Follow the trace's valid transitions; None when a replay disagrees with the record."""
    key0, full0, s0 = ctx.initial()
    path = _Path([key0], [full0], [s0])
    restores: dict[int, list[str]] = {}
    for r in trace.restores:
        restores.setdefault(r.before_step, []).append(r.state_key)
    for pos, step in enumerate(trace.steps):
        for full in restores.get(pos, []):
            path.rewind(full)
        for t in step.transitions:
            if t.error is not None:
                continue
            if not replay:
                if not t.state_key:
                    raise ConfigError(f"{trace.agent}/{trace.task_id}: transitions carry no "
                                      "state keys to align")
                path.add(ctx.move(t), t.state_key, t.state_key, None)
                continue
            before = path.states[-1]
            assert before is not None
            try:
                after, key, full = ctx.step(before, path.full[-1], Action(t.action, t.params))
            except InvalidAction:
                return None
            if t.state_key and t.state_key != full:
                return None
            path.add(ctx.move(t), key, full, after)
    for full in restores.get(len(trace.steps), []):
        path.rewind(full)
    return path


def _trajectory(trace: EpisodeTrace, ctx: _Context) -> Trajectory:
    path = _path(trace, ctx, replay=True) if ctx.site is not None else None
    if path is None:  # not our MDP, or the replay disagrees: the recorded keys stand
        path = _path(trace, ctx, replay=False)
    assert path is not None
    return Trajectory(trace.task_id, trace.agent, trace.mode, tuple(path.keys),
                      tuple(path.moves))


def trajectory(trace: EpisodeTrace, task: Task) -> Trajectory:
    """The episode's aligned path: the initial state, then the state after each valid
    transition, keyed by the site's alignment state (a replay through our MDP, checked against
    the recorded digests); a site we cannot replay keeps the recorded ``state_key`` and starts
    from :data:`INITIAL`. A restore (tree-search backtracking) rewinds the path to the restored
    state."""
    return _trajectory(trace, _Context.of(task))


def trajectory_states(trace: EpisodeTrace, task: Task) -> list[str]:
    """The alignment keys of :func:`trajectory`: initial key + key after each valid
    transition."""
    return list(trajectory(trace, task).states)


def oracle_trajectory(task: Task) -> Trajectory:
    """The task's oracle replayed through the site's MDP; a :class:`ConfigError` when the site
    is not ours (an imported task's oracle has no states to align)."""
    return _oracle(_Context.of(task))


def _oracle(ctx: _Context) -> Trajectory:
    site, world = ctx.site, ctx.world
    if site is None or world is None:
        why = ("its world is an imported one, not ours" if SITE_SPEC_KEY in ctx.task.world
               else f"site {ctx.task.site!r} is not implemented here")
        raise ConfigError(f"{why}: its oracle cannot be replayed")
    key, full, state = ctx.initial()
    assert state is not None
    keys, moves = [key], []
    for i, action in enumerate(ctx.task.oracle_actions()):
        try:
            spec = site.action_spec(action.name)
            state, key, full = ctx.step(state, full, action)
        except InvalidAction as exc:
            raise ConfigError(f"oracle step {i} is invalid: {exc}", task_id=ctx.task.id) from exc
        cat = spec.category.value
        moves.append(Move(action.name, dict(action.params), cat,
                          spec.changes_state and cat == COMMIT))
        keys.append(key)
    return Trajectory(ctx.task.id, ORACLE, "", tuple(keys), tuple(moves))


# -- alignment and classification --------------------------------------------------------------
def align(failing: Sequence[str], reference: Sequence[str]) -> tuple[int, int] | None:
    """The bifurcation point as ``(index in failing, index in reference)``: walking along the
    failing states, each one found in the reference at or after the last matched position is
    matched there (its earliest such occurrence); the last match wins. None: no shared state."""
    where: dict[str, list[int]] = {}
    for i, key in enumerate(reference):
        where.setdefault(key, []).append(i)
    at, last = 0, None
    for j, key in enumerate(failing):
        positions = where.get(key)
        if positions is None:
            continue
        k = bisect_left(positions, at)
        if k < len(positions):
            at = positions[k]
            last = (j, at)
    return last


def _cats(moves: Iterable[Move]) -> list[str]:
    return [m.category for m in moves]


def _until_commit(moves: Sequence[Move]) -> list[Move]:
    for i, m in enumerate(moves):
        if m.commit:
            return list(moves[:i])
    return list(moves)


def _classify(failing: Trajectory, reference: Trajectory, j: int, i: int
              ) -> tuple[Kind, list[str]] | str:
    """Kind and suffix at the point ``(j, i)``, or why there is no bifurcation."""
    f = failing.moves[j] if j < len(failing.moves) else None
    r = reference.moves[i] if i < len(reference.moves) else None
    if f is None and r is None:
        return ("no divergence: the failing trajectory reaches the reference's final state (the "
                "failure is not in the path, e.g. a wrong final answer)")
    if r is None or (r.commit and f is not None and not f.commit):
        return "delayed_commit", _cats(failing.moves[j:])
    if f is None:
        return "stopped_early", _cats(reference.moves[i:])
    if f.commit and r.commit:
        return "wrong_commit", []
    if f.commit:
        return "premature_commit", _cats(_until_commit(reference.moves[i:]))
    return "wrong_branch", []


def _locate(failing: Trajectory, reference: Trajectory) -> Bifurcation | str:
    if failing.task_id != reference.task_id:
        raise ConfigError(f"cannot align {failing.task_id} with {reference.task_id}")
    point = align(failing.states, reference.states)
    if point is None:
        return "no shared state with the reference"
    j, i = point
    while i < len(reference.moves) and reference.states[i + 1] == reference.states[i]:
        i += 1  # a reference move that stays in the state is not where it went on
    got = _classify(failing, reference, j, i)
    if isinstance(got, str):
        return got
    kind, suffix = got
    f = failing.moves[j] if j < len(failing.moves) else None
    r = reference.moves[i] if i < len(reference.moves) else None
    return Bifurcation(
        task_id=failing.task_id, agent=failing.agent, mode=failing.mode,
        reference=reference.label, kind=kind, index=j, reference_index=i,
        state_key=failing.states[j], failing_action=f.action if f else None,
        failing_category=f.category if f else None, reference_action=r.action if r else None,
        reference_category=r.category if r else None, suffix_categories=suffix,
        failing_length=len(failing.moves), reference_length=len(reference.moves))


def find_bifurcation(failing: Trajectory, reference: Trajectory) -> Bifurcation | None:
    """The bifurcation point of ``failing`` against the successful ``reference`` of the same
    task, classified (see :data:`KINDS`); None when the two share no state or the failing
    trajectory follows the reference to its final state."""
    got = _locate(failing, reference)
    return got if isinstance(got, Bifurcation) else None


# -- over many episodes ------------------------------------------------------------------------
def _label(trace: EpisodeTrace) -> str:
    return f"{trace.agent} ({trace.mode})"


def _name(trace: EpisodeTrace) -> str:
    return f"{trace.agent}/{trace.mode}/{trace.task_id}"


def _task_rows(episodes: Sequence[Episode], skipped: list[tuple[str, str]]
               ) -> list[Bifurcation]:
    ctx = _Context.of(episodes[0][1])
    built: dict[int, Trajectory] = {}

    def path(trace: EpisodeTrace) -> Trajectory:
        if id(trace) not in built:
            built[id(trace)] = _trajectory(trace, ctx)
        return built[id(trace)]

    live = [tr for tr, _ in episodes if tr.termination != "infra_error"]
    winners = sorted((tr for tr in live if tr.success),
                     key=lambda tr: (sum(t.error is None for t in tr.transitions()), _label(tr)))
    rows: list[Bifurcation] = []
    oracle: Trajectory | str | None = None
    for trace in sorted((tr for tr in live if not tr.success), key=_label):
        try:
            failing = path(trace)
            reference = None
            for w in winners:
                if _label(w) != _label(trace):
                    reference = path(w)
                    break
            if reference is None:
                if oracle is None:
                    try:
                        oracle = _oracle(ctx)
                    except ConfigError as exc:
                        oracle = f"no successful episode of another agent, and {exc}"
                if isinstance(oracle, str):
                    skipped.append((_name(trace), f"bifurcation: {oracle}"))
                    continue
                reference = oracle
            got = _locate(failing, reference)
        except WebMDPError as exc:
            skipped.append((_name(trace), f"bifurcation: {exc}"))
            continue
        if isinstance(got, str):
            skipped.append((_name(trace), f"bifurcation against {reference.label}: {got}"))
        else:
            rows.append(got)
    return rows


def bifurcations(episodes: Sequence[Episode], *,
                 skipped: list[tuple[str, str]] | None = None) -> list[Bifurcation]:
    """The bifurcation point of every failing episode that is not an infrastructure error.

    Reference: among the task's successful episodes of other agents (``agent (mode)``), the
    one with the fewest valid transitions, ties by that label; else the task's oracle. An
    episode without a reference or a bifurcation point is appended to ``skipped`` as
    ``(agent/mode/task, reason)``. Rows come by task id, then failing agent."""
    out = skipped if skipped is not None else []
    by_task: dict[str, list[Episode]] = {}
    for trace, task in episodes:
        by_task.setdefault(task.id, []).append((trace, task))
    rows: list[Bifurcation] = []
    for task_id in sorted(by_task):
        rows += _task_rows(by_task[task_id], out)
    return rows


def _ordered(counter: Counter[str]) -> dict[str, int]:
    keys = [k for k in SKILL_ORDER if k in counter] + sorted(set(counter) - set(SKILL_ORDER))
    return {k: counter[k] for k in keys}


def bifurcation_summary(rows: Sequence[Bifurcation]) -> dict[str, Any]:
    """Per failing agent (``agent (mode)``): ``failures`` (rows), ``counts`` per kind (Figure 5
    top), ``references`` (how many were aligned with the oracle / another agent), and per kind
    the ``categories`` counted by :meth:`Bifurcation.plotted` with their ``shares`` (Figure 5
    bottom: each action of a suffix counts once)."""
    out: dict[str, Any] = {}
    for label in sorted({f"{r.agent} ({r.mode})" for r in rows}):
        mine = [r for r in rows if f"{r.agent} ({r.mode})" == label]
        cats: dict[str, Counter[str]] = {k: Counter() for k in KINDS}
        for r in mine:
            cats[r.kind].update(r.plotted())
        out[label] = {
            "failures": len(mine),
            "counts": {k: sum(r.kind == k for r in mine) for k in KINDS},
            "references": dict(Counter(ORACLE if r.reference == ORACLE else "agent"
                                       for r in mine)),
            "categories": {k: _ordered(c) for k, c in cats.items()},
            "shares": {k: {c: n / sum(v.values()) for c, n in _ordered(v).items()}
                       for k, v in cats.items()},
        }
    return out
