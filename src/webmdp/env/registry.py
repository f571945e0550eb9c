"""Environments made by id: ``webmdp.make("shopping/find_product_extract-v1", index=0)``.

Ids are ``<site>-v1`` (any task of the site) and ``<site>/<template>-v1``; the environment class
is chosen by ``mode`` through lazy ``module:attr`` entry points.
"""

from __future__ import annotations

from typing import Any

from webmdp.plugins import Registry
from webmdp.tasks.model import Task
from webmdp.tasks.select import env_ids, env_task

__all__ = ["ENTRY_POINTS", "MODES", "env_ids", "make", "resolve_task"]

ENTRY_POINTS = {
    "semantic": "webmdp.env.semantic:SemanticEnv",
    "browser": "webmdp.env.browser:BrowserEnv",
}
MODES: Registry[Any] = Registry("mode", None, ENTRY_POINTS)
"""The environment class of each mode (a registry without an entry-point group: the two modes
are the MDP and its GUI, not something a package adds)."""


def resolve_task(env_id: str, *, index: int = 0, task_id: str | None = None,
                 suite: str = "builtin") -> Task:
    """The task an env id names (:func:`webmdp.tasks.select.env_task`, the one selection)."""
    return env_task(env_id, index=index, task_id=task_id, suite=suite)


def make(env_id: str, *, mode: str = "semantic", index: int = 0, task_id: str | None = None,
         suite: str = "builtin", **kwargs: Any) -> Any:
    """Build a :class:`SemanticEnv` or :class:`BrowserEnv` for the task an id names (with
    ``suite="grid"``, the ``index``-th of the site's grid tasks)."""
    MODES.entry(mode)  # an unknown mode is refused before the task is built
    task = resolve_task(env_id, index=index, task_id=task_id, suite=suite)
    return MODES.load(mode)(task, **kwargs)
