"""Agents: the protocol, built-in agents and the registry."""

from webmdp.agents.base import Agent, AgentOutput, SemanticView
from webmdp.agents.builtin import GreedyAgent, OracleAgent, RandomAgent
from webmdp.agents.registry import agent_names, make_agent, register_agent

__all__ = ["Agent", "AgentOutput", "GreedyAgent", "OracleAgent", "RandomAgent", "SemanticView",
           "agent_names", "make_agent", "register_agent"]
