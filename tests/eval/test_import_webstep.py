"""The WebSTEP bundle importer and the recorded-vs-recomputed disagreements.

Structure is checked against each reference bundle's own fields; metric values only on a small
hand-built bundle whose answers follow from its definition.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest
import typer
from typer.testing import CliRunner

from webmdp.cli import import_cmd
from webmdp.env.actions import GUIAction, GUIKind
from webmdp.errors import ConfigError
from webmdp.eval.disagreements import find_disagreements
from webmdp.eval.importers import import_webstep, read_bundle
from webmdp.eval.importers.webstep import align, gui_action, state_digest
from webmdp.eval.importers.webstep_sites import WEBSTEP_SITES
from webmdp.eval.load import load_run, load_tasks
from webmdp.eval.metrics import episode_metrics, site_data
from webmdp.sites import get_site
from webmdp.trace import EpisodeTrace

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "webstep-bundles"
"""A copy of ../shared/reference/webstep-bundles (the published WebSTEP bundles), so a clean
clone tests the importer on them."""
BUNDLES = sorted(REFERENCE.glob("*/*.json"))


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def at(state: Any, path: str) -> Any:
    """The value at a dotted judge path, or a marker when it is absent."""
    for part in path.split("."):
        if isinstance(state, list) and part.isdigit() and int(part) < len(state):
            state = state[int(part)]
        elif isinstance(state, dict) and part in state:
            state = state[part]
        else:
            return "<absent>"
    return state


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("webstep") / "run"
    summary = import_webstep([REFERENCE], out)
    assert summary.skipped == []
    return out


# -- every reference bundle --------------------------------------------------------------------
def test_every_reference_bundle_imports_with_its_own_structure(run: Path) -> None:
    tasks = load_tasks(run / "tasks.jsonl")
    assert len(BUNDLES) == 12
    for path in BUNDLES:
        b = load(path)
        trace = EpisodeTrace.model_validate_json(
            (run / "episodes" / b["agent"] / "browser" / f"{b['task_id']}.json").read_text())
        task = tasks[b["task_id"]]
        assert (trace.agent, trace.mode, trace.site) == (b["agent"], "browser",
                                                         WEBSTEP_SITES[b["site"]])
        assert task.site == trace.site and task.world["webstep_site"] == b["site"]
        assert len(trace.steps) == len(b["turns"])
        assert trace.success == (b["outcome"] == "success")
        assert [(t.action, t.params) for t in trace.transitions()] == [
            (m["action"], m["payload"]) for m in b["mdp_trajectory"]]
        assert [(a.name, a.params) for a in task.oracle] == [
            (o["type"], o["payload"]) for o in b["oracle_trajectory"]]
        assert task.complexity.oracle_length == len(b["oracle_trajectory"])
        assert [(c.fact, c.value) for c in task.verifier] == [
            (c["path"], c["equals"]) for c in b["judge"]["local_storage"]]
        assert len(task.info_constraints) == b["process_metrics"]["constraint_count"]
        if b["mdp_trajectory"]:  # the last transition ends in the recorded final state
            last = trace.transitions()[-1]
            assert last.state_key == state_digest(b["mdp_state_final"])
            assert last.surface_after == b["mdp_state_final"]["surface"]
        for step, turn in zip(trace.steps, b["turns"], strict=True):
            assert step.raw_output == (None if turn["action"] is None else json.dumps(
                turn["action"], sort_keys=True, ensure_ascii=False))
            if turn["action"] is None and turn["final_response"]:
                assert step.action == {"kind": "finish", "answer": turn["final_response"]}
            if step.transitions:  # only a turn that acted causes transitions
                assert turn["action"] is not None


def test_results_and_recorded_rows_mirror_the_bundles(run: Path) -> None:
    results = [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]
    recorded = {(r["agent"], r["task_id"]): r
                for r in map(json.loads, (run / "recorded.jsonl").read_text().splitlines())}
    assert len(results) == len(recorded) == len(BUNDLES)
    for path in BUNDLES:
        b = load(path)
        row = recorded[(b["agent"], b["task_id"])]
        assert row["fields"]["outcome"] == b["outcome"]
        for name in ("commit_step", "coverage_at_commit", "visited_entities", "total_steps"):
            assert row["fields"][name] == b["process_metrics"][name]
    assert {(r["agent"], r["task_id"], r["mode"]) for r in results} == {
        (a, t, "browser") for a, t in recorded}


def test_gui_actions_are_our_kinds() -> None:
    kinds = set(get_args(GUIKind))
    for path in BUNDLES:
        for turn in load(path)["turns"]:
            action, error = gui_action(turn["action"], turn["final_response"])
            if action["kind"] == "invalid":
                assert turn["action"] is None and error
                continue
            assert action["kind"] in kinds
            GUIAction(**action)  # validates coordinates, keys, ...


def test_gui_action_mapping() -> None:
    assert gui_action({"action": "left_click", "coordinate": [3, 4]}) == (
        {"kind": "click", "x": 3.0, "y": 4.0}, None)
    assert gui_action({"action": "type", "text": "Seattle", "press_enter": True,
                       "delete_existing_text": True})[0] == {
        "kind": "type", "text": "Seattle\n", "replace": True}
    assert gui_action({"action": "scroll", "pixels": -846.0})[0] == {"kind": "scroll",
                                                                      "dy": 846.0}
    assert gui_action({"action": "hotkey", "keys": ["Control", "a"]})[0] == {
        "kind": "key", "key": "Control+a"}
    assert gui_action(None, "done.") == ({"kind": "finish", "answer": "done."}, None)
    assert gui_action(None, None)[0] == {"kind": "invalid"}
    assert gui_action({"action": "teleport", "coordinate": [1, 2]})[0] == {
        "kind": "teleport", "x": 1.0, "y": 2.0}


def test_alignment_agrees_with_the_bundles_turn_to_mdp_without_reading_it() -> None:
    with_map = [b for b in map(load, BUNDLES) if b.get("turn_to_mdp")]
    assert with_map
    for b in with_map:
        owner = align(b["mdp_trajectory"], b["turns"], b["mdp_state_final"], None)
        ttm = b["turn_to_mdp"]
        assert [ttm[i] for i in owner] == list(range(len(b["mdp_trajectory"])))


def test_alignment_follows_the_test_id_else_the_later_turn() -> None:
    state = {"surface": "List", "starred": []}
    turns = [{"state": state, "action": {"action": "left_click", "coordinate": [1, 1]}}
             for _ in range(3)]
    star = [{"action": "Star", "payload": {"thread_id": "T1"}}]
    assert align(star, turns, state) == [2]  # no evidence: the later turn
    turns[1]["action"] = turns[1]["action"] | {"_resolved_test_id": "Star-T1"}
    assert align(star, turns, state) == [1]
    turns[2]["state"] = state | {"starred": ["T1"]}  # turn 1 changed the state
    assert align(star + star, turns, state) == [1, 1]  # a repeat logged twice stays


def test_alignment_agrees_with_the_clicked_elements_test_id() -> None:
    for b in map(load, BUNDLES):
        owner = align(b["mdp_trajectory"], b["turns"], b["mdp_state_final"])
        assert owner == sorted(owner)
        for m, i in zip(b["mdp_trajectory"], owner, strict=True):
            act = b["turns"][i]["action"] or {}
            tid = act.get("_resolved_test_id")
            if tid and act["action"] not in ("form_input", "type"):  # typing: the form's id
                assert tid.split("-")[0] == m["action"]


def test_imported_tasks_are_measured_on_the_mdp_they_were_recorded_on(run: Path) -> None:
    """gmail and airbnb map onto our mail and accommodation, but their worlds are WebSTEP's:
    the metrics use the actions and surfaces the bundles declare, not our site's."""
    for trace, task in load_run(run):
        assert site_data(task).__class__.__name__ == "DeclaredSite"
        m = episode_metrics(trace, task)
        assert m.gui_steps == len(trace.steps)
        assert set(m.agent_skills) <= {"navigate", "search", "filter", "inspect", "commit"}
        assert m.oracle_skills  # categories of the oracle, declared by the task


