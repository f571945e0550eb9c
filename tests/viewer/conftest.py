"""Fixtures: the runs (built once per session, across pytest-xdist workers), their index, a
TestClient and a live server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from viewer_runs import Runs, build, premature_task, run_paths

from support import shared_dir
from webmdp.viewer import RunIndex, ViewerServer, create_app


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    """Built once per session, by whichever pytest-xdist worker asks first; shared, so read
    them, never write into them (copy one first)."""
    root = shared_dir(tmp_path_factory, "viewer-runs", build)
    return Runs(**run_paths(root), premature=premature_task())


@pytest.fixture(scope="session")
def index(runs: Runs) -> RunIndex:
    return RunIndex.load(runs.all)


@pytest.fixture(scope="session")
def client(index: RunIndex) -> Iterator[TestClient]:
    with TestClient(create_app(index)) as c:
        yield c


@pytest.fixture(scope="session")
def live(index: RunIndex) -> Iterator[ViewerServer]:
    """The viewer on a free loopback port, served by uvicorn in a thread."""
    with ViewerServer(create_app(index), port=0) as srv:
        yield srv
