"""Markdown and JSON reports."""

from __future__ import annotations

import json

import pytest

from webmdp.eval import EpisodeMetrics, episode_metrics, json_report, markdown_report
from webmdp.eval.report import DASH
from webmdp.tasks import Task
from webmdp.trace import EpisodeTrace

AGG_KEYS = {"terminal_sr", "safe_pass_sr", "exploration_sr", "execution_sr", "coverage_at_commit",
            "gui_steps", "semantic_steps", "gui_semantic_ratio", "episodes", "infra_errors"}


@pytest.fixture
def rows(task: Task, good: EpisodeTrace, premature: EpisodeTrace, safe: EpisodeTrace,
         rejected: EpisodeTrace, infra: EpisodeTrace) -> list[EpisodeMetrics]:
    return [episode_metrics(t, task) for t in (good, premature, safe, rejected, infra)]


def test_markdown_aggregate_table(rows: list[EpisodeMetrics]) -> None:
    md = markdown_report(rows)
    assert md.startswith("# WebMDP evaluation\n")
    assert "## Aggregate results" in md
    assert ("| Agent | Terminal SR (safe pass) | Terminal SR (strict) | Exploration SR | "
            "Execution SR \\| Expl. | Coverage@commit | GUI steps | Sem. steps | GUI/Sem. | "
            "Episodes | Infra errors |") in md
    assert "| a (browser) | 100.0 | 100.0 | 100.0 | 100.0 | 80.0 | 7.0 | 5.0 | 1.4 | 1 | 0 |" in md
    assert f"| a (semantic) | 0.0 | 0.0 | 0.0 | {DASH} | 60.0 | 5.0 | 5.0 | 1.0 | 1 | 0 |" in md
    assert "| b (semantic) | 50.0 | 0.0 | 50.0 | 0.0 | 50.0 | 4.0 | 2.5 | 1.8 | 2 | 1 |" in md
    assert "| All | 50.0 | 25.0 | 50.0 | 50.0 | 60.0 | 5.0 | 3.8 | 1.5 | 4 | 1 |" in md


def test_markdown_breakdown_tables(rows: list[EpisodeMetrics]) -> None:
    md = markdown_report(rows)
    assert "### Exploration SR (%) by site" in md
    assert "| Agent | shopping |" in md
    assert "### Exploration SR (%) by hard negative count" in md
    assert "| Agent | 2 |" in md
    assert "### Exploration SR (%) by oracle trajectory length" in md
    assert "| Agent | 7-9 |" in md
    assert "### Exploration SR (%) by information access level" in md
    assert "| Agent | detail |" in md
    assert "| b (semantic) | 50.0 (2) |" in md
    defs = md.split("## Definitions", 1)[1]
    for name in ("Terminal SR (strict)", "Terminal SR (safe pass)", "Exploration SR",
                 "Execution SR | Expl.", "Coverage@commit", "GUI/Sem.", "Skill invocation"):
        assert f"**{name}**" in defs
    assert "C.3" in defs and "eq. 2" in defs and "4.1" in defs and "ours" in defs


def test_markdown_empty() -> None:
    md = markdown_report([])
    assert "| All | " + f"{DASH} | " * 8 + "0 | 0 |" in md


def test_json_report_keys(rows: list[EpisodeMetrics]) -> None:
    rep = json_report(rows)
    assert set(rep) == {"aggregate", "by_agent", "by_agent_mode", "by_site", "by_template",
                        "by_hard_negative_count", "by_oracle_length", "by_access_level",
                        "skills", "skills_by_agent"}
    assert set(rep["aggregate"]) == AGG_KEYS
    assert rep["aggregate"]["terminal_sr"] == 0.25 and rep["aggregate"]["infra_errors"] == 1
    assert set(rep["by_agent"]) == {"a", "b"}
    assert all(set(a) == AGG_KEYS for a in rep["by_agent"].values())
    assert list(rep["by_hard_negative_count"]) == ["2"]
    assert list(rep["by_oracle_length"]) == ["7-9"]
    assert rep["skills_by_agent"]["b (semantic)"]["navigate"] == 0.0
    assert json.loads(json.dumps(rep)) == rep
