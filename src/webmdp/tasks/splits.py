"""The tasks a trainer draws from: a ``train`` / ``test`` split under a holdout, narrowed by a
measured level; the cross-site suite and a user's task file as sources of their own.

Two independent selectors. ``split`` is ``train`` or ``test``; ``level`` (1, 2, 3 or
``none``; omitted: no filter) only ever narrows a split, so a curriculum from level 1 to 3
never reaches a test task. The holdout decides what ``test`` holds:

- ``task`` (default): a task is in ``test`` when a keyed hash of its id falls in the bottom
  :data:`TEST_SHARE` percent, so a task never changes side as sites gain tasks;
- ``template``: ``max(1, round(0.2 n))`` of each site's ``n`` templates, chosen by a keyed
  hash, hold every task of theirs in ``test`` and none in ``train``
  (:func:`held_out_templates`; ``webmdp rl splits --holdout template`` prints the list). A
  template's variants (``review_extract:mixed``, another answer type of ``review_extract``)
  are the same template here: they go to the same side;
- ``site:NAME``: every task of site NAME in ``test`` (leave one site out); a cross-site task
  that touches NAME goes to ``test`` too.

A site's pool is its built-in tasks and the difficulty dial's level-1 tasks of that site
(``SITE_L1_NNNN``, :mod:`webmdp.tasks.dial`, from every stream segment but the last:
:func:`~webmdp.tasks.dial.pool_candidates`): level 1 holds few built-in tasks (23 of 1,800),
so the dial's worlds fill it. Both are assigned by the same rule. :data:`SPLIT_VERSION`
changes whenever that rule does, and every dataset row and run names it.

In the tasks layer, beside the one selection (:mod:`webmdp.tasks.select`), so every front
door (``webmdp run --split``, the trainer integrations of :mod:`webmdp.rl`, the dataset rows)
reads the same splits. Tasks come from :mod:`webmdp.tasks.sources` (the generators' disk
cache); a catalog builds nothing until a split is first read, so constructing an environment
is cheap.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from webmdp.errors import unknown_choice
from webmdp.tasks import sources
from webmdp.tasks.model import Task

ALL = "all"
CROSS = "cross-site"
BUILTIN, GRID = "builtin", "grid"
SUITES = (BUILTIN, CROSS, GRID)
TRAIN, TEST = "train", "test"
SPLITS = (TRAIN, TEST)
FILE = "file"
LEVELS: tuple[int | str, ...] = (1, 2, 3, "none")
SPLIT_VERSION = "2"
"""Changes whenever the assignment rule changes (1: task-id hash only, dial tasks in no
split; 2: holdouts by task, template and site, dial tasks assigned)."""
TEST_SHARE = 20
"""Percent of tasks (``task``) or of a site's templates (``template``) in ``test``."""
_SALT = b"webmdp-rl-split-v1"
_TEMPLATE_SALT = b"webmdp-rl-holdout-template-v1"
_OLD = ("level-1", "level-2", "level-3", "level-none")


def split_of(task_id: str) -> str:
    """``train`` or ``test`` of a task id under the ``task`` holdout: a fixed, keyed hash."""
    h = hashlib.blake2b(task_id.encode(), digest_size=8, key=_SALT).digest()
    return TEST if int.from_bytes(h, "big") % 100 < TEST_SHARE else TRAIN


def level_of(task: Task) -> int | None:
    """The task's stored measured level, 1-3; None for ``none`` (no level fits its
    difficulty vector) or never measured."""
    level = None if task.difficulty is None else task.difficulty.level
    return level if isinstance(level, int) else None


def parse_level(level: int | str | None) -> int | str | None:
    """``1``-``3`` (int or digit), ``none``, or None (no filter); else ValueError."""
    if level is None or level == "":
        return None
    if isinstance(level, str) and level.strip().isdigit():
        level = int(level)
    if isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: valid levels are 1, 2, 3 and none")
    return level


def default_split(split: str | None, tasks_file: object) -> str:
    """The split a selection reads when none is named: a task file's own tasks (``file``)
    when one is given, else ``train``."""
    return split or (FILE if tasks_file else TRAIN)


def check_split(split: str, allowed: Sequence[str]) -> None:
    """Refuse an unknown split; the old level names say the new form in one line."""
    if split in _OLD:
        lvl = split.removeprefix("level-")
        shown = lvl if lvl == "none" else int(lvl)
        raise ValueError(f"split {split!r} is gone: a level narrows a split, e.g. "
                         f"--split train --level {lvl} (split='train', level={shown!r})")
    if split not in allowed:
        raise unknown("split", split, allowed)


@dataclass(frozen=True)
class Holdout:
    """What ``test`` holds out: ``task`` ids, whole ``template`` s, or one ``site``."""

    kind: str = "task"
    site: str | None = None

    @classmethod
    def parse(cls, text: str | Holdout | None) -> Holdout:
        if isinstance(text, Holdout):
            return text
        if text is None or text == "task":
            return cls()
        if text == "template":
            return cls("template")
        if text.startswith("site:"):
            from webmdp.core.registry import site_names

            name = text.removeprefix("site:")
            if name not in site_names(plugins=True):
                raise unknown("holdout site", name, site_names(plugins=True))
            return cls("site", name)
        raise ValueError(f"unknown holdout {text!r}: use task, template or site:NAME "
                         "(e.g. site:shopping)")

    def __str__(self) -> str:
        return f"site:{self.site}" if self.kind == "site" else self.kind


