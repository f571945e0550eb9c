"""The disk cache of generated task sets: a hit is byte-identical to a build, a bad entry or
directory is a miss (never an error), `off` writes nothing, and old keys are pruned."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from webmdp.sites import get_site
from webmdp.tasks import cache as C
from webmdp.tasks import generate as G
from webmdp.tasks.generate import generate_site_tasks, make_task, plan
from webmdp.tasks.model import Task


def _tasks() -> list[Task]:
    site = get_site("shopping")
    return [make_task(site, i, t, hn) for i, t, hn in plan(site, 6)]


def test_a_hit_is_what_a_build_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(C.CACHE_ENV, str(tmp_path))
    built = _tasks()
    calls: list[int] = []
    first = C.cached_tasks("t", lambda: calls.append(1) or built)
    again = C.cached_tasks("t", lambda: calls.append(2) or [])
    assert calls == [1] and list(first) == list(again) == built
    assert [t.model_dump_json() for t in again] == [t.model_dump_json() for t in built]
    entry = tmp_path / "tasks" / C.code_key() / "t.jsonl"
    assert len(entry.read_text().splitlines()) == 6
    # an entry cut short is a miss: rebuilt and rewritten
    entry.write_text(entry.read_text()[:500])
    assert list(C.cached_tasks("t", lambda: calls.append(3) or built)) == built
    assert calls == [1, 3] and len(entry.read_text().splitlines()) == 6


def test_off_and_unwritable_are_misses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = _tasks()[:2]
    monkeypatch.setenv(C.CACHE_ENV, "off")
    assert C.cache_dir() is None and list(C.cached_tasks("t", lambda: built)) == built
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(C.CACHE_ENV, str(blocker))
    assert list(C.cached_tasks("t", lambda: built)) == built  # cannot write: still works
    assert blocker.read_text() == "not a directory"


def test_old_keys_are_pruned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(C.CACHE_ENV, str(tmp_path))
    for k in range(5):
        (tmp_path / "tasks" / f"old{k}").mkdir(parents=True)
    C.cached_tasks("t", lambda: _tasks()[:1])
    kept = sorted(d.name for d in (tmp_path / "tasks").iterdir())
    assert len(kept) == C.KEEP and C.code_key() in kept and "old4" in kept


def test_another_process_reads_what_this_one_wrote(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(C.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(G, "_GENERATED", {})
    mine = generate_site_tasks(get_site("shopping"))  # built here and stored
    entry = tmp_path / "tasks" / C.code_key() / "shopping-180.jsonl"
    assert entry.is_file()
    code = ("import sys; from webmdp.sites import get_site; "
            "from webmdp.tasks import generate as G; "
            "G.make_task = None; "  # a build would fail: the tasks must come from the entry
            "ts = G.generate_site_tasks(get_site('shopping')); "
            "sys.stdout.write(''.join(t.model_dump_json() + '\\n' for t in ts))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "".join(t.model_dump_json() + "\n" for t in mine)


_BUILD_ONCE = """
import sys, time
from pathlib import Path
from webmdp.tasks import cache as C

def build():
    Path(sys.argv[1], sys.argv[2]).write_text("built")
    time.sleep(0.5)  # long enough for the other process to miss and reach the lock
    return {"n": 7}

print(C.cached_json("probe", "one", build, lambda v: v, lambda d: d)["n"])
"""


def test_processes_that_miss_at_once_build_once(tmp_path: Path) -> None:
    """Two processes (two test workers) missing the same entry: one builds under the entry's
    lock, the other waits and reads what it stored."""
    cache_root, marks = tmp_path / "cache", tmp_path / "marks"
    marks.mkdir()
    env = {**__import__("os").environ, C.CACHE_ENV: str(cache_root)}
    procs = [subprocess.Popen([sys.executable, "-c", _BUILD_ONCE, str(marks), f"p{i}"],
                              env=env, stdout=subprocess.PIPE, text=True) for i in range(2)]
    outs = [p.communicate(timeout=120)[0].strip() for p in procs]
    assert outs == ["7", "7"]
    assert len(list(marks.iterdir())) == 1


def test_a_site_card_is_read_back_as_built(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from webmdp.cap import cards

    monkeypatch.setenv(C.CACHE_ENV, str(tmp_path))
    built = cards.build_card(get_site("calendar"))
    assert cards.SiteCard.from_dict(built.to_dict()) == built
    cards.site_card.cache_clear()
    assert cards.site_card("calendar") == built  # built, stored
    assert (tmp_path / "cards" / C.code_key() / "calendar.json").is_file()
    cards.site_card.cache_clear()
    monkeypatch.setattr(cards, "build_card", lambda *_: pytest.fail("rebuilt"))
    assert cards.site_card("calendar") == built  # read back
    cards.site_card.cache_clear()


_PARALLEL = """
import sys
from webmdp.sites import get_site
from webmdp.tasks import cache
from webmdp.tasks import generate as G
sets = G.generate_sets([get_site("calendar"), get_site("chat"), get_site("qa")], n=6)
sys.stdout.write("".join(cache.tasks_text(sets[n]) for n in ("calendar", "chat", "qa")))
"""


def test_sets_built_in_parallel_are_the_sets_built_here(tmp_path: Path) -> None:
    """generate_sets builds missing sets in worker processes (one per site): the same bytes
    as building them in one process, and stored in the cache for the next process."""
    env = {**__import__("os").environ, C.CACHE_ENV: str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", _PARALLEL], env=env, capture_output=True,
                         text=True, timeout=300, check=True).stdout
    here = "".join(C.tasks_text([make_task(get_site(n), i, t, hn) for i, t, hn in
                                 plan(get_site(n), 6)]) for n in ("calendar", "chat", "qa"))
    assert out == here
    stored = sorted(p.name for p in (tmp_path / "tasks").rglob("*.jsonl"))
    assert stored == ["calendar-6.jsonl", "chat-6.jsonl", "qa-6.jsonl"]
    again = subprocess.run([sys.executable, "-c", _PARALLEL], env=env, capture_output=True,
                           text=True, timeout=300, check=True).stdout
    assert again == here  # read back from the cache


def test_a_task_set_read_from_the_cache_is_frozen_out_of_the_collector() -> None:
    """A set read from the cache lives as long as the process: its objects go to the
    collector's permanent generation (the first full collection after a read walked them all
    once more), and they are the tasks' own (acyclic: dropped sets are still freed)."""
    code = ("import gc; from webmdp.tasks.sources import site_tasks; site_tasks('chat'); "
            "from webmdp.tasks import cache; before = gc.get_freeze_count(); "
            "entry = cache.cached_path('chat-180'); tasks = cache._read(entry); "
            "print(before, gc.get_freeze_count(), len(tasks))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    before, after, n = map(int, out.stdout.split())
    assert n == 180 and after - before > 100_000
