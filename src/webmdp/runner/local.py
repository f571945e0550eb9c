"""The library entry point: run one agent on tasks in this process (``RunConfig``,
:func:`run_tasks`). ``webmdp run`` uses the same runner with worker processes
(:mod:`webmdp.runner.run`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webmdp.runner.run import RunPlan, execute_run
from webmdp.runner.spec import AgentSpec, RunSettings
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
    retries: int = 0
    noise: str = "none"
    """Real-web noise in browser mode (:mod:`webmdp.env.noise`)."""

    def label(self) -> str:
        """The agent name traces record (model agents: paradigm, model, grammar)."""
        return AgentSpec(self.agent, model=self.model).label()


def run_tasks(tasks: list[Task], out: Path, config: RunConfig,
              on_episode: Callable[[EpisodeTrace | None], None] | None = None
              ) -> list[EpisodeTrace]:
    """Run ``config.agent`` on ``tasks`` in this process; each trace is saved the moment its
    episode ends and passed to ``on_episode``. With ``resume`` an episode whose finished trace
    already exists is skipped (``on_episode(None)``). Returns the traces run now.

    ``seed`` seeds a stochastic agent and keeps its label (``webmdp run --seeds`` labels
    seeds other than 0 apart instead).
    """
    agent = AgentSpec(config.agent, seed=config.seed, model=config.model,
                      label_as=config.label())
    settings = RunSettings(step_budget=config.step_budget, observation=config.observation,
                           screenshots=config.screenshots, noise=config.noise, backend="inline",
                           retries=config.retries)
    plan = RunPlan(Path(out), tasks, [agent], config.mode, settings,
                   rerun=not config.resume, manifest=False)
    traces: list[EpisodeTrace] = []
    skipped = {"told": False}

    def changed(tally) -> None:  # type: ignore[no-untyped-def]
        if on_episode is not None and not skipped["told"]:
            skipped["told"] = True
            for _ in range(tally.skipped):
                on_episode(None)

    def recorded(row: dict[str, Any]) -> None:
        trace = EpisodeTrace.model_validate_json((Path(out) / row["trace"]).read_text())
        traces.append(trace)
        if on_episode is not None:
            on_episode(trace)

    execute_run(plan, on_change=changed, on_record=recorded)
    return traces
