"""What the report says in words: text from traces shown literally in report.md and
report.html (escaped once), and why the skill tables are empty in a small run."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from support import site_tasks
from webmdp.eval.analysis import analyse
from webmdp.eval.html import markdown_to_html
from webmdp.eval.load import load_runs
from webmdp.eval.report import DASH, md_escape
from webmdp.eval.skills import MIN_SUPPORT
from webmdp.eval.write import render, write_report
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.trace import EpisodeTrace

PAYLOAD = "<img src=x onerror=alert(1)> a|b *c* _d_ [e](f) `g` #h \\i &amp; ~~j~~"
"""HTML and every Markdown metacharacter a table cell or a line could act on."""


def commonmark(md: str) -> str:
    """``md`` as a CommonMark (+ GFM tables) renderer shows it, e.g. GitHub's."""
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(md)


@pytest.fixture(scope="module")
def payload_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One oracle episode renamed to agent PAYLOAD, and a corrupt trace whose file name holds
    PAYLOAD (named under Skipped inputs)."""
    out = tmp_path_factory.mktemp("payload")
    run_tasks(site_tasks("shopping")[:2], out, RunConfig(agent="oracle"))
    first, second = sorted((out / "episodes").glob("*/*/*.json"))
    trace = EpisodeTrace.model_validate_json(first.read_text())
    trace.agent = PAYLOAD
    first.write_text(trace.model_dump_json())
    second.rename(second.with_name(PAYLOAD + ".json")).write_text("{")
    return out


def test_md_escape_round_trips_through_commonmark() -> None:
    shown = commonmark(f"{md_escape(PAYLOAD)}\n\n| A |\n|---|\n| {md_escape(PAYLOAD)} |\n")
    assert shown.count(html.escape(PAYLOAD, quote=False)) == 2
    assert md_escape("find_product_extract shopping_0001") == \
        "find_product_extract shopping_0001"  # intraword _ cannot emphasise: kept readable
    assert md_escape("a\nb\u2028c\rd") == "a b c d"  # a line break would end a cell or line


def test_trace_text_shows_literally_in_md_and_once_escaped_in_html(payload_run: Path,
                                                                   tmp_path: Path) -> None:
    paths = write_report(analyse(load_runs([payload_run])), tmp_path / "rep")
    md = paths["markdown"].read_text()
    assert PAYLOAD not in md and re.search(r"(?<!\\)<img", md) is None  # never raw
    escaped = html.escape(PAYLOAD, quote=False)
    for name, shown in (("report.md", commonmark(md)), ("report.html",
                                                        paths["html"].read_text())):
        assert escaped in shown, name
        assert "<img src=x" not in shown and "&amp;lt;" not in shown, name
        assert "<em>" not in shown and "<a href" not in shown and "<s>" not in shown, name
        assert "\\|" not in shown and "\\*" not in shown and "\\&lt;" not in shown, name
        # the agent's row: the name is one cell, the numbers follow
        assert re.search(re.escape(f"<td>{escaped} (semantic)</td>") + r"\s*<td>100\.0</td>",
                         shown), name


def test_markdown_the_report_writes_renders_as_before() -> None:
    md = ("# T\n\n| A | Execution SR \\| Expl. |\n|---|---|\n| a\\_ | `x_y` |\n\n"
          "- **Bold**: text with `code`.\n")
    out = markdown_to_html(md, {}, "t")
    assert "<th>Execution SR | Expl.</th>" in out and "<td>a_</td><td><code>x_y</code></td>" in out
    assert "<li><strong>Bold</strong>: text with <code>code</code>.</li>" in out


def test_a_skipped_file_name_is_text_too(payload_run: Path) -> None:
    md, _ = render(analyse(load_runs([payload_run])))
    skipped = md.split("## Skipped inputs", 1)[1]
    assert md_escape(PAYLOAD) + ".json" in skipped  # a name with a backtick: not a code span
    assert commonmark(skipped).count(html.escape(PAYLOAD, quote=False)) == 1


def _skill_part(text: str) -> str:
    return text.split("Skill invocation by category", 1)[1].split("## Temporal", 1)[0]


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("small")
    for agent in ("oracle", "greedy"):
        run_tasks(site_tasks("shopping")[:3], out, RunConfig(agent=agent))
    return out


def test_empty_skill_cells_are_explained_once_above_the_tables(small_run: Path,
                                                                tmp_path: Path) -> None:
    paths = write_report(analyse(load_runs([small_run])), tmp_path / "rep")
    md = _skill_part(paths["markdown"].read_text())
    why = (f"a rate is shown only with at least {MIN_SUPPORT} requiring episodes",
           "this run has 3 episodes per agent (greedy 3, oracle 3)")
    for text in (md, _skill_part(paths["html"].read_text())):
        assert all(text.count(w) == 1 for w in why), text[:600]
        assert text.index(why[0]) < text.index("Skill categories on")
    hidden = sum(line.count(f"{DASH} (") for line in md.splitlines())
    assert hidden and f"All {hidden} skill cells show {DASH}" in md


def test_the_note_counts_hidden_cells_and_goes_when_none_is(small_run: Path) -> None:
    a = analyse(load_runs([small_run]))
    cells = [c for table in (a.skills, a.skill_names) for per in table.values()
             for row in per.values() for c in row.values()]
    for c in cells[1:]:
        c.rate = c.invoked / c.required
    assert f"1 of {len(cells)} skill cells shows {DASH}" in _skill_part(render(a)[0])
    cells[0].rate = 1.0
    assert "skill cells" not in _skill_part(render(a)[0]) and f"Why {DASH}" not in render(a)[0]
