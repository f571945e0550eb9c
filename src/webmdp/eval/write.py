"""Write an :class:`Analysis` as ``report.md``, ``report.html`` (self-contained, figures
embedded), ``figures/*.png`` and ``episodes.parquet`` (one row per episode, every metric)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from webmdp.eval import cap_section, difficulty_section, synth_section
from webmdp.eval import figures as fig
from webmdp.eval.analysis import Analysis
from webmdp.eval.episode_schema import PLANNING_SKIP
from webmdp.eval.html import markdown_to_html
from webmdp.eval.report import (
    DASH,
    json_report,
    markdown_report,
    md_code,
    md_escape,
    md_table,
    pct,
)
from webmdp.eval.skills import MIN_SUPPORT, Invocation
from webmdp.redact import strict_dumps, write_scrubbed

TITLE = "WebMDP evaluation"
SKILL_DEFS: tuple[tuple[str, str], ...] = (
    ("Step success", "gold steps (the task's oracle actions) fulfilled by some agent step, "
     "each agent step used once / gold steps (planning paper, Definition 4.3)."),
    ("Recovery", "deviation incidents (a run of agent steps fulfilling no current gold step) "
     "followed by a step fulfilling one of the next 5 gold steps / incidents; undefined "
     "without deviations (Definition 4.1)."),
    ("Repetitiveness", "1 - actions identical to the previous step's / actions (Definition "
     "4.2; 1 = no repetition)."),
    ("Partial success", "verifier conditions met / conditions, over tasks with at least two "
     "conditions only (Definition 4.4)."),
    ("Bifurcation point", "the last semantic state a failing trajectory shares with a "
     "successful one on the same task (another agent's, the shortest; else the oracle's) "
     "before they diverge; states compared by each site's alignment state "
     "(docs/alignment-state.md). Kinds: wrong branch, delayed commit, premature commit "
     "(WebSTEP 4.3); wrong commit and stopped early (ours)."),
    ("Element accuracy", "steps whose executed action matches the action the agent stated it "
     "would take / steps stating one; undecidable pairs left out (Definition 4.5)."),
    ("Skill invocation (by category / by skill)", "a task requires skill k when its oracle "
     "trajectory contains an action of k; an episode invokes k when one of its valid "
     f"transitions is an action of k; rate = invoking / requiring episodes, shown only with at "
     f"least {MIN_SUPPORT} requiring episodes (WebSTEP 4.2, Tables 13-14)."),
    ("Temporal skill pattern", "for each agent and category, the share of its invocations at "
     "each normalised position i / (n - 1) of the n valid transitions, in 10 bins (WebSTEP "
     "Figure 4; per-category normalisation ours)."),
)


def _cell(inv: Invocation | None) -> str:
    return "" if inv is None else f"{pct(inv.rate)} ({inv.required})"


def _skill_tables(table: Mapping[str, Mapping[str, Mapping[str, Invocation]]], what: str
                  ) -> list[str]:
    sites = sorted({s for per in table.values() for s in per}, key=lambda s: (s == "all", s))
    out: list[str] = []
    for site in sites:
        names = list(dict.fromkeys(k for per in table.values() for k in per.get(site, {})))
        if not names:
            continue
        body = [[agent, *(_cell(per.get(site, {}).get(k)) for k in names)]
                for agent, per in table.items()]
        out += [f"### {what} on {'all sites' if site == 'all' else md_escape(site)}", "",
                *md_table(["Agent", *names], body)]
    return out


def _short(value: Any, width: int = 60) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    text = " ".join(text.splitlines())
    return text if len(text) <= width else text[:width - 1] + "\u2026"


def _planning_section(a: Analysis) -> list[str]:
    """Definitions 4.1-4.5 of the planning paper, micro-averaged over episodes."""
    keys = ("step_success", "recovery", "repetitiveness", "partial_success", "element_accuracy")
    head = ["Agent", "Step success", "Recovery", "Repetitiveness", "Partial success",
            "Element accuracy"]
    body = [[agent, *(f"{pct(agg[k])} ({agg['episodes'][k]})" for k in keys)]
            for agent, agg in a.planning.get("by_agent", {}).items()]
    return ["## Planning metrics (%)", "",
            "Cells: rate (episodes where defined); micro-averaged over episodes (summed "
            "counts); the paper's macro averages are in report.json.", "",
            *md_table(head, body)]


def _bifurcation_section(a: Analysis, images: dict[str, bytes]) -> list[str]:
    """WebSTEP 4.3: kinds of bifurcation point per agent and what each kind involves."""
    out = ["## Bifurcation points", ""]
    if not a.bifurcation:
        return [*out, "No failing episode could be aligned with a successful trajectory "
                "(bifurcation needs a failure and a success, another agent's or the oracle's, "
                "on the same task); reasons under Skipped inputs.", ""]
    kinds = ("wrong_branch", "delayed_commit", "premature_commit", "wrong_commit",
             "stopped_early")
    body = [[agent, str(s["failures"]), *(str(s["counts"].get(k, 0)) for k in kinds),
             ", ".join(f"{r} {n}" for r, n in sorted(s.get("references", {}).items()))]
            for agent, s in a.bifurcation.items()]
    out += md_table(["Agent", "Failures", "Wrong branch", "Delayed commit", "Premature commit",
                     "Wrong commit", "Stopped early", "Aligned with"], body)
    rows = []
    for agent, s in a.bifurcation.items():
        for kind, cats in s.get("categories", {}).items():
            if cats:
                rows.append([agent, kind.replace("_", " "),
                             ", ".join(f"{c} {n}" for c, n in cats.items())])
    if rows:
        out += ["Categories involved at each kind (Figure 5, bottom): the failing next "
                "category (wrong branch), the failing suffix (delayed commit), the skipped "
                "successful suffix (premature commit).", "",
                *md_table(["Agent", "Kind", "Categories (count)"], rows)]
    images["figures/bifurcation.png"] = fig.bifurcation_bars(
        {agent: s["counts"] for agent, s in a.bifurcation.items()})
    return [*out, "![Bifurcation points by kind (WebSTEP Figure 5)](figures/bifurcation.png)",
            ""]


def _support_note(a: Analysis) -> list[str]:
    """Why skill cells are dashes, said once above the skill tables: how many are, the
    threshold, and how many episodes each agent has (none when every cell has a rate)."""
    cells = [c for table in (a.skills, a.skill_names) for per in table.values()
             for row in per.values() for c in row.values()]
    hidden = sum(c.rate is None for c in cells)
    per_agent = Counter(t.agent for t, _ in a.episodes if t.termination != "infra_error")
    if not hidden or not per_agent:
        return []
    counts = sorted(set(per_agent.values()))
    has = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    listed = ", ".join(f"{md_escape(agent)} {n}" for agent, n in sorted(per_agent.items()))
    which = f"All {hidden}" if hidden == len(cells) else f"{hidden} of {len(cells)}"
    verb = "shows" if hidden == 1 else "show"
    return [f"**Why {DASH}:** {which} skill cells {verb} {DASH}: a rate is shown only with at "
            f"least {MIN_SUPPORT} requiring episodes (an agent's episodes whose task's oracle "
            f"uses the skill), and this run has {has} episodes per agent ({listed}); filling "
            f"them takes at least {MIN_SUPPORT} episodes per agent (more for skills few tasks "
            "use).", ""]


def _sections(a: Analysis, images: dict[str, bytes]) -> list[str]:
    out = ["## Skill invocation by category (%)", "",
           f"Cells: invocation rate (requiring episodes); {DASH} under {MIN_SUPPORT} "
           "requiring episodes.", "", *_support_note(a)]
    out += _skill_tables(a.skills, "Skill categories")
    for site in sorted({s for per in a.skills.values() for s in per if s != "all"}):
        name = f"figures/skills_{re.sub(r'[^A-Za-z0-9_.-]', '_', site)}.png"
        images[name] = fig.skill_profile(a.skills, site)
        out += [f"![Skill profile on {md_escape(site)} (WebSTEP 4.2)]({name})", ""]
    out += ["## Skill invocation by fine-grained skill (%)", ""]
    out += _skill_tables(a.skill_names, "Skills")
    out += ["## Temporal skill patterns", ""]
    images["figures/temporal.png"] = fig.temporal_heatmap(a.temporal)
    out += ["![Temporal skill invocation (WebSTEP Figure 4)](figures/temporal.png)", ""]
    out += _planning_section(a)
    out += _bifurcation_section(a, images)
    out += difficulty_section.markdown(a.difficulty)
    out += cap_section.markdown(a.cap)
    if a.cap:
        images["figures/cap_types.png"] = fig.cap_types(a.cap["by_type"])
        images["figures/cap_complexity.png"] = fig.cap_complexity(a.cap["agents"])
        out += ["![Score per CAP type (Figure A.1)](figures/cap_types.png)", "",
                "![Complexity vs score (CAP Figure 4)](figures/cap_complexity.png)", ""]
    if a.synth:
        out += synth_section.markdown(a.synth)
        cdf = synth_section.cdf_figure(a.synth)
        if cdf is not None:
            images["figures/synth_cdf.png"] = cdf
            out += ["![Share of steps graded above each threshold, per source (WebSTAR "
                    "Figure 4)](figures/synth_cdf.png)", ""]
    images["figures/complexity.png"] = fig.exploration_curves(a.rows)
    out += ["## Exploration success by complexity (figure)", "",
            "![Exploration SR by hard negatives, oracle length and access level (WebSTEP 4.4)]"
            "(figures/complexity.png)", ""]
    if a.disagreements:
        out += ["## Recorded vs recomputed (imported runs)", "",
                "Values a bundle recorded that differ from what webmdp recomputes from the same "
                "bundle; the recorded value is kept, never overwritten.", ""]
        out += md_table(["Task", "Agent", "Field", "Recorded", "Recomputed", "Note"],
                        [[d["task_id"], d["agent"], d["field"], _short(d["recorded"]),
                          _short(d["recomputed"]), d.get("note") or ""]
                         for d in a.disagreements])
    if a.skipped:
        out += ["## Skipped inputs", "", f"{len(a.skipped)} inputs could not be used:", ""]
        out += [f"- {md_code(path)}: {md_escape(reason)}" for path, reason in a.skipped]
        out += [""]
    return out


def _runs(a: Analysis) -> list[str]:
    """The runs, each with its state (a state other than completed in bold: its episodes may
    be partial)."""
    if not a.runs:
        return [f"Runs: {', '.join(md_code(str(r)) for r in a.loaded.runs)}.", ""]
    out = ["Runs:", ""]
    for r in a.runs:
        state = md_escape(r.state) if r.completed or not r.invocations else \
            f"**{md_escape(r.state)}**"
        count = f", {r.invocations} invocation{'s' if r.invocations != 1 else ''}" \
            if r.invocations else ""
        key = f"; operation codes under install key {md_code(r.code_key)}" if r.code_key else ""
        split = "" if not r.split else (
            f"; tasks of split {md_code(str(r.split.get('split')))}"
            + ("" if r.split.get("level") is None else
               f" at level {md_code(str(r.split['level']))}")
            + f", holdout {md_code(str(r.split.get('holdout')))}, split_version "
              f"{md_code(str(r.split.get('split_version')))}")
        out.append(f"- {md_code(r.path)}: {state}{count}{key}{split}")
    return [*out, ""]


def render(a: Analysis) -> tuple[str, dict[str, bytes]]:
    """The report's Markdown and its figures (path -> PNG bytes)."""
    images: dict[str, bytes] = {}
    preface = _runs(a)
    preface += [f"Note: {md_escape(n)}." for n in a.notes] + ([""] if a.notes else [])
    md = markdown_report(a.rows, TITLE, preface=preface, sections=_sections(a, images),
                         definitions=SKILL_DEFS)
    return md, images


