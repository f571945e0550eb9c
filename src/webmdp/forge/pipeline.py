"""`webmdp forge`: WebForge's pipeline (Plan, Generate, Refine, Validate) on our MDPs.

- **Plan**: cells of domain (D1-D7) x level (1-3) x answer type, ``per_cell`` tasks each. A
  cell no template can fill (no template of that domain and answer type, or none whose
  measured level reaches it) is reported empty, never filled with something else.
- **Generate**: each cell draws, in turn, from the dial streams (:mod:`webmdp.tasks.dial`) of
  the sites whose templates carry its domain, keeping tasks of its level and answer type.
- **Refine**: the exact quality checks of :mod:`webmdp.forge.refine`.
- **Validate**: the oracle replayed in Chromium (at most 50 steps; the driver gives up on an
  action after 3 failed tries), which must give the MDP's semantic trace and pass the
  verifier (:func:`webmdp.runner.validate.validate_site`); or, with ``browser=False``, the
  MDP replay alone.

Table 8 is accepted tasks per domain x level with the pass rate (accepted / planned).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from webmdp.core.registry import get_site
from webmdp.forge.refine import refine
from webmdp.forge.wording import Rewriter
from webmdp.sites import site_names
from webmdp.tasks.dial import candidate_templates, stream
from webmdp.tasks.domains import DOMAINS, domain_of
from webmdp.tasks.model import Task
from webmdp.tasks.variants import template_of

LEVELS = (1, 2, 3)
ANSWER_TYPES = ("direct", "operation_code", "mixed")

Cell = tuple[str, int, str]
"""(domain, level, answer type)."""


@dataclass
class Forged:
    """What a forge run made: accepted tasks, rejections with their reasons, empty cells."""

    per_cell: int
    accepted: dict[Cell, list[Task]] = field(default_factory=lambda: defaultdict(list))
    rejected: list[dict[str, Any]] = field(default_factory=list)
    empty: list[Cell] = field(default_factory=list)
    short: dict[Cell, int] = field(default_factory=dict)
    """Cells whose streams ran out before ``per_cell`` candidates: how many they found."""
    wording: list[dict[str, Any]] = field(default_factory=list)
    """The optional wording stage: per task, its draft, and why it was not taken."""

    def tasks(self) -> list[Task]:
        return [t for cell in sorted(self.accepted) for t in self.accepted[cell]]

    def table8(self) -> dict[str, dict[str, dict[str, Any]]]:
        """domain -> level -> {"count", "planned", "rate"} over every answer type planned."""
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for d in DOMAINS:
            out[d] = {}
            for lv in LEVELS:
                planned = sum(self.per_cell for a in ANSWER_TYPES if (d, lv, a) in self.cells)
                count = sum(len(self.accepted.get((d, lv, a), [])) for a in ANSWER_TYPES)
                out[d][f"L{lv}"] = {"count": count, "planned": planned,
                                    "rate": round(count / planned, 4) if planned else None}
        return out

    cells: set[Cell] = field(default_factory=set)
    """The cells planned (not empty)."""

    def to_json(self) -> dict[str, Any]:
        return {"per_cell": self.per_cell, "table8": self.table8(),
                "empty_cells": [list(c) for c in self.empty],
                "short_cells": [[*c, n] for c, n in sorted(self.short.items())],
                "rejected": self.rejected, "accepted": len(self.tasks()),
                "wording": self.wording}


def _draw(cells: list[Cell], sites: list[str], per_cell: int) -> dict[Cell, list[Task]]:
    """Up to ``per_cell`` tasks for each cell, in one pass over the sites' dial streams taken
    in turn (a candidate at a time from each), each task to the cell it measures into."""
    found: dict[Cell, list[Task]] = {c: [] for c in cells}
    open_cells = set(cells)
    streams = [stream(get_site(s)) for s in sites if any(
        (c[0], c[2]) in _kinds(s) for c in cells)]
    while streams and open_cells:
        for it in list(streams):
            task = next(it, None)
            if task is None:
                streams.remove(it)
                continue
            level = task.difficulty.level if task.difficulty else "none"
            if level == "none" or task.domain is None or task.answer_type is None:
                continue
            cell: Cell = (task.domain, level, task.answer_type)
            if cell in open_cells:
                found[cell].append(task)
                if len(found[cell]) == per_cell:
                    open_cells.discard(cell)
    return found


def _kinds(site: str) -> set[tuple[str, str]]:
    """(domain, answer type) of every template the site's dial stream draws from."""
    s = get_site(site)
    return {(domain_of(site, t), template_of(s, t).answer_type)
            for t in candidate_templates(s)}


