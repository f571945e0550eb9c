"""The report's training-data section (issue 18): what `webmdp synth` stored next to each run's
traces (RUN/synth/grades-<source>.jsonl, trajectories.jsonl), summarised: kept ratio and grade
distribution per source, agent and site, agreement between every pair of sources, the judge's
agreement with the verifier, and the share of steps graded above each threshold (WebSTAR
Figure 4)."""

from __future__ import annotations

import itertools
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from webmdp.errors import ConfigError
from webmdp.synth.agreement import agreement, by_step, kept, share_above
from webmdp.synth.sidefile import Row, episode_key, read_rows, row_key, step_key, synth_dir

CUTOFF = 5


def _read(path: Path, skipped: list[str], key: Callable[[Row], Any] = row_key) -> list[Row]:
    """A side file's rows; an unreadable one is left out of the report and named."""
    try:
        return read_rows(path, key)
    except ConfigError as e:
        skipped.append(str(e))
        return []


def _distribution(rows: Sequence[Row]) -> dict[str, Any]:
    """Steps, graded, kept share (grade > 5), the 0-10 histogram and the share graded above
    each threshold 0..10 (WebSTAR Figure 4) of one group of rows."""
    grades = [statistics.fmean(v) for v in by_step(rows).values()]
    hist = Counter(round(g) for g in grades)
    n_kept = sum(kept(g, CUTOFF) for g in grades)
    return {"steps": len({step_key(r) for r in rows}), "graded": len(grades), "kept": n_kept,
            "kept_ratio": round(n_kept / len(grades), 4) if grades else None,
            "histogram": [hist.get(i, 0) for i in range(11)],
            "share_above": share_above(grades)}


def synth_summary(runs: Sequence[Path]) -> dict[str, Any]:
    """Per source: overall, by agent and by site; agreement between sources; trajectories.
    Empty when no run has synth files."""
    rows: dict[str, list[Row]] = defaultdict(list)
    trajectories: list[Row] = []
    skipped: list[str] = []
    for run in runs:
        for path in sorted(synth_dir(run).glob("grades-*.jsonl")):
            rows[path.stem.removeprefix("grades-")] += _read(path, skipped)
        path = synth_dir(run) / "trajectories.jsonl"
        if path.is_file():
            trajectories += _read(path, skipped, episode_key)
    if not rows and not trajectories and not skipped:
        return {}
    out: dict[str, Any] = {"cutoff": CUTOFF, "split": "gt", "sources": {}, "skipped": skipped}
    for source, found in sorted(rows.items()):
        by_agent: dict[str, list[Row]] = defaultdict(list)
        by_site: dict[str, list[Row]] = defaultdict(list)
        for r in found:
            by_agent[f"{r['agent']} ({r['mode']})"].append(r)
            by_site[str(r.get("site") or str(r["task_id"]).rsplit("_", 1)[0])].append(r)
        out["sources"][source] = {
            "all": _distribution(found),
            "by_agent": {k: _distribution(v) for k, v in sorted(by_agent.items())},
            "by_site": {k: _distribution(v) for k, v in sorted(by_site.items())},
            "ungraded": dict(Counter(str(r.get("why")) for r in found if r.get("grade") is None)),
        }
    out["agreement"] = [agreement(rows[a], rows[b], cutoff=CUTOFF, names=(a, b))
                        for a, b in itertools.combinations(sorted(rows), 2)]
    if trajectories:
        judged = [t for t in trajectories if t.get("judge") is not None]
        out["trajectories"] = {
            "n": len(trajectories), "kept": sum(bool(t.get("kept")) for t in trajectories),
            "judged": len(judged),
            "judge_agreement": round(sum(bool(t["judge"]) == bool(t["verifier"])
                                         for t in judged) / len(judged), 4) if judged else None}
    return out


def markdown(summary: dict[str, Any]) -> list[str]:
    """The section's Markdown lines (tables; the CDF figure is added by the writer)."""
    if not summary:
        return []
    from webmdp.eval.report import md_table as table

    def md_table(header: list[str], rows: list[list[Any]]) -> list[str]:
        return table(header, [["" if c is None else str(c) for c in r] for r in rows])

    out = ["## Training data (webmdp synth)", "",
           f"Step grades stored by `webmdp synth grade`; a step is kept when its grade is above "
           f"{summary['cutoff']} (WebSTAR eq. 2).", ""]
    rows = []
    for source, s in summary["sources"].items():
        for agent, d in s["by_agent"].items():
            rows.append([source, agent, d["steps"], d["graded"], d["kept"],
                         _pct(d["kept_ratio"]), " ".join(map(str, d["histogram"]))])
    out += md_table(["Source", "Agent", "Steps", "Graded", "Kept", "Kept %",
                     "Grades 0..10"], rows)
    site_rows = [[source, site, d["graded"], _pct(d["kept_ratio"])]
                 for source, s in summary["sources"].items() for site, d in s["by_site"].items()]
    out += ["", *md_table(["Source", "Site", "Graded", "Kept %"], site_rows)]
    if summary["agreement"]:
        out += ["", "### Agreement between grade sources", ""]
        out += md_table(["A", "B", "Steps", "Agreement", "Kappa", "Spearman", "A>5 B>5",
                         "A>5 B<=5", "A<=5 B>5", "A<=5 B<=5"],
                        [[g["a"], g["b"], g["n"], _pct(g["agreement"]), g["kappa"],
                          g["spearman"], *g["confusion"]["matrix"][0],
                          *g["confusion"]["matrix"][1]] for g in summary["agreement"]])
    t = summary.get("trajectories")
    if t:
        judge = f"; the judge agrees with the verifier on {_pct(t['judge_agreement'])} of " \
                f"{t['judged']} judged" if t["judged"] else ""
        out += ["", f"Trajectories: {t['n']}, kept {t['kept']}{judge}."]
    out += [f"- unreadable, left out: {s}" for s in summary.get("skipped", [])]
    return [*out, ""]


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def cdf_figure(summary: dict[str, Any]) -> bytes | None:
    """WebSTAR Figure 4, "the proportion of actions with scores above each threshold": the
    share of steps graded above each threshold, one line per source."""
    if not summary.get("sources"):
        return None
    from webmdp.eval.figures import _png, plt

    fig, ax = plt.subplots(figsize=(5.5, 3.4))
    for source, s in summary["sources"].items():
        curve = s["all"]["share_above"]
        ax.step([t for t, _ in curve], [v for _, v in curve], where="post", label=source)
    ax.axvline(summary["cutoff"], color="grey", lw=0.8, ls="--")
    ax.set_xlabel("threshold")
    ax.set_ylabel("share of steps graded above it")
    ax.set_xticks(range(11))
    ax.set_ylim(0, 1.02)
    ax.legend(frameon=False)
    return _png(fig)
