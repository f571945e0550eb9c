"""Fixtures: the runs the synth tests share (tests/synth/synth_runs.py), each built once per
session however many pytest-xdist workers use it. They are shared: read them, never write into
them (copy one first)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from synth_runs import build_graded_run, build_recorded_run, build_semantic_run

from support import shared_dir


def _shared_run(factory: pytest.TempPathFactory, name: str,
                build: Callable[[Path], None]) -> Path:
    return shared_dir(factory, name, lambda root: build(root / "run")) / "run"


@pytest.fixture(scope="session")
def graded_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The graded multi-site semantic run of the StepRM tests (:func:`build_graded_run`)."""
    return _shared_run(tmp_path_factory, "graded-run", build_graded_run)


@pytest.fixture(scope="session")
def recorded_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A browser run with screenshots, ungraded (:func:`build_recorded_run`)."""
    return _shared_run(tmp_path_factory, "recorded-run", build_recorded_run)


@pytest.fixture(scope="session")
def semantic_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A semantic run of the oracle, ungraded (:func:`build_semantic_run`)."""
    return _shared_run(tmp_path_factory, "semantic-run", build_semantic_run)
