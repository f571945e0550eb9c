"""`webmdp synth export` on a real graded browser run (and a semantic one): the eq. 2 mask,
actions that round-trip through the grammars' parsers, full text context, the screenshot
window, LlamaFactory's dataset_info.json, trajectory-level export and bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from webmdp.agents.llm.grammars import get_grammar
from webmdp.agents.llm.grammars.base import ParseContext, parse_output
from webmdp.cli.main import app as main_app
from webmdp.cli.synth_export_cmd import export_cmd
from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction
from webmdp.errors import ConfigError
from webmdp.synth.export import (
    IMAGE_TOKEN,
    Space,
    Unwritable,
    Writer,
    export,
    same_action,
)

pytestmark = pytest.mark.browser
runner = CliRunner()
GRAMMARS = ("uitars", "qwen", "json")


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command("export")(export_cmd)

    @app.command("noop")
    def _noop() -> None:  # a second command keeps "export" a subcommand
        pass

    return app


APP = _app()


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("synth"))
    return dst


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory, recorded_run: Path) -> Path:
    """A private copy of the shared browser run (oracle + random, screenshots), graded."""
    run = _copy(recorded_run, tmp_path_factory.mktemp("export") / "run")
    res = runner.invoke(main_app, ["synth", "grade", str(run)])
    assert res.exit_code == 0, res.output
    return run


@pytest.fixture(scope="module")
def sem_graded(tmp_path_factory: pytest.TempPathFactory, semantic_run: Path) -> Path:
    run = _copy(semantic_run, tmp_path_factory.mktemp("export-sem") / "run")
    res = runner.invoke(main_app, ["synth", "grade", str(run)])
    assert res.exit_code == 0, res.output
    return run


def _grades(run: Path) -> list[dict[str, Any]]:
    lines = (run / "synth" / "grades-exact.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def _jsonl(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "data.jsonl").read_text().splitlines()]


def _traces(run: Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    return {(p.parent.parent.name, p.parent.name, p.stem): json.loads(p.read_text())
            for p in sorted((run / "episodes").glob("*/*/*.json"))}


def _recorded(action: dict[str, Any], mode: str) -> GUIAction | Action:
    if mode == "semantic":
        return Action(action["name"], dict(action.get("params") or {}))
    return GUIAction.model_validate(action)


# -- the mask and the round trip ---------------------------------------------------------------
@pytest.mark.parametrize("cutoff", [5, 2])
def test_kept_steps_are_the_steps_graded_above_the_cutoff(graded: Path, tmp_path: Path,
                                                          cutoff: float) -> None:
    s = export(graded, tmp_path / "out", fmt="jsonl", cutoff=cutoff)
    rows = _grades(graded)
    kept = {(r["agent"], r["mode"], r["task_id"], r["step"]) for r in rows
            if r["grade"] is not None and r["grade"] > cutoff}
    assert s.steps == len(rows) and s.trajectories == len(_traces(graded))
    assert s.kept_steps == len(kept) and 0 < len(kept) < len(rows)
    samples = _jsonl(tmp_path / "out")
    assert {(x["agent"], x["mode"], x["task_id"], x["step"]) for x in samples} == kept
    assert s.samples == len(samples) == len(kept) and not s.skipped
    assert all(x["grade"] > cutoff for x in samples)


def test_mean_of_samples_decides(graded: Path, tmp_path: Path) -> None:
    run = _copy(graded, tmp_path / "run")
    rows = _grades(graded)
    path = run / "synth" / "grades-model.jsonl"
    path.parent.mkdir(exist_ok=True)
    # every step graded twice: 10 and 0 (mean 5, not kept) except step 0 (10 and 4: mean 7)
    lines = [dict(r, source="model", sample=k, grade=(10 if k == 0 else 4 if r["step"] == 0
                                                      else 0)) for r in rows for k in (0, 1)]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    s = export(run, tmp_path / "out", fmt="jsonl", grades="model")
    assert s.kept_steps == len(_traces(run))
    assert {x["step"] for x in _jsonl(tmp_path / "out")} == {0}
    assert all(x["grade"] == 7 for x in _jsonl(tmp_path / "out"))


@pytest.mark.parametrize("grammar", GRAMMARS)
def test_every_target_parses_back_to_the_recorded_action(graded: Path, tmp_path: Path,
                                                         grammar: str) -> None:
    out = tmp_path / "out"
    s = export(graded, out, fmt="jsonl", grammar=grammar, cutoff=0, thoughts="exact")
    samples = _jsonl(out)
    assert s.samples == len(samples) > 10 and not s.skipped
    w = Writer(grammar)
    ctx = ParseContext(mode="browser", image_size=w.space.image)
    traces = _traces(graded)
    for x in samples:
        parsed = parse_output(get_grammar(grammar), x["action_text"], ctx)
        assert parsed.ok and len(parsed.actions) == 1, x["action_text"]
        recorded = traces[(x["agent"], x["mode"], x["task_id"])]["steps"][x["step"]]["action"]
        assert recorded == x["action"]
        assert same_action(_recorded(recorded, "browser"), parsed.actions[0], w.space)
        assert parsed.thought == x["thought"] and x["thought"]  # exact thoughts


@pytest.mark.parametrize("grammar", ["uitars", "qwen"])
def test_targets_round_trip_through_agents_parse(graded: Path, tmp_path: Path,
                                                 grammar: str) -> None:
    """The CLI path (`webmdp agents parse`), checked against the recorded viewport pixels."""
    export(graded, tmp_path / "out", fmt="jsonl", grammar=grammar, cutoff=0)
    tol = 1440 / 1428 + 0.1  # one unit of the 1428x896 smart-resized screenshot
    seen: set[str] = set()
    for x in _jsonl(tmp_path / "out"):
        kind = x["action"]["kind"]
        if kind in seen:
            continue
        seen.add(kind)
        res = runner.invoke(main_app, ["agents", "parse", "--grammar", grammar],
                            input=x["action_text"])
        assert res.exit_code == 0, res.output
        got = json.loads(res.stdout)
        assert got["kind"] == kind
        for axis in ("x", "y"):
            if axis in x["action"]:
                assert abs(got[axis] - x["action"][axis]) <= tol
        if kind == "scroll":
            assert abs(got.get("dy", 0) - x["action"].get("dy", 0)) <= tol
        if kind == "type":
            assert got["text"] == x["action"]["text"]
    assert {"click", "type"} <= seen


# -- context and images --------------------------------------------------------------------------
@pytest.mark.parametrize("window", [1, 3])
def test_context_holds_every_earlier_step_and_at_most_w_images(graded: Path, tmp_path: Path,
                                                               window: int) -> None:
    out = tmp_path / "out"
    export(graded, out, fmt="sharegpt", cutoff=2, window=window)
    data = json.loads((out / "data.json").read_text())
    plain = tmp_path / "plain"
    export(graded, plain, fmt="jsonl", cutoff=2, window=window)
    rows = _jsonl(plain)
    assert len(data) == len(rows)
    for rec, row in zip(data, rows, strict=True):
        human, gpt = rec["conversations"]
        assert (human["from"], gpt["from"]) == ("human", "gpt")
        assert gpt["value"] == row["action_text"]
        assert row["instruction"] in human["value"]
        assert [h["step"] for h in row["history"]] == list(range(row["step"]))
        for n, h in enumerate(row["history"], 1):  # kept or not, each earlier step as text
            assert f"[Step {n}]\n{h['text']}" in human["value"]
        assert f"[Step {row['step'] + 1}]" not in human["value"]
        assert 1 <= len(rec["images"]) <= window
        assert human["value"].count(IMAGE_TOKEN) == len(rec["images"])
        assert len(set(rec["images"])) == len(rec["images"])
        assert all((out / p).is_file() for p in rec["images"])
    not_kept = [h for r in rows for h in r["history"] if not h["kept"]]
    assert not_kept  # unkept steps do appear in context
    if window == 1:  # the single image is the page the step acted on
        row = next(r for r in rows if r["step"] == 2)
        assert row["images"][0].endswith(f"{row['task_id']}_step01.png")
    first = next(r for r in rows if r["step"] == 0)
    assert first["images"][-1].endswith("_reset.png")


def test_llamafactory_dataset_info(graded: Path, tmp_path: Path) -> None:
    out = tmp_path / "lf"
    s = export(graded, out, fmt="llamafactory", grammar="qwen")
    info = json.loads((out / "dataset_info.json").read_text())
    assert list(info) == ["webmdp"]
    entry = info["webmdp"]
    assert entry["formatting"] == "sharegpt" and (out / entry["file_name"]).is_file()
    data = json.loads((out / entry["file_name"]).read_text())
    assert len(data) == s.samples == s.kept_steps
    cols, tags = entry["columns"], entry["tags"]
    for rec in data:
        assert {cols["messages"], cols["images"], cols["system"]} <= set(rec)
        msgs = rec[cols["messages"]]
        assert [m[tags["role_tag"]] for m in msgs] == [tags["user_tag"], tags["assistant_tag"]]
        assert all(isinstance(m[tags["content_tag"]], str) for m in msgs)
        assert rec["system"].startswith("You are a helpful assistant")  # qwen's tool prompt
        assert msgs[0]["value"].count(IMAGE_TOKEN) == len(rec["images"])
    manifest = json.loads((out / "export.json").read_text())
    assert manifest["image_size"] == [1428, 896] and manifest["kept_steps"] == s.kept_steps


def test_llamafactory_train_yaml_fits_every_sample(graded: Path, tmp_path: Path) -> None:
    """train.yaml: no screenshot shrunk below its frame, no sample cut, placeholders named,
    and every image found where LlamaFactory looks (media_dir joined with the path) both in
    the export folder and after the folder is copied into LlamaFactory's data/."""
    import os
    import shutil as sh

    import yaml
    from PIL import Image

    from webmdp.synth.llamafactory import image_tokens

    out = tmp_path / "lf"
    export(graded, out, fmt="llamafactory", grammar="uitars", window=3)
    cfg = yaml.safe_load((out / "train.yaml").read_text())
    assert cfg["model_name_or_path"] == "<MODEL_PATH>" and cfg["template"] == "<TEMPLATE>"
    assert cfg["dataset"] == "webmdp" and cfg["dataset_dir"] == str(out.resolve())
    data = json.loads((out / "data.json").read_text())
    pixels = [Image.open(out / p).size for rec in data for p in rec["images"]]
    assert pixels and cfg["image_max_pixels"] >= max(w * h for w, h in pixels)
    assert image_tokens(1440, 900, cfg["image_max_pixels"]) == 51 * 32  # 1428x896, unshrunk
    for rec in data:
        text = rec["system"] + "".join(m["value"] for m in rec["conversations"])
        need = len(text) // 4 + sum(image_tokens(*Image.open(out / p).size,
                                                 cfg["image_max_pixels"])
                                    for p in rec["images"])
        assert need < cfg["cutoff_len"], (need, cfg["cutoff_len"])
    assert max(len(rec["images"]) for rec in data) == 3 and cfg["cutoff_len"] > 3 * 1632
    assert all(os.path.isfile(os.path.join(cfg["media_dir"], p))
               for rec in data for p in rec["images"])
    lf_root = tmp_path / "LLaMA-Factory"
    sh.copytree(out, lf_root / "data" / "webmdp_export")
    media = lf_root / "data" / "webmdp_export"  # the README's edit: media_dir: data/NAME
    assert all((media / p).is_file() for rec in data for p in rec["images"])


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_the_export_folder_follows_the_umask(graded: Path, tmp_path: Path, mask: int) -> None:
    import os

    old = os.umask(mask)
    try:
        export(graded, tmp_path / "out", fmt="llamafactory", grammar="json")
    finally:
        os.umask(old)
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o777 & ~mask


