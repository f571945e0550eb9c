"""The planning paper's five trajectory metrics (Definitions 4.1-4.5), per episode.

Each rate is stored with the counts it is made of, so a report aggregates over episodes by
summing counts (:func:`aggregate_planning`) and every number traces back to its definition.

Granularity. Gold steps are compared with agent steps at the gold's level: against typed gold
(our oracle, a bundle's oracle trajectory) the agent's steps are its semantic transitions, one
per transition, accepted or rejected (a rejected one fulfils nothing); GUI steps that caused no
transition (scrolling, typing before submit, an unparseable output) have no semantic
counterpart and are neither matches nor deviations, so step success and recovery of the two
modes compare like for like. Against free-text gold (human GUI-level annotations) every GUI
step is an agent step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from statistics import fmean
from typing import Any

from pydantic import BaseModel, Field

from webmdp.core.spec import Action
from webmdp.errors import ConfigError
from webmdp.eval.matchers import (
    AgentStep,
    ExactMatcher,
    GoldStep,
    Matcher,
    NormalizedMatcher,
    render_step_action,
)
from webmdp.tasks.model import ActionModel, Task
from webmdp.trace import EpisodeTrace, GUIStep, Mode

DEFAULT_WINDOW = 5
"""Recovery look-ahead: gold steps considered from the current one on. The paper makes it a
user parameter and matches "up to a maximum sequence length of five steps"."""

NO_ACTION = "invalid"
"""``action.kind`` of a step whose model output gave no action (``env.episode.INVALID_KIND``)."""

PLANNING_KEYS: tuple[str, ...] = (
    "step_success", "recovery", "repetitiveness", "partial_success", "element_accuracy")


class PlanningMetrics(BaseModel):
    """One episode's five planning metrics (fractions in [0, 1], None when undefined) and
    their counts."""

    task_id: str
    agent: str
    mode: Mode
    infra_error: bool = Field(description="excluded from aggregates, like the process metrics")
    matcher: str = Field(description="the matcher that compared agent and gold steps")
    window: int = Field(description="recovery look-ahead window (Def. 4.1)")
    step_success: float | None = Field(description="Def. 4.3: gold_matched / gold_steps")
    recovery: float | None = Field(description="Def. 4.1: recoveries / deviations")
    repetitiveness: float | None = Field(description="Def. 4.2: 1 - repeated / actions")
    partial_success: float | None = Field(
        description="Def. 4.4: requirements_met / requirements; None under 2 requirements")
    element_accuracy: float | None = Field(
        description="Def. 4.5: intent_matches / intent_steps; None when no step states an intent")
    gold_steps: int
    gold_matched: int
    agent_steps: int = Field(description="agent steps at the gold's granularity")
    deviations: int
    recoveries: int
    actions: int = Field(description="steps that carried an action (Def. 4.2 denominator)")
    repeated: int
    requirements: int
    requirements_met: int
    intent_steps: int = Field(description="steps with a stated intent that could be compared")
    intent_matches: int
    intent_undecided: int = Field(
        description="stated intents the trace cannot compare (e.g. element id vs point)")


# -- agent steps at the gold's granularity ------------------------------------------------------
def _gui_text(step: GUIStep) -> str:
    return render_step_action(step.action) if "kind" in step.action else ""


def agent_steps(trace: EpisodeTrace, *, typed_gold: bool) -> list[AgentStep]:
    """The agent's steps as matchers see them: one per semantic transition against typed
    gold, one per GUI step against text gold (see the module docstring)."""
    out: list[AgentStep] = []
    for s in trace.steps:
        gui = _gui_text(s)
        if typed_gold:
            out += [AgentStep(s.index, (Action(t.action, dict(t.params)),) if t.error is None
                              else (), gui, valid=t.error is None) for t in s.transitions]
            continue
        accepted = tuple(Action(t.action, dict(t.params)) for t in s.transitions
                         if t.error is None)
        if "name" in s.action and not s.transitions:  # semantic Finish: the action itself
            accepted = (Action(str(s.action["name"]), dict(s.action.get("params") or {})),)
        no_action = s.action.get("kind") == NO_ACTION
        out.append(AgentStep(s.index, accepted, gui,
                             valid=s.error is None and not no_action and
                             all(t.error is None for t in s.transitions)))
    return out


Match = Callable[[AgentStep, GoldStep], bool]


def step_success_counts(units: Sequence[AgentStep], gold: Sequence[GoldStep],
                        match: Match) -> int:
    """Def. 4.3: gold steps fulfilled by the trajectory. As the paper's prompt (App. D) says:
    for each gold step in order, the first still unmatched agent step that fulfils it; each
    agent step fulfils at most one gold step, so a gold step done twice must be done twice."""
    used: set[int] = set()
    matched = 0
    for g in gold:
        hit = next((i for i, u in enumerate(units) if i not in used and match(u, g)), None)
        if hit is not None:
            used.add(hit)
            matched += 1
    return matched


def recovery_counts(units: Sequence[AgentStep], gold: Sequence[GoldStep], match: Match,
                    window: int) -> tuple[int, int]:
    """Def. 4.1: ``(deviations, recoveries)``.

    A cursor walks the gold steps. On track, a step that fulfils the current gold step advances
    it; one that does not opens a deviation incident (later off-path steps belong to the same
    incident). A later step that fulfils one of the ``window`` gold steps from the current one
    on recovers the incident and moves the cursor past that gold step. Once the gold is
    exhausted nothing deviates; an incident still open at the end is unrecovered."""
    if window < 1:
        raise ConfigError(f"recovery window must be at least 1, got {window}")
    cur = deviations = recoveries = 0
    deviating = False
    for u in units:
        if cur >= len(gold):
            break
        if not deviating:
            if match(u, gold[cur]):
                cur += 1
            else:
                deviations += 1
                deviating = True
            continue
        hit = next((k for k in range(cur, min(cur + window, len(gold))) if match(u, gold[k])),
                   None)
        if hit is not None:
            recoveries += 1
            deviating = False
            cur = hit + 1
    return deviations, recoveries


def repetition_counts(trace: EpisodeTrace) -> tuple[int, int]:
    """Def. 4.2: ``(actions, repeated)``. An action is repetitive when identical to the
    previous one: the step's ``action`` dict as the agent emitted it (the GUI action in browser
    mode, the semantic action in semantic mode), rejected ones included since retrying a failing
    action is what the metric exposes. Steps without an action (unparseable output) are not
    actions and are skipped, so the comparison is with the previous action."""
    acts = [s.action for s in trace.steps if s.action.get("kind") != NO_ACTION]
    repeated = sum(a == b for a, b in pairwise(acts))
    return len(acts), repeated


# -- element accuracy ---------------------------------------------------------------------------
def _point(a: Mapping[str, Any], xk: str = "x", yk: str = "y") -> tuple[int, int] | None:
    x, y = a.get(xk), a.get(yk)
    return None if x is None or y is None else (round(float(x)), round(float(y)))


def _target(a: Mapping[str, Any]) -> tuple[str, Any] | None:
    if a.get("element") is not None:
        return ("element", a["element"])
    if (p := _point(a)) is not None:
        return ("point", p)
    if a.get("target") is not None:  # a label the thought quoted ("click 'Add to Cart'")
        return ("label", str(a["target"]).strip().casefold())
    return None


def _scroll_direction(a: Mapping[str, Any]) -> str | None:
    if a.get("direction"):
        return str(a["direction"])
    dx, dy = float(a.get("dx") or 0), float(a.get("dy") or 0)
    if dy:
        return "down" if dy > 0 else "up"
    if dx:
        return "right" if dx > 0 else "left"
    return None


def _argument(a: Mapping[str, Any]) -> Any:
    """What besides the target says which action of a kind it is."""
    kind = a.get("kind")
    if kind == "key":
        return str(a.get("key", "")).casefold()
    if kind == "scroll":
        return _scroll_direction(a)
    if kind == "select_option":
        return a.get("option")
    if kind == "drag":
        return _point(a, "x2", "y2")
    return None


def intent_verdict(intent: Mapping[str, Any], step: GUIStep) -> bool | None:
    """Def. 4.5 for one step: did the executed action match the stated one? None when the trace
    cannot tell.

    Semantic intent: same name and params as the executed semantic action, or (browser mode) as
    one of the step's accepted transitions. GUI intent: same kind, same target and, for keys,
    scrolls, selects and drags, the same key / direction / option / end point. Targets compare
    element id with element id and point with point (rounded to whole pixels); an element id
    against a point, or a quoted label, is undecidable, as the trace does not record which
    element a point hit. Typed text is not compared (the definition is about the element). No
    action executed (unparseable output) is a mismatch."""
    executed = step.action
    if dict(intent) == executed:
        return True
    if executed.get("kind") == NO_ACTION:
        return False
    if "name" in intent:
        name, params = intent["name"], dict(intent.get("params") or {})
        if "name" in executed:
            return bool(executed["name"] == name and dict(executed.get("params") or {}) == params)
        return any(t.error is None and t.action == name and t.params == params
                   for t in step.transitions)
    if "kind" not in intent:
        return False  # the stated "action" is none the agent could execute
    if "kind" not in executed:
        return None
    if intent["kind"] != executed["kind"] or _argument(intent) != _argument(executed):
        return False
    it, et = _target(intent), _target(executed)
    if it is None or et is None:
        return None if (it is None) != (et is None) else True
    if it[0] != et[0] or it[0] == "label":
        return None
    return bool(it == et)


def element_counts(trace: EpisodeTrace) -> tuple[int, int, int]:
    """Def. 4.5: ``(intent_steps, intent_matches, intent_undecided)`` over the steps whose notes
    state an intent (model agents record the executed action when none is stated)."""
    verdicts = [intent_verdict(s.notes.intent, s) for s in trace.steps
                if s.notes is not None and s.notes.intent is not None]
    decided = [v for v in verdicts if v is not None]
    return len(decided), sum(decided), len(verdicts) - len(decided)


# -- partial success ----------------------------------------------------------------------------
def requirement_counts(trace: EpisodeTrace, task: Task | None) -> tuple[int, int]:
    """Def. 4.4: ``(requirements, met)``: the task's verifier conditions and those the final
    state satisfies (``trace.verifier``, keyed by description or fact; a condition missing from
    it, as in an unsealed trace, is unmet). Without a task, the trace's own verdicts."""
    if task is None:
        return len(trace.verifier), sum(trace.verifier.values())
    keys = [c.description or c.fact for c in task.verifier]
    return len(keys), sum(bool(trace.verifier.get(k, False)) for k in keys)


