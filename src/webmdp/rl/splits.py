"""The task splits a trainer draws from: a fixed train/test partition, measured levels, the
cross-site suite and a user's task file.

``level-1`` holds few built-in tasks (23 of 1,800), so it goes on with the dial's level-1
tasks of the same sites (``SITE_L1_NNNN``, :mod:`webmdp.tasks.dial`): worlds of their own, in
no train or test split, built once and kept in the disk cache like the built-in sets.

Kept apart from the OpenEnv adapter (and free of its import) so any trainer integration reads
the same splits. Tasks come from the generators' disk cache; a catalog builds nothing until a
split is first read, so constructing an environment stays cheap.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from webmdp.errors import unknown_choice
from webmdp.tasks.model import Task

ALL = "all"
CROSS = "cross-site"
TRAIN, TEST = "train", "test"
LEVELS = ("level-1", "level-2", "level-3", "level-none")
DIAL_LEVEL = "level-1"
"""The level split the dial's tasks extend."""
FILE = "file"
TEST_SHARE = 20
"""Percent of tasks in ``test``: a task is in test when its id's hash mod 100 falls below."""
_SALT = b"webmdp-rl-split-v1"
_LOCK = threading.Lock()


def split_of(task_id: str) -> str:
    """``train`` or ``test`` for a task id: a fixed, seeded hash, so a task never changes side
    as sites gain tasks or the order of generation moves."""
    h = hashlib.blake2b(task_id.encode(), digest_size=8, key=_SALT).digest()
    return TEST if int.from_bytes(h, "big") % 100 < TEST_SHARE else TRAIN


def level_split(task: Task) -> str | None:
    """The level split of a task's stored measured difficulty (None: never measured)."""
    return None if task.difficulty is None else f"level-{task.difficulty.level}"


@cache
def _site_tasks(sites: tuple[str, ...]) -> tuple[Task, ...]:
    from webmdp.sites import get_site
    from webmdp.tasks.generate import generate_sets

    with _LOCK:  # one build at a time: concurrent sessions would otherwise each build it
        sets = generate_sets([get_site(s) for s in sites])
    return tuple(t for s in sites for t in sets[s])


@cache
def _dial_tasks(sites: tuple[str, ...]) -> tuple[Task, ...]:
    """The dial's level-1 tasks of ``sites``, in stream order (SITE_L1_NNNN)."""
    from webmdp.sites import get_site
    from webmdp.tasks.cache import cached_tasks
    from webmdp.tasks.dial import stream

    def build(site: str) -> list[Task]:
        return [t for t in stream(get_site(site))
                if t.difficulty is not None and t.difficulty.level == 1]

    with _LOCK:
        return tuple(t for s in sites
                     for t in cached_tasks(f"{s}-dial-L1", functools.partial(build, s)))


@cache
def _cross_tasks() -> tuple[Task, ...]:
    from webmdp.cap.compose import generate_cross_tasks

    with _LOCK:
        return tuple(generate_cross_tasks())


@cache
def _file_tasks(path: str) -> tuple[Task, ...]:
    from webmdp.tasks.io import read_tasks

    return tuple(read_tasks(path))


def site_choices() -> list[str]:
    """What ``site=`` accepts: every registered site, ``all`` and ``cross-site``."""
    from webmdp.sites import site_names

    return [*site_names(), ALL, CROSS]


@dataclass(frozen=True)
class Catalog:
    """The splits of one scope: a site, every site (``all``) or the cross-site suite, plus an
    optional task file (split ``file``). Split order is stable: sites by name, tasks by index."""

    site: str = ALL
    tasks_file: str | None = None
    _by_id: dict[str, Task] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.site not in site_choices():
            raise unknown("site", self.site, site_choices())

    def splits(self) -> list[str]:
        if self.site == CROSS:
            names = [TRAIN, TEST, CROSS]
        else:
            names = [TRAIN, TEST, *LEVELS, *([CROSS] if self.site == ALL else [])]
        return [*names, *([FILE] if self.tasks_file else [])]

    def tasks(self, split: str) -> Sequence[Task]:
        """The tasks of ``split`` in their fixed order; an unknown split raises ValueError."""
        if split not in self.splits():
            raise unknown("split", split, self.splits())
        return _split_tasks(self.site, self.tasks_file, split)

    def task(self, task_id: str) -> Task:
        """A task of this catalog by id; an unknown id raises ValueError."""
        # train and test hold every built-in task of the scope; cross-site and a file come
        # after, so a site's id never builds the cross-site suite; a dial name, level-1's
        from webmdp.tasks.dial import is_dial_id

        dial = is_dial_id(task_id)
        for split in (s for s in self.splits() if s not in LEVELS or (dial and s == DIAL_LEVEL)):
            if task_id in self._by_id:
                break
            self._by_id.update({t.id: t for t in self.tasks(split)})
        if task_id not in self._by_id:
            raise unknown("task id", task_id, [*list(self._by_id)[:3], "..."])
        return self._by_id[task_id]


@cache
def _split_tasks(site: str, tasks_file: str | None, split: str) -> tuple[Task, ...]:
    if split == FILE:
        assert tasks_file is not None
        return _file_tasks(tasks_file)
    if split == CROSS:
        return _cross_tasks()
    sites: tuple[str, ...] = ()
    if site == CROSS:
        pool = _cross_tasks()
    else:
        from webmdp.sites import site_names

        sites = tuple(site_names()) if site == ALL else (site,)
        pool = _site_tasks(sites)
    if split in (TRAIN, TEST):
        return tuple(t for t in pool if split_of(t.id) == split)
    levelled = tuple(t for t in pool if level_split(t) == split)
    return levelled + _dial_tasks(sites) if split == DIAL_LEVEL and sites else levelled


def unknown(kind: str, value: str, choices: Sequence[str]) -> ValueError:
    """The project's one-line unknown-choice message as a ValueError, which is what OpenEnv's
    task API and trainers expect of a bad argument."""
    return ValueError(str(unknown_choice(kind, value, list(choices))))


def task_spec(task: Task, split: str, index: int) -> dict[str, Any]:
    """What the task API shows of a task: where it is and what it asks, never its goal
    (verifier, target, answer, oracle)."""
    return {"id": task.id, "split": split, "index": index, "site": task.site,
            "template": task.template, "instruction": task.instruction,
            "level": None if task.difficulty is None else task.difficulty.level,
            "domain": task.domain}


def resolve_path(path: str | Path | None) -> str | None:
    """A task file's absolute path (the cache key), or None."""
    return None if path is None else str(Path(path).resolve())