def report_json(a: Analysis) -> dict[str, Any]:
    """The JSON report: :func:`json_report`'s keys plus the analyses of this issue."""
    rep = json_report(a.rows)
    agg = rep.pop("aggregate")
    dump = {agent: {site: {k: c.model_dump() for k, c in per.items()}
                    for site, per in sites.items()} for agent, sites in a.skills.items()}
    names = {agent: {site: {k: c.model_dump() for k, c in per.items()}
                     for site, per in sites.items()} for agent, sites in a.skill_names.items()}
    out: dict[str, Any] = {**agg, **rep}
    out["skill_invocation"] = {"by_category": dump, "by_skill": names,
                               "temporal": a.temporal, "min_support": MIN_SUPPORT}
    out["complexity"] = {k: rep[f"by_{k}"] for k in ("hard_negative_count", "oracle_length",
                                                     "access_level")}
    out["planning"] = a.planning
    out["bifurcation"] = a.bifurcation
    out["disagreements"] = a.disagreements
    out["notes"] = a.notes
    out["skipped"] = [{"input": p, "reason": r} for p, r in a.skipped]
    out["runs"] = [r.as_json() for r in a.runs]
    out["synth"] = a.synth
    out["difficulty"] = a.difficulty
    out["cap"] = a.cap
    return out


