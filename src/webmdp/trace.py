"""Episode traces: the versioned record every analysis reads (DESIGN.md, Traces).

One :class:`EpisodeTrace` per episode, written as JSON. Each GUI step lists the semantic
transitions it caused; in semantic mode every step causes exactly one transition.
The JSON schema is documented in ``docs/trace-schema.md`` and exported by
``webmdp trace-schema``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

TRACE_VERSION = 1

Mode = Literal["semantic", "browser"]
Termination = Literal["finished", "budget", "infra_error", "agent_error"]


class SemanticTransition(BaseModel):
    """One transition ``s_t -> s_{t+1}`` of the semantic MDP, or a rejected action."""

    action: str
    params: dict[str, Any] = Field(default_factory=dict)
    skill: str = ""
    category: str = ""
    surface_before: str
    surface_after: str
    focus_after: str | None = None
    changed: bool = True
    changes_state: bool = False
    revealed: list[tuple[str, str]] = Field(
        default_factory=list, description="(entity, field) pairs first seen after this transition"
    )
    state_key: str = Field("", description="digest of the state after, for trace alignment")
    error: str | None = Field(None, description="why the action was invalid; state unchanged")


class GUIStep(BaseModel):
    """One agent step: its raw output, parsed action and the transitions it caused."""

    index: int
    raw_output: str | None = None
    action: dict[str, Any]
    url: str | None = None
    screenshot: str | None = Field(None, description="path relative to the trace file")
    agent_s: float = 0.0
    env_s: float = 0.0
    transitions: list[SemanticTransition] = Field(default_factory=list)
    error: str | None = Field(None, description="invalid step: why the action was rejected")


class EpisodeTrace(BaseModel):
    """Everything recorded about one episode."""

    version: int = TRACE_VERSION
    task_id: str
    site: str
    template: str
    agent: str
    mode: Mode
    seed: int
    initial_surface: str = ""
    initial_revealed: list[tuple[str, str]] = Field(default_factory=list)
    steps: list[GUIStep] = Field(default_factory=list)
    terminated: bool = False
    truncated: bool = False
    termination: Termination = "finished"
    final_answer: str | None = None
    final_facts: dict[str, Any] = Field(default_factory=dict)
    verifier: dict[str, bool] = Field(default_factory=dict)
    success: bool = False
    infra_error: str | None = Field(None, description="cause of an infrastructure failure")
    agent_error: str | None = Field(None, description="exception raised inside the agent")
    duration_s: float = 0.0

    def transitions(self) -> list[SemanticTransition]:
        """The semantic trace, valid and rejected transitions in order."""
        return [t for s in self.steps for t in s.transitions]
