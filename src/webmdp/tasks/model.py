"""The Task: what an episode is judged against, serialised as one JSONL line."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from webmdp.core.spec import Action
from webmdp.paths import valid_name, valid_template
from webmdp.tasks.conditions import Condition
from webmdp.tasks.rubric import RubricNode

TASK_VERSION = 3
"""2: tasks carry their measured ``difficulty`` (WebForge's seven dimensions) and their
``domain``, ``answer_type`` (and ``answer``). 3: a cross-site task (``site`` "cross-site")
carries its ``sites`` and ``cross`` (DAG, covered points, rubric tree). Files of versions 1
and 2 still load."""

Name = Annotated[str, AfterValidator(valid_name)]
"""A name that becomes a path (a trace is ``<task id>.json``): :func:`webmdp.paths.check_name`."""
TemplateName = Annotated[str, AfterValidator(valid_template)]
AccessLevel = Literal["card", "filter", "detail"]
AnswerType = Literal["direct", "operation_code", "mixed"]


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


class Port(BaseModel):
    """A typed value a DAG step outputs (CAP's information flow): ``field`` of ``entity``, as
    the page shows it (``value``), of type ``type`` (money, name, text, number, time, email,
    code)."""

    model_config = ConfigDict(frozen=True)

    entity: str
    field: str
    type: str
    label: str
    value: str


class DagStep(BaseModel):
    """One step of a cross-site task's information-flow DAG: a task on one site (the
    single-site task it was made from), what it outputs and which steps' outputs it consumes
    (carried in the message it sends)."""

    id: str
    site: str
    base_task: str
    goal: str
    output: Port | None = None
    inputs: list[str] = Field(default_factory=list)


class CoveredPoint(BaseModel):
    """CAP's covered point e = (id, tau, d): an execution or perception item a task needs."""

    id: str
    kind: Literal["action", "perception"]
    type_id: str | None
    """The CAP type (AT.., PT..); None for a perception point on a surface whose card lists
    no perception item."""
    site: str
    description: str
    actions: list[str] = Field(default_factory=list)
    """An execution point: the site's actions bound to the widget (any of them counts)."""
    entity: str | None = None
    field: str | None = None
    """A perception point: the (entity, field) the task must see."""


class CrossInfo(BaseModel):
    """What makes a task cross-site (CAP §3.4): its pattern, DAG, clusters, functions,
    covered points and rubric tree."""

    pattern: str
    dag: list[DagStep]
    edges: list[tuple[str, str]]
    clusters: list[str]
    functions: list[str]
    covered: list[CoveredPoint]
    rubric: RubricNode


class Task(BaseModel):
    """A generated task: instruction, seeded world, target, hard negatives, verifier, oracle."""

    model_config = ConfigDict(extra="forbid")

    version: int = TASK_VERSION
    id: Name
    site: Name
    template: TemplateName
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
    sites: list[Name] | None = None
    """A cross-site task's sites (``site`` is then "cross-site"); None for a single site."""
    cross: CrossInfo | None = None

    def oracle_actions(self) -> list[Action]:
        return [a.to_action() for a in self.oracle]