def episode_table(a: Analysis) -> list[dict[str, Any]]:
    """One flat row per episode: every per-episode metric, the planning metrics prefixed
    ``planning_``; lists and dicts stay as they are (typed by
    :func:`webmdp.eval.episode_schema.episode_schema`)."""
    planning = {(p.agent, p.mode, p.task_id): p for p in a.planning_rows}
    rows = []
    for r in a.rows:
        d = r.model_dump(mode="json")
        p = planning.get((r.agent, r.mode, r.task_id))
        if p is not None:
            d.update({f"planning_{k}": v for k, v in p.model_dump(mode="json").items()
                      if k not in PLANNING_SKIP})
        rows.append(d)
    return rows


def write_parquet(rows: list[dict[str, Any]], path: Path) -> None:
    """``episodes.parquet`` in the one explicit schema, so files of any runs read together."""
    import pyarrow.parquet as pq

    from webmdp.eval.episode_schema import episode_arrow_table

    pq.write_table(episode_arrow_table(rows), path)


def write_report(a: Analysis, out_dir: str | Path) -> dict[str, Path]:
    """Write every report file under ``out_dir``; returns them by kind."""
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    md, images = render(a)
    for name, data in images.items():
        (out / name).write_bytes(data)
    paths = {"markdown": out / "report.md", "html": out / "report.html",
             "parquet": out / "episodes.parquet", "json": out / "report.json"}
    write_scrubbed(paths["markdown"], md)  # a --judge-model report called a model
    write_scrubbed(paths["html"], markdown_to_html(md, images, TITLE))
    write_scrubbed(paths["json"], strict_dumps(report_json(a), indent=1) + "\n")
    write_parquet(episode_table(a), paths["parquet"])
    return paths
