"""The StepRM sees only what exists before the step (WebSTAR App. F: "the assistant has not yet
executed the proposed action"): examples, features, predictions and the VLM prompt do not
change with the step's outcome, the data set's rows carry no outcome field, and a data set of
the old, hindsight version is refused with a one-line error."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from synth_runs import GRADED_SITES
from typer.testing import CliRunner

from webmdp.cli.synth_steprm_cmd import steprm_app, steprm_data
from webmdp.synth.episodes import Episode, episodes
from webmdp.synth.steprm import load_model, step_examples, train
from webmdp.trace import EpisodeTrace

pytest.importorskip("sklearn")

runner = CliRunner()
OUTCOME_KEYS = {"surface_after", "changed", "changes_state", "revealed", "n_revealed", "error",
                "focus_after", "state_key"}
LABEL_KEYS = {"agent", "mode", "task_id", "step", "site", "template", "seed", "grade", "kept"}

app = typer.Typer()
app.command("steprm-data")(steprm_data)
app.add_typer(steprm_app, name="steprm")


def _ok(res: Any) -> None:
    assert res.exit_code == 0, res.output


@pytest.fixture(scope="module")
def run_dir(graded_run: Path) -> Path:
    """The shared graded run (tests/synth/conftest.py): oracle, random and greedy on 8 tasks of
    mail, shopping, food, repo, qa and three more sites, seeds 0 and 1, 12 steps at most."""
    assert {"mail", "shopping", "food", "repo", "qa"} <= set(GRADED_SITES)
    return graded_run


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory, run_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("preaction") / "data"
    _ok(runner.invoke(app, ["steprm-data", str(run_dir), "--out", str(out), "--holdout", "mail"]))
    return out


@pytest.fixture(scope="module")
def model_dir(data_dir: Path) -> Path:
    out = data_dir.parent / "model"
    train(data_dir, out)
    return out


def _informative_step(run_dir: Path) -> tuple[Episode, int]:
    """A real step whose outcome says a lot: it changed the state and revealed facts."""
    for ep in episodes(run_dir):
        for i, step in enumerate(ep.trace.steps):
            t = step.transitions[0] if step.transitions else None
            if t is not None and t.changed and t.revealed and t.error is None:
                return ep, i
    raise AssertionError("no step that changed the state and revealed something")


def _other_outcome(trace: EpisodeTrace, i: int) -> EpisodeTrace:
    """A copy of the trace where step ``i`` had another outcome: rejected, as the tracker
    records a rejection (error set, nothing changed or revealed, skill and category empty),
    and on another surface after."""
    copy = trace.model_copy(deep=True)
    step = copy.steps[i]
    step.transitions = [t.model_copy(update={
        "error": "precondition failed", "surface_after": "SomewhereElse", "changed": False,
        "revealed": [], "skill": "", "category": "", "changes_state": False,
        "state_key": "other", "focus_after": None}) for t in step.transitions]
    step.error = "precondition failed"
    return copy


def test_another_outcome_gives_the_same_example_and_grade(run_dir: Path,
                                                          model_dir: Path) -> None:
    ep, i = _informative_step(run_dir)
    other = _other_outcome(ep.trace, i)
    a = step_examples(ep.trace, ep.task, ep.label, ep.mode, ep.path)[i]
    b = step_examples(other, ep.task, ep.label, ep.mode, ep.path)[i]
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    model = load_model(model_dir)
    assert model.grades([a]) == model.grades([b])


def test_the_commit_flag_and_skill_come_from_the_site_spec(run_dir: Path) -> None:
    from webmdp.core.registry import get_site

    ep, i = _informative_step(run_dir)
    other = _other_outcome(ep.trace, i)
    target = step_examples(other, ep.task, ep.label, ep.mode, ep.path)[i]["target"]
    spec = get_site(ep.trace.site).action_spec(target["action"])
    assert target["skill"] == spec.skill and target["category"] == spec.category.value
    assert target["commits"] is spec.changes_state


def test_the_page_url_is_the_one_before_the_step(run_dir: Path) -> None:
    ep = next(iter(episodes(run_dir)))
    trace = ep.trace.model_copy(deep=True)
    for k, step in enumerate(trace.steps):
        step.url = f"http://site.test/after-step-{k}"  # a browser step records the url after it
    ex = step_examples(trace, ep.task, ep.label, ep.mode, ep.path)
    assert ex[0]["page"]["url"] is None
    assert [e["page"]["url"] for e in ex[1:]] == \
        [f"http://site.test/after-step-{k}" for k in range(len(ex) - 1)]


def _keys(value: Any) -> Iterator[str]:
    """Every key of every object inside a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def test_the_rows_carry_no_outcome_field(data_dir: Path) -> None:
    n = 0
    for split in ("train", "test", "heldout"):
        for line in (data_dir / f"{split}.jsonl").read_text().splitlines():
            row = json.loads(line)
            found = OUTCOME_KEYS & set(_keys(row))
            assert not found, (split, row["task_id"], row["step"], found)
            assert row.keys() >= LABEL_KEYS
            n += 1
    assert n > 0
    assert json.loads((data_dir / "meta.json").read_text())["version"] == 2


