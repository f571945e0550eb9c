"""Shared fixtures for the RL adapters: one environment per scope, one real server."""

from __future__ import annotations

import pytest

from webmdp.rl.openenv import WebMDPEnvironment


@pytest.fixture(scope="module")
def shopping_env() -> WebMDPEnvironment:
    return WebMDPEnvironment("shopping")
