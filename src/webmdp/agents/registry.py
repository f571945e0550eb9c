"""Agents registered by name with lazy ``module:attr`` entry points."""

from __future__ import annotations

import importlib
from typing import Any

from webmdp.agents.base import Agent
from webmdp.errors import unknown_choice

_AGENTS: dict[str, str] = {
    "oracle": "webmdp.agents.builtin:OracleAgent",
    "random": "webmdp.agents.builtin:RandomAgent",
    "greedy": "webmdp.agents.builtin:GreedyAgent",
}


def register_agent(name: str, entry_point: str) -> None:
    _AGENTS[name] = entry_point


def agent_names() -> list[str]:
    return sorted(_AGENTS)


def make_agent(name: str, **kwargs: Any) -> Agent:
    if name not in _AGENTS:
        raise unknown_choice("agent", name, agent_names())
    module, attr = _AGENTS[name].split(":")
    return getattr(importlib.import_module(module), attr)(**kwargs)
