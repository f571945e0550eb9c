"""Markdown and JSON reports of episode metrics, shaped like WebSTEP Tables 2, 9-17."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from webmdp.agents.registry import READS_TASK
from webmdp.eval.aggregate import (
    BREAKDOWNS,
    Aggregate,
    aggregate,
    breakdown,
    group,
    skill_invocation,
)
from webmdp.eval.metrics import EpisodeMetrics

DEFINITIONS: tuple[tuple[str, str], ...] = (
    ("Terminal SR (strict)", "verifier success: every task condition holds in the final state "
     "(C.3)."),
    ("Terminal SR (safe pass)", "strict success, or: no valid state-changing commit, the last "
     "entity visited on a detail surface is the target, and every information constraint about "
     "the target was seen (C.3 safe pass; operationalisation ours)."),
    ("Exploration SR", "V_c = entities visited on detail surfaces before the first valid "
     "state-changing commit (all visits if none); success iff V_c is non-empty and v_k = e* "
     "(4.1)."),
    ("Execution SR | Expl.", "strict terminal SR among exploration-successful episodes (4.1)."),
    ("Coverage@commit", "COV_t = |{c in C : (entity, field) of c revealed at reset or by valid "
     "transitions up to t}| / |C| (1 if C is empty), at the first commit step, final coverage "
     "without a commit (C.4, eq. 2)."),
    ("GUI steps", "agent steps in the episode (4.1)."),
    ("Sem. steps", "valid semantic transitions that changed the state (4.1)."),
    ("GUI/Sem.", "mean over episodes of GUI steps / max(semantic steps, 1) (4.1; per-episode "
     "mean ours)."),
    ("Skill invocation", "for each category k in S* (oracle), whether k is in S (the agent's "
     "valid transitions); rate over episodes requiring k (4.2, Table 14)."),
    ("Complexity", "hard negative count, oracle length (buckets 1-3, 4-6, 7-9, 10+: ours), "
     "information access level (4.4, Tables 15-17)."),
    ("Infra errors", "episodes with termination infra_error are excluded from every mean and "
     "counted separately (ours)."),
)

DASH = "\u2013"  # en dash, as in the paper's tables


def reads_task_note(rows: Sequence[EpisodeMetrics]) -> list[str]:
    """One line naming the agents of ``rows`` that read the task (:data:`READS_TASK`): they
    show that tasks are solvable and are not baselines."""
    names = sorted({r.agent for r in rows} & set(READS_TASK))
    if not names:
        return []
    return [f"{', '.join(names)} read{'s' if len(names) == 1 else ''} the task's oracle: a "
            "check that tasks are solvable, not a baseline."]


def pct(x: float | None) -> str:
    """A rate in percent with one decimal; the dash when undefined."""
    return DASH if x is None else f"{100 * x:.1f}"


def _num(x: float | None) -> str:
    return DASH if x is None else f"{x:.1f}"


_SPECIAL = re.compile(r"[\\`*\[\]<>|#&~]|(?<![^\W_])_|_(?![^\W_])")
"""What Markdown could act on: backslash, code, emphasis, links, HTML, cells, headings,
entities, strikethrough; ``_`` only where it touches a non-alphanumeric character (an
intraword ``_``, as in ``shopping_0001``, cannot open or close emphasis)."""


def md_escape(text: str) -> str:
    """``text`` (an agent name, a task's text, a file name: anything a trace or a user wrote)
    as Markdown that shows it literally, on one line: line breaks become spaces and every
    metacharacter gets a backslash (CommonMark escapes; ``html.markdown_to_html`` undoes them
    before escaping the text for HTML, once)."""
    return _SPECIAL.sub(lambda m: "\\" + m.group(), " ".join(text.splitlines()))


def md_code(text: str) -> str:
    """``text`` as a code span, or as escaped text when a backtick or ``|`` would end the span
    or a table cell (inside a code span a backslash escapes nothing)."""
    flat = " ".join(text.splitlines())
    return md_escape(flat) if "`" in flat or "|" in flat else f"`{flat}`"


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A pipe table of plain text: every header and cell is escaped (:func:`md_escape`)."""
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(md_escape(c) for c in cells) + " |"

    return [line(header), "|" + "|".join("---" for _ in header) + "|", *map(line, rows), ""]


def _main_row(label: str, a: Aggregate) -> list[str]:
    return [
        label, pct(a.safe_pass_sr), pct(a.terminal_sr), pct(a.exploration_sr),
        pct(a.execution_sr), pct(a.coverage_at_commit), _num(a.gui_steps),
        _num(a.semantic_steps), _num(a.gui_semantic_ratio), str(a.episodes), str(a.infra_errors),
    ]


def _pivot(
    rows: Sequence[EpisodeMetrics], by: str, cell: Callable[[Aggregate], str], first: str
) -> list[str]:
    """Rows agents (agent + mode), columns the groups of ``by``."""
    cols = list(group(rows, by))
    body = []
    for label, agent_rows in group(rows, "agent_mode").items():
        per = breakdown(agent_rows, by)
        body.append([label, *(cell(per[c]) if c in per else DASH for c in cols)])
    return md_table([first, *cols], body)


def markdown_report(rows: Sequence[EpisodeMetrics], title: str = "WebMDP evaluation", *,
                    preface: Sequence[str] = (), sections: Sequence[str] = (),
                    definitions: Sequence[tuple[str, str]] = ()) -> str:
    """A markdown report: aggregate table, per-site tables, complexity tables, skill invocation
    and the definitions of every metric. ``preface`` lines follow the title, ``sections`` (lines)
    and ``definitions`` are added before and in the definitions."""
    out = [f"# {title}", "", *preface, "## Aggregate results", ""]
    head = ["Agent", "Terminal SR (safe pass)", "Terminal SR (strict)", "Exploration SR",
            "Execution SR | Expl.", "Coverage@commit", "GUI steps", "Sem. steps", "GUI/Sem.",
            "Episodes", "Infra errors"]
    body = [_main_row(k, a) for k, a in breakdown(rows, "agent_mode").items()]
    out += md_table(head, [*body, _main_row("All", aggregate(rows))])
    out += ["Rates and coverage in %; steps are means per episode.", *reads_task_note(rows), ""]

    out += ["## Per-site results", ""]
    for name, cell in (
        ("Terminal SR (safe pass)", lambda a: pct(a.safe_pass_sr)),
        ("Terminal SR (strict)", lambda a: pct(a.terminal_sr)),
        ("Exploration SR", lambda a: pct(a.exploration_sr)),
        ("Execution SR | Expl.", lambda a: pct(a.execution_sr)),
        ("Coverage@commit", lambda a: pct(a.coverage_at_commit)),
    ):
        out += [f"### {name} (%) by site", "", *_pivot(rows, "site", cell, "Agent")]

    out += ["## Exploration SR by task complexity", ""]
    for name, by in (("hard negative count", "hard_negative_count"),
                     ("oracle trajectory length", "oracle_length"),
                     ("information access level", "access_level")):
        out += [f"### Exploration SR (%) by {name}", "",
                *_pivot(rows, by, lambda a: f"{pct(a.exploration_sr)} ({a.episodes})",
                        "Agent")]
    out += ["Cells: exploration SR (episodes).", ""]

    out += list(sections)
    out += ["## Definitions", ""]
    out += [f"- **{name}**: {text}" for name, text in (*DEFINITIONS, *definitions)]
    return "\n".join(out) + "\n"


SUMMARY_HEAD = ("Agent", "SR", "Expl. SR", "Exec. SR", "Coverage", "Steps", "Episodes")
SUMMARY_KEY = ("Rates in %. SR: terminal success (strict); Expl. SR: exploration success;",
               "Exec. SR: execution success | exploration; Coverage: coverage@commit; Steps: "
               "mean GUI steps.")


def summary_table(rows: Sequence[EpisodeMetrics]) -> list[str]:
    """The headline numbers as plain text for a terminal: one aligned row per agent (agent +
    mode), then what the columns are; infrastructure errors, when any, are counted below."""
    body = [[label, pct(a.terminal_sr), pct(a.exploration_sr), pct(a.execution_sr),
             pct(a.coverage_at_commit), _num(a.gui_steps), str(a.episodes)]
            for label, a in breakdown(rows, "agent_mode").items()]
    widths = [max(len(r[i]) for r in (SUMMARY_HEAD, *body)) for i in range(len(SUMMARY_HEAD))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
             for r in (SUMMARY_HEAD, *body)]
    infra = aggregate(rows).infra_errors
    if infra:
        lines.append(f"{infra} episode{'s' if infra != 1 else ''} ended in an infrastructure "
                     "error (left out of every number).")
    return [*lines, *SUMMARY_KEY, *reads_task_note(rows)]


def json_report(rows: Sequence[EpisodeMetrics]) -> dict[str, Any]:
    """``{"aggregate": ..., "by_<key>": {group: aggregate}, "skills": ..., "skills_by_agent": ...}``
    for every key of :data:`BREAKDOWNS`."""
    out: dict[str, Any] = {"aggregate": aggregate(rows).model_dump()}
    for by in BREAKDOWNS:
        out[f"by_{by}"] = {k: a.model_dump() for k, a in breakdown(rows, by).items()}
    out["skills"] = skill_invocation(rows)
    out["skills_by_agent"] = {k: skill_invocation(g) for k, g in group(rows, "agent_mode").items()}
    return out
