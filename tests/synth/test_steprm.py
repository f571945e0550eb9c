"""StepRM (WebSTAR 4.4) on a real graded semantic run: the balanced, task-split data set with
held-out sites, the CPU model's training and agreement, the model as a grader, and bad input."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest
import typer
from synth_runs import GRADED_SITES
from typer.testing import CliRunner

from webmdp.cli.synth_steprm_cmd import steprm_app, steprm_data
from webmdp.synth.episodes import episodes
from webmdp.synth.exact import grade_row
from webmdp.synth.steprm import StepRMGrader, build_data, to_grade

pytest.importorskip("sklearn")

runner = CliRunner()
SITES = "mail,shopping,food,housing,repo,qa,jobs,chat"
HELD = ["jobs", "mail"]
KEYS = {"task_id", "agent", "mode", "seed", "step", "grade", "source", "why", "site",
        "template", "success"}

app = typer.Typer()
app.command("steprm-data")(steprm_data)
app.add_typer(steprm_app, name="steprm")


def _ok(res) -> None:  # type: ignore[no-untyped-def]
    assert res.exit_code == 0, res.output


@pytest.fixture(scope="module")
def run_dir(graded_run: Path) -> Path:
    """The shared graded run (tests/synth/conftest.py): oracle, random and greedy on 8 tasks of
    each of these sites, seeds 0 and 1, 12 steps at most, graded with ``--budget 50``."""
    assert ",".join(GRADED_SITES) == SITES
    return graded_run


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory, run_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("steprm") / "data"
    _ok(runner.invoke(app, ["steprm-data", str(run_dir), "--out", str(out),
                            "--holdout", ",".join(HELD)]))
    return out


@pytest.fixture(scope="module")
def model_dir(data_dir: Path) -> Path:
    out = data_dir.parent / "model"
    _ok(runner.invoke(app, ["steprm", "train", str(data_dir), "--out", str(out)]))
    return out


def _split(data: Path, name: str) -> list[dict]:
    return [json.loads(line) for line in (data / f"{name}.jsonl").read_text().splitlines()]


def test_each_split_is_balanced_around_the_cutoff(data_dir: Path) -> None:
    meta = json.loads((data_dir / "meta.json").read_text())
    assert meta["cutoff"] == 5 and meta["split"] == "gt"
    for name in ("train", "test", "heldout"):
        ex = _split(data_dir, name)
        assert ex, name
        kept = Counter(e["grade"] > 5 for e in ex)
        assert kept[True] == kept[False] == len(ex) // 2, (name, kept)
        assert all(e["kept"] == (e["grade"] > 5) for e in ex)
        assert meta["counts"][name]["n"] == len(ex)
        # balancing only drops examples of the larger class
        before = meta["before_balance"][name]
        assert len(ex) // 2 == min(before["kept"], before["not_kept"])
    e = _split(data_dir, "train")[0]
    assert e["instruction"] and e["action"]["text"] and "history" in e and "page" in e
    assert {"task_id", "agent", "mode", "step", "site", "grade", "target"} <= e.keys()


def test_no_task_in_train_and_test_and_held_out_sites_only_in_heldout(data_dir: Path) -> None:
    train, test, held = (_split(data_dir, n) for n in ("train", "test", "heldout"))
    assert not {e["task_id"] for e in train} & {e["task_id"] for e in test}
    assert {e["site"] for e in held} == set(HELD)
    assert not {e["site"] for e in train + test} & set(HELD)
    meta = json.loads((data_dir / "meta.json").read_text())
    assert meta["heldout_sites"] == HELD
    assert {e["task_id"] for e in test} <= set(meta["test_tasks"])


def test_the_set_is_deterministic_and_drawn_sites_differ_by_seed(run_dir: Path,
                                                                   data_dir: Path,
                                                                   tmp_path: Path) -> None:
    again = tmp_path / "again"
    build_data(run_dir, again, holdout_sites=HELD)
    for name in ("train", "test", "heldout"):
        assert (again / f"{name}.jsonl").read_text() == (data_dir / f"{name}.jsonl").read_text()
    drawn = {tuple(build_data(run_dir, tmp_path / f"s{s}", seed=s)["heldout_sites"])
             for s in range(4)}
    assert all(len(d) == 2 for d in drawn) and len(drawn) > 1


def test_train_and_eval_beat_the_majority_class(model_dir: Path, data_dir: Path) -> None:
    card = json.loads((model_dir / "card.json").read_text())
    assert card["kind"] == "cpu" and card["cutoff"] == 5 and card["train"]["n"] > 0
    res = runner.invoke(app, ["steprm", "eval", str(model_dir), str(data_dir), "--json"])
    _ok(res)
    out = json.loads(res.stdout)
    assert {"n", "agreement", "kappa"} <= out.keys()
    test, held = out["splits"]["test"], out["splits"]["heldout"]
    assert out["n"] == test["n"] + held["n"] > 0
    for split in (test, held):
        assert split["majority_rate"] == 0.5
        assert split["agreement"] > split["majority_rate"] and split["kappa"] > 0, split
        assert sum(map(sum, split["confusion"]["matrix"])) == split["n"]
    text = runner.invoke(app, ["steprm", "eval", str(model_dir), str(data_dir)])
    _ok(text)
    assert "heldout:" in text.stdout and "jobs, mail" in text.stdout


def test_a_trained_steprm_is_a_grader(model_dir: Path, run_dir: Path) -> None:
    grader = StepRMGrader(model_dir)
    eps = [ep for ep in episodes(run_dir) if ep.label in ("oracle", "random")][:6]
    for ep in eps:
        rows = grader.rows(ep.label, ep.mode, ep.trace, ep.task)
        assert len(rows) == len(ep.trace.steps)
        assert [r["step"] for r in rows] == list(range(len(rows)))
        for r in rows:
            assert r.keys() >= KEYS and r["source"] == "steprm"
            assert isinstance(r["grade"], int) and 0 <= r["grade"] <= 10
            assert (r["grade"] > 5) == (r["p_kept"] > 0.5)
            base = grade_row(ep.label, ep.mode, ep.trace, r["step"], _graded(r), "steprm")
            assert {k: r[k] for k in base} == base


def _graded(r: dict):  # type: ignore[no-untyped-def]
    from webmdp.synth.exact import Graded

    return Graded(r["grade"], r["why"])


def test_grade_mapping_follows_the_classifier_decision() -> None:
    assert [to_grade(p, 5) for p in (0.0, 0.2, 0.5, 0.51, 0.58, 0.9, 1.0)] == \
        [0, 2, 5, 6, 6, 9, 10]
    assert to_grade(0.7, 8) == 9 and to_grade(0.3, 0) == 0 and to_grade(0.55, 2.5) == 6


def _one_line_error(res, *needles: str) -> None:  # type: ignore[no-untyped-def]
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1, res.output
    for n in needles:
        assert n in res.output, res.output


def test_bad_input_gets_one_line(run_dir: Path, data_dir: Path, model_dir: Path,
                                 tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    _one_line_error(runner.invoke(app, ["steprm-data", str(tmp_path / "nope"), "--out",
                                        str(tmp_path / "d")]), "no such run directory")
    _one_line_error(runner.invoke(app, ["steprm-data", str(empty), "--out", str(tmp_path / "d")]),
                    "no traces", "webmdp run")
    ungraded = tmp_path / "ungraded"
    ungraded.mkdir()
    (ungraded / "tasks.jsonl").write_text((run_dir / "tasks.jsonl").read_text())
    trace = next((run_dir / "episodes").glob("*/*/*.json"))
    copy = ungraded / trace.relative_to(run_dir)
    copy.parent.mkdir(parents=True)
    copy.write_text(trace.read_text())
    _one_line_error(runner.invoke(app, ["steprm-data", str(ungraded), "--out",
                                        str(tmp_path / "d")]),
                    "no exact grades yet", f"webmdp synth grade {ungraded}")
    for cutoff in ("11", "-1"):
        _one_line_error(runner.invoke(app, ["steprm-data", str(run_dir), "--out",
                                            str(tmp_path / "d"), "--cutoff", cutoff]),
                        "--cutoff must be between 0 and 10")
    _one_line_error(runner.invoke(app, ["steprm-data", str(run_dir), "--out",
                                        str(tmp_path / "d"), "--holdout", "nosuchsite"]),
                    "--holdout nosuchsite")
    _one_line_error(runner.invoke(app, ["steprm-data", str(run_dir), "--out",
                                        str(tmp_path / "d"), "--n-holdout", "8"]),
                    "--n-holdout 8")
    _one_line_error(runner.invoke(app, ["steprm", "train", str(run_dir), "--out",
                                        str(tmp_path / "m")]),
                    "not a StepRM data set", "webmdp synth steprm-data")
    _one_line_error(runner.invoke(app, ["steprm", "eval", str(model_dir), str(run_dir)]),
                    "not a StepRM data set")
    _one_line_error(runner.invoke(app, ["steprm", "eval", str(data_dir), str(data_dir)]),
                    "not a StepRM model", "webmdp synth steprm train")
    assert not (tmp_path / "d").exists() and not (tmp_path / "m").exists()


def test_missing_extras_are_named(data_dir: Path, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sklearn", None)
    _one_line_error(runner.invoke(app, ["steprm", "train", str(data_dir), "--out",
                                        str(tmp_path / "m")]),
                    "pip install 'webmdp[steprm]'")
    for name in ("torch", "transformers", "peft"):
        monkeypatch.setitem(sys.modules, name, None)
    _one_line_error(runner.invoke(app, ["steprm", "train", str(data_dir), "--out",
                                        str(tmp_path / "m"), "--vlm", str(tmp_path)]),
                    "pip install 'webmdp[steprm-vlm]'")


def test_the_vlm_module_imports_without_its_extra() -> None:
    import webmdp.synth.steprm_vlm as vlm

    assert vlm.parse_grade("Expected: 7") == 7 and vlm.parse_grade("10") == 10
    assert vlm.parse_grade("none") is None and vlm.parse_grade("12") is None
    from webmdp.synth.preaction import PreActionView

    view = PreActionView.model_validate(
        {"step": 1, "instruction": "Find it", "history": ["scroll down 100px"], "n_history": 1,
         "history_commits": 0, "page": {"surface": "Inbox"},
         "action": {"text": "click at (1, 2)", "kind": "click", "raw": {"kind": "click"}}})
    text = vlm.prompt_text(view)
    assert "Find it" in text and "click at (1, 2)" in text and "Inbox" in text