def test_a_site_we_do_not_implement_keeps_its_webstep_name(tmp_path: Path) -> None:
    bundle = load(BUNDLES[0])
    bundle["site"] = "myspace"
    (tmp_path / "b.json").write_text(json.dumps(bundle))
    import_webstep([tmp_path / "b.json"], tmp_path / "run")
    trace, task = load_run(tmp_path / "run")[0]
    assert task.site == trace.site == "myspace" and "conformance" not in task.world
    with pytest.raises(ConfigError):
        get_site(task.site)
    assert episode_metrics(trace, task).oracle_skills


def test_the_declared_vocabulary_is_checked_against_our_site(run: Path) -> None:
    """Every action and surface a bundle declares is either ours with the same category /
    kind, ours with another (both named), or one our site lacks; computed independently here
    from our site's declaration."""
    summary = import_webstep([REFERENCE], run.parent / "again")
    assert len(summary.conformance) == 2
    for _, task in load_run(run):
        check, spec = task.world["conformance"], task.world["site_spec"]
        ours = get_site(task.site)
        assert check["site"] == task.site
        declared = {a.name: a.category.value for a in ours.actions}
        for name, decl in spec["actions"].items():
            if name not in declared:
                assert name in check["actions"]["ours_lacks"]
            elif decl["category"] == declared[name]:
                assert name in check["actions"]["same"]
            else:
                assert check["actions"]["differ"][name] == {"webstep": decl["category"],
                                                            "ours": declared[name]}
        kinds = {s.name: s.kind.value for s in ours.surfaces}
        for name, kind in spec["surfaces"].items():
            assert name in (check["surfaces"]["same"] if kinds.get(name) == kind else
                            check["surfaces"]["ours_lacks"] if name not in kinds else
                            check["surfaces"]["differ"])
        line = next(x for x in summary.conformance if x.startswith(task.id))
        assert f"WebSTEP site {task.world['webstep_site']!r} is our {task.site!r}" in line


