"""Run many episodes locally: semantic mode in-process, browser mode over one shared server
and one Chromium (a fresh context per episode). Results are written as each episode ends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webmdp.agents.registry import make_agent
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.env.semantic import SemanticEnv
from webmdp.runner.episode import run_episode
from webmdp.runner.store import RunStore
from webmdp.server.runner import ServerHandle
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace, Mode


@dataclass(frozen=True)
class RunConfig:
    """What to run and how."""

    agent: str
    mode: Mode = "semantic"
    step_budget: int = 50
    resume: bool = True
    screenshots: bool = False
    observation: str = "both"
    seed: int = 0
    model: Any = None
    """A ``ModelAgentConfig`` for the model agents (step / plan / tree)."""

    def label(self) -> str:
        """The agent name traces record (model agents: paradigm, model, grammar)."""
        if self.model is None:
            return self.agent
        from webmdp.agents.llm import run_label

        return run_label(self.agent, self.model)


def run_tasks(tasks: list[Task], out: Path, config: RunConfig,
              on_episode: Callable[[EpisodeTrace | None], None] | None = None
              ) -> list[EpisodeTrace]:
    """Run ``config.agent`` on ``tasks``; each trace is saved the moment its episode ends.

    With ``resume`` an episode whose trace already exists is skipped (``on_episode(None)``).
    """
    store = RunStore(out)
    store.add_tasks(tasks)
    agent = make_agent(config.agent, seed=config.seed, config=config.model)
    name = config.label()
    todo = [t for t in tasks if not (config.resume and store.has(name, config.mode, t.id))]
    for _ in range(len(tasks) - len(todo)):
        if on_episode:
            on_episode(None)
    traces: list[EpisodeTrace] = []

    def done(trace: EpisodeTrace) -> None:
        store.save(trace)
        traces.append(trace)
        if on_episode:
            on_episode(trace)

    if config.mode == "semantic":
        for task in todo:
            done(run_episode(SemanticEnv(task, agent=name, step_budget=config.step_budget),
                             agent))
        return traces
    shots = store.episode_dir(name, "browser") / "shots" if config.screenshots else None
    bcfg = BrowserConfig(step_budget=config.step_budget, screenshot_dir=shots,
                         observation=config.observation)  # type: ignore[arg-type]
    with ServerHandle() as server, BrowserHost(headless=bcfg.headless) as host:
        for task in todo:
            env = BrowserEnv(task, agent=name, server=server, host=host, config=bcfg)
            try:
                done(run_episode(env, agent))
            finally:
                env.close()
    return traces
