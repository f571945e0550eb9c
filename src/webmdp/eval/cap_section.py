"""The report's cross-site section (CAP, issue 20): Table 3's metrics from the exact rubric
trees, scores per action and perception type (Figure A.1), complexity against score under both
of CAP's definitions (Figure 4), and breakdowns per site, per number of sites and per pattern.

An episode's rubric is its trace's (evaluated when the episode closed); an older trace of a
cross-site task without one is evaluated here from its transitions, so nothing is lost."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from webmdp.core.model import World
from webmdp.core.registry import get_site
from webmdp.eval.report import md_escape
from webmdp.sites.cross.site import member_worlds
from webmdp.tasks.model import Task
from webmdp.tasks.rubric import is_unjudged
from webmdp.tasks.rubric_eval import evaluate
from webmdp.trace import EpisodeTrace, GUIStep, RubricResult, SemanticTransition

METRICS = ("partial_completion", "mean_score", "success_rate", "complex_a", "complex_p",
           "time_min", "output_len")


def rubric_of(trace: EpisodeTrace, task: Task) -> RubricResult | None:
    if task.cross is None:
        return None
    if trace.rubric is not None:
        return trace.rubric
    return evaluate(task.cross.rubric, trace.transitions(), trace.initial_revealed,
                    trace.final_facts, trace.final_answer)


def site_episode(trace: EpisodeTrace, task: Task, site: str) -> EpisodeTrace:
    """The part of a cross-site episode spent on one member site, as that site's own episode:
    its transitions (names and surfaces without the site prefix), the GUI steps that caused
    them or happened on its pages, and its verifier entries."""
    lead = f"{site}."
    page = f"/{site}/"

    def own(t: SemanticTransition) -> SemanticTransition:
        return t.model_copy(update={
            "action": t.action[len(lead):],
            "surface_before": t.surface_before.split("/", 1)[-1],
            "surface_after": t.surface_after.split("/", 1)[-1], "site": None})

    steps: list[GUIStep] = []
    for step in trace.steps:
        mine = [own(t) for t in step.transitions if t.site == site]
        if mine or (not step.transitions and step.url and page in step.url):
            steps.append(step.model_copy(update={"index": len(steps), "transitions": mine}))
    verdicts = {k[len(site) + 2:]: v for k, v in trace.verifier.items()
                if k.startswith(f"{site}: ")}
    return trace.model_copy(update={
        "steps": steps, "verifier": verdicts, "site": site,
        "success": bool(verdicts) and all(verdicts.values()), "initial_revealed": [],
        "initial_surface": get_site(site).initial_state(
            member_worlds(World.from_dict(task.world))[site]).surface, "rubric": None})


def process_by_site(episodes: Sequence[tuple[EpisodeTrace, Task]]) -> dict[str, Any]:
    """WebSTEP's process metrics per member site inside cross-site episodes: each site's part
    of an episode against the single-site task that step was made of."""
    from webmdp.cap.compose import base_tasks
    from webmdp.eval.metrics import episode_metrics

    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for trace, task in episodes:
        if task.cross is None:
            continue
        for base in base_tasks(task):
            m = episode_metrics(site_episode(trace, task, base.site), base)
            per = rows[f"{trace.agent}|{base.site}"]
            per["exploration_success"].append(float(m.exploration_success))
            per["coverage_final"].append(m.coverage_final)
            per["terminal_success"].append(float(m.terminal_success))
            per["gui_steps"].append(float(m.gui_steps))
            per["semantic_steps"].append(float(m.semantic_steps))
    out: dict[str, Any] = defaultdict(dict)
    for key, per in sorted(rows.items()):
        agent, site = key.split("|", 1)
        out[agent][site] = {"n": len(per["terminal_success"]),
                            **{k: _mean(v) for k, v in per.items()}}
    return dict(out)


def _mean(values: Sequence[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


def _words(text: str | None) -> int:
    return len((text or "").split())


def metrics(rows: Sequence[tuple[EpisodeTrace, Task, RubricResult]]) -> dict[str, Any]:
    """CAP Table 3 over the ``n`` episodes whose root is judged: partial completion (root > 0),
    mean root score, success (root = 1), Complex-A / Complex-P (mean over their judged action /
    perception leaves), time (minutes) and output length (words in the final answer).
    ``unjudged``: the episodes left out because a judge left their root unjudged (the exact
    leaves never do); with none judged, every metric is None."""
    judged = [row for row in rows if not is_unjudged(row[2].root)]
    roots = [r.root for _, _, r in judged]
    act = [v.score for _, _, r in judged for v in r.leaves if v.kind == "action"
           and v.score is not None]
    perc = [v.score for _, _, r in judged for v in r.leaves if v.kind == "perception"
            and v.score is not None]
    return {
        "n": len(judged),
        "unjudged": len(rows) - len(judged),
        "partial_completion": _mean([float(x > 0) for x in roots]),
        "mean_score": _mean(roots),
        "success_rate": _mean([float(x == 1.0) for x in roots]),
        "complex_a": _mean([float(x) for x in act]),
        "complex_p": _mean([float(x) for x in perc]),
        "time_min": _mean([t.duration_s / 60 for t, _, _ in judged]),
        "output_len": _mean([float(_words(t.final_answer)) for t, _, _ in judged]),
    }


def _pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    if len(xs) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return round(sxy / (sx * sy), 4)


def complexity(rows: Sequence[tuple[EpisodeTrace, Task, RubricResult]]) -> dict[str, Any]:
    """Figure 4: raw-sum complexity (execution + perception points of the task) and normalised
    (each count over its maximum in the set, summed: in [0, 2]) against the root score."""
    def counts(task: Task) -> tuple[int, int]:
        assert task.cross is not None
        pts = task.cross.covered
        return (sum(p.kind == "action" for p in pts), sum(p.kind == "perception" for p in pts))

    pairs = [counts(task) for _, task, _ in rows]
    max_a = max((a for a, _ in pairs), default=0) or 1
    max_p = max((p for _, p in pairs), default=0) or 1
    raw = [float(a + p) for a, p in pairs]
    norm = [round(a / max_a + p / max_p, 4) for a, p in pairs]
    scores = [r.root for _, _, r in rows]
    return {"raw_sum": {"points": [[x, s] for x, s in zip(raw, scores, strict=True)],
                        "pearson": _pearson(raw, scores)},
            "normalised": {"points": [[x, s] for x, s in zip(norm, scores, strict=True)],
                           "pearson": _pearson(norm, scores)}}


def by_type(rows: Sequence[tuple[EpisodeTrace, Task, RubricResult]]) -> dict[str, Any]:
    """Figure A.1: the mean leaf score per CAP action type and per perception type."""
    out: dict[str, dict[str, list[int]]] = {"action": defaultdict(list),
                                           "perception": defaultdict(list)}
    for _, task, res in rows:
        assert task.cross is not None
        types = {leaf.id: (leaf.kind, leaf.type_id) for leaf in task.cross.rubric.leaves()}
        for v in res.leaves:
            kind, type_id = types.get(v.id, (None, None))
            if type_id and kind in out and v.score is not None:
                out[kind][type_id].append(v.score)
    return {kind: {t: {"n": len(s), "score": _mean([float(x) for x in s])}
                   for t, s in sorted(per.items())} for kind, per in out.items()}


def cap_summary(episodes: Sequence[tuple[EpisodeTrace, Task]]) -> dict[str, Any]:
    """The report's ``cap`` object: Table 3's metrics over every cross-site episode and per
    agent, with the breakdowns; empty when the runs hold no cross-site task."""
    rows = [(t, task, r) for t, task in episodes if (r := rubric_of(t, task)) is not None]
    if not rows:
        return {}
    agents: dict[str, list[tuple[EpisodeTrace, Task, RubricResult]]] = defaultdict(list)
    for row in rows:
        agents[row[0].agent].append(row)

    def breakdown(key) -> dict[str, Any]:  # type: ignore[no-untyped-def]
        """Per agent, the metrics of each group of its episodes."""
        out: dict[str, Any] = {}
        for agent, agent_rows in sorted(agents.items()):
            groups: dict[str, list[tuple[EpisodeTrace, Task, RubricResult]]] = \
                defaultdict(list)
            for row in agent_rows:
                for k in key(row[1]):
                    groups[str(k)].append(row)
            out[agent] = {k: metrics(v) for k, v in sorted(groups.items())}
        return out

    return {
        **metrics(rows),
        "process_by_site": process_by_site([(t, task) for t, task, _ in rows]),
        "agents": {a: {**metrics(r), "by_type": by_type(r), "complexity": complexity(r)}
                   for a, r in sorted(agents.items())},
        "by_site": breakdown(lambda t: t.sites or ()),
        "by_n_sites": breakdown(lambda t: [len(t.sites or ())]),
        "by_pattern": breakdown(lambda t: [t.template]),
        "by_type": by_type(rows),
        "complexity": complexity(rows),
    }


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def markdown(summary: dict[str, Any]) -> list[str]:
    """The section's markdown (nothing when there is no cross-site episode)."""
    if not summary:
        return []
    out = ["## Cross-site tasks (CAP rubric trees)", "",
           "Scores from each task's rubric tree, every leaf judged exactly from the per-site "
           "semantic traces (CAP eq. 2: a failed critical child zeroes its parent, else the "
           "mean of the others). Partial completion: root > 0; success: root = 1; Complex-A / "
           "Complex-P: mean action / perception leaf score (%).", "",
           "| agent | n | partial completion | success | mean score | Complex-A | Complex-P "
           "| time (min) | output (words) |", "|---|---|---|---|---|---|---|---|---|"]
    for agent, m in summary["agents"].items():
        out.append(f"| {md_escape(agent)} | {m['n']} | {_pct(m['partial_completion'])} | "
                   f"{_pct(m['success_rate'])} | {_pct(m['mean_score'])} | "
                   f"{_pct(m['complex_a'])} | {_pct(m['complex_p'])} | "
                   f"{m['time_min'] if m['time_min'] is not None else '-'} | "
                   f"{m['output_len'] if m['output_len'] is not None else '-'} |")
    out.append("")
    for key, title in (("by_pattern", "DAG pattern"), ("by_n_sites", "number of sites"),
                       ("by_site", "site")):
        out += [f"### By {title}", "", f"| agent | {title} | n | partial completion | success | "
                "mean score |", "|---|---|---|---|---|---|"]
        for agent, groups in summary[key].items():
            for name, m in groups.items():
                out.append(f"| {md_escape(agent)} | {md_escape(name)} | {m['n']} | "
                           f"{_pct(m['partial_completion'])} | {_pct(m['success_rate'])} | "
                           f"{_pct(m['mean_score'])} |")
        out.append("")
    for kind, title in (("action", "action type"), ("perception", "perception type")):
        per = summary["by_type"][kind]
        if per:
            out += [f"### Score per {title} (CAP Figure A.1)", "", f"| {title} | leaves | "
                    "score |", "|---|---|---|"]
            out += [f"| {t} | {v['n']} | {_pct(v['score'])} |" for t, v in per.items()]
            out.append("")
    out += ["### WebSTEP process metrics per site inside cross-site episodes", "",
            "Each site's part of an episode measured against the single-site task its step "
            "was made of (%).", "",
            "| agent | site | n | step success | exploration success | info coverage |",
            "|---|---|---|---|---|---|"]
    for agent, sites in summary["process_by_site"].items():
        for site, m in sites.items():
            out.append(f"| {md_escape(agent)} | {site} | {m['n']} | "
                       f"{_pct(m['terminal_success'])} | {_pct(m['exploration_success'])} | "
                       f"{_pct(m['coverage_final'])} |")
    out.append("")
    c = summary["complexity"]
    out += ["### Complexity vs score (CAP Figure 4)", "",
            f"Pearson r, raw-sum complexity: {c['raw_sum']['pearson']}; normalised "
            f"complexity: {c['normalised']['pearson']}.", ""]
    return out
