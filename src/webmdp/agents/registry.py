"""Agents registered by name with lazy ``module:attr`` entry points."""

from __future__ import annotations

import importlib
from typing import Any

from webmdp.agents.base import Agent
from webmdp.errors import ConfigError, unknown_choice

_AGENTS: dict[str, str] = {
    "oracle": "webmdp.agents.builtin:OracleAgent",
    "random": "webmdp.agents.builtin:RandomAgent",
    "greedy": "webmdp.agents.builtin:GreedyAgent",
    "pixel": "webmdp.agents.pixel:PixelAgent",
    "axtext": "webmdp.agents.pixel:AxTextAgent",
    "step": "webmdp.agents.llm:StepAgent",
    "plan": "webmdp.agents.llm:PlanAgent",
    "tree": "webmdp.agents.llm:TreeAgent",
}
MODEL_AGENTS = ("step", "plan", "tree")
"""Agents driven by a model: they need ``config=ModelAgentConfig(model=...)``."""


def register_agent(name: str, entry_point: str) -> None:
    _AGENTS[name] = entry_point


def agent_names() -> list[str]:
    return sorted(_AGENTS)


def make_agent(name: str, **kwargs: Any) -> Agent:
    """An agent by registered name, or by ``module:attr`` (which worker processes can import
    by themselves: an agent registered in the parent process is unknown to them)."""
    if ":" in name and name not in _AGENTS:
        module, attr = name.split(":", 1)
        if kwargs.get("config") is None:
            kwargs.pop("config", None)
        try:
            return getattr(importlib.import_module(module), attr)(**kwargs)
        except (ImportError, AttributeError) as exc:
            raise ConfigError(f"cannot load agent {name}: {exc}") from exc
    if name not in _AGENTS:
        raise unknown_choice("agent", name, agent_names())
    if name in MODEL_AGENTS and kwargs.get("config") is None:
        raise ConfigError(f"agent '{name}' is driven by a model: give --model PROVIDER/MODEL "
                          "(e.g. openai/gpt-4o, vllm/ByteDance-Seed/UI-TARS-1.5-7B)")
    if name not in MODEL_AGENTS:
        kwargs.pop("config", None)
    module, attr = _AGENTS[name].split(":")
    return getattr(importlib.import_module(module), attr)(**kwargs)
