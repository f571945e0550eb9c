"""What a run is made of: its identity (what is measured) and its settings (how it is run).

An episode is named by ``(label, mode, task_id)``: the agent's label (agent, model, grammar,
``@s<seed>`` for a seed other than 0), the mode and the task. Its trace lives at
``episodes/<label>/<mode>/<task_id>.json``; nothing else identifies it, so an episode can be
stored at most once.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from webmdp.trace import Mode

_OPERATIONAL = ("api_key", "base_url", "timeout_s", "max_retries", "backoff_s", "concurrency")
"""Model settings that change how a run goes, not what it measures."""

Backend = Literal["inline", "local", "ray"]
ServerMode = Literal["per-worker", "shared"]


@dataclass(frozen=True)
class AgentSpec:
    """One agent of a run: a registered name, its seed and (model agents) its config."""

    name: str
    seed: int = 0
    model: Any = None
    """A ``ModelAgentConfig`` for the model agents (step / plan / tree)."""
    label_as: str | None = None
    """A fixed label (the library's ``run_tasks`` keeps the agent's name whatever its seed)."""

    def label(self) -> str:
        """The agent name traces record: model agents add model and grammar; a seed other
        than 0 adds ``@s<seed>``."""
        if self.label_as is not None:
            return self.label_as
        base = self.name
        if self.model is not None:
            from webmdp.agents.llm import run_label

            base = run_label(self.name, self.model)
        return base if self.seed == 0 else f"{base}@s{self.seed}"

    def identity(self) -> dict[str, Any]:
        """What makes two runs of this agent comparable (no API key)."""
        model = None
        if self.model is not None:
            model = {k: v for k, v in asdict(self.model).items() if k not in _OPERATIONAL}
        return {"name": self.name, "seed": self.seed, "model": model}


@dataclass(frozen=True)
class EpisodeSpec:
    """One episode to run; ``attempt`` counts from 0, ``final`` says no retry follows."""

    agent: AgentSpec
    mode: Mode
    task_id: str
    attempt: int = 0
    final: bool = True

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.agent.label(), self.mode, self.task_id)

    def retry(self, final: bool) -> EpisodeSpec:
        return replace(self, attempt=self.attempt + 1, final=final)


@dataclass(frozen=True)
class RunSettings:
    """How episodes are run. ``step_budget``, ``observation``, ``screenshots`` and ``noise``
    shape the traces (part of the run's identity); the rest only shape how the run goes."""

    step_budget: int = 50
    observation: str = "both"
    screenshots: bool = False
    noise: str = "none"
    """Real-web noise in browser mode (:mod:`webmdp.env.noise`), seeded per episode."""
    workers: int = 1
    slots: int = 1
    """Episodes a worker runs at once (threads; model agents overlap their model waits)."""
    backend: Backend = "inline"
    server: ServerMode = "per-worker"
    retries: int = 2
    episode_timeout_s: float = 1800.0
    step_timeout_s: float = 300.0
    ray_address: str | None = None
    endpoint: dict[str, Any] = field(default_factory=dict)
    """The model endpoint's settings (URL, client retries, timeout, concurrency, where the key
    came from; never the key): what a resume calls again."""
    extra: dict[str, Any] = field(default_factory=dict)

    def identity(self) -> dict[str, Any]:
        ident: dict[str, Any] = {"step_budget": self.step_budget,
                                 "observation": self.observation,
                                 "screenshots": self.screenshots}
        if self.noise != "none":  # absent when off, so runs made before noise still resume
            ident["noise"] = self.noise
        return ident
