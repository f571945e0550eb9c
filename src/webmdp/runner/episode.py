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
        agent.reset(env.task, env.mode)
        while True:
            t0 = time.perf_counter()
            try:
                out = agent.act(obs)
            except Exception as exc:  # any agent failure is the agent's and is recorded
                return env.seal("agent_error",
                                agent_error=f"agent raised {type(exc).__name__}: {exc}")
            obs, _, term, trunc, _ = env.step(out.action, raw_output=out.raw,
                                              agent_s=time.perf_counter() - t0)
            if term or trunc:
                return env.trace
    except InfrastructureError as exc:
        return env.seal("infra_error", infra_error=f"{type(exc).__name__}: {exc}")
