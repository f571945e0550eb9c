"""Batch comparison: the analyses of ``webmdp report`` over every loaded run, computed on
first request and kept, with each aggregate cell linked to the episodes behind it (the task
list, filtered).

The numbers are :func:`~webmdp.eval.analysis.analyse`'s and the figures and the full report
:func:`~webmdp.eval.write.render`'s, so the page and ``webmdp report`` never disagree.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webmdp.eval.aggregate import Aggregate, aggregate, breakdown, group
from webmdp.eval.analysis import Analysis, analyse
from webmdp.eval.bifurcation import KINDS, bifurcations
from webmdp.eval.load import LoadedRuns, load_runs
from webmdp.eval.metrics import EpisodeMetrics
from webmdp.eval.report import DASH, DEFINITIONS, pct
from webmdp.eval.write import SKILL_DEFS
from webmdp.viewer.index import RunIndex
from webmdp.viewer.query import TaskQuery

Key = tuple[str, str, str]
Link = Callable[..., str]
SCOPES = ("common", "all")
"""``common``: the tasks every run covers, as ``webmdp report`` analyses them; ``all``: every
episode of every run."""
_DEFS = dict((*DEFINITIONS, *SKILL_DEFS))


@dataclass(frozen=True)
class Cell:
    text: str
    href: str | None = None


@dataclass(frozen=True)
class Table:
    """A table of the page; ``notes`` say what a cell is, ``defs`` define each column."""

    title: str
    header: list[str]
    rows: list[list[Cell]]
    notes: str = ""
    defs: dict[str, str] = field(default_factory=dict)


@dataclass
class BatchData:
    scope: str
    analysis: Analysis
    tables: list[Table]
    images: dict[str, bytes]
    report_html: str
    bifurcated: dict[str, set[Key]]
    seconds: float


def _num(x: float | None) -> str:
    return DASH if x is None else f"{x:.1f}"


def _agent(label: str) -> dict[str, Any]:
    return {"agent": (label,)} if label != "All" else {}


def _main(rows: Sequence[EpisodeMetrics], link: Link) -> Table:
    head = ["Agent", "Terminal SR (safe pass)", "Terminal SR (strict)", "Exploration SR",
            "Execution SR | Expl.", "Coverage@commit", "GUI steps", "Sem. steps", "GUI/Sem.",
            "Episodes", "Infra errors"]
    body = []
    groups = [*breakdown(rows, "agent_mode").items(), ("All", aggregate(rows))]
    for label, a in groups:
        who = _agent(label)
        scored = link(**who, infra="exclude")
        body.append([Cell(label, scored), Cell(pct(a.safe_pass_sr), scored),
                     Cell(pct(a.terminal_sr), link(**who, outcome="success")),
                     Cell(pct(a.exploration_sr), scored), Cell(pct(a.execution_sr), scored),
                     Cell(pct(a.coverage_at_commit), scored), Cell(_num(a.gui_steps), scored),
                     Cell(_num(a.semantic_steps), scored), Cell(_num(a.gui_semantic_ratio),
                                                                scored),
                     Cell(str(a.episodes), scored),
                     Cell(str(a.infra_errors), link(**who, infra="only"))])
    defs = {h: _DEFS[h] for h in head if h in _DEFS}
    return Table("Aggregate results", head, body, "Rates and coverage in %; steps are means per "
                 "episode. Terminal SR (strict) links to the successes, infra errors to the "
                 "errors, every other cell to the scored episodes.", defs)


def _pivot(title: str, rows: Sequence[EpisodeMetrics], link: Link, by: str, param: str,
           cell: Callable[[Aggregate], str], notes: str = "") -> Table:
    """Rows agents, columns the groups of ``by``; a cell links to the agent's episodes in
    that group (``param`` is the task-list filter of ``by``)."""
    cols = list(group(rows, by))
    body = []
    for label, agent_rows in group(rows, "agent_mode").items():
        per = breakdown(agent_rows, by)
        body.append([Cell(label, link(agent=(label,))),
                     *(Cell(cell(per[c]), link(agent=(label,), **{param: c}))
                       if c in per else Cell(DASH) for c in cols)])
    return Table(title, ["Agent", *cols], body, notes)


def _outcomes(rows: Sequence[EpisodeMetrics], link: Link) -> Table:
    """Per template, each agent's successes / scored episodes."""
    agents = list(group(rows, "agent_mode"))
    body = []
    for template, t_rows in group(rows, "template").items():
        per = group(t_rows, "agent_mode")
        cells = [Cell(template, link(template=template))]
        for a in agents:
            scored = [r for r in per.get(a, []) if not r.infra_error]
            won = sum(r.terminal_success for r in scored)
            cells.append(Cell(f"{won}/{len(scored)}", link(agent=(a,), template=template))
                         if a in per else Cell(DASH))
        body.append(cells)
    return Table("Outcomes per template, agent by agent", ["Template", *agents], body,
                 "Cells: successful / scored episodes (infra errors left out); each links to "
                 "those tasks with the agent's marks.")


