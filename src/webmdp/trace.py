"""Episode traces: the versioned record every analysis reads (DESIGN.md, Traces).

One :class:`EpisodeTrace` per episode, written as JSON. Each GUI step lists the semantic
transitions it caused; in semantic mode every step causes exactly one transition.
The JSON schema is documented in ``docs/trace-schema.md`` and exported by
``webmdp trace-schema``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

TRACE_VERSION = 3
"""2: model agents' annotations (thought, intent, model calls, plan, search tree, restores)
and the stop-rule terminations. 3: real-web noise (``EpisodeTrace.noise``, ``GUIStep.noise``).
Version-1 and -2 files read unchanged (every new field has a default)."""

Mode = Literal["semantic", "browser"]
Termination = Literal["finished", "budget", "infra_error", "agent_error", "unparseable",
                      "repeated_action"]
"""``unparseable``: 3 consecutive outputs no grammar accepted; ``repeated_action``: the same
action more than 3 times on an unchanged observation (stop rules of the planning paper, 6.3)."""


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
    site: str | None = Field(None, description="in a cross-site episode, the member site the "
                             "transition belongs to (null: the start page's OpenSite / "
                             "StartPage, and every single-site transition)")


class ModelCall(BaseModel):
    """One request to a model endpoint, accounted for in the step that made it."""

    provider: str
    model: str
    api: Literal["chat", "responses", "messages"] = "chat"
    purpose: Literal["act", "plan", "replan", "value", "propose", "judge"] = "act"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float = 0.0
    retries: int = 0
    raw: str = Field("", description="the model's raw output (text, or JSON of tool calls)")
    error: str | None = Field(None, description="why the call failed after its retries")
    safety_checks: list[dict[str, Any]] = Field(
        default_factory=list, description="OpenAI pending_safety_checks, recorded and acknowledged")


class StepNotes(BaseModel):
    """What a model agent says about one step beyond its action."""

    thought: str | None = None
    intent: dict[str, Any] | None = Field(
        None, description="the action the agent stated it meant (element accuracy); else the "
                          "executed action")
    plan_step: int | None = Field(None, description="1-based plan step executed (plan agent)")
    node: int | None = Field(None, description="search-tree node this step expanded (tree agent)")
    model_calls: list[ModelCall] = Field(default_factory=list)


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
    notes: StepNotes | None = Field(None, description="model agents: thought, intent, calls")
    noise: str | None = Field(
        None, description="real-web noise this step's input landed on or dismissed (e.g. "
        "'cookie-banner'); such a step never causes a transition")


class PlanRecord(BaseModel):
    """A plan the plan agent wrote (the first at step 0; later ones are replans)."""

    at_step: int
    steps: list[str]
    reason: str = ""


class SearchNode(BaseModel):
    """A node of the tree agent's best-first search tree."""

    id: int
    parent: int | None
    action: dict[str, Any] | None = None
    step: int | None = Field(None, description="GUI step that created the node")
    value: float
    state_key: str = ""
    expanded: bool = False


class Restore(BaseModel):
    """A backtrack: the session was restored to a snapshot before step ``before_step``."""

    before_step: int
    snapshot: str
    node: int | None = None
    state_key: str = ""


class AgentLog(BaseModel):
    """Episode-level record of a model agent: plans, the search tree, restores, stop rule."""

    paradigm: str = ""
    model: str = ""
    grammar: str = ""
    plans: list[PlanRecord] = Field(default_factory=list)
    tree: list[SearchNode] = Field(default_factory=list)
    stop_reason: str | None = None


class LeafVerdict(BaseModel):
    """One leaf's verdict: 1, 0, or None (unjudged: a judge reply that could not be read)."""

    id: str
    kind: str
    score: int | None
    evidence: str = ""


class RubricResult(BaseModel):
    """An evaluated tree: every node's score (eq. 2) and every leaf's verdict and evidence."""

    root: float
    scores: dict[str, float | None]
    """Every node's score by id (None: an unjudged leaf)."""
    leaves: list[LeafVerdict]
    judge: str = "exact"


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
    initial_screenshot: str | None = Field(
        None, description="the page at reset, what the first step acted on (browser mode); "
        "path relative to the trace file")
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
    restores: list[Restore] = Field(default_factory=list)
    agent_log: AgentLog | None = None
    rubric: RubricResult | None = Field(None, description="a cross-site task's rubric tree, "
                                        "evaluated exactly (CAP eq. 2)")
    noise: str | None = Field(None, description="the real-web noise level (browser mode; "
                              "null: none)")

    def transitions(self) -> list[SemanticTransition]:
        """The semantic trace, valid and rejected transitions in order."""
        return [t for s in self.steps for t in s.transitions]
