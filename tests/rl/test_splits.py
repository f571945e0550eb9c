"""The train / test splits: they never meet, under every holdout, at every level and in both
sources (the sites' tasks and the cross-site suite); a level only narrows a split; the counts
table is the sets; a task file never shadows a built-in task."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webmdp.cli.main import app
from webmdp.rl.splits import (
    LEVELS,
    SPLIT_VERSION,
    TEST,
    TRAIN,
    Catalog,
    Holdout,
    base_template,
    counts,
    held_out_templates,
    level_of,
    sites_touched,
)
from webmdp.sites import site_names
from webmdp.tasks.cache import tasks_text

runner = CliRunner()
HOLDOUTS = ["task", "template", "site:mail"]


SLOW = pytest.mark.slow
"""Every site's pool is its whole dial stream: ``make test`` builds shopping's only (tests/
conftest.py), so the checks over ``all`` run in ``make test-slow`` and shopping stands in."""
SCOPES = ["shopping", pytest.param("all", marks=SLOW)]


@pytest.mark.parametrize(("scope", "holdout"), [
    *(("cross-site", h) for h in HOLDOUTS), ("shopping", "task"), ("shopping", "template"),
    *(pytest.param("all", h, marks=SLOW) for h in HOLDOUTS)])
def test_train_and_test_never_meet(scope: str, holdout: str) -> None:
    catalog = Catalog(scope, None, Holdout.parse(holdout))
    pool = {t.id for t in catalog.pool()}
    for level in (None, *LEVELS):
        train = {t.id for t in catalog.tasks(TRAIN, level)}
        test = {t.id for t in catalog.tasks(TEST, level)}
        assert not train & test, (holdout, level)
        if level is None:
            assert train | test == pool and train and test
    train_tasks, test_tasks = catalog.tasks(TRAIN), catalog.tasks(TEST)
    if holdout == "template":
        held = catalog.held_out()
        assert {(t.site, base_template(t)) for t in test_tasks} == {
            (s, n) for s, names in held.items() for n in names}
        assert not {(t.site, base_template(t)) for t in train_tasks} & {
            (t.site, base_template(t)) for t in test_tasks}  # variants go with their template
    if holdout == "site:mail":
        assert not [t for t in train_tasks if "mail" in sites_touched(t)]
        assert all("mail" in sites_touched(t) for t in test_tasks)


@pytest.mark.parametrize("scope", SCOPES)
def test_a_level_only_narrows_a_split(scope: str) -> None:
    catalog = Catalog(scope)
    for split in (TRAIN, TEST):
        whole = catalog.tasks(split)
        parts = [catalog.tasks(split, level) for level in LEVELS]
        assert sum(map(len, parts)) == len(whole)
        assert [t.id for p in parts for t in p] != [] and {t.id for p in parts for t in p} == {
            t.id for t in whole}
        for level, part in zip(LEVELS, parts, strict=True):
            assert all(level_of(t) == (None if level == "none" else level) for t in part)


@pytest.mark.parametrize("scope", SCOPES)
def test_the_dials_level_1_tasks_are_assigned_like_every_other(scope: str) -> None:
    catalog = Catalog(scope)
    dial = [t for t in catalog.pool() if "_L1_" in t.id]
    assert len(dial) > (300 if scope == "all" else 30)
    train = {t.id for t in catalog.tasks(TRAIN, 1)}
    test = {t.id for t in catalog.tasks(TEST, 1)}
    assert {t.id for t in dial} <= train | test
    assert {t.id for t in dial} & train and {t.id for t in dial} & test


@pytest.mark.parametrize("scope", SCOPES)
def test_the_template_holdout_takes_a_fifth_of_each_sites_templates(scope: str) -> None:
    catalog = Catalog(scope, None, Holdout.parse("template"))
    held = catalog.held_out()
    assert set(held) == (set(site_names()) if scope == "all" else {scope})
    for site, names in held.items():
        n = len({base_template(t) for t in catalog.pool() if t.site == site})
        assert len(names) == max(1, round(0.2 * n)), site
    again = held_out_templates(reversed(list(catalog.pool())))  # order does not matter
    assert again == held


@pytest.mark.parametrize("old", ["level-1", "level-none"])
def test_the_old_level_splits_are_refused_with_the_new_form(old: str) -> None:
    level = old.removeprefix("level-")
    with pytest.raises(ValueError, match=f"--split train --level {level}"):
        Catalog("shopping").tasks(old)


def test_bad_holdouts_and_levels_are_one_line() -> None:
    with pytest.raises(ValueError, match="unknown holdout 'sites'"):
        Holdout.parse("sites")
    with pytest.raises(ValueError, match="unknown holdout site 'nowhere'"):
        Holdout.parse("site:nowhere")
    with pytest.raises(ValueError, match="unknown level"):
        Catalog("shopping").tasks(TRAIN, 7)


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("holdout", ["task", "template"])
def test_the_counts_table_is_the_sets(holdout: str, scope: str) -> None:
    catalog = Catalog(scope, None, Holdout.parse(holdout))
    table = counts(catalog)
    for split in (TRAIN, TEST):
        for level in LEVELS:
            for site in site_names():
                got = sum(r["tasks"] for r in table if (r["split"], r["level"], r["site"])
                          == (split, str(level), site))
                assert got == sum(t.site == site for t in catalog.tasks(split, level))
    result = runner.invoke(app, ["rl", "splits", "--site", scope, "--holdout", holdout,
                                 "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert shown["counts"] == table and shown["split_version"] == SPLIT_VERSION
    assert shown["held_out_templates"] == catalog.held_out()


@SLOW
def test_rl_splits_prints_the_table_and_the_held_out_site() -> None:
    result = runner.invoke(app, ["rl", "splits", "--holdout", "site:food"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert f"split_version={SPLIT_VERSION}" in text and "every task of site food" in text
    assert "level 1" in text and "level none" in text
    bad = runner.invoke(app, ["rl", "splits", "--holdout", "nope"])
    assert bad.exit_code == 2 and "unknown holdout" in bad.output


def test_a_task_file_resolves_first_and_never_shadows(tmp_path: Path) -> None:
    builtin = Catalog("shopping").tasks(TRAIN)[0]
    same = tmp_path / "same.jsonl"
    mine = builtin.model_copy(update={"id": "mine_0001"})
    same.write_text(tasks_text([builtin, mine]))
    catalog = Catalog("shopping", str(same))
    assert catalog.splits() == [TRAIN, TEST, "file"]
    assert [t.id for t in catalog.tasks("file")] == [builtin.id, "mine_0001"]
    assert catalog.task("mine_0001") == mine and catalog.task(builtin.id) == builtin

    shadow = tmp_path / "shadow.jsonl"
    changed = builtin.model_copy(update={"instruction": builtin.instruction + " Quickly."})
    shadow.write_text(tasks_text([mine, changed]))
    with pytest.raises(ValueError, match=rf"shadow.jsonl:2: task id '{builtin.id}' is a "
                                         "built-in task's id"):
        Catalog("shopping", str(shadow)).tasks("file")
    out = tmp_path / "rows.jsonl"
    result = runner.invoke(app, ["rl", "dataset", "--site", "shopping", "--split", "file",
                                 "--tasks", str(shadow), "--out", str(out)])
    assert result.exit_code == 2 and builtin.id in result.output
    ok = runner.invoke(app, ["rl", "dataset", "--site", "shopping", "--split", "file",
                             "--tasks", str(same), "--out", str(out)])
    assert ok.exit_code == 0, ok.output
    assert [json.loads(x)["task_id"] for x in out.read_text().splitlines()] == [
        builtin.id, "mine_0001"]


def test_a_task_file_given_is_what_dataset_and_reset_use(tmp_path: Path) -> None:
    """``rl dataset --tasks FILE`` without ``--split`` writes the file's rows (it wrote the
    built-in train split before); another split named beside a file is refused in one line;
    an OpenEnv server with a task file serves the file on a reset that names no split."""
    from webmdp.rl.openenv import WebMDPEnvironment

    mine = [t.model_copy(update={"id": f"mine_{i:04d}"})
            for i, t in enumerate(Catalog("food").tasks(TRAIN)[:3])]
    file = tmp_path / "mine.jsonl"
    file.write_text(tasks_text(mine))
    out = tmp_path / "rows.jsonl"
    ok = runner.invoke(app, ["rl", "dataset", "--site", "food", "--tasks", str(file),
                             "--out", str(out)])
    assert ok.exit_code == 0, ok.output
    assert "wrote 3 rows (food, file," in ok.output
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["task_id"] for r in rows] == [t.id for t in mine]
    assert {r["split"] for r in rows} == {"file"}
    refused = runner.invoke(app, ["rl", "dataset", "--site", "food", "--tasks", str(file),
                                  "--split", "train", "--out", str(out)])
    assert refused.exit_code == 2
    assert len(refused.output.strip().splitlines()) == 1 and "split 'file'" in refused.output
    env = WebMDPEnvironment("food", tasks_file=str(file))
    assert [env.choose(seed=s).id for s in range(4)] == [t.id for t in [*mine, mine[0]]]
    assert WebMDPEnvironment("food").choose(seed=0).id == Catalog("food").tasks(TRAIN)[0].id


def test_the_pool_leaves_out_the_segments_appended_after_the_splits() -> None:
    """Segments appended after the splits were published (``commits``, then ``analysis``)
    must not grow the pool: a grown pool moves tasks between the splits (a template holdout
    is a fifth of the pool's templates)."""
    from webmdp.sites import get_site
    from webmdp.tasks import dial
    from webmdp.tasks.sources import dial_tasks

    site = get_site("shopping")
    end = dial.DIAL_BASE + dial.pool_candidates(site)
    names = [g.name for g in dial.segments(site)]
    assert names[-2:] == ["commits", "analysis"]
    assert end == dial.DIAL_BASE + sum(g.size for g in dial.segments(site)[:-2])
    pool = dial_tasks("shopping")
    assert pool and max(t.index for t in pool) < end
    # the commits segment does hold level-1 tasks the pool leaves out
    seg = dial.segments(site)[-2]
    first = [t for t in (dial.make_task(site, end + j, seg.templates[j], 0, catalogue=0,
                                        confirm=True, page_size=seg.page_size, sparse=True)
                         for j in range(6)) if t.difficulty and t.difficulty.level == 1]
    assert first


def test_a_file_task_is_checked_against_the_set_its_id_names(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A built-in id is looked up in the site's built-in set only, so checking a task file
    of built-in tasks never builds a dial pool (a whole dial stream); a dial name is looked
    up in the dial pool."""
    from webmdp.tasks import sources

    builtin = sources.site_tasks("food")[3]
    dial = sources.dial_tasks("shopping")[0]

    def no_pool(site: str) -> tuple[()]:
        raise AssertionError(f"{site}'s dial pool was read for a built-in id")

    with monkeypatch.context() as m:
        m.setattr(sources, "dial_tasks", no_pool)
        sources.pool.cache_clear()  # what an earlier test read of it
        assert sources.builtin_twin(builtin) == builtin
    assert sources.builtin_twin(dial) == dial
    assert sources.builtin_twin(builtin.model_copy(update={"id": "food_9999"})) is None