def _bifurcation(a: Analysis, link: Link) -> Table:
    head = ["Agent", "Failures", *(k.replace("_", " ") for k in KINDS)]
    body = [[Cell(label, link(agent=(label,), outcome="failure")), Cell(str(s["failures"])),
             *(Cell(str(s["counts"].get(k, 0)), link(agent=(label,), bif=k))
               for k in KINDS)] for label, s in a.bifurcation.items()]
    return Table("Bifurcation points (WebSTEP 4.3)", head, body,
                 "Cells: failing episodes whose bifurcation point is of each kind; each links "
                 "to them.", {"Failures": _DEFS["Bifurcation point"]})


def _planning(a: Analysis, link: Link) -> Table:
    keys = ("step_success", "recovery", "repetitiveness", "partial_success", "element_accuracy")
    head = ["Agent", "Step success", "Recovery", "Repetitiveness", "Partial success",
            "Element accuracy"]
    body = [[Cell(label, link(agent=(label,))),
             *(Cell(f"{pct(agg[k])} ({agg['episodes'][k]})") for k in keys)]
            for label, agg in a.planning.get("by_agent", {}).items()]
    return Table("Planning metrics (%)", head, body, "Cells: rate (episodes where defined), "
                 "micro-averaged over episodes.", {h: _DEFS[h] for h in head if h in _DEFS})


def tables(a: Analysis, link: Link) -> list[Table]:
    """The page's tables; ``link(**filters)`` is the task-list URL of a cell."""
    rows = a.rows
    out = [_main(rows, link),
           _pivot("Terminal SR (strict, %) by site", rows, link, "site", "site",
                  lambda g: pct(g.terminal_sr)),
           _outcomes(rows, link)]
    for name, by, param in (("hard negative count", "hard_negative_count", "hn"),
                            ("oracle trajectory length", "oracle_length", "olen"),
                            ("information access level", "access_level", "access")):
        out.append(_pivot(f"Exploration SR (%) by {name}", rows, link, by, param,
                          lambda g: f"{pct(g.exploration_sr)} ({g.episodes})",
                          notes="Cells: exploration SR (episodes)."))
    if a.bifurcation:
        out.append(_bifurcation(a, link))
    out.append(_planning(a, link))
    return out


def union(runs: Sequence[Path]) -> LoadedRuns:
    """Every episode of every run (no intersection of task sets), the same episode in a second
    run skipped as :func:`~webmdp.eval.load.load_runs` does."""
    out = LoadedRuns(runs=list(runs))
    seen: set[Key] = set()
    for run in runs:
        one = load_runs([run])
        out.skipped += one.skipped
        for trace, task in one.episodes:
            key = (trace.agent, trace.mode, trace.task_id)
            if key in seen:
                out.skipped.append(("/".join(key), "duplicate episode (kept the first run's)"))
                continue
            seen.add(key)
            out.episodes.append((trace, task))
    return out


def _kinds(loaded: LoadedRuns) -> dict[str, set[Key]]:
    """The failing episodes by bifurcation kind (as the report finds them)."""
    out: dict[str, set[Key]] = {k: set() for k in KINDS}
    for b in bifurcations(loaded.episodes):
        out[b.kind].add((b.agent, b.mode, b.task_id))
    return out


class Batch:
    """The batch analysis of an index per scope (:data:`SCOPES`), each computed once, on
    first use, under a lock (routes run on a thread pool)."""

    def __init__(self, index: RunIndex):
        self.index = index
        self._data: dict[str, BatchData] = {}
        self._kinds: dict[str, set[Key]] | None = None
        self._lock = threading.Lock()

    def get(self, scope: str = "common") -> BatchData:
        scope = scope if scope in SCOPES else "common"
        with self._lock:
            if scope not in self._data:
                self._data[scope] = self._compute(scope)
            return self._data[scope]

    def link(self, scope: str) -> Link:
        """Task-list URLs of the scope's cells: restricted to the common tasks when the runs'
        task sets differ."""
        common = scope == "common" and self.index.differing
        return lambda **filters: TaskQuery(common=common).url(**filters)

    def _compute(self, scope: str) -> BatchData:
        from webmdp.eval.html import markdown_to_html
        from webmdp.eval.write import TITLE, render

        t0 = time.perf_counter()
        loaded = load_runs(self.index.runs) if scope == "common" else union(self.index.runs)
        a = analyse(loaded)
        if not a.rows:  # nothing to report (as `webmdp report` refuses to)
            return BatchData(scope, a, [], {}, "", _kinds(loaded), time.perf_counter() - t0)
        md, images = render(a)
        return BatchData(scope, a, tables(a, self.link(scope)), images,
                         markdown_to_html(md, images, TITLE), _kinds(loaded),
                         time.perf_counter() - t0)

    def bifurcated(self, kind: str) -> set[Key]:
        """Episodes of any run whose bifurcation point is of ``kind`` (empty for an unknown
        kind); only the bifurcations are computed unless the whole analysis already was."""
        with self._lock:
            if "all" in self._data:
                return self._data["all"].bifurcated.get(kind, set())
            if self._kinds is None:
                self._kinds = _kinds(union(self.index.runs))
            return self._kinds.get(kind, set())
