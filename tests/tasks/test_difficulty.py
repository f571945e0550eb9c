"""WebForge's difficulty, measured: the level rules, the seven measures on tasks counted by
hand, every generated task carrying what measuring it gives, `webmdp tasks stats`, and old
task files and run directories."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from unittest import mock

import pytest
from typer.testing import CliRunner, Result

from support import site_tasks
from webmdp.cli.main import app
from webmdp.runner.manifest import task_set_hash
from webmdp.sites import site_names
from webmdp.tasks.difficulty import counts, cut, level_of, measure
from webmdp.tasks.domains import DOMAINS, domain_of
from webmdp.tasks.io import read_tasks, write_tasks
from webmdp.tasks.model import DIMENSIONS, TASK_VERSION


@pytest.mark.parametrize(("vector", "level"), [
    ((1, 1, 1, 1, 1, 1, 1), 1),
    ((2, 1, 1, 1, 1, 1, 1), 1),
    ((2, 2, 1, 1, 1, 1, 1), 2),  # fits L1 and L2: the highest wins
    ((2, 2, 2, 1, 1, 1, 1), 2),
    ((2, 2, 2, 3, 1, 1, 1), 2),  # one L3 is allowed at L2
    ((3, 3, 2, 2, 1, 1, 1), 3),
    ((3, 3, 3, 2, 2, 2, 2), 3),
    ((3, 1, 1, 1, 1, 1, 1), "none"),  # one L3, fewer than two L2
    ((3, 3, 2, 1, 1, 1, 1), "none"),  # two L3 but one L2
    ((3, 3, 3, 3, 3, 3, 3), "none"),
])
def test_level_rules_of_webforge(vector: tuple[int, ...], level: object) -> None:
    assert level_of(vector) == level


def test_thresholds_of_table_6() -> None:
    assert [cut("depth", k) for k in (0, 2, 3, 5, 6, 12)] == [1, 1, 2, 2, 3, 3]
    assert [cut("breadth", k) for k in (1, 2, 3, 6)] == [1, 1, 2, 3]
    assert [cut("visual", k) for k in (0, 1, 2, 3)] == [1, 2, 3, 3]


def _task(site: str, template: str):  # type: ignore[no-untyped-def]
    return next(t for t in site_tasks(site) if t.template == template)


def test_measures_counted_by_hand() -> None:
    # Search, OpenProduct, AddToCart: Home -> results -> product page, one field typed; the
    # cart line goes again by OpenCart + RemoveFromCart
    find = _task("shopping", "find_product_extract").difficulty
    assert find is not None
    assert find.measures["depth"] == 2 and find.measures["interaction"] == 1
    assert find.measures["risk"] == "reversible" and find.measures["reasoning"] == "lookup"
    # ... SelectOption x2 + AddToCart on one page is 3; Checkout holds SetShippingSpeed (1)
    # and the irreversible PlaceOrder on a confirmation page
    checkout = _task("shopping", "checkout_with_options")
    d = checkout.difficulty
    assert d is not None and d.measures["risk"] == "confirmed" and d.of("risk") == 2
    names = [a.name for a in checkout.oracle]
    assert names[-1] == "PlaceOrder" and d.measures["depth"] == 5
    # the superlative over values read on three detail pages is multi-step reasoning
    compare = _task("shopping", "compare_detail_pages").difficulty
    assert compare is not None and compare.measures["reasoning"] == "multi_step"
    assert compare.measures["depth"] == 6 and compare.of("depth") == 3
    # a reply sent in a thread cannot be taken back, and no page asks first
    reply = _task("chat", "reply_thread_mentions").difficulty
    assert reply is not None and reply.measures["risk"] == "unwarned" and reply.of("risk") == 3
    # the channel shows 20 messages to weigh: breadth L3
    assert reply.measures["breadth"] >= 6 and reply.of("breadth") == 3


@pytest.mark.parametrize("site", site_names())
def test_every_task_carries_its_measured_difficulty(site: str) -> None:
    tasks = site_tasks(site)
    assert all(t.version == TASK_VERSION == 3 and t.difficulty is not None for t in tasks)
    assert all(t.domain == domain_of(site, t.template) and t.domain in DOMAINS for t in tasks)
    for t in tasks[::45]:
        again = measure(t.model_copy(update={"difficulty": None}))
        assert again == t.difficulty, t.id
        assert len(again.vector) == len(DIMENSIONS) and set(again.vector) <= {1, 2, 3}
        assert again.level == level_of(again.vector)


def test_the_suite_spreads_over_levels_and_dimensions() -> None:
    c = counts([t for s in site_names() for t in site_tasks(s)])
    assert c["n"] == 1800 and sum(c["level"].values()) == 1800
    assert all(c["level"][k] > 0 for k in ("1", "2", "3"))
    for dim in ("depth", "breadth", "interaction", "info", "reasoning", "risk"):
        assert sum(v > 0 for v in c["dimension"][dim].values()) >= 2, dim


runner = CliRunner()


def test_tasks_stats_json_and_tables() -> None:
    res = runner.invoke(app, ["tasks", "stats", "--site", "shopping", "--by",
                              "level,dimension,site", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["n"] == 180 and set(out["dimension"]) == set(DIMENSIONS)
    assert out["sites"]["shopping"]["level"] == out["level"]
    assert out == {**counts(list(site_tasks("shopping"))), "sites": out["sites"]}
    table = runner.invoke(app, ["tasks", "stats", "--site", "shopping"])
    assert table.exit_code == 0 and "Jump Breadth" in table.stdout and "Risk Factor" in table.stdout
    bad = runner.invoke(app, ["tasks", "stats", "--by", "colour"])
    assert bad.exit_code == 2 and "unknown --by table 'colour'" in bad.output


def _forged_file(tmp_path: Path) -> Path:
    """Three shopping tasks, the second with a vector edited by hand."""
    tasks = list(site_tasks("shopping")[:3])
    d = tasks[1].difficulty
    assert d is not None
    forged = d.model_copy(update={"vector": (3, 3, 3, 3, 3, 3, 3), "level": "none"})
    write_tasks(tmp_path / "t.jsonl", [tasks[0], tasks[1].model_copy(
        update={"difficulty": forged}), tasks[2]])
    return tmp_path / "t.jsonl"


def _refused(res: object) -> None:
    assert res.exit_code == 2, res.output  # type: ignore[attr-defined]
    assert "shopping_0001: stored difficulty [3, 3, 3, 3, 3, 3, 3]" in res.output  # type: ignore
    assert "disagrees with the measured" in res.output  # type: ignore[attr-defined]


def test_tasks_check_refuses_a_vector_edited_by_hand(tmp_path: Path) -> None:
    _refused(runner.invoke(app, ["tasks", "check", str(_forged_file(tmp_path))]))
    good = tmp_path / "good.jsonl"
    write_tasks(good, site_tasks("shopping")[:3])
    res = runner.invoke(app, ["tasks", "check", str(good)])
    assert res.exit_code == 0, res.output
    assert "3 stored difficulty vectors agree" in res.output


def test_validate_suite_file_refuses_a_vector_edited_by_hand(tmp_path: Path) -> None:
    _refused(runner.invoke(app, ["validate", "--suite", str(_forged_file(tmp_path))]))


def test_a_run_catches_an_edited_task_before_any_result(tmp_path: Path) -> None:
    """A run measures the tasks it runs: an edited vector stops it before an episode (or a
    report) exists; a run that leaves the edited task out goes ahead."""
    path = _forged_file(tmp_path)
    out = tmp_path / "run"
    res = runner.invoke(app, ["run", "--tasks", str(path), "--mode", "semantic", "--agent",
                              "oracle", "--out", str(out)])
    _refused(res)
    assert not out.exists() or not any(out.rglob("*.json"))
    res = runner.invoke(app, ["run", "--tasks", str(path), "--task", "shopping_0002",
                              "--mode", "semantic", "--agent", "oracle", "--out", str(out)])
    assert res.exit_code == 0, res.output


def test_reading_a_task_file_replays_nothing(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a file (`tasks list`, `tasks stats`, `--suite FILE`) parses and validates its
    format; measuring is `tasks check`'s job."""
    import webmdp.tasks.difficulty as difficulty
    from webmdp.tasks import replay as replay_mod

    path = _forged_file(tmp_path)

    def no_replay(*_: object, **__: object) -> None:
        raise AssertionError("a task file was replayed on reading")

    monkeypatch.setattr(difficulty, "measure", no_replay)
    monkeypatch.setattr(replay_mod, "replay", no_replay)
    for args in (["tasks", "list", "--tasks", str(path)],
                 ["tasks", "stats", "--suite", str(path), "--json"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["level"]["none"] >= 1  # the edited vector, as stored


def test_a_version_1_task_file_loads_and_is_measured(tmp_path: Path) -> None:
    tasks = list(site_tasks("mail")[:4])
    path = tmp_path / "v1.jsonl"
    path.write_text("".join(t.model_copy(update={"version": 1}).model_dump_json(
        exclude={"difficulty"}) + "\n" for t in tasks))
    old = read_tasks(path)
    assert all(t.version == 1 and t.difficulty is None for t in old)
    res = runner.invoke(app, ["tasks", "stats", "--suite", str(path), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == counts(tasks)


def test_a_run_made_before_difficulty_resumes_as_it_was(tmp_path: Path) -> None:
    """Rewrite a fresh run into what the previous build stored (version-1 tasks, a manifest
    hashed on every field), drop two episodes: resume runs just those, on the stored tasks."""
    def webmdp(*args: str) -> Result:
        """The command in this process (the binary is this ``app``), with the argv it records."""
        with mock.patch.object(sys, "argv", ["webmdp", *args]):
            res = runner.invoke(app, list(args), env={"COLUMNS": "200"})
        assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
        return res

    out = tmp_path / "run"
    assert webmdp("run", "--site", "food", "--agent", "oracle", "--limit", "4", "--out",
                  str(out)).exit_code == 0
    stored = read_tasks(out / "tasks.jsonl")
    (out / "tasks.jsonl").write_text("".join(t.model_copy(update={"version": 1}).model_dump_json(
        exclude={"difficulty"}) + "\n" for t in stored))
    old_hash = task_set_hash(stored, basis=1)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["task_set"] = {"hash": old_hash, "count": 4, "ids": [t.id for t in stored]}
    (out / "manifest.json").write_text(json.dumps(manifest))
    for p in sorted((out / "episodes" / "oracle" / "semantic").glob("*.json"))[:2]:
        p.unlink()
    res = webmdp("run", "--resume", str(out))
    assert res.exit_code == 0, res.stderr
    assert "2 episodes run (2 resumed)" in res.stderr
    kept = read_tasks(out / "tasks.jsonl")
    assert all(t.version == 1 and t.difficulty is None for t in kept)  # its task set, as it was
    # a different task set is still refused
    other = webmdp("run", "--resume", str(out), "--limit", "3")
    assert other.exit_code == 2 and "task set" in other.stderr