def test_an_unknown_site_that_declares_nothing_is_an_error(run: Path) -> None:
    trace, task = load_run(run)[0]
    bare = task.model_copy(update={"world": {}, "site": "myspace"})
    with pytest.raises(ConfigError, match="site"):
        episode_metrics(trace, bare)


# -- idempotence, merging, bad input -----------------------------------------------------------
def test_importing_twice_gives_byte_identical_files(tmp_path: Path) -> None:
    import_webstep([REFERENCE], tmp_path / "a")
    first = tree(tmp_path / "a")
    import_webstep([REFERENCE], tmp_path / "a")
    import_webstep([REFERENCE], tmp_path / "b")
    assert tree(tmp_path / "a") == first == tree(tmp_path / "b")
    assert len([k for k in first if k.startswith("episodes")]) == 12


def test_import_keeps_other_episodes_of_the_run(tmp_path: Path) -> None:
    other = {"task_id": "shopping_0000", "agent": "oracle", "mode": "semantic", "success": True}
    (tmp_path / "results.jsonl").write_text(json.dumps(other) + "\n")
    import_webstep([BUNDLES[0]], tmp_path)
    import_webstep([BUNDLES[0], BUNDLES[1]], tmp_path)
    rows = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert rows[0] == other and len(rows) == 3