def test_all_steps_is_every_step_of_the_successful_trajectories(graded: Path,
                                                                 tmp_path: Path) -> None:
    traces = _traces(graded)
    ok = {k: t for k, t in traces.items() if t["success"]}
    assert ok and len(ok) < len(traces)
    s = export(graded, tmp_path / "out", fmt="jsonl", all_steps=True)
    rows = _jsonl(tmp_path / "out")
    want = {(*k, i) for k, t in ok.items() for i in range(len(t["steps"]))}
    assert {(r["agent"], r["mode"], r["task_id"], r["step"]) for r in rows} == want
    assert s.trajectories == len(ok) and s.kept_steps == s.steps == s.samples == len(want)
    assert s.skipped == {"failed_trajectories": len(traces) - len(ok)}
    step_level = export(graded, tmp_path / "ok", fmt="jsonl", successful_only=True)
    assert step_level.trajectories == len(ok) and step_level.kept_steps <= s.kept_steps


def test_semantic_runs_export_with_json_only(sem_graded: Path, tmp_path: Path) -> None:
    s = export(sem_graded, tmp_path / "json", fmt="jsonl", grammar="json")
    rows = _jsonl(tmp_path / "json")
    assert s.samples == s.kept_steps == len(rows) > 0 and s.images == 0
    ctx = ParseContext(mode="semantic")
    for r in rows:
        parsed = parse_output(get_grammar("json"), r["action_text"], ctx)
        assert parsed.ok and same_action(_recorded(r["action"], "semantic"),
                                         parsed.actions[0], Space((1440, 900)))
    skipped = export(sem_graded, tmp_path / "ui", fmt="jsonl", grammar="uitars")
    assert skipped.samples == 0 and skipped.trajectories == 0
    assert sum(skipped.skipped.values()) == len(_traces(sem_graded))
    assert "semantic trajectories" in next(iter(skipped.skipped))


