"""Selection over a cache entry's index (webmdp.tasks.cache.entry_rows): the light rows carry
what the filters read, only the kept tasks are validated, and every selection, message and
hash is what filtering the validated tasks gives."""

from __future__ import annotations

from typing import Any

import pytest

from webmdp.errors import ConfigError
from webmdp.runner.manifest import task_set_hash
from webmdp.tasks import cache, generate, sources
from webmdp.tasks.select import Selection, select

SITES = ("mail", "qa")


@pytest.fixture
def entries() -> dict[str, Any]:
    """The sets of SITES in the disk cache, with their tasks (validated the old way)."""
    out = {}
    for site in SITES:
        tasks = sources.site_tasks(site)
        entry = cache.cached_path(f"{site}-{len(tasks)}")
        if entry is None:
            pytest.skip("the disk cache is off")
        out[site] = (entry, tasks)
    return out


def test_rows_carry_the_fields_and_lines_of_the_tasks(entries: dict[str, Any]) -> None:
    entry, tasks = entries["mail"]
    rows = cache.entry_rows(entry)
    assert rows is not None and len(rows) == len(tasks)
    for row, task in zip(rows, tasks, strict=True):
        assert (row.id, row.site, row.template) == (task.id, task.site, task.template)
        assert row.complexity.hard_negative_count == task.complexity.hard_negative_count
        assert row.complexity.access_level == task.complexity.access_level
    loaded = cache.load_rows(rows[3:9])
    assert loaded == list(tasks[3:9])
    assert cache.task_lines(loaded) == [t.model_dump_json().encode() for t in tasks[3:9]]
    assert task_set_hash(loaded) == task_set_hash([t.model_copy() for t in tasks[3:9]])


def test_a_stale_index_is_rebuilt(entries: dict[str, Any]) -> None:
    entry, tasks = entries["qa"]
    side = entry.with_name(f"{entry.name}.{cache.INDEX}")
    assert cache.entry_rows(entry) is not None and side.is_file()
    side.write_text('{"size": 1, "rows": []}')
    rows = cache.entry_rows(entry)
    assert rows is not None and [r.id for r in rows] == [t.id for t in tasks]
    side.write_text("not json")
    assert [r.id for r in cache.entry_rows(entry) or []] == [t.id for t in tasks]


SELECTIONS = [
    Selection("mail,qa"),
    Selection("mail,qa", limit=7, spread=True),
    Selection("qa", limit=3),
    Selection("mail,qa", hard_negatives=(0, 3), access_levels=("card",), limit=9, spread=True),
    Selection("mail", template="label_by_cc"),
    Selection(None, task_ids=("qa_0003", "mail_0010", "qa_0003")),
    Selection("mail", task_ids=("mail_9999",)),
    Selection("mail", task_ids=("qa_0001",)),
    Selection("mail", template="nosuch"),
    Selection("qa", hard_negatives=(3,), access_levels=("card",)),
]


def _outcome(sel: Selection) -> Any:
    try:
        return [t.model_dump_json() for t in select(sel)]
    except ConfigError as exc:
        return str(exc)


@pytest.mark.parametrize("sel", SELECTIONS, ids=range(len(SELECTIONS)))
def test_rows_select_as_tasks_do(entries: dict[str, Any], sel: Selection,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generate, "_GENERATED", {})  # as a fresh process: the sets unread
    used: list[bool] = []
    rows_of = sources.site_rows

    def spy(sites: Any) -> Any:
        found = rows_of(sites)
        used.append(found is not None)
        return found

    monkeypatch.setattr(sources, "site_rows", spy)
    from_rows = _outcome(sel)
    assert used and all(used)  # filtered as rows
    monkeypatch.setattr(sources, "site_rows", lambda s: None)
    assert from_rows == _outcome(sel)


def test_the_same_line_is_the_same_task(entries: dict[str, Any],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generate, "_GENERATED", {})
    got = select(Selection(None, task_ids=("mail_0004", "mail_0004")))
    assert got[0] is got[1]
    assert select(Selection("mail", task_ids=("mail_0004",)))[0] is got[0]
