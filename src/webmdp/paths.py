"""Names that become paths, and the one door for every path under a user-given root.

A task id, an agent label, a site or template name becomes a file or directory name (a trace
is ``RUN/episodes/<agent>/<mode>/<task_id>.json``), so a task file that says
``"id": "../../pwned"`` must never write outside the run. Two layers:

- :func:`check_name` validates every such name where it enters (a task file, a bundle, a
  rubric file, a command-line option): ``[A-Za-z0-9][A-Za-z0-9_.:@-]*`` with no ``..``
  anywhere, at most :data:`MAX_NAME` characters. A name webmdp builds itself
  (``<agent>@s<seed>``, a model agent's label) is made to match with :func:`safe_label`.
- :func:`under` builds a path below a root and refuses any result outside it, symlinks
  included (defence in depth: validation comes first).
"""

from __future__ import annotations

import re
from pathlib import Path

from webmdp.errors import ConfigError

NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.:@-]*"
MAX_NAME = 128
"""The longest name: it becomes a file name (with a suffix) in a run, far below the file
system's 255 bytes, so a long id fails when it is read, not after a run has started."""
_NAME = re.compile(NAME_PATTERN + r"\Z")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.:@-]")


class UnsafeName(ConfigError, ValueError):
    """A name that would become a path is not a plain name."""


class PathEscape(ConfigError):
    """A path would leave the root it must stay under."""


def name_problem(value: object) -> str | None:
    """Why ``value`` is not a safe name, or None."""
    if not isinstance(value, str):
        return f"a name is a string, not {type(value).__name__}"
    if not _NAME.match(value):
        return (f"{value[:80]!r} is not a plain name (letters, digits and _ . : @ -, starting "
                "with a letter or digit)")
    if ".." in value:
        return f"{value[:80]!r} contains '..'"
    if len(value) > MAX_NAME:
        return f"{value[:40]!r}... is {len(value)} characters, at most {MAX_NAME}"
    return None


def check_name(value: str, field: str = "name") -> str:
    """``value`` if it is a safe name, else :class:`UnsafeName` naming ``field``."""
    problem = name_problem(value)
    if problem is not None:
        raise UnsafeName(f"{field}: {problem}")
    return value


def valid_name(value: str) -> str:
    """A pydantic ``AfterValidator``: the field name comes from pydantic's error location."""
    problem = name_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def template_problem(value: object) -> str | None:
    """Why ``value`` is not a template name, or None: a plain name, or CAP's DAG pattern
    names, which join two shapes with ``+`` (``chain+fan-out``: published names, kept)."""
    if not isinstance(value, str):
        return name_problem(value)
    problem = name_problem(value.replace("+", "_"))
    return None if problem is None else problem.replace(value.replace("+", "_"), value)


def valid_template(value: str) -> str:
    """A pydantic ``AfterValidator`` for a template name (:func:`template_problem`)."""
    problem = template_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def safe_label(text: str) -> str:
    """A label webmdp builds from free text (a model id), made a safe name: other characters
    become ``_`` and ``..`` becomes ``_``."""
    out = _UNSAFE.sub("_", text)
    while ".." in out:
        out = out.replace("..", "_")
    if not out or not out[0].isalnum():
        out = "x" + out
    return out[:MAX_NAME]


def under(root: Path | str, *parts: str) -> Path:
    """``root / parts``, refused (:class:`PathEscape`) when it resolves outside ``root``,
    through ``..``, an absolute part or a symlink. The path is returned as given (not
    resolved), so messages keep the user's spelling."""
    root = Path(root)
    path = root.joinpath(*parts)
    base = root.resolve()
    real = path.resolve()
    if real != base and base not in real.parents:
        raise PathEscape(f"{path}: outside {root}; refused")
    return path
