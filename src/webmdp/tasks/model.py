"""The Task: what an episode is judged against, serialised as one JSONL line."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from webmdp.core.spec import Action

TASK_VERSION = 2
"""2: tasks carry their measured ``difficulty`` (WebForge's seven dimensions) and their
``domain``, ``answer_type`` (and ``answer``). A version-1 file still loads, without them."""

AccessLevel = Literal["card", "filter", "detail"]
AnswerType = Literal["direct", "operation_code", "mixed"]


class Condition(BaseModel):
    """A verifier condition on the final semantic state's facts (C.3)."""

    model_config = ConfigDict(frozen=True)

    fact: str
    op: Literal["eq", "contains", "not_contains"] = "eq"
    value: Any = None
    description: str = ""


class InfoConstraint(BaseModel):
    """One unit of task-relevant evidence for information coverage (C.4): seeing ``field`` of
    ``entity`` on any surface."""

    model_config = ConfigDict(frozen=True)

    entity: str
    field: str
    level: Literal["card", "detail"]
    description: str


class Complexity(BaseModel):
    """The three complexity axes of WebSTEP 4.4."""

    hard_negative_count: int
    oracle_length: int
    access_level: AccessLevel


DIMENSIONS = ("depth", "breadth", "interaction", "visual", "info", "reasoning", "risk")
"""WebForge's seven difficulty dimensions in Table 6's order: Jump Depth, Jump Breadth, Page
Interaction, Visual Complexity, Info Complexity, Reasoning/Calc, Risk Factor."""


class Difficulty(BaseModel):
    """WebForge's difficulty, measured (:mod:`webmdp.tasks.difficulty`): the seven dimension
    levels in Table 6's order (depth, breadth, interaction, visual, info, reasoning, risk),
    the overall level (1-3, or "none" when no rule of §A.1 fits) and the raw measures."""

    model_config = ConfigDict(frozen=True)

    vector: tuple[int, int, int, int, int, int, int]
    level: Literal[1, 2, 3, "none"]
    measures: dict[str, Any] = Field(default_factory=dict)

    def of(self, dimension: str) -> int:
        """The level (1-3) of one dimension, by name."""
        return self.vector[DIMENSIONS.index(dimension)]


class ActionModel(BaseModel):
    """A semantic action as stored in files."""

    name: str
    params: dict[str, Any] = Field(default_factory=dict)

    def to_action(self) -> Action:
        return Action(self.name, dict(self.params))

    @classmethod
    def of(cls, action: Action) -> ActionModel:
        return cls(name=action.name, params=dict(action.params))


class Task(BaseModel):
    """A generated task: instruction, seeded world, target, hard negatives, verifier, oracle."""

    model_config = ConfigDict(extra="forbid")

    version: int = TASK_VERSION
    id: str
    site: str
    template: str
    index: int
    seed: int
    instruction: str
    params: dict[str, Any]
    target: str
    hard_negatives: list[str]
    companions: list[str] = Field(default_factory=list)
    fillers: list[str]
    verifier: list[Condition]
    oracle: list[ActionModel]
    info_constraints: list[InfoConstraint]
    complexity: Complexity
    difficulty: Difficulty | None = None
    domain: str | None = None
    """WebForge's domain of the template, ``D1``..``D7`` (:mod:`webmdp.tasks.domains`)."""
    answer_type: AnswerType | None = None
    """What the agent returns (WebForge): ``operation_code``, the confirmation code its commit
    shows (:mod:`webmdp.tasks.codes`); ``direct``, a value read from the pages (``answer``);
    ``mixed``, both."""
    answer: str | None = None
    """The value a ``direct`` or ``mixed`` task's final answer must state (compared after
    normalisation, :mod:`webmdp.tasks.answers`)."""
    world: dict[str, Any]

    def oracle_actions(self) -> list[Action]:
        return [a.to_action() for a in self.oracle]
