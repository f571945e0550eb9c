"""Environments made by id: ``webmdp.make("shopping/find_product_extract-v1", index=0)``.

Ids are ``<site>-v1`` (any task of the site) and ``<site>/<template>-v1``; the environment class
is chosen by ``mode`` through lazy ``module:attr`` entry points.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from webmdp.errors import unknown_choice
from webmdp.sites import get_site, site_names
from webmdp.tasks.dial import is_dial_id, resolve
from webmdp.tasks.generate import make_task, plan
from webmdp.tasks.model import Task

ENTRY_POINTS = {
    "semantic": "webmdp.env.semantic:SemanticEnv",
    "browser": "webmdp.env.browser:BrowserEnv",
}
_ID = re.compile(r"^(?P<site>[a-z_]+)(?:/(?P<template>[a-z_]+))?-v(?P<version>\d+)$")


def env_ids() -> list[str]:
    out = []
    for name in site_names():
        out.append(f"{name}-v1")
        out += [f"{name}/{t}-v1" for t in get_site(name).templates]
    return out


def resolve_task(env_id: str, *, index: int = 0, task_id: str | None = None) -> Task:
    """The task an env id names: the ``index``-th task of the site (or template), or
    ``task_id`` (a built-in id, or a dial name, :mod:`webmdp.tasks.dial`)."""
    m = _ID.match(env_id)
    if not m or m["version"] != "1":
        raise unknown_choice("environment id", env_id, env_ids())
    site = get_site(m["site"])
    entries = [e for e in plan(site) if m["template"] in (None, e[1])]
    if m["template"] and not entries:
        raise unknown_choice("template", m["template"], list(site.templates))
    if task_id is not None and is_dial_id(task_id):  # a dial-made task: shopping_L3_0007
        task = resolve(task_id)
        if task.site != site.name or m["template"] not in (None, task.template):
            raise unknown_choice("task id", task_id, [f"{site.name}_L3_0000", "..."])
        return task
    if task_id is not None:
        entries = [e for e in entries if f"{site.name}_{e[0]:04d}" == task_id]
        if not entries:
            raise unknown_choice("task id", task_id, [f"{site.name}_0000", "..."])
        index = 0
    if not 0 <= index < len(entries):
        raise unknown_choice("task index", str(index), [f"0..{len(entries) - 1}"])
    i, template, hn = entries[index]
    return make_task(site, i, template, hn)


def make(env_id: str, *, mode: str = "semantic", index: int = 0, task_id: str | None = None,
         **kwargs: Any) -> Any:
    """Build a :class:`SemanticEnv` or :class:`BrowserEnv` for the task an id names."""
    if mode not in ENTRY_POINTS:
        raise unknown_choice("mode", mode, list(ENTRY_POINTS))
    task = resolve_task(env_id, index=index, task_id=task_id)
    module, attr = ENTRY_POINTS[mode].split(":")
    return getattr(importlib.import_module(module), attr)(task, **kwargs)