def plan_cells(sites: list[str]) -> tuple[list[Cell], list[Cell]]:
    """The cells some template of ``sites`` can fill, and the empty ones (no template of that
    domain and answer type)."""
    kinds = {k for s in sites for k in _kinds(s)}
    cells = [(d, lv, a) for d in DOMAINS for lv in LEVELS for a in ANSWER_TYPES]
    return [c for c in cells if (c[0], c[2]) in kinds], [c for c in cells
                                                        if (c[0], c[2]) not in kinds]


def forge(per_cell: int, *, sites: list[str] | None = None, noise: str = "none",
          browser: bool = True, progress: Callable[[str], None] | None = None,
          rewriter: Rewriter | None = None) -> Forged:
    """Run the pipeline; ``progress`` hears a line per stage and cell. With ``rewriter``
    (off by default) a model rewords each generated instruction (:mod:`.wording`)."""
    names = sites or site_names()
    planned, empty = plan_cells(names)
    out = Forged(per_cell, empty=list(empty), cells=set(planned))
    drafts = _draw(planned, names, per_cell)
    for cell, found in drafts.items():
        if len(found) < per_cell:
            out.short[cell] = len(found)
        if progress:
            progress(f"generate {cell[0]} L{cell[1]} {cell[2]}: {len(found)} of {per_cell}")
    if rewriter is not None:
        if progress:
            progress(f"rewording {sum(map(len, drafts.values()))} instructions...")
        for cell, found in drafts.items():
            done = rewriter.reword(found)
            drafts[cell] = [r.task for r in done]
            out.wording += [{"task_id": r.task.id, "accepted": r.accepted, "draft": r.draft,
                             "reasons": list(r.reasons)} for r in done]
    refined: dict[Cell, list[Task]] = {}
    for cell, found in drafts.items():
        for task in found:
            failed = {k: v for k, v in refine(task, noise).items() if v}
            if failed:
                out.rejected.append(_rejection(cell, task, "refine",
                                               [f"{k}: {v[0]}" for k, v in failed.items()]))
            else:
                refined.setdefault(cell, []).append(task)
    if progress:
        progress(f"refine: {sum(map(len, refined.values()))} of "
                 f"{sum(map(len, drafts.values()))} pass")
    problems = _validate([t for ts in refined.values() for t in ts], noise, browser)
    for cell, found in refined.items():
        for task in found:
            if problems.get(task.id):
                out.rejected.append(_rejection(cell, task, "validate", problems[task.id]))
            else:
                out.accepted[cell].append(task)
    return out


def _rejection(cell: Cell, task: Task, stage: str, reasons: list[str]) -> dict[str, Any]:
    return {"task_id": task.id, "template": task.template, "domain": cell[0],
            "level": cell[1], "answer_type": cell[2], "stage": stage, "reasons": reasons}


def _validate(tasks: list[Task], noise: str, browser: bool) -> dict[str, list[str]]:
    """Problems per task id: the browser replay (levels 2 and 3), or the MDP replay."""
    out: dict[str, list[str]] = defaultdict(list)
    if not browser:
        from webmdp.forge.refine import check_unique

        for t in tasks:
            out[t.id] += check_unique(t)[:1]
        return out
    from webmdp.runner.validate import validate_site

    by_site: dict[str, list[Task]] = defaultdict(list)
    for t in tasks:
        by_site[t.site].append(t)
    for site, ts in by_site.items():
        rep = validate_site(site, ts, conformance=False, noise=noise)
        for msg in rep.level1 + rep.level2 + rep.level3:
            for t in ts:
                if msg.startswith((f"{t.id}:", f"{t.id} ")):
                    out[t.id].append(msg[len(t.id):].lstrip(": "))
    return out


