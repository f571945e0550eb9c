"""`webmdp synth grade` and `webmdp synth agreement` on a real run directory."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.synth.agreement import cohen_kappa, spearman

runner = CliRunner()
KEYS = {"task_id", "agent", "mode", "seed", "step", "grade", "source"}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("synth") / "run"
    res = runner.invoke(app, ["run", "--site", "mail,shopping", "-a", "oracle", "-a", "random",
                              "--seeds", "0,1", "-n", "4", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


def _grade(run: Path) -> list[dict]:
    res = runner.invoke(app, ["synth", "grade", str(run), "--json"])
    assert res.exit_code == 0, res.output
    return [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]


def test_grade_prints_one_object_per_graded_step_and_writes_the_side_file(run_dir: Path) -> None:
    rows = _grade(run_dir)
    assert rows and all(r.keys() >= KEYS and 0 <= r["grade"] <= 10 for r in rows)
    assert {r["agent"] for r in rows} == {"oracle", "oracle@s1", "random", "random@s1"}
    assert all(r["grade"] > 5 for r in rows if r["agent"].startswith("oracle"))
    assert any(r["grade"] <= 5 for r in rows if r["agent"].startswith("random"))
    side = run_dir / "synth" / "grades-exact.jsonl"
    stored = [json.loads(line) for line in side.read_text().splitlines()]
    assert [r for r in stored if r["grade"] is not None] == sorted(
        rows, key=lambda r: (r["agent"], r["mode"], r["task_id"], r["step"]))
    traces = sorted((run_dir / "episodes").glob("*/*/*.json"))
    assert sum(len(json.loads(p.read_text())["steps"]) for p in traces) == len(stored)
    assert _grade(run_dir) == rows  # deterministic


def test_agreement_against_a_human_file(run_dir: Path, tmp_path: Path) -> None:
    exact = _grade(run_dir)
    human = [dict(r, grade=(0 if r["grade"] > 5 else 10) if i % 5 == 0 else r["grade"])
             for i, r in enumerate(exact)]
    path = tmp_path / "human.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in human))
    res = runner.invoke(app, ["synth", "agreement", str(run_dir), "exact", str(path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    flipped = sum(1 for i in range(len(exact)) if i % 5 == 0)
    assert out["n"] == len(exact) and out["split"] == "gt"
    assert out["agreement"] == pytest.approx(1 - flipped / len(exact), abs=1e-4)
    (pp, pn), (np_, nn) = out["confusion"]["matrix"]
    assert pp + pn + np_ + nn == len(exact) and pn + np_ == flipped
    kept_a = [r["grade"] > 5 for r in exact]
    kept_b = [r["grade"] > 5 for r in human]
    assert out["kappa"] == pytest.approx(cohen_kappa(kept_a, kept_b), abs=1e-4)
    assert out["kept_share"]["exact"]["5"] == pytest.approx(sum(kept_a) / len(exact), abs=1e-4)
    assert out["cdf"]["exact"][-1] == [10, 1.0]
    ge = runner.invoke(app, ["synth", "agreement", str(run_dir), "exact", str(path), "--json",
                             "--split", "ge"])
    assert json.loads(ge.stdout)["split"] == "ge"
    md = runner.invoke(app, ["synth", "agreement", str(run_dir), "exact", str(path)])
    assert "| exact > 5 |" in md.stdout


def test_kappa_and_spearman_match_hand_computed_values() -> None:
    # 10 items: both yes 4, a-only 1, b-only 1, both no 4: po = .8, pe = .5 -> kappa .6
    a = [True] * 5 + [False] * 5
    b = [True] * 4 + [False, True] + [False] * 4
    assert cohen_kappa(a, b) == pytest.approx(0.6)
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(0.9487, abs=1e-4)


@pytest.mark.parametrize("args, needle", [
    (["synth", "grade", "{empty}"], "has no traces"),
    (["synth", "grade", "{run}", "--grader", "oracle"], "unknown grader"),
    (["synth", "agreement", "{run}", "exact", "exact", "--cutoff", "11"], "between 0 and 10"),
    (["synth", "agreement", "{run}", "exact", "model"], "no model grades yet"),
    (["synth", "agreement", "{run}", "exact", "exact", "--split", "lt"], "gt or ge"),
])
def test_bad_input_is_one_line(run_dir: Path, tmp_path: Path, args: list[str],
                               needle: str) -> None:
    empty = tmp_path / "empty"
    (empty / "episodes").mkdir(parents=True)
    (empty / "tasks.jsonl").write_text("")
    if needle == "no model grades yet":  # the exact grades exist, whichever test ran first
        _grade(run_dir)
    res = runner.invoke(app, [a.format(run=run_dir, empty=empty) for a in args])
    assert res.exit_code == 2
    assert needle in res.output and "Traceback" not in res.output


def test_report_has_a_training_data_section(run_dir: Path, tmp_path: Path) -> None:
    exact = _grade(run_dir)
    human = tmp_path / "human.jsonl"
    flipped = [dict(r, grade=0 if r["grade"] > 5 else 10) for r in exact]
    human.write_text("".join(json.dumps(r) + "\n" for r in flipped))
    shutil.copy(human, run_dir / "synth" / "grades-human.jsonl")
    try:
        res = runner.invoke(app, ["report", str(run_dir), "--out", str(tmp_path / "rep"),
                                  "--json"])
    finally:
        (run_dir / "synth" / "grades-human.jsonl").unlink()
    assert res.exit_code == 0, res.output
    synth = json.loads(res.stdout)["synth"]
    stats = synth["sources"]["exact"]["all"]
    assert stats["graded"] == len(exact)
    assert stats["kept"] == sum(r["grade"] > 5 for r in exact)
    assert sum(stats["histogram"]) == len(exact)
    assert set(synth["sources"]["exact"]["by_agent"]) == {
        "oracle (semantic)", "oracle@s1 (semantic)", "random (semantic)", "random@s1 (semantic)"}
    (pair,) = synth["agreement"]
    assert (pair["a"], pair["b"], pair["n"]) == ("exact", "human", len(exact))
    assert pair["agreement"] == 0.0  # the human file flips every keep decision
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Training data (webmdp synth)" in md
    assert (tmp_path / "rep" / "figures" / "synth_cdf.png").stat().st_size > 1000
