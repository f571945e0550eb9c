"""Shared fixtures: generated tasks, one real server and one real Chromium per test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support import site_tasks
from webmdp.env.chromium import BrowserHost
from webmdp.server.runner import ServerHandle
from webmdp.tasks import Task


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
