"""`webmdp demo` prints a compact summary (one row per agent, where the report is, how to open
it), not the whole report; the full report stays in files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from webmdp.eval.report import pct

WEBMDP = str(Path(sys.executable).parent / "webmdp")


def test_demo_prints_a_short_summary_and_where_the_report_is(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    res = subprocess.run([WEBMDP, "demo", "--sites", "mail", "--per-site", "2", "--mode",
                          "semantic", "--workers", "0", "--out", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) <= 15, res.stdout
    rep = json.loads((out / "report" / "report.json").read_text())
    for agent in ("oracle", "greedy", "random"):
        label = f"{agent} (semantic)"
        agg = rep["by_agent_mode"][label]
        row = next(line for line in lines if line.startswith(label)).split()[2:]
        assert row[:4] == [pct(agg[k]) for k in ("terminal_sr", "exploration_sr",
                                                 "execution_sr", "coverage_at_commit")]
        assert row[4] == f"{agg['gui_steps']:.1f}" and row[-1] == str(agg["episodes"])
    header = lines[0].split()
    assert header[:5] == ["Agent", "SR", "Expl.", "SR", "Exec."]
    assert str(out / "report" / "report.html") in res.stdout
    assert f"webmdp view {out}" in lines[-1]
    for full in ("## Aggregate results", "## Definitions", "|---|", "Skill invocation"):
        assert full not in res.stdout, full
    assert (out / "report" / "report.md").read_text().startswith("# WebMDP evaluation")