def test_corrupt_and_incomplete_bundles_are_named_skipped_and_counted(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    raw = BUNDLES[0].read_bytes()
    (src / "truncated.json").write_bytes(raw[: len(raw) // 2])
    no_turns = load(BUNDLES[0])
    del no_turns["turns"]
    (src / "no_turns.json").write_text(json.dumps(no_turns))
    (src / "list.json").write_text("[]")
    (src / "good.json").write_bytes(raw)
    summary = import_webstep([src, tmp_path / "missing"], tmp_path / "run")
    assert [p for _, _, p in summary.imported] == [str(src / "good.json")]
    reasons = dict(summary.skipped)
    assert len(reasons) == 4
    assert "invalid JSON" in reasons[str(src / "truncated.json")]
    assert "turns" in reasons[str(src / "no_turns.json")]
    assert "JSON object" in reasons[str(src / "list.json")]
    assert "no such file" in reasons[str(tmp_path / "missing")]


def test_state_digest_ignores_summaries_and_timestamps_only() -> None:
    a = {"surface": "S", "filters": {"x": [1]}, "visible_ids": "[9 items]", "total_results": 9,
         "reservations": [{"id": 1, "booked_at": "2026-01-01"}]}
    b = a | {"visible_ids": ["A", "B"], "total_results": 2,
             "reservations": [{"id": 1, "booked_at": "2027-02-02"}]}
    assert state_digest(a) == state_digest(b)
    assert state_digest(a) != state_digest(a | {"filters": {"x": [2]}})


# -- a hand-built bundle of a site nobody implements -------------------------------------------
def recipe_bundle(**recorded: Any) -> dict[str, Any]:
    """Recipes: search, open the hard negative R1, back, open the target R2, save R2.

    Constraints: R2's title (card) and ingredients (detail). The search lists R1 and R2 (card
    fields of R2 seen: COV 1/2); opening R2 shows its ingredients (COV 1). Commit: SaveRecipe at
    transition 4 (0-based), detail visits R1, R2."""
    def state(surface: str, **kw: Any) -> dict[str, Any]:
        return {"surface": surface, "surface_params": kw.pop("params", {}), "query": None,
                "visible_ids": "[40 items]", "saved": {"R2": False}} | kw

    listed = {"query": "soup", "visible_ids": ["R1", "R2"]}
    states = [state("RecipeList"), state("RecipeList"), state("RecipeList", **listed),
              state("RecipeDetail", params={"recipe_id": "R1"}, **listed),
              state("RecipeList", **listed),
              state("RecipeDetail", params={"recipe_id": "R2"}, **listed)]
    final = state("RecipeDetail", params={"recipe_id": "R2"}, **listed) | {"saved": {"R2": True}}
    actions = [{"action": "type", "text": "soup"}] + [
        {"action": "left_click", "coordinate": [10, y]} for y in (1, 2, 3, 4, 5)]
    mdp = [("SearchRecipes", {"query": "soup"}), ("OpenRecipe", {"recipe_id": "R1"}),
           ("BackToList", {}), ("OpenRecipe", {"recipe_id": "R2"}),
           ("SaveRecipe", {"recipe_id": "R2"})]
    return {
        "task_id": "recipes_0007", "agent": "bot", "site": "recipes", "template": "find_save",
        "instruction": "Save the soup with ginger.", "difficulty": "easy", "outcome": "success",
        "init_state": {"surface": "RecipeList"},
        "turns": [{"step": i, "surface": s["surface"], "state": s, "action": a, "message": None,
                   "final_response": None}
                  for i, (s, a) in enumerate(zip(states, actions, strict=True))],
        "mdp_trajectory": [{"action": n, "payload": p} for n, p in mdp],
        "mdp_state_final": final,
        "oracle_trajectory": [{"type": n, "payload": p} for n, p in mdp],
        "judge": {"agent_output": {}, "local_storage": [
            {"path": "saved.R2", "equals": True, "description": "R2 saved"}]},
        "skill_labels": [], "process_metrics": {
            "constraints": ["Must see target's title at card level",
                            "Must inspect ingredients (detail page required)"],
            "constraint_count": 2, "scan": {"hard_negative_count": 1}} | recorded,
    }


def test_hand_built_bundle_of_an_unknown_site(tmp_path: Path) -> None:
    (tmp_path / "b.json").write_text(json.dumps(recipe_bundle()))
    summary = import_webstep([tmp_path / "b.json"], tmp_path / "run")
    assert len(summary.imported) == 1 and not summary.warnings
    ((trace, task),) = load_run(tmp_path / "run")
    assert (task.target, task.hard_negatives) == ("R2", ["R1"])
    assert task.complexity.access_level == "detail"
    assert [len(s.transitions) for s in trace.steps] == [0, 1, 1, 1, 1, 1]
    assert [t.category for t in trace.transitions()] == [
        "search", "inspect", "navigate", "inspect", "commit"]
    m = episode_metrics(trace, task)
    assert m.commit_step == 4
    assert m.detail_visits == ["R1", "R2"] and m.exploration_success
    assert m.coverage_trajectory == [0.5, 0.5, 0.5, 1.0, 1.0]
    assert trace.verifier == {"R2 saved": True} and trace.success


def test_disagreements_of_a_hand_built_bundle(tmp_path: Path) -> None:
    bundle = recipe_bundle(commit_step=4, coverage_at_commit=0.5, visited_entities=["R2"],
                           total_steps=6)
    bundle["mdp_state_final"]["saved"] = {"R2": False}  # outcome says success; the judge not
    (tmp_path / "b.json").write_text(json.dumps(bundle))
    import_webstep([tmp_path / "b.json"], tmp_path / "run")
    found = {d.field: d for d in find_disagreements(tmp_path / "run")}
    assert set(found) == {"outcome", "commit_step", "coverage_at_commit", "visited_entities"}
    assert (found["outcome"].recorded, found["outcome"].recomputed) == ("success", "failure")
    assert "R2 saved" in found["outcome"].note
    # SaveRecipe left `saved` as it was: no state-changing commit, so the commit step is the
    # final 'done' after the 5 transitions and coverage is taken at the end
    assert found["commit_step"].recomputed == 5
    assert found["coverage_at_commit"].recomputed == 1.0
    assert found["visited_entities"].recomputed == ["R1", "R2"]


# -- the reference disagreements ---------------------------------------------------------------
def test_reference_disagreements_are_found(run: Path) -> None:
    found = find_disagreements(run)
    bundles = {(b["task_id"], b["agent"]): b for b in map(load, BUNDLES)}
    for d in found:  # each names the bundle's own recorded value, and differs from it
        b = bundles[(d.task_id, d.agent)]
        own = b["outcome"] if d.field == "outcome" else b["process_metrics"][d.field]
        assert d.recorded == own != d.recomputed and d.note

    def where(field: str) -> set[tuple[str, str]]:
        return {(d.task_id, d.agent) for d in found if d.field == field}

    judged_wrong = {k for k, b in bundles.items() if (b["outcome"] == "success") != all(
        at(b["mdp_state_final"], c["path"]) == c["equals"] for c in b["judge"]["local_storage"])}
    assert judged_wrong and where("outcome") == judged_wrong
    longer = {k for k, b in bundles.items()
              if b["process_metrics"]["total_steps"] != len(b["mdp_trajectory"]) + 1}
    assert longer and where("total_steps") == longer
    beyond = {k for k, b in bundles.items()
              if b["process_metrics"]["commit_step"] > len(b["mdp_trajectory"])}
    assert beyond and beyond <= where("commit_step")
    inconsistent = {k for k, b in bundles.items() if b["process_metrics"]["coverage_at_commit"]
                    != b["process_metrics"]["coverage_trajectory"][
                        b["process_metrics"]["commit_step"]]}
    assert inconsistent and inconsistent <= where("coverage_at_commit")


# -- the command -------------------------------------------------------------------------------
def cli() -> typer.Typer:
    """``webmdp`` with the import sub-app mounted as main.py mounts it."""
    from webmdp.cli.main import app

    if any(g.name == "import" for g in app.registered_groups):
        return app
    root = typer.Typer()
    root.add_typer(import_cmd.app, name="import")
    root.command("noop")(lambda: None)
    return root


def test_cli_imports_and_lists_disagreements(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli(), ["import", "webstep", str(REFERENCE), "--out",
                                        str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    n = len(find_disagreements(tmp_path / "run"))
    assert f"imported {len(BUNDLES)} episode(s)" in result.stdout
    assert f"{n} recorded-vs-recomputed disagreement(s)" in result.stdout
    assert sum(line.startswith("  ") for line in result.stdout.splitlines()) == n


def test_cli_with_nothing_importable_exits_2(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"task_id": ')
    result = CliRunner().invoke(cli(), ["import", "webstep", str(tmp_path), "--out",
                                        str(tmp_path / "run")])
    assert result.exit_code == 2
    assert "bad.json" in result.stderr and "invalid JSON" in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("error: no bundle imported")
    assert not (tmp_path / "run" / "tasks.jsonl").exists()


def test_read_bundle_names_the_missing_keys(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text(json.dumps({"task_id": "a_1", "agent": "b"}))
    with pytest.raises(ValueError, match=r"missing required key.*site"):
        read_bundle(tmp_path / "x.json")


def test_a_bundle_with_only_the_required_keys_imports(tmp_path: Path) -> None:
    bundle = {k: v for k, v in recipe_bundle().items() if k in (
        "task_id", "agent", "site", "instruction", "template", "outcome", "mdp_trajectory",
        "mdp_state_final", "oracle_trajectory", "judge")} | {"turns": []}
    (tmp_path / "b.json").write_text(json.dumps(bundle))
    summary = import_webstep([tmp_path], tmp_path / "run")
    assert len(summary.imported) == 1
    ((trace, task),) = load_run(tmp_path / "run")
    assert len(trace.steps) == len(trace.transitions()) == 5  # one unrecorded step each
    assert task.info_constraints == [] and "seed" in task.world["unknown"]
    assert episode_metrics(trace, task).commit_step == 4
