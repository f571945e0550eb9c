"""`webmdp forge`: the plan's cells, the refine checks (each shown to catch what it is for),
browser validation, Table 8 and `forge calibrate`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from support import site_tasks
from webmdp.cli.main import app
from webmdp.errors import InvalidAction
from webmdp.forge import refine as R
from webmdp.forge.calibrate import summarise, wilson
from webmdp.forge.pipeline import forge, plan_cells
from webmdp.tasks import dial
from webmdp.tasks.codes import gold_code
from webmdp.tasks.io import read_tasks
from webmdp.tasks.model import Condition, Task
from webmdp.trace import EpisodeTrace

runner = CliRunner()


def test_plan_reports_cells_no_template_fills() -> None:
    planned, empty = plan_cells(["shopping", "mail"])
    assert ("D1", 2, "operation_code") in planned and ("D3", 3, "operation_code") in planned
    # every template has Direct and Mixed variants: only domains no template has are empty
    assert ("D1", 1, "direct") in planned and ("D3", 2, "mixed") in planned
    assert ("D5", 1, "operation_code") in empty and ("D6", 2, "direct") in empty
    assert not set(planned) & set(empty) and len(planned) + len(empty) == 7 * 3 * 3


def test_forge_fills_cells_with_tasks_of_their_measured_level(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dial, "SCAN", 60)  # shorter streams: cells no candidate fills end sooner
    made = forge(1, sites=["shopping", "food"], browser=False)
    for cell, found in made.accepted.items():
        for t in found:
            assert (t.domain, t.difficulty.level, t.answer_type) == cell  # type: ignore[union-attr]
    assert [len(made.accepted[("D1", k, "operation_code")]) for k in (1, 2, 3)] == [1, 1, 1]
    # shopping's dial templates give the Direct (D4) and Mixed (D1) answer types
    assert ("D4", 1, "direct") in made.cells and ("D1", 1, "mixed") in made.cells
    assert made.accepted[("D4", 1, "direct")][0].answer is not None
    table = made.table8()
    assert table["D1"]["L1"]["count"] == sum(len(made.accepted.get(("D1", 1, a), []))
                                             for a in ("direct", "operation_code", "mixed"))
    assert table["D2"]["L1"]["planned"] == 0 and table["D2"]["L1"]["rate"] is None


def test_refine_checks_catch_what_they_are_for(monkeypatch: pytest.MonkeyPatch) -> None:
    task = site_tasks("accommodation")[1]  # a booking with a hard negative
    assert task.hard_negatives
    assert all(not v for v in R.refine(task, "real").values())
    check_in = next(c.value for c in task.verifier if c.fact == "booking.check_in")
    # unique: a verifier every hard negative's booking passes as well
    loose = task.model_copy(update={"verifier": [Condition(
        fact="booking.status", value="confirmed", description="something is booked")]})
    assert any("also passes the verifier" in r for r in R.check_unique(loose))
    # no_plaintext and no_alert: a page that hides the check-in date and the gold code, and
    # calls alert()
    real = R.views.render_app
    gold = gold_code(task)

    def leaky(site: str, obs, **kw):  # type: ignore[no-untyped-def]
        return (real(site, obs, **kw) + f'<span data-x="{check_in} {gold}"></span>'
                "<script>alert('hi')</script>")

    monkeypatch.setattr(R.views, "render_app", leaky)
    found = R.check_no_plaintext(task)
    assert any(f"{check_in!r} only in hidden content" in r for r in found)
    assert any("gold code" in r for r in found)
    assert R.check_no_alert(task) == ["alert() would block the page"]
    monkeypatch.setattr(R.views, "render_app", real)
    # links: a navigation the page offers that the MDP rejects
    site = R.get_site("accommodation")
    step = site.step

    def broken(state, action, world):  # type: ignore[no-untyped-def]
        if action.name == "ViewListing" and action.params.get("listing_id") != task.target:
            raise InvalidAction("no such page")
        return step(state, action, world)

    monkeypatch.setattr(site, "step", broken)
    assert any("ViewListing leads nowhere" in r for r in R.check_links(task))
    monkeypatch.setattr(site, "step", step)
    assert R.check_noise(task, "real") == [] and R.check_noise(task, "none") == []


def test_forge_validates_in_chromium_and_prints_table_8(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dial, "SCAN", 60)
    res = runner.invoke(app, ["forge", "--per-cell", "1", "--site", "food", "--out",
                              str(tmp_path), "--noise", "light"])
    assert res.exit_code == 0, res.output
    assert "WebForge Table 8" in res.stdout and "D1 Consumer Transaction/Service" in res.stdout
    data = json.loads((tmp_path / "forge.json").read_text())
    tasks = read_tasks(tmp_path / "tasks.jsonl")
    assert data["accepted"] == len(tasks) >= 2
    assert sum(c["count"] for row in data["table8"].values() for c in row.values()) == len(tasks)
    assert "empty cells" in res.stdout and "direct:" in res.stdout


@pytest.mark.parametrize(("args", "needle"), [
    (("--per-cell", "1"), "give --out DIR"),
    (("--out", "x", "--noise", "loud"), "unknown noise level 'loud'"),
    (("--out", "x", "--site", "nope"), "unknown site 'nope'"),
    (("--out", "x", "--per-cell", "0"), "--per-cell must be at least 1"),
])
def test_forge_bad_input(args: tuple[str, ...], needle: str) -> None:
    res = runner.invoke(app, ["forge", *args])
    assert res.exit_code == 2 and needle in res.output, res.output


def _trace(task: Task, agent: str, ok: bool) -> EpisodeTrace:
    return EpisodeTrace(task_id=task.id, site=task.site, template=task.template, agent=agent,
                        mode="semantic", seed=0, success=ok)


def test_calibration_flags_a_dimension_that_is_not_monotone() -> None:
    assert wilson(0, 0) is None and wilson(5, 10) == (0.2366, 0.7634)
    tasks = [t for t in site_tasks("shopping")]
    by_depth = {k: [t for t in tasks if t.difficulty and t.difficulty.of("depth") == k][:4]
                for k in (1, 2, 3)}
    runs = [("greedy", t, _trace(t, "greedy", k == 3)) for k, ts in by_depth.items() for t in ts]
    runs += [("oracle", t, _trace(t, "oracle", True)) for _, t, _ in runs]
    out = summarise(runs)
    depth = out["dimensions"]["depth"]
    assert depth["L3"]["accuracy"] == 1.0 and depth["L1"]["accuracy"] == 0.0
    assert not depth["monotone"] and "depth" in out["not_monotone"]
    assert out["oracle_success"] == 1.0 and out["agents"] == ["greedy", "oracle"]


def test_forge_calibrate_json() -> None:
    res = runner.invoke(app, ["forge", "calibrate", "--per-level", "1", "--site", "shopping",
                              "--no-browser", "--json"])  # pixel / axtext: tests/sites
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert set(data["dimensions"]) == {"depth", "breadth", "interaction", "visual", "info",
                                       "reasoning", "risk"}
    for v in data["dimensions"].values():
        assert set(v) >= {"L1", "L2", "L3", "monotone"}
    assert data["oracle_success"] == 1.0
    assert data["agents"] == ["greedy", "oracle", "random"]
    depth = data["dimensions"]["depth"]
    assert sum(depth[f"L{k}"]["n"] for k in (1, 2, 3)) == 2 * 3  # greedy, random x 3 levels


def test_forge_calibrate_a_model_agent_through_its_endpoint() -> None:
    """`--agent step --model ...`: the model agent runs on the balanced set through a real
    OpenAI-compatible endpoint (a local scripted one). Its "model" plays the oracle on the
    level-1 tasks and gives up at once on the others, so each dimension's cells are known
    exactly from the tasks: accuracy at L_k is the share of level-1 tasks among those whose
    dimension is at L_k."""
    from webmdp.forge.calibrate import balanced_set
    from webmdp.testing.model_server import Reply, Request, ScriptedModelServer

    tasks = balanced_set(1, ["shopping"])
    by_instruction = {t.instruction: t for t in tasks}
    turns: dict[str, int] = {}  # each task runs once: its requests come in turn order

    def play(req: Request) -> Reply:
        text = "\n".join(req.texts())
        task = next(t for i, t in by_instruction.items() if i in text)
        turn = turns[task.id] = turns.get(task.id, -1) + 1
        oracle = task.oracle_actions() if task.difficulty and task.difficulty.level == 1 else []
        if turn < len(oracle):
            action = {"name": oracle[turn].name, "params": oracle[turn].params}
        else:
            action = {"name": "Finish", "params": {"answer": task.answer or ""}}
        return Reply(text=json.dumps({"thought": "next", "action": action}))

    with ScriptedModelServer(play) as srv:
        res = runner.invoke(app, ["forge", "calibrate", "--per-level", "1", "--site", "shopping",
                                  "--no-browser", "--json", "--agent", "step", "--model",
                                  "vllm/scripted", "--base-url", srv.base_url])
        assert res.exit_code == 0, res.output
        assert srv.requests
    data = json.loads(res.stdout)
    label = next(a for a in data["agents"] if a != "oracle")
    assert label.startswith("step") and data["oracle_success"] == 1.0
    for dim, v in data["dimensions"].items():
        cells = v["by_agent"][label]
        for lv in (1, 2, 3):
            at = [t for t in tasks if t.difficulty and t.difficulty.of(dim) == lv]
            want = sum(t.difficulty.level == 1 for t in at) / len(at) if at else None  # type: ignore[union-attr]
            assert cells[f"L{lv}"]["n"] == len(at) and cells[f"L{lv}"]["accuracy"] == (
                None if want is None else round(want, 4)), (dim, lv)


@pytest.mark.parametrize(("args", "needle"), [
    (("--agent", "step"), "give --model PROVIDER/MODEL"),
    (("--model", "vllm/x"), "add step, plan or tree to --agent"),
    (("--agent", "nosuch"), "unknown agent 'nosuch'"),
    (("--agent", "pixel"), "runs with --browser"),
    (("--agent", "step", "--model", "vllm/x", "--mode", "gui"), "--mode must be semantic or "
     "browser"),
])
def test_forge_calibrate_bad_agent_options(args: tuple[str, ...], needle: str) -> None:
    res = runner.invoke(app, ["forge", "calibrate", "--no-browser", *args])
    assert res.exit_code == 2 and needle in res.output, res.output