def sites_touched(task: Task) -> list[str]:
    """A task's sites: its own, or a cross-site task's sites."""
    return list(task.sites) if task.sites else [task.site]


def base_template(task: Task) -> str:
    """The task's template without its variant (``review_extract:mixed`` -> ``review_extract``)."""
    return task.template.split(":", 1)[0]


def held_out_templates(tasks: Iterable[Task]) -> dict[str, list[str]]:
    """Per site (``cross-site`` is one), the templates the ``template`` holdout puts in
    ``test``: ``max(1, round(0.2 n))`` of its ``n`` templates with tasks (variants counted
    with their template), lowest keyed hash first; sorted by name."""
    by_site: dict[str, set[str]] = {}
    for t in tasks:
        by_site.setdefault(t.site, set()).add(base_template(t))
    out = {}
    for site, names in sorted(by_site.items()):
        k = max(1, round(TEST_SHARE / 100 * len(names)))
        ranked = sorted(names, key=lambda n, s=site: _template_hash(s, n))  # type: ignore[misc]
        out[site] = sorted(ranked[:k])
    return out


def _template_hash(site: str, template: str) -> bytes:
    return hashlib.blake2b(f"{site}/{template}".encode(), digest_size=8,
                           key=_TEMPLATE_SALT).digest()


def assign(task: Task, holdout: Holdout, held: dict[str, list[str]] | None = None) -> str:
    """``train`` or ``test`` of ``task`` under ``holdout``; ``held``: the held-out templates
    for ``template`` (default: those of the task's own pool, :func:`held_for`)."""
    if holdout.kind == "site":
        return TEST if holdout.site in sites_touched(task) else TRAIN
    if holdout.kind == "template":
        if held is None:
            held = held_for(CROSS if task.sites else task.site)
        return TEST if base_template(task) in held.get(task.site, ()) else TRAIN
    return split_of(task.id)


@cache
def held_for(site: str) -> dict[str, list[str]]:
    """The held-out templates of one site's pool (``cross-site``: the cross-site suite's)."""
    return held_out_templates(sources.cross_tasks() if site == CROSS
                              else sources.pool((site,)))


def site_pool(sites: Sequence[str]) -> Sequence[Task]:
    """The pool the splits of ``sites`` partition: each site's built-in tasks, then the
    dial's level-1 tasks of that site."""
    return sources.pool(tuple(sites))


@cache
def _file_tasks(path: str) -> tuple[Task, ...]:
    """A task file's tasks; a task whose id is a built-in task's with other content is
    refused (ValueError naming the file, line and id), so a file never shadows silently."""
    from webmdp.errors import ConfigError
    from webmdp.tasks.io import read_checked

    try:
        numbered = read_checked(path)
    except ConfigError as exc:  # what trainers and OpenEnv's task API expect of bad input
        raise ValueError(str(exc)) from None
    for lineno, task in numbered:
        builtin = sources.builtin_twin(task)
        if builtin is not None and builtin != task:
            raise ValueError(f"{path}:{lineno}: task id {task.id!r} is a built-in task's id, "
                             "with different content; give the file's task an id of its own")
    return tuple(t for _, t in numbered)



def site_choices() -> list[str]:
    """What ``site=`` accepts: every registered site, ``all`` and ``cross-site``."""
    from webmdp.core.registry import site_names

    return [*site_names(plugins=True), ALL, CROSS]


