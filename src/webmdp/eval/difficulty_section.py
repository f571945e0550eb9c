"""The report's difficulty section (issue 19): success by the tasks' measured WebForge
difficulty, per agent. Accuracy by overall level and by domain (WebForge Table 1), by the level
of each dimension (Table 4), and the runtime cost per level (Table 3: model turns, browser
actions, prompt and completion tokens, wall time), and what the confirmation codes agents
returned stand for (Table 13)."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from webmdp.forge.calibrate import inversions, wilson
from webmdp.sites import site_names
from webmdp.tasks.codes import explain, find_code
from webmdp.tasks.difficulty import TITLES, of_task
from webmdp.tasks.domains import DOMAINS, domain_of
from webmdp.tasks.model import DIMENSIONS, Task
from webmdp.trace import EpisodeTrace

LEVELS = ("1", "2", "3", "none")


def _ours(task: Task) -> bool:
    """A task of a webmdp site, with its world (imported bundles' tasks have neither, and no
    measurable difficulty)."""
    return task.difficulty is not None or (task.site in site_names(plugins=True)
                                           and "entities" in task.world)


def _rate(flags: Sequence[bool]) -> dict[str, Any]:
    """Success count, rate and its 95% Wilson interval (as ``forge calibrate`` gives it)."""
    return {"n": len(flags), "accuracy": round(sum(flags) / len(flags), 4) if flags else None,
            "ci95": wilson(sum(flags), len(flags))}


def _cost(traces: Sequence[EpisodeTrace]) -> dict[str, Any]:
    """Means per episode: model turns, browser actions, tokens (K) and wall time (s)."""
    def mean(values: list[float]) -> float | None:
        return round(statistics.fmean(values), 3) if values else None

    calls = [[c for s in t.steps if s.notes for c in s.notes.model_calls] for t in traces]
    return {"n": len(traces),
            "turns": mean([len(c) for c in calls]),
            "actions": mean([len(t.steps) for t in traces]),
            "prompt_k": mean([sum(x.prompt_tokens or 0 for x in c) / 1000 for c in calls]),
            "completion_k": mean([sum(x.completion_tokens or 0 for x in c) / 1000
                                  for c in calls]),
            "wall_s": mean([t.duration_s for t in traces])}


def _codes(eps: Sequence[tuple[EpisodeTrace, Task]]) -> dict[str, Any]:
    """The confirmation codes agents returned, decoded (WebForge Table 13): how many were the
    gold code, deceptive (and which mistakes each stands for), or no code this task shows."""
    gold = unknown = 0
    mistakes: Counter[str] = Counter()
    returned = 0
    for trace, task in eps:
        code = find_code(trace.final_answer)
        if code is None:
            continue
        returned += 1
        meaning = explain(task, code)
        if meaning.gold:
            gold += 1
        elif not meaning.known:
            unknown += 1
        else:
            mistakes[" + ".join(sorted({c.fact for c in meaning.failing}))] += 1
    return {"returned": returned, "gold": gold, "deceptive": sum(mistakes.values()),
            "unknown": unknown, "mistakes": dict(mistakes.most_common())}


def difficulty_summary(episodes: Sequence[tuple[EpisodeTrace, Task]]) -> dict[str, Any]:
    """Per agent (``agent (mode)``): ``by_level``, ``by_domain``, ``by_dimension`` (each
    ``{"n", "accuracy"}``), ``cost`` per level and the ``codes`` returned. Empty without
    episodes; infra errors (they say nothing of the task) and imported tasks (no world to
    measure) are left out."""
    groups: dict[str, list[tuple[EpisodeTrace, Task]]] = defaultdict(list)
    for trace, task in episodes:
        if trace.infra_error is None and _ours(task):
            groups[f"{trace.agent} ({trace.mode})"].append((trace, task))
    out: dict[str, Any] = {}
    for agent, eps in sorted(groups.items()):
        diffs = [of_task(task) for _, task in eps]
        ok = [trace.success for trace, _ in eps]
        levels = [str(d.level) for d in diffs]
        domains = [task.domain or domain_of(task.site, task.template) for _, task in eps]
        out[agent] = {
            "all": _rate(ok),
            "by_level": {lv: _rate([s for s, x in zip(ok, levels, strict=True) if x == lv])
                         for lv in LEVELS},
            "by_domain": {dm: _rate([s for s, x in zip(ok, domains, strict=True) if x == dm])
                          for dm in DOMAINS},
            "by_dimension": {dim: {f"L{k}": _rate([s for s, d in zip(ok, diffs, strict=True)
                                                  if d.of(dim) == k]) for k in (1, 2, 3)}
                             for dim in DIMENSIONS},
            "cost": {lv: _cost([t for (t, _), x in zip(eps, levels, strict=True) if x == lv])
                     for lv in LEVELS},
            "codes": _codes(eps),
        }
    return out


def _pct(rate: dict[str, Any]) -> str:
    if not rate["n"]:
        return "-"
    lo, hi = rate.get("ci95") or (rate["accuracy"], rate["accuracy"])
    return f"{100 * rate['accuracy']:.1f} [{100 * lo:.0f}-{100 * hi:.0f}] ({rate['n']})"


def _monotone(cells: dict[str, Any]) -> str:
    """``yes``, or the pairs of levels where the harder one scores higher."""
    worse = [f"{i['harder']} > {i['easier']}" for i in inversions(cells)]
    return "no: " + ", ".join(worse) if worse else "yes"


def markdown(summary: dict[str, Any]) -> list[str]:
    """The section's Markdown lines."""
    if not summary:
        return []
    from webmdp.eval.report import md_table

    out = ["## Success by measured difficulty (WebForge)", "",
           "Cells: success % [95% Wilson interval] (episodes). Levels and dimension levels are "
           "measured from each task and its oracle (`webmdp tasks stats`); `none`: a vector "
           "none of WebForge's level rules fits.", "",
           "### By level (WebForge Table 2) and domain (Table 1)", ""]
    agents = list(summary)
    out += md_table(["Agent", "All", *(f"L{lv}" if lv != "none" else "none" for lv in LEVELS),
                     *DOMAINS],
                    [[a, _pct(s["all"]), *(_pct(s["by_level"][lv]) for lv in LEVELS),
                      *(_pct(s["by_domain"][d]) for d in DOMAINS)]
                     for a, s in summary.items()])
    out += ["", "Domains: " + "; ".join(f"{k} {v}" for k, v in DOMAINS.items()) + ".", "",
            "### By dimension level (WebForge Table 4)", ""]
    out += md_table(["Agent", "Dimension", "L1", "L2", "L3", "Monotone"],
                    [[a, TITLES[dim], *(_pct(summary[a]["by_dimension"][dim][f"L{k}"])
                                        for k in (1, 2, 3)),
                      _monotone(summary[a]["by_dimension"][dim])]
                     for a in agents for dim in DIMENSIONS])
    out += ["", "Monotone: no harder level of the dimension scores higher for the agent (no "
            "threshold is tuned to make it so)."]
    out += ["", "### Runtime cost per level (WebForge Table 3)", "",
            "Means per episode: model turns, browser actions, prompt and completion tokens "
            "(thousands), wall time (s).", ""]

    def num(v: float | None) -> str:
        return "-" if v is None else f"{v:g}"

    out += md_table(["Agent", "Level", "Episodes", "Turns", "Actions", "Prompt K",
                     "Completion K", "Wall s"],
                    [[a, lv, str(c["n"]), *(num(c[k]) for k in ("turns", "actions", "prompt_k",
                                                                "completion_k", "wall_s"))]
                     for a in agents for lv, c in summary[a]["cost"].items() if c["n"]])
    rows = [[a, str(c["returned"]), str(c["gold"]), str(c["deceptive"]), str(c["unknown"]),
             "; ".join(f"{k} ({v})" for k, v in c["mistakes"].items()) or "-"]
            for a, s in summary.items() if (c := s["codes"])["returned"]]
    if rows:
        out += ["", "### Returned confirmation codes (WebForge Table 13)", "",
                "A wrong commit shows a deceptive code that names its mistakes: the facts of "
                "the failing verifier conditions.", ""]
        out += md_table(["Agent", "Codes returned", "Gold", "Deceptive", "Not this task's",
                         "Mistakes they stand for (episodes)"], rows)
    return [*out, ""]
