"""The one task selection (webmdp.tasks.select): every filter, the split, the limit and the
messages of an empty or unknown selection, through its one entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import site_tasks
from webmdp.errors import ConfigError
from webmdp.tasks.io import write_tasks
from webmdp.tasks.select import Selection, env_task, limited, names, select, select_tasks
from webmdp.tasks.splits import TEST, TRAIN, Holdout, assign


def test_a_site_gives_its_tasks_in_order() -> None:
    got = select(Selection("mail"))
    assert [t.id for t in got] == [t.id for t in site_tasks("mail")]
    assert select_tasks("mail") == got  # the keyword form is the same selection


def test_sites_templates_and_complexity_narrow() -> None:
    got = select(Selection("mail,chat", hard_negatives=(0, 3), access_levels=("card",)))
    assert {t.site for t in got} <= {"mail", "chat"} and got
    assert all(t.complexity.hard_negative_count in (0, 3) for t in got)
    assert all(t.complexity.access_level == "card" for t in got)
    template = site_tasks("mail")[0].template
    assert {t.template for t in select(Selection("mail", template=template))} == {template}


def test_the_limit_takes_the_first_or_spreads() -> None:
    tasks = site_tasks("qa")
    assert select(Selection("qa", limit=5)) == tasks[:5]
    spread = select(Selection("qa", limit=4, spread=True))
    assert [t.id for t in spread] == [tasks[i].id for i in (0, 45, 90, 135)]
    assert limited(list(tasks), 500, True) == list(tasks)
    with pytest.raises(ConfigError, match="--limit must be at least 1, got 0"):
        select(Selection("qa", limit=0))


def test_ids_choose_their_sites_and_keep_their_order() -> None:
    got = select(Selection(None, task_ids=("chat_0007", "mail_0002")))
    assert [t.id for t in got] == ["chat_0007", "mail_0002"]


def test_an_unknown_id_names_the_range_and_the_filters() -> None:
    with pytest.raises(ConfigError) as exc:
        select(Selection("mail", hard_negatives=(1,), task_ids=("mail_9999",)))
    text = str(exc.value)
    assert text.startswith("unknown task id 'mail_9999': mail has 45 task ids in this selection")
    assert "180 tasks of mail; --hard-negatives 1 removed 135" in text


def test_an_empty_selection_says_what_each_filter_removed(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    write_tasks(path, site_tasks("food")[:4])
    with pytest.raises(ConfigError, match=r"no tasks selected \(4 tasks in .*t\.jsonl; "
                                          r"--site mail removed 4\)"):
        select(Selection("mail", tasks_file=path))


def test_a_task_file_as_suite_or_tasks_but_not_both(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    write_tasks(path, site_tasks("food")[:4])
    assert [t.id for t in select(Selection(suite=str(path)))] == \
        [t.id for t in site_tasks("food")[:4]]
    with pytest.raises(ConfigError, match="give either --suite FILE or --tasks FILE"):
        select(Selection(suite=str(path), tasks_file=path))
    with pytest.raises(ConfigError, match="unknown suite 'nope'"):
        select(Selection(suite="nope"))


@pytest.mark.parametrize("holdout", ["task", "template", "site:mail"])
def test_a_split_keeps_its_side_only(holdout: str) -> None:
    rule = Holdout.parse(holdout)
    train = select(Selection("mail,food", split=TRAIN, holdout=holdout))
    test = select(Selection("mail,food", split=TEST, holdout=holdout))
    assert all(assign(t, rule) == TRAIN for t in train)
    assert all(assign(t, rule) == TEST for t in test)
    assert not {t.id for t in train} & {t.id for t in test}
    assert any("_L1_" in t.id for t in train + test)  # the pool holds the dial's level 1


def test_a_level_narrows_a_split() -> None:
    got = select(Selection("mail", split=TRAIN, level=1))
    assert got and all(t.difficulty is not None and t.difficulty.level == 1 for t in got)
    with pytest.raises(ConfigError, match="unknown level"):
        select(Selection("mail", split=TRAIN, level=7))


def test_a_bad_split_or_holdout_is_one_line() -> None:
    with pytest.raises(ConfigError, match="unknown split 'val'"):
        select(Selection("mail", split="val"))
    with pytest.raises(ConfigError, match="split 'level-1' is gone"):
        select(Selection("mail", split="level-1"))
    with pytest.raises(ConfigError, match="unknown holdout 'x'"):
        select(Selection("mail", split=TRAIN, holdout="x"))


def test_names_and_env_tasks() -> None:
    assert names(None) == names("all") == names(" ") == []
    assert names("a, b,a") == ["a", "b"]
    assert env_task("mail-v1", index=3).id == site_tasks("mail")[3].id
    assert env_task("mail-v1", task_id="mail_0004") == site_tasks("mail")[4]
