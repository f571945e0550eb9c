"""The taskset: ``webmdp rl dataset``'s tasks, one rollout each, scored by webmdp.

``vf-eval webmdp-verifiers --env.taskset.site shopping --env.taskset.split test`` plays the
test split of shopping; the options mirror ``webmdp rl dataset``'s (``site``, ``split``,
``level``, ``holdout``, ``tasks``) and select the same tasks in the same order, so a train
taskset never holds a test task. ``vf-eval``'s own ``-n`` / ``--select.*`` narrow it further.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import verifiers.v1 as vf

from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.tasks.model import Task
from webmdp_verifiers.episode import SYSTEM, WebMDPState, opening, replay, reward_mode, start
from webmdp_verifiers.toolset import WebMDPToolset


class WebMDPData(vf.TaskData):
    """One webmdp task, by id (the world, the goal and the oracle stay out of the trace)."""

    task_id: str
    scope: str = "all"
    """The site (or ``all``, ``cross-site``) the task was selected from."""
    tasks_file: str | None = None
    holdout: str = "task"
    reward: Literal["terminal", "rubric"] | None = None
    step_budget: int = DEFAULT_STEP_BUDGET
    out: str | None = None


class WebMDPTaskConfig(vf.TaskConfig):
    tools: vf.ToolsetConfig = vf.ToolsetConfig()
    """The per-rollout tool server (``--env.taskset.task.tools.*``)."""


class WebMDPTask(vf.Task[WebMDPData, WebMDPState, WebMDPTaskConfig]):
    """A rollout's task: its tools, and the reward and metrics of the episode they made."""

    @property
    def key(self) -> str:
        return self.data.task_id

    @classmethod
    def toolsets(cls, config: WebMDPTaskConfig) -> list[vf.Toolset]:
        return [WebMDPToolset(config.tools)]

    def outcome(self, trace: vf.Trace) -> dict[str, Any]:
        """The replayed episode's reward, metrics and trace path, computed once per trace."""
        state = trace.state
        assert isinstance(state, WebMDPState)
        if state.outcome is None:
            web = lookup(self.data)
            out = None if self.data.out is None else Path(self.data.out)
            state.outcome = replay(web, reward_mode(web, self.data.reward),
                                   self.data.step_budget, state.calls, out)
            trace.info["webmdp"] = {k: v for k, v in state.outcome["metrics"].items()
                                    if k in ("termination", "answer", "first_bifurcation")}
            trace.info["webmdp"]["trace"] = state.outcome["trace"]
        return state.outcome

    @vf.reward(weight=1.0)
    async def reward(self, trace: vf.Trace) -> float:
        """webmdp's exact verdict (1/0), or a cross-site task's rubric root."""
        return float(self.outcome(trace)["reward"])

    @vf.metric
    async def webmdp(self, trace: vf.Trace) -> dict[str, float]:
        """``success`` and the episode's process metrics (those defined for it)."""
        metrics = self.outcome(trace)["metrics"]
        return {k: float(v) for k, v in metrics.items()
                if isinstance(v, (bool, int, float)) and k != "answer"}


class WebMDPConfig(vf.TasksetConfig):
    site: str = "all"
    """A site, ``all`` or ``cross-site`` (as ``webmdp rl dataset --site``)."""
    split: str = "train"
    """``train``, ``test``, ``cross-site`` or ``file`` (with ``tasks``)."""
    level: str | None = None
    """A WebForge level, 1-3 or ``none``."""
    holdout: str = "task"
    """What the test split holds out: ``task``, ``template`` or ``site:NAME``."""
    tasks: str | None = None
    """A task file (its tasks are the ``file`` split)."""
    reward: Literal["terminal", "rubric"] | None = None
    """Default: ``terminal``, ``rubric`` for cross-site tasks."""
    step_budget: int = DEFAULT_STEP_BUDGET
    out: str | None = "outputs/webmdp"
    """A webmdp run directory for the episodes' traces (``webmdp report`` / ``view`` read
    it); empty: keep none."""
    task: WebMDPTaskConfig = WebMDPTaskConfig()


class WebMDPTaskset(vf.Taskset[WebMDPTask, WebMDPConfig]):
    def load(self) -> Iterator[WebMDPTask]:
        from webmdp.tasks.splits import Catalog, resolve_path

        c = self.config
        file = resolve_path(c.tasks)
        catalog = Catalog(c.site, file, c.holdout)  # type: ignore[arg-type]
        for t in catalog.tasks(c.split, c.level):
            data = WebMDPData(task_id=t.id, name=t.id, scope=c.site, tasks_file=file,
                              holdout=c.holdout, reward=c.reward, step_budget=c.step_budget,
                              out=c.out or None, system_prompt=SYSTEM,
                              prompt=_prompt(t, c.reward, c.step_budget))
            yield WebMDPTask(data, c.task)


def _prompt(task: Task, reward: str | None, step_budget: int) -> str:
    episode = start(task, reward_mode(task, reward), step_budget)
    try:
        return opening(episode)
    finally:
        episode.close()


def lookup(data: Any) -> Task:
    """The task a rollout's data names."""
    from webmdp.tasks.splits import Catalog

    return Catalog(data.scope, data.tasks_file, data.holdout).task(data.task_id)  # type: ignore[arg-type]

