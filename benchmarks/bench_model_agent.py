"""Harness overhead of a model agent per step in browser mode, against the bare env step.

The same shopping tasks run twice in one Chromium against one server:
- baseline: the oracle agent straight on ``BrowserEnv`` (``env_s`` of each step: act in the
  browser, wait for the page, screenshot, accessibility tree, semantic transitions);
- model: the ``step`` agent with a grammar, the scripted model server answering the oracle's
  actions in that grammar. Per step it adds everything but the model's own thinking: building
  the model's view (resize, set-of-marks), the prompt and history, the SDK request over
  loopback and back, parsing, the trace notes. Reported is that harness time (``agent_s`` less
  the scripted server's own work) as a ratio to the baseline ``env_s``, both measured here.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from webmdp.agents import OracleAgent
from webmdp.agents.llm.agent import ModelAgentConfig
from webmdp.agents.registry import make_agent
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.runner.episode import run_episode
from webmdp.server.runner import ServerHandle
from webmdp.sites import get_site
from webmdp.tasks import Task, generate_site_tasks
from webmdp.testing import Request, ScriptedModelServer
from webmdp.testing.oracle_model import Mirror, OracleModel

TASKS = 4
GRAMMARS = ("uitars", "qwen", "anthropic-cua", "openai-cua", "axtree", "json")
MODELS = {"openai-cua": "openai/computer-use-preview",
          "anthropic-cua": "anthropic/claude-sonnet-4-6"}


class Timed:
    """Wraps a responder and sums the time the scripted server spends deciding."""

    def __init__(self, inner: OracleModel):
        self.inner, self.spent = inner, 0.0

    def __call__(self, req: Request) -> Any:
        t0 = time.perf_counter()
        try:
            return self.inner(req)
        finally:
            self.spent += time.perf_counter() - t0


def _baseline(tasks: list[Task], server: ServerHandle, host: BrowserHost) -> list[float]:
    out: list[float] = []
    for task in tasks:
        env = BrowserEnv(task, agent="oracle", server=server, host=host,
                         config=BrowserConfig(observation="both"))
        try:
            out += [s.env_s for s in run_episode(env, OracleAgent()).steps]
        finally:
            env.close()
    return out


def _model(tasks: list[Task], grammar: str, server: ServerHandle, host: BrowserHost
           ) -> tuple[list[float], list[float], int]:
    """Per-step harness seconds, per-step env seconds, and successes."""
    harness: list[float] = []
    env_s: list[float] = []
    wins = 0
    for task in tasks:
        env = Mirror(BrowserEnv(task, agent="model", server=server, host=host,
                                config=BrowserConfig(observation="both")))
        timed = Timed(OracleModel(env, grammar))
        model = MODELS.get(grammar, "vllm/scripted")
        try:
            with ScriptedModelServer(timed) as srv:
                url = srv.root_url if model.startswith("anthropic/") else srv.base_url
                agent = make_agent("step", config=ModelAgentConfig(
                    model=model, grammar=grammar, base_url=url, api_key="x", max_retries=0))
                trace = run_episode(env, agent)
        finally:
            env.close()
        wins += trace.success
        steps = [s for s in trace.steps if s.notes and s.notes.model_calls]
        per_call = timed.spent / max(1, len(steps))
        harness += [s.agent_s - per_call for s in steps]
        env_s += [s.env_s for s in trace.steps]
    return harness, env_s, wins


def main() -> None:
    tasks = generate_site_tasks(get_site("shopping"))[:TASKS]
    print(f"\n## Model-agent harness overhead per step, browser mode ({TASKS} shopping tasks)")
    with ServerHandle() as server, BrowserHost() as host:
        _baseline(tasks[:1], server, host)  # warm up the browser and the server
        base = statistics.median(_baseline(tasks, server, host))
        print(f"  baseline: bare BrowserEnv.step (oracle agent)  median {base * 1e3:7.1f} ms")
        for grammar in GRAMMARS:
            harness, env_s, wins = _model(tasks, grammar, server, host)
            h = statistics.median(harness)
            print(f"  {grammar:<14} harness median {h * 1e3:6.1f} ms = {h / base:5.2f}x the "
                  f"env step; its env step {statistics.median(env_s) * 1e3:6.1f} ms; "
                  f"{wins}/{len(tasks)} solved")


if __name__ == "__main__":
    main()
