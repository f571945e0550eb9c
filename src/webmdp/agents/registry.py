"""The agent registry (a :class:`webmdp.plugins.Registry`, group ``webmdp.agents``): built-in
agents by name, installed packages' agents through entry points, and any importable
``module:attr`` given as a name (which worker processes import by themselves)."""

from __future__ import annotations

import importlib
from typing import Any

from webmdp.agents.base import Agent
from webmdp.errors import ConfigError
from webmdp.plugins import Registry

AGENTS: Registry[Any] = Registry("agent", "webmdp.agents", {
    "oracle": "webmdp.agents.builtin:OracleAgent",
    "random": "webmdp.agents.builtin:RandomAgent",
    "greedy": "webmdp.agents.builtin:GreedyAgent",
    "pixel": "webmdp.agents.pixel:PixelAgent",
    "axtext": "webmdp.agents.pixel:AxTextAgent",
    "step": "webmdp.agents.llm:StepAgent",
    "plan": "webmdp.agents.llm:PlanAgent",
    "tree": "webmdp.agents.llm:TreeAgent",
})
READS_TASK = {
    "oracle": "the task's oracle trajectory and answer",
    "pixel": "the task's oracle (navigation, commit), target and hard negatives",
    "axtext": "the task's oracle (navigation, commit), target and hard negatives",
}
"""Built-in agents that read what an agent is not shown (they prove tasks solvable; they are
not baselines), and what they read. ``greedy`` and ``random`` decide from the instruction and
the observations alone."""
MODEL_AGENTS = ("step", "plan", "tree")
"""Agents driven by a model: they need ``config=ModelAgentConfig(model=...)``."""


def register_agent(name: str, entry_point: str) -> None:
    """Register an agent class by ``"module:attr"``, in this process and the processes it
    starts; an installed package declares an entry point in group ``webmdp.agents`` instead."""
    AGENTS.register(name, entry_point)


def agent_names() -> list[str]:
    return AGENTS.names()


def make_agent(name: str, **kwargs: Any) -> Agent:
    """An agent by registered name, or by ``module:attr`` (which worker processes can import
    by themselves). A plugin agent gets ``config`` only when one was given."""
    if ":" in name and name not in AGENTS:
        module, attr = name.split(":", 1)
        if kwargs.get("config") is None:
            kwargs.pop("config", None)
        try:
            return getattr(importlib.import_module(module), attr)(**kwargs)  # type: ignore[no-any-return]
        except (ImportError, AttributeError) as exc:
            raise ConfigError(f"cannot load agent {name}: {exc}") from exc
    entry = AGENTS.entry(name)  # an unknown name is refused here, naming the choices
    if name in MODEL_AGENTS and kwargs.get("config") is None:
        raise ConfigError(f"agent '{name}' is driven by a model: give --model PROVIDER/MODEL "
                          "(e.g. openai/gpt-4o, vllm/ByteDance-Seed/UI-TARS-1.5-7B)")
    if name not in MODEL_AGENTS and (entry.builtin or kwargs.get("config") is None):
        kwargs.pop("config", None)
    return AGENTS.load(name)(**kwargs)  # type: ignore[no-any-return]