# -- the episode --------------------------------------------------------------------------------
def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def _gold_steps(gold: Sequence[Action | ActionModel | str]) -> list[GoldStep]:
    return [g.to_action() if isinstance(g, ActionModel) else g for g in gold]


def planning_metrics(trace: EpisodeTrace, task: Task | None, *,
                     gold: Sequence[Action | ActionModel | str] | None = None,
                     matcher: Matcher | None = None,
                     window: int = DEFAULT_WINDOW) -> PlanningMetrics:
    """The five planning metrics of one episode.

    ``gold`` defaults to the task's oracle (typed, compared with :class:`ExactMatcher`); gold
    given as text is compared with :class:`NormalizedMatcher` unless ``matcher`` says otherwise
    (an :class:`~webmdp.eval.matchers.LLMJudgeMatcher` is used only when passed here).
    ``window`` is the recovery look-ahead (Def. 4.1)."""
    if gold is None:
        if task is None:
            raise ConfigError("planning metrics need the task or explicit gold steps",
                              task_id=trace.task_id)
        gold = task.oracle
    steps = _gold_steps(gold)
    typed = all(isinstance(g, Action) for g in steps)
    m = matcher or (ExactMatcher() if typed else NormalizedMatcher())
    units = agent_steps(trace, typed_gold=typed)

    def match(u: AgentStep, g: GoldStep) -> bool:
        return u.valid and m.matches(u, g)

    matched = step_success_counts(units, steps, match)
    deviations, recoveries = recovery_counts(units, steps, match, window)
    actions, repeated = repetition_counts(trace)
    requirements, met = requirement_counts(trace, task)
    intent_steps, intent_matches, undecided = element_counts(trace)
    return PlanningMetrics(
        task_id=trace.task_id, agent=trace.agent, mode=trace.mode,
        infra_error=trace.termination == "infra_error", matcher=m.name, window=window,
        step_success=_ratio(matched, len(steps)),
        recovery=_ratio(recoveries, deviations),
        repetitiveness=None if not actions else 1 - repeated / actions,
        partial_success=_ratio(met, requirements) if requirements >= 2 else None,
        element_accuracy=_ratio(intent_matches, intent_steps),
        gold_steps=len(steps), gold_matched=matched, agent_steps=len(units),
        deviations=deviations, recoveries=recoveries, actions=actions, repeated=repeated,
        requirements=requirements, requirements_met=met, intent_steps=intent_steps,
        intent_matches=intent_matches, intent_undecided=undecided,
    )


