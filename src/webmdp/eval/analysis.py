"""Everything `webmdp report` computes from loaded runs, in one value.

:func:`analyse` runs every analysis on the episodes of :class:`LoadedRuns`: the per-episode
metrics (WebSTEP 4.1), skill invocation by category and by fine-grained skill (4.2, Tables
13-14), the temporal skill pattern (Figure 4), the complexity regimes (4.4, Tables 15-17), the
planning paper's five metrics (Definitions 4.1-4.5), bifurcation points (4.3) and, for
imported runs, recorded-vs-recomputed disagreements. An episode an analysis cannot use (e.g.
metrics of a site whose MDP this project lacks) is named in ``skipped`` with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from webmdp.errors import WebMDPError
from webmdp.eval.bifurcation import bifurcation_summary, bifurcations
from webmdp.eval.cap_section import cap_summary
from webmdp.eval.difficulty_section import difficulty_summary
from webmdp.eval.disagreements import episode_disagreements, read_recorded
from webmdp.eval.importers.webstep import RecordedValues
from webmdp.eval.load import LoadedRuns
from webmdp.eval.matchers import Matcher
from webmdp.eval.metrics import EpisodeMetrics, episode_metrics
from webmdp.eval.planning import (
    DEFAULT_WINDOW,
    PlanningMetrics,
    aggregate_planning,
    planning_metrics,
)
from webmdp.eval.runs import RunState, run_state
from webmdp.eval.skills import Invocation, skill_invocation, temporal_pattern
from webmdp.eval.synth_section import synth_summary
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace


@dataclass
class Analysis:
    """The report's data; every field is JSON-serialisable through :meth:`to_json`."""

    loaded: LoadedRuns
    rows: list[EpisodeMetrics] = field(default_factory=list)
    skills: dict[str, dict[str, dict[str, Invocation]]] = field(default_factory=dict)
    skill_names: dict[str, dict[str, dict[str, Invocation]]] = field(default_factory=dict)
    temporal: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    planning_rows: list[PlanningMetrics] = field(default_factory=list)
    planning: dict[str, Any] = field(default_factory=dict)
    """``{"all": aggregate, "by_agent": {agent (mode): aggregate}}`` (aggregate_planning)."""
    bifurcation: dict[str, Any] = field(default_factory=dict)
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    runs: list[RunState] = field(default_factory=list)
    """Each loaded run's state from its manifest, read when analysed (never written)."""
    synth: dict[str, Any] = field(default_factory=dict)
    """What `webmdp synth` stored next to the runs (:func:`synth_section.synth_summary`)."""
    difficulty: dict[str, Any] = field(default_factory=dict)
    cap: dict[str, Any] = field(default_factory=dict)
    """Cross-site tasks' rubric scores (:func:`cap_section.cap_summary`); empty without any."""
    """Success by measured WebForge difficulty (:func:`difficulty_section.difficulty_summary`)."""

    @property
    def episodes(self) -> list[tuple[EpisodeTrace, Task]]:
        return self.loaded.episodes

    @property
    def notes(self) -> list[str]:
        return self.loaded.notes


def _metrics(loaded: LoadedRuns, skipped: list[tuple[str, str]]) -> list[EpisodeMetrics]:
    rows = []
    for trace, task in loaded.episodes:
        try:
            rows.append(episode_metrics(trace, task))
        except WebMDPError as e:
            skipped.append((f"{trace.agent}/{trace.mode}/{trace.task_id}",
                            f"process metrics: {e}"))
    return rows


def _disagreements(loaded: LoadedRuns, skipped: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Recorded-vs-recomputed differences of imported episodes (runs with ``recorded.jsonl``)."""
    recorded: dict[tuple[str, str, str], RecordedValues] = {}
    for run in loaded.runs:
        rows, bad = read_recorded(run)
        recorded.update(rows)
        skipped.extend(bad)
    out = []
    for trace, task in loaded.episodes:
        row = recorded.get((trace.agent, trace.mode, trace.task_id))
        if row is not None:
            out += [d.model_dump() for d in episode_disagreements(trace, task, row)]
    return out


def analyse(loaded: LoadedRuns, *, matcher: Matcher | None = None,
            window: int = DEFAULT_WINDOW) -> Analysis:
    """Run every analysis on ``loaded``. ``matcher`` decides whether an agent step fulfils a
    gold step in the planning metrics (default: exact for typed gold); ``window`` is their
    recovery look-ahead."""
    out = Analysis(loaded=loaded, skipped=list(loaded.skipped),
                   runs=[run_state(r) for r in loaded.runs])
    out.rows = _metrics(loaded, out.skipped)
    out.skills = skill_invocation(loaded.episodes, by="category")
    out.skill_names = skill_invocation(loaded.episodes, by="skill")
    out.temporal = temporal_pattern(loaded.episodes)
    out.disagreements = _disagreements(loaded, out.skipped)
    out.bifurcation = bifurcation_summary(bifurcations(loaded.episodes, skipped=out.skipped))
    out.planning_rows = [planning_metrics(trace, task, matcher=matcher, window=window)
                         for trace, task in loaded.episodes]
    by_agent: dict[str, list[PlanningMetrics]] = {}
    for r in out.planning_rows:
        by_agent.setdefault(f"{r.agent} ({r.mode})", []).append(r)
    out.planning = {"all": aggregate_planning(out.planning_rows),
                    "by_agent": {k: aggregate_planning(v) for k, v in sorted(by_agent.items())}}
    out.synth = synth_summary(loaded.runs)
    out.difficulty = difficulty_summary(loaded.episodes)
    out.cap = cap_summary(loaded.episodes)
    return out
