"""What an evaluation framework keeps of one webmdp episode it ran (Inspect AI, verifiers):
the exact verdict, the process metrics the papers define, and the trace itself, saved to a
webmdp run directory that ``webmdp report`` and ``webmdp view`` read like any run's."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace

_SAVE = threading.Lock()
"""Episodes end on many threads at once; a run directory's task file takes one at a time."""

SYSTEM = ("You operate a website to complete the user's task. Each tool is one action on the "
          "current page; its result is the page after the action. Call exactly one tool per "
          "turn. When the task is done, or cannot be done, call {finish} (with the answer, "
          "if the task asks for one).")
"""The system prompt of a tool-calling model (``finish``: the name of the tool that ends)."""
MAX_ERROR = 500
"""Characters of a tool error the model reads back: one line."""
STOPPED_EARLY = "the model stopped before the episode ended"
"""The agent error of an episode the model left before ``Finish`` or the step budget."""


def tool_name(action: str) -> str:
    """A tool's name for an action: a cross-site action ``mail.Reply`` is ``mail__Reply``
    (providers allow letters, digits, ``_`` and ``-`` in a function's name)."""
    return action.replace(".", "__")


def action_name(tool: str) -> str:
    """The action a tool's name stands for (:func:`tool_name` undone)."""
    return tool.replace("__", ".")


def one_line(error: str) -> str:
    """An error as the model reads it back: one line, at most :data:`MAX_ERROR` characters."""
    return " ".join(error.split())[:MAX_ERROR]


def first_message(task: Task, page: str) -> str:
    """The conversation's opening user message: the instruction, then the first page."""
    return f"Task: {task.instruction}\n\nThe page:\n{page}"


def process_metrics(trace: EpisodeTrace, task: Task) -> dict[str, Any]:
    """The episode's verdict and process metrics, exact, from its trace: exploration and
    execution success, coverage at commit (WebSTEP 4.1), GUI steps, recovery and
    repetitiveness (WebSTEP Defs. 4.1-4.2) and, for a failure, the first bifurcation point
    against the oracle (4.3); for a cross-site task, the rubric root (CAP) instead of the
    single-commit metrics. A metric that is undefined for the episode is None."""
    from webmdp.eval.bifurcation import find_bifurcation, oracle_trajectory, trajectory
    from webmdp.eval.metrics import episode_metrics
    from webmdp.eval.planning import planning_metrics

    m = episode_metrics(trace, task)
    p = planning_metrics(trace, task)
    fork = None
    if not trace.success and not trace.infra_error:
        found = find_bifurcation(trajectory(trace, task), oracle_trajectory(task))
        if found is not None:
            fork = {"index": found.index, "kind": found.kind,
                    "action": found.failing_action, "oracle_action": found.reference_action}
    single = not task.sites  # one commit, one target: WebSTEP's process metrics apply
    return {"success": bool(trace.success), "termination": trace.termination,
            "answer": trace.final_answer,
            "exploration_success": float(m.exploration_success) if single else None,
            "execution_success": None if m.execution_success is None or not single
            else float(m.execution_success),
            "coverage_at_commit": m.coverage_at_commit if single else None,
            "rubric": None if trace.rubric is None else float(trace.rubric.root),
            "steps": m.gui_steps, "invalid_steps": m.invalid_steps, "recovery": p.recovery,
            "repetitiveness": p.repetitiveness, "first_bifurcation": fork}


def save_episode(out: Path, task: Task, trace: EpisodeTrace) -> Path:
    """Store the trace in the run directory ``out`` (created, with its task); its path."""
    from webmdp.runner.store import RunStore

    with _SAVE:
        store = RunStore(out)
        store.add_tasks([task])
        return store.save(trace)


@dataclass
class EpisodeRecord:
    """One sample's episode as the framework reports it."""

    task: Task
    mode: str
    metrics: dict[str, Any] = field(default_factory=dict)
    path: str | None = None

    def done(self, episode: Any) -> None:
        """Read the ended episode's verdict and metrics."""
        self.metrics = process_metrics(episode.env.trace, self.task)

    def as_json(self) -> dict[str, Any]:
        return {"task_id": self.task.id, "site": self.task.site, "mode": self.mode,
                **self.metrics, "trace": self.path}
