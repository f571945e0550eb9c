"""Shared fixtures: generated tasks, one real server and one real Chromium per test session."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest

from webmdp.env.chromium import BrowserHost
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site
from webmdp.tasks import Task, generate_site_tasks


@cache
def site_tasks(site: str) -> list[Task]:
    return generate_site_tasks(get_site(site))


@pytest.fixture(scope="session")
def shopping_tasks() -> list[Task]:
    return site_tasks("shopping")


@pytest.fixture(scope="session")
def mail_tasks() -> list[Task]:
    return site_tasks("mail")


@pytest.fixture(scope="session")
def server() -> Iterator[ServerHandle]:
    with ServerHandle() as srv:
        yield srv


@pytest.fixture(scope="session")
def host() -> Iterator[BrowserHost]:
    with BrowserHost() as h:
        yield h