def _one_line_error(res: Any, *needles: str) -> None:
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1, res.output
    for n in needles:
        assert n in res.output, res.output


def test_a_version_1_data_set_must_be_rebuilt(data_dir: Path, model_dir: Path,
                                              tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(data_dir, old)
    meta = json.loads((old / "meta.json").read_text())
    meta["version"] = 1
    (old / "meta.json").write_text(json.dumps(meta))
    _one_line_error(runner.invoke(app, ["steprm", "train", str(old), "--out",
                                        str(tmp_path / "m")]), "version-1", "rebuild")
    _one_line_error(runner.invoke(app, ["steprm", "eval", str(model_dir), str(old)]),
                    "version-1", "rebuild")
    assert not (tmp_path / "m").exists()


def test_a_model_trained_on_version_1_data_must_be_retrained(model_dir: Path, data_dir: Path,
                                                             tmp_path: Path) -> None:
    old = tmp_path / "old-model"
    shutil.copytree(model_dir, old)
    card = json.loads((old / "card.json").read_text())
    card.pop("data_version", None)  # version-1 cards had none
    (old / "card.json").write_text(json.dumps(card))
    _one_line_error(runner.invoke(app, ["steprm", "eval", str(old), str(data_dir)]),
                    "version-1", "train again")


def test_the_view_is_closed_and_frozen(data_dir: Path) -> None:
    from pydantic import ValidationError

    from webmdp.synth.preaction import PreActionView

    row = json.loads((data_dir / "train.jsonl").read_text().splitlines()[0])
    view = PreActionView.of_row(row)
    with pytest.raises(ValidationError):
        view.step = 99  # type: ignore[misc]
    leaked = dict(row, target={"action": "Search", "params": {}, "surface": "Home",
                               "surface_after": "Results"})
    with pytest.raises(ValidationError):
        PreActionView.of_row(leaked)
    with pytest.raises(ValidationError):
        PreActionView.of_row(dict(row, action=dict(row["action"], error="rejected")))


def test_the_vlm_prompt_does_not_change_with_the_outcome(run_dir: Path) -> None:
    from webmdp.synth.preaction import PreActionView
    from webmdp.synth.steprm_vlm import prompt_text

    ep, i = _informative_step(run_dir)
    other = _other_outcome(ep.trace, i)
    a, b = (prompt_text(PreActionView.of_row(step_examples(t, ep.task, ep.label, ep.mode)[i]))
            for t in (ep.trace, other))
    assert a == b
    assert "[rejected]" not in a and "[no change]" not in a and "SomewhereElse" not in b
