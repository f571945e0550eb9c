"""Task files: JSONL, one Task per line, with errors that name file, line and field."""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from webmdp.errors import ConfigError, TaskFileError
from webmdp.tasks.model import Task


def write_tasks(path: str | Path, tasks: Iterable[Task]) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("w") as fh:
        for t in tasks:
            fh.write(t.model_dump_json() + "\n")
    tmp.replace(path)


@contextmanager
def paused_gc(*, keep: bool = False) -> Iterator[None]:
    """The cyclic garbage collector off while a task set's worlds are built. A set is millions
    of small acyclic objects (dicts, lists, strings) that live as long as the set: each full
    collection walks them all again, which made parsing 1,800 tasks take 3-5x longer.
    ``keep``: what the block built lives as long as the process (a task set read from the
    cache), so it is moved out of the collector's way for good (``gc.freeze``): the first
    full collection after the block walked it all once more (0.7 s for the built-in sets).
    The objects are acyclic, so reference counting still frees any the process drops."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
        if keep:
            gc.freeze()
    finally:
        if was:
            gc.enable()


def parse_lines(data: bytes) -> Iterator[tuple[int, dict]]:
    """(line number, parsed object) for each non-blank JSONL line; a line that is not JSON
    (or not UTF-8) raises ``orjson.JSONDecodeError`` with ``lineno`` set to its line."""
    for lineno, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield lineno, orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            exc.lineno = lineno
            raise


def read_tasks(path: str | Path) -> list[Task]:
    """Load a JSONL task file; a bad line raises :class:`TaskFileError` (file, line, field).

    Reading parses and validates the file's format only; whether each task's stored difficulty
    is what measuring it gives is ``webmdp tasks check`` (:func:`webmdp.tasks.difficulty.
    disagreements`), which replays every oracle."""
    return [t for _, t in read_numbered(path)]


def read_checked(path: str | Path) -> list[tuple[int, Task]]:
    """:func:`read_numbered`, each task also checked, so a bad task fails here, in one line
    (:class:`~webmdp.errors.ConfigError` naming the file and line), not deep inside a run:
    ids unique in the file; the world's shape every site reads (``site``, ``entities`` with
    ids, ``meta``); the fields its site declares for its entities
    (:mod:`webmdp.core.entities`)."""
    from webmdp.core.entities import world_problem
    from webmdp.core.registry import get_site, site_names

    numbered = read_numbered(path)
    first: dict[str, int] = {}
    for line, t in numbered:
        if t.id in first:
            raise ConfigError(f"{path}:{line}: task id {t.id!r} is also the id of line "
                              f"{first[t.id]}; give each task an id of its own")
        first[t.id] = line
        why = _world_shape(t.world)
        if why:
            raise ConfigError(f"{path}:{line}: world: {why}")
        if not t.sites and t.site in site_names(plugins=True):
            found = world_problem(t.world, get_site(t.site).entity_fields)
            if found is not None:
                raise ConfigError(f"{path}:{line}: world.{found[0]}: {found[1]}")
    return numbered


def _world_shape(world: Any) -> str | None:
    if not isinstance(world.get("site"), str):
        return "needs 'site', a site name"
    entities = world.get("entities")
    if not isinstance(entities, list):
        return "needs 'entities', a list of entities"
    for k, e in enumerate(entities):
        if not isinstance(e, dict) or "id" not in e:
            return f"entities[{k}] is not an entity with an 'id'"
    if not isinstance(world.get("meta") or {}, dict):
        return "'meta' must be an object"
    return None


def read_numbered(path: str | Path) -> list[tuple[int, Task]]:
    """:func:`read_tasks` with each task's line number (for messages that name the line)."""
    path = Path(path)
    if not path.is_file():
        raise TaskFileError(str(path), 0, "-", "no such file")
    out = []
    with paused_gc():
        try:
            for lineno, data in parse_lines(path.read_bytes()):
                out.append((lineno, _task(data, path, lineno)))
        except orjson.JSONDecodeError as exc:
            raise TaskFileError(str(path), exc.lineno, "-", f"invalid JSON ({exc.msg})") from exc
    return out


def _task(data: dict, path: Path, lineno: int) -> Task:
    try:
        return Task.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "-"
        msg = err["msg"].removeprefix("Value error, ")
        raise TaskFileError(str(path), lineno, field, msg) from exc