@dataclass(frozen=True)
class Catalog:
    """The tasks of one scope: a site, every site (``all``) or the cross-site suite, split into
    ``train`` and ``test`` by ``holdout``, plus the sources ``cross-site`` (with ``all``) and
    ``file`` (a task file). Order is stable: sites by name, tasks by index."""

    site: str = ALL
    tasks_file: str | None = None
    holdout: Holdout = field(default_factory=Holdout)
    suite: str = BUILTIN
    """``builtin`` (the sites' tasks and the dial's level-1 tasks), ``cross-site`` (the same
    as ``site="cross-site"``, which still works) or ``grid`` (:mod:`webmdp.forge.grid`)."""
    _by_id: dict[str, Task] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.site not in site_choices():
            raise unknown("site", self.site, site_choices())
        if self.suite not in SUITES:
            raise unknown("suite", self.suite, SUITES)
        if self.suite == CROSS:
            if self.site not in (ALL, CROSS):
                raise ValueError(f"suite cross-site holds the cross-site tasks; site "
                                 f"{self.site!r} is one site's: use suite builtin or grid")
            object.__setattr__(self, "site", CROSS)
        if self.suite == GRID and self.site == CROSS:
            raise ValueError("the grid suite holds single-site tasks; give a site or 'all'")
        object.__setattr__(self, "holdout", Holdout.parse(self.holdout))

    def splits(self) -> list[str]:
        return [TRAIN, TEST, *([CROSS] if self.site in (ALL, CROSS) and self.suite != GRID
                               else []),
                *([FILE] if self.tasks_file else [])]

    def tasks(self, split: str, level: int | str | None = None) -> Sequence[Task]:
        """The tasks of ``split`` (narrowed to ``level``) in their fixed order; an unknown
        split or level raises ValueError."""
        check_split(split, self.splits())
        return _split_tasks(self.site, self.tasks_file, self.holdout, split, parse_level(level),
                            self.suite)

    def held_out(self) -> dict[str, list[str]]:
        """``template``: the held-out templates per site of this scope; else empty."""
        if self.holdout.kind != "template":
            return {}
        return held_out_templates(self.pool())

    def pool(self) -> Sequence[Task]:
        """Every task of the scope's suite (``train`` and ``test`` together)."""
        return _scope_pool(self.site, self.suite)

    def task(self, task_id: str) -> Task:
        """A task by id: the task file's first, then the scope's own (a cross-site id: the
        cross-site suite's); an unknown id raises ValueError."""
        for found in self._sources(task_id):
            if task_id in self._by_id:
                break
            self._by_id.update({t.id: t for t in found() if t.id not in self._by_id})
        if task_id not in self._by_id:
            raise unknown("task id", task_id, [*list(self._by_id)[:3], "..."])
        return self._by_id[task_id]

    def _sources(self, task_id: str) -> list[Callable[[], Sequence[Task]]]:
        """Where an id is looked up, in order; a site's id never builds the cross-site
        suite, nor a cross-site id a site's pool."""
        out: list[Callable[[], Sequence[Task]]] = []
        if self.tasks_file:
            out.append(lambda: self.tasks(FILE))
        if _is_cross_id(task_id):
            if self.site in (ALL, CROSS):
                out.append(sources.cross_tasks)
        elif self.site != CROSS:
            own = _site_of_id(task_id)
            if own is not None and self.site in (ALL, own):  # read (or build) its set first
                dial = task_id.startswith(f"{own}_L1_")
                out.append(lambda: sources.grid_tasks(own) if self.suite == GRID else
                           sources.dial_tasks(own) if dial else sources.site_tasks(own))
            out.append(self.pool)
        return out


def _site_of_id(task_id: str) -> str | None:
    """The registered site whose name prefixes ``task_id`` (``shopping_0001``), if any."""
    from webmdp.core.registry import site_names

    named = [s for s in site_names() if task_id.startswith(f"{s}_")]
    return max(named, key=len) if named else None


def _is_cross_id(task_id: str) -> bool:
    return task_id.startswith(CROSS + "_")


def _scope_pool(site: str, suite: str = "builtin") -> Sequence[Task]:
    if site == CROSS:
        return sources.cross_tasks()
    from webmdp.core.registry import site_names

    sites = tuple(site_names()) if site == ALL else (site,)
    if suite == GRID:
        return tuple(t for s in sites for t in sources.grid_tasks(s))
    return sources.pool(sites)


@cache
def _split_tasks(site: str, tasks_file: str | None, holdout: Holdout, split: str,
                 level: int | str | None, suite: str = "builtin") -> tuple[Task, ...]:
    if split == FILE:
        assert tasks_file is not None
        chosen: Iterable[Task] = _file_tasks(tasks_file)
    elif split == CROSS:
        chosen = sources.cross_tasks()
    else:
        pool = _scope_pool(site, suite)
        held = held_out_templates(pool) if holdout.kind == "template" else None
        chosen = (t for t in pool if assign(t, holdout, held) == split)
    if level is None:
        return tuple(chosen)
    want = None if level == "none" else level
    return tuple(t for t in chosen if level_of(t) == want)


def unknown(kind: str, value: str, choices: Sequence[str]) -> ValueError:
    """The project's one-line unknown-choice message as a ValueError, which is what OpenEnv's
    task API and trainers expect of a bad argument."""
    return ValueError(str(unknown_choice(kind, value, list(choices))))


def task_spec(task: Task, split: str, index: int) -> dict[str, Any]:
    """What the task API shows of a task: where it is and what it asks, never its goal
    (verifier, target, answer, oracle)."""
    return {"id": task.id, "split": split, "index": index, "site": task.site,
            "template": task.template, "instruction": task.instruction,
            "level": level_of(task), "domain": task.domain}


def resolve_path(path: str | Path | None) -> str | None:
    """A task file's absolute path (the cache key), or None."""
    return None if path is None else str(Path(path).resolve())


def counts(catalog: Catalog) -> list[dict[str, Any]]:
    """One row per (split, level, site) of the catalog's ``train`` and ``test``: the table
    ``webmdp rl splits`` prints."""
    rows: dict[tuple[str, str, str], int] = {}
    for split in SPLITS:
        for t in catalog.tasks(split):
            lvl = level_of(t)
            key = (split, "none" if lvl is None else str(lvl), t.site)
            rows[key] = rows.get(key, 0) + 1
    return [{"split": s, "level": lvl, "site": site, "tasks": n}
            for (s, lvl, site), n in sorted(rows.items())]
