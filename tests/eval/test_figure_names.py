"""Figures and tables named as the papers name them: WebSTAR Figure 4 is the share of steps
graded above each threshold (not its complement, the CDF), and the share of steps kept per
cutoff is our own table, not WebSTAR's Table 6 (the Pass@k of policies trained per cutoff)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.eval.synth_section import synth_summary
from webmdp.synth.agreement import agreement, cdf, markdown, share_above

GRADES = [0, 3, 5, 5, 6, 8, 10, 10]


def _rows(grades: list[int]) -> list[dict]:
    return [{"agent": "oracle", "mode": "semantic", "task_id": "shopping_0000", "step": i,
             "grade": g} for i, g in enumerate(grades)]


def test_figure_4_is_the_share_above_each_threshold() -> None:
    above = share_above(GRADES)
    assert [t for t, _ in above] == list(range(11))
    for t, share in above:
        assert share == round(sum(g > t for g in GRADES) / len(GRADES), 4)
    assert above[0][1] == 7 / 8 and above[5][1] == 0.5 and above[10][1] == 0.0
    # the CDF is its complement, kept under its own name
    assert all(a + c == 1.0 for (_, a), (_, c) in zip(above, cdf(GRADES), strict=True))
    result = agreement(_rows(GRADES), _rows(GRADES), names=("a", "b"))
    assert result["share_above"]["a"] == above and result["cdf"]["a"] == cdf(GRADES)


def test_the_reports_figure_4_data_is_the_share_above(tmp_path: Path) -> None:
    run = tmp_path / "run"
    (run / "synth").mkdir(parents=True)
    (run / "synth" / "grades-exact.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in _rows(GRADES)))
    summary = synth_summary([run])
    assert summary["sources"]["exact"]["all"]["share_above"] == share_above(GRADES)


def test_the_cutoff_table_is_steps_kept_per_cutoff_not_table_6() -> None:
    result = agreement(_rows(GRADES), _rows(GRADES), names=("a", "b"))
    assert result["kept_share"]["a"]["5"] == 0.5  # the JSON key users read is kept
    md = markdown(result)
    assert "steps kept per cutoff" in md and "Table 6" not in md
    res = CliRunner().invoke(app, ["synth", "agreement", "--help"])
    assert res.exit_code == 0
    help_text = " ".join(res.output.replace("\u2502", " ").split())
    assert "Table 6" not in help_text and "Figure 4" in help_text
    assert "steps kept per cutoff" in help_text
