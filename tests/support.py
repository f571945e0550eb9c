"""Helpers importable from any test module (tests/ is on sys.path via the root conftest)."""

from __future__ import annotations

from functools import cache

from webmdp.sites import get_site
from webmdp.tasks import Task, generate_site_tasks


@cache
def site_tasks(site: str) -> list[Task]:
    """A site's 180 generated tasks, built once per test session."""
    return generate_site_tasks(get_site(site))
