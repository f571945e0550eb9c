"""Run one episode of an agent in an env; faults end up in the trace, never as a lost result."""

from __future__ import annotations

import time
from typing import Any

from webmdp.agents.base import Agent
from webmdp.errors import InfrastructureError
from webmdp.trace import EpisodeTrace


def run_episode(env: Any, agent: Agent) -> EpisodeTrace:
    """reset, then act/step until terminated or truncated.

    An infrastructure fault (browser crash or hang, server error) seals the episode as
    ``infra_error`` with its cause; an exception inside the agent as ``agent_error``.
    """
    try:
        obs, _ = env.reset()
    except InfrastructureError as exc:
        return _failed(env, f"{type(exc).__name__}: {exc}")
    agent.reset(env.task, env.mode)
    while True:
        t0 = time.perf_counter()
        try:
            out = agent.act(obs)
        except Exception as exc:
            return _seal(env, "agent_error", f"agent raised {type(exc).__name__}: {exc}")
        agent_s = time.perf_counter() - t0
        try:
            if env.mode == "browser":
                obs, _, term, trunc, _ = env.step(out.action, raw_output=out.raw, agent_s=agent_s)
            else:
                obs, _, term, trunc, _ = env.step(out.action, raw_output=out.raw)
        except InfrastructureError as exc:
            return _failed(env, f"{type(exc).__name__}: {exc}")
        if term or trunc:
            return env.trace


def _failed(env: Any, cause: str) -> EpisodeTrace:
    if env.episode is None:
        from webmdp.env.episode import Episode

        env.episode = Episode(env.task, agent=env.agent, mode=env.mode, step_budget=0)
    if hasattr(env, "abort"):
        return env.abort(cause)
    return env.episode.close({}, termination="infra_error", infra_error=cause)


def _seal(env: Any, termination: Any, cause: str) -> EpisodeTrace:
    facts: dict[str, Any] = {}
    if hasattr(env, "tracker") and env.tracker is not None:
        facts = env.site.facts(env.tracker.state)
    return env.episode.close(facts, termination=termination, agent_error=cause)
