"""The VLM StepRM recipe end to end on CPU: a real graded semantic run, a StepRM data set, a
tiny randomly initialised LLaVA-style model built from configs (tokenizer trained here, image
processor from a config, nothing downloaded), a LoRA fine-tune, evaluation, and the trained
model as a grader. `make test-train`; skipped without `webmdp[steprm-vlm]`."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("peft")
pytest.importorskip("tokenizers")

from webmdp.cli.main import app as main_app
from webmdp.cli.synth_steprm_cmd import steprm_app, steprm_data
from webmdp.synth.episodes import episodes
from webmdp.synth.preaction import PreActionView
from webmdp.synth.steprm import StepRMGrader, evaluate, read_split, train_vlm
from webmdp.synth.steprm_vlm import prompt_text, tiny_model_dir

pytestmark = pytest.mark.train
runner = CliRunner()
app = typer.Typer()
app.command("steprm-data")(steprm_data)
app.add_typer(steprm_app, name="steprm")


def _ok(res) -> None:  # type: ignore[no-untyped-def]
    assert res.exit_code == 0, res.output


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("train")
    run = root / "run"
    _ok(runner.invoke(main_app, ["run", "--site", "mail,shopping,food,repo,qa,chat",
                                 "-a", "oracle", "-a", "random", "-a", "greedy",
                                 "--seeds", "0,1", "-n", "12", "--step-budget", "12",
                                 "--out", str(run)]))
    _ok(runner.invoke(main_app, ["synth", "grade", str(run), "--budget", "50"]))
    _ok(runner.invoke(app, ["steprm-data", str(run), "--out", str(root / "data"),
                            "--holdout", "mail,shopping"]))
    return root / "data"


@pytest.fixture(scope="module")
def tiny(data_dir: Path) -> Path:
    texts = [prompt_text(PreActionView.of_row(e)) for e in read_split(data_dir, "train")]
    path = tiny_model_dir(data_dir.parent / "tiny", texts)
    assert (path / "config.json").is_file() and (path / "tokenizer.json").is_file()
    return path


def test_lora_finetune_learns_and_grades(data_dir: Path, tiny: Path) -> None:
    out = data_dir.parent / "vlm"
    t0 = time.perf_counter()
    card = train_vlm(tiny, data_dir, out, epochs=2, lora_r=8, lr=2e-3, max_examples=96)
    wall = time.perf_counter() - t0
    assert card["kind"] == "vlm" and (out / "adapter").is_dir() and (out / "card.json").is_file()
    assert card["loss_last"] < card["loss_first"] * 0.5, card
    ev = card["eval"]
    graded = ev["n"] / (ev["n"] + ev["ungraded"])
    assert graded > 0.5, ev  # it learned to answer with a grade (0.92 when measured)
    print("\nVLM StepRM (tiny, CPU):", json.dumps(
        {"wall_s": round(wall, 1), "train_s": card["train_s"], "eval_s": card["eval_s"],
         "train_n": card["train"]["n"], "loss_first": card["loss_first"],
         "loss_last": card["loss_last"], "loss_per_epoch": card["loss_per_epoch"],
         "agreement": ev["agreement"], "kappa": ev["kappa"],
         "splits": {k: {m: v[m] for m in ("n", "agreement", "kappa", "ungraded")}
                    for k, v in ev["splits"].items()}}))
    res = evaluate(out, data_dir)
    assert res["kind"] == "vlm" and res["n"] == ev["n"]
    grader = StepRMGrader(out)
    ep = next(e for e in episodes(data_dir.parent / "run") if e.label == "oracle")
    rows = grader.rows(ep.label, ep.mode, ep.trace, ep.task)
    assert len(rows) == len(ep.trace.steps) and all(r["source"] == "steprm" for r in rows)
    assert all(r["grade"] is None or 0 <= r["grade"] <= 10 for r in rows)


def test_cli_trains_a_vlm_steprm(data_dir: Path, tiny: Path) -> None:
    out = data_dir.parent / "vlm-cli"
    _ok(runner.invoke(app, ["steprm", "train", str(data_dir), "--out", str(out), "--vlm",
                            str(tiny), "--epochs", "1", "--lora-r", "4"]))
    card = json.loads((out / "card.json").read_text())
    assert card["kind"] == "vlm" and card["lora_r"] == 4
    res = runner.invoke(app, ["steprm", "eval", str(out), str(data_dir), "--json"])
    _ok(res)
    assert {"n", "agreement", "kappa"} <= json.loads(res.stdout).keys()


def test_a_directory_without_a_model_is_refused(data_dir: Path, tmp_path: Path) -> None:
    res = runner.invoke(app, ["steprm", "train", str(data_dir), "--out", str(tmp_path / "m"),
                              "--vlm", str(tmp_path)])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert "not a local model directory" in res.output
