"""Run one episode of an agent in an env; faults end up in the trace, never as a lost result."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from webmdp.agents.base import Agent
from webmdp.errors import InfrastructureError
from webmdp.trace import EpisodeTrace


def run_episode(env: Any, agent: Agent, beat: Callable[[int], None] | None = None
                ) -> EpisodeTrace:
    """reset, then act/step until terminated or truncated.

    An output that did not parse is recorded as an invalid step; an agent's stop rule seals the
    episode with its termination. An infrastructure fault (browser crash or hang, server or
    model endpoint error) seals it as ``infra_error`` with its cause; an exception inside the
    agent as ``agent_error``. The agent's log (plans, search tree) is attached either way.
    ``beat(n)`` is called after the reset (n = 0) and after each step (n steps so far): the
    runner's watchdogs use it to tell a slow episode from a hung one.
    """
    try:
        return _loop(env, agent, beat or (lambda _n: None))
    except InfrastructureError as exc:
        return _attach(env.seal("infra_error", infra_error=f"{type(exc).__name__}: {exc}"), agent)


def _loop(env: Any, agent: Agent, beat: Callable[[int], None]) -> EpisodeTrace:
    obs, _ = env.reset()
    agent.reset(env.task, env.mode)
    agent.bind(env)
    beat(0)
    while True:
        t0 = time.perf_counter()
        try:
            out = agent.act(obs)
        except InfrastructureError:
            raise
        except Exception as exc:  # any agent failure is the agent's and is recorded
            return _attach(env.seal("agent_error",
                                    agent_error=f"agent raised {type(exc).__name__}: {exc}"),
                           agent)
        agent_s = time.perf_counter() - t0
        if out.stop is not None:  # the stopping output is kept as a last invalid step
            _, _, term, trunc, _ = env.record_invalid(out.error or out.stop, raw_output=out.raw,
                                                      agent_s=agent_s, notes=out.notes)
            return _attach(env.trace if term or trunc else env.seal(out.stop), agent)
        if out.error is not None or out.action is None:
            obs, _, term, trunc, _ = env.record_invalid(
                out.error or "no action", raw_output=out.raw, agent_s=agent_s, notes=out.notes)
        else:
            obs, _, term, trunc, _ = env.step(out.action, raw_output=out.raw, agent_s=agent_s,
                                              notes=out.notes)
        if term or trunc:
            return _attach(env.trace, agent)
        beat(len(env.trace.steps))


def _attach(trace: EpisodeTrace, agent: Agent) -> EpisodeTrace:
    log = getattr(agent, "log", None)  # agents written before v2 may lack the attribute
    if log is not None:
        trace.agent_log = log.model_copy(deep=True)
    return trace