# -- over episodes ------------------------------------------------------------------------------
_COUNTS: dict[str, tuple[str, str]] = {
    "step_success": ("gold_matched", "gold_steps"),
    "recovery": ("recoveries", "deviations"),
    "repetitiveness": ("repeated", "actions"),
    "partial_success": ("requirements_met", "requirements"),
    "element_accuracy": ("intent_matches", "intent_steps"),
}


def aggregate_planning(rows: Sequence[PlanningMetrics]) -> dict[str, Any]:
    """The five rates over episodes (infra errors excluded).

    Top-level keys are micro averages: summed numerators over summed denominators (for
    repetitiveness ``1 - sum(repeated) / sum(actions)``; partial success over episodes with at
    least two requirements only). ``macro`` holds the paper's own averages, the mean of the
    per-episode rates where defined; ``counts`` the summed counts; ``episodes`` how many
    episodes contributed to each rate."""
    ok = [r for r in rows if not r.infra_error]
    out: dict[str, Any] = {}
    macro: dict[str, float | None] = {}
    counts: dict[str, int] = {}
    episodes: dict[str, int] = {}
    for key, (num, den) in _COUNTS.items():
        defined = [r for r in ok if getattr(r, key) is not None]
        n, d = sum(getattr(r, num) for r in defined), sum(getattr(r, den) for r in defined)
        rate = _ratio(n, d)
        out[key] = None if rate is None else (1 - rate if key == "repetitiveness" else rate)
        macro[key] = fmean(getattr(r, key) for r in defined) if defined else None
        counts[num], counts[den] = n, d
        episodes[key] = len(defined)
    counts["deviations_unrecovered"] = counts["deviations"] - counts["recoveries"]
    counts["intent_undecided"] = sum(r.intent_undecided for r in ok)
    return {**out, "macro": macro, "counts": counts, "episodes": episodes,
            "infra_errors": len(rows) - len(ok)}


__all__ = [
    "DEFAULT_WINDOW", "PLANNING_KEYS", "PlanningMetrics", "agent_steps", "aggregate_planning",
    "element_counts", "intent_verdict", "planning_metrics", "recovery_counts",
    "repetition_counts", "requirement_counts", "step_success_counts",
]
