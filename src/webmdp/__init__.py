"""webmdp: process-level evaluation of web agents on deterministic semantic-MDP websites.

``__all__`` is the public API: what a user (a script, a notebook, a plugin package) may import
from ``webmdp`` and rely on across versions of the plugin interface (:data:`PLUGIN_API`).
Everything else is internal. Names are imported on first use, so ``import webmdp`` stays
light (a semantic run never imports the browser, the server or pandas).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from webmdp.plugins import PLUGIN_API
from webmdp.version import __version__

_EXPORTS: dict[str, str] = {
    # environments and tasks
    "make": "webmdp.env.registry", "env_ids": "webmdp.env.registry",
    "Task": "webmdp.tasks.model", "Condition": "webmdp.tasks.model",
    "TaskTemplate": "webmdp.tasks.template", "Draft": "webmdp.tasks.template",
    "verify": "webmdp.tasks.verifier", "select_tasks": "webmdp.tasks.select",
    # running
    "run_tasks": "webmdp.runner.local", "RunConfig": "webmdp.runner.local",
    "EpisodeTrace": "webmdp.trace",
    # the site toolkit
    "Site": "webmdp.core.site", "ModularSite": "webmdp.sites.toolkit",
    "SiteLogic": "webmdp.sites.toolkit", "BrowseState": "webmdp.sites.toolkit",
    "Catalog": "webmdp.sites.toolkit", "Facet": "webmdp.sites.toolkit",
    "Sort": "webmdp.sites.toolkit", "FindTemplate": "webmdp.sites.toolkit",
    "declare_action": "webmdp.core.spec", "Action": "webmdp.core.spec",
    "ActionSpec": "webmdp.core.spec", "ParamSpec": "webmdp.core.spec",
    "SurfaceKind": "webmdp.core.spec", "SkillCategory": "webmdp.core.spec",
    "State": "webmdp.core.model", "World": "webmdp.core.model",
    "WorldSpec": "webmdp.core.model", "Observation": "webmdp.core.model",
    # registries
    "Registry": "webmdp.plugins", "PluginError": "webmdp.plugins",
    "SITES": "webmdp.core.registry", "get_site": "webmdp.core.registry",
    "site_names": "webmdp.core.registry", "register_site": "webmdp.core.registry",
    "AGENTS": "webmdp.agents.registry", "make_agent": "webmdp.agents.registry",
    "agent_names": "webmdp.agents.registry", "register_agent": "webmdp.agents.registry",
    "GRAMMARS": "webmdp.agents.llm.grammars", "GrammarInfo": "webmdp.agents.llm.grammars",
    "PROVIDERS": "webmdp.agents.llm.clients", "Provider": "webmdp.agents.llm.clients",
    # agents
    "Agent": "webmdp.agents.base", "AgentOutput": "webmdp.agents.base",
    "PlanningAgent": "webmdp.agents.builtin",
    "SemanticView": "webmdp.agents.base",
    # metrics
    "episode_metrics": "webmdp.eval.metrics", "EpisodeMetrics": "webmdp.eval.metrics",
    "aggregate": "webmdp.eval.aggregate", "load_run": "webmdp.eval.load",
    # errors
    "WebMDPError": "webmdp.errors", "ConfigError": "webmdp.errors",
}

__all__ = ["AGENTS", "GRAMMARS", "PLUGIN_API", "PROVIDERS", "SITES", "Action", "ActionSpec",
           "Agent", "AgentOutput", "BrowseState", "Catalog", "Condition", "ConfigError", "Draft",
           "EpisodeMetrics", "EpisodeTrace", "Facet", "FindTemplate", "GrammarInfo",
           "ModularSite", "Observation", "ParamSpec", "PlanningAgent", "PluginError", "Provider",
           "Registry", "RunConfig", "SemanticView", "Site", "SiteLogic", "SkillCategory", "Sort",
           "State", "SurfaceKind", "Task", "TaskTemplate", "WebMDPError", "World", "WorldSpec",
           "__version__", "agent_names", "aggregate", "declare_action", "env_ids",
           "episode_metrics", "get_site", "load_run", "make", "make_agent", "register_agent",
           "register_site", "run_tasks", "select_tasks", "site_names", "verify"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'webmdp' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if TYPE_CHECKING:
    from webmdp.agents.base import Agent, AgentOutput, SemanticView
    from webmdp.agents.builtin import PlanningAgent
    from webmdp.agents.llm.clients import PROVIDERS, Provider
    from webmdp.agents.llm.grammars import GRAMMARS, GrammarInfo
    from webmdp.agents.registry import AGENTS, agent_names, make_agent, register_agent
    from webmdp.core.model import Observation, State, World, WorldSpec
    from webmdp.core.registry import SITES, get_site, register_site, site_names
    from webmdp.core.site import Site
    from webmdp.core.spec import (
        Action,
        ActionSpec,
        ParamSpec,
        SkillCategory,
        SurfaceKind,
        declare_action,
    )
    from webmdp.env.registry import env_ids, make
    from webmdp.errors import ConfigError, WebMDPError
    from webmdp.eval.aggregate import aggregate
    from webmdp.eval.load import load_run
    from webmdp.eval.metrics import EpisodeMetrics, episode_metrics
    from webmdp.plugins import PluginError, Registry
    from webmdp.runner.local import RunConfig, run_tasks
    from webmdp.sites.toolkit import (
        BrowseState,
        Catalog,
        Facet,
        FindTemplate,
        ModularSite,
        SiteLogic,
        Sort,
    )
    from webmdp.tasks.model import Condition, Task
    from webmdp.tasks.select import select_tasks
    from webmdp.tasks.template import Draft, TaskTemplate
    from webmdp.tasks.verifier import verify
    from webmdp.trace import EpisodeTrace