def test_deterministic_atomic_and_safe(graded: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    export(graded, out, fmt="sharegpt")
    first = (out / "data.json").read_bytes()
    export(graded, out, fmt="sharegpt")  # an earlier export is replaced
    assert (out / "data.json").read_bytes() == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary left
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not an earlier export"):
        export(graded, foreign, fmt="sharegpt")
    assert (foreign / "notes.txt").read_text() == "mine"


# -- formatters on actions the runs do not make --------------------------------------------------
ACTIONS = [
    {"kind": "click", "x": 1439.6, "y": 899.4},
    {"kind": "right_click", "x": 10, "y": 20},
    {"kind": "double_click", "x": 700.5, "y": 300.25},
    {"kind": "move", "x": 5, "y": 5},
    {"kind": "scroll", "dy": -300.0},
    {"kind": "scroll", "x": 100, "y": 100, "dx": 250.0},
    {"kind": "scroll", "direction": "down", "amount": 5},
    {"kind": "type", "text": "it's \"quoted\"\\ and\nnew"},
    {"kind": "key", "key": "ctrl+shift+t"},
    {"kind": "key", "key": "Enter"},
    {"kind": "wait", "seconds": 2.5},
    {"kind": "wait"},
    {"kind": "finish", "answer": "42 items"},
    {"kind": "finish"},
]


@pytest.mark.parametrize("grammar", GRAMMARS)
def test_formatters_round_trip_other_actions(grammar: str) -> None:
    w = Writer(grammar)
    for act in ACTIONS:
        text = w.write("I act.", act, "browser")  # raises Unwritable on any mismatch
        parsed = parse_output(w.grammar, text, w.contexts["browser"])
        assert parsed.thought == "I act." and same_action(GUIAction.model_validate(act),
                                                          parsed.actions[0], w.space)


@pytest.mark.parametrize(("grammar", "action"), [
    ("uitars", {"kind": "triple_click", "x": 1, "y": 1}),
    ("uitars", {"kind": "click", "element": 12}),
    ("qwen", {"kind": "drag", "x": 1, "y": 1, "x2": 50, "y2": 50}),
    ("qwen", {"kind": "go_back"}),
    ("uitars", {"kind": "click", "x": 1, "y": 1, "modifiers": ["Shift"]}),
])
def test_what_a_grammar_cannot_say_is_unwritable(grammar: str, action: dict[str, Any]) -> None:
    with pytest.raises(Unwritable):
        Writer(grammar).write("", action, "browser")


def test_a_thought_that_breaks_the_syntax_is_unwritable() -> None:
    with pytest.raises(Unwritable, match="thought"):
        Writer("uitars").write("x\nAction: wait()", {"kind": "wait"}, "browser")
    assert Writer("json").write("", {"kind": "drag", "x": 1, "y": 1, "x2": 50, "y2": 50},
                                "browser")


# -- the command -----------------------------------------------------------------------------------
def test_command_prints_the_counts(graded: Path, tmp_path: Path) -> None:
    res = runner.invoke(APP, ["export", str(graded), "--format", "llamafactory", "--cutoff", "5",
                              "--window", "2", "--grammar", "uitars", "--thoughts", "exact",
                              "--out", str(tmp_path / "o")])
    assert res.exit_code == 0, res.output
    assert "4 trajectories" in res.stdout and "kept steps" in res.stdout
    assert (tmp_path / "o" / "dataset_info.json").is_file()


@pytest.mark.parametrize(("args", "needle"), [
    (["--cutoff", "11"], "--cutoff must be between 0 and 10"),
    (["--cutoff", "-1"], "--cutoff must be between 0 and 10"),
    (["--grammar", "klingon"], "unknown grammar 'klingon'"),
    (["--grammar", "fara"], "uitars, qwen, json"),
    (["--format", "csv"], "unknown format 'csv'"),
    (["--thoughts", "model"], "webmdp synth thoughts"),
])
def test_bad_options_are_one_line(graded: Path, tmp_path: Path, args: list[str],
                                  needle: str) -> None:
    res = runner.invoke(APP, ["export", str(graded), *args, "--out", str(tmp_path / "o")])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in res.output
    assert not (tmp_path / "o").exists()


def test_no_grades_and_no_traces_are_one_line(graded: Path, tmp_path: Path) -> None:
    ungraded = _copy(graded, tmp_path / "ungraded")
    res = runner.invoke(APP, ["export", str(ungraded), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert "no exact grades yet" in res.output and "webmdp synth grade" in res.output
    empty = tmp_path / "empty"
    empty.mkdir()
    res = runner.invoke(APP, ["export", str(empty), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert "no traces" in res.output
    assert not (tmp_path / "o").exists()
