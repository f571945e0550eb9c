"""The site contract: declared data plus three pure functions (DESIGN.md, The site contract)."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from webmdp.core import dialog
from webmdp.core.entities import EntityFields
from webmdp.core.model import Observation, State, World, WorldSpec
from webmdp.core.spec import (
    Action,
    ActionSpec,
    ParamSpec,
    SkillCategory,
    SurfaceKind,
    SurfaceSpec,
    VisibilitySpec,
)
from webmdp.errors import InvalidAction, shown

if TYPE_CHECKING:
    from webmdp.tasks.template import TaskTemplate


class Site(ABC):
    """A website as a deterministic semantic MDP ``M = (S, A, T, rho_0)`` (WebSTEP 2.1)."""

    name: ClassVar[str]
    title: ClassVar[str]
    surfaces: ClassVar[tuple[SurfaceSpec, ...]]
    actions: ClassVar[tuple[ActionSpec, ...]]
    visibility: ClassVar[VisibilitySpec]
    entity_prefix: ClassVar[str]
    example_params: ClassVar[dict[str, Any]] = {}
    """Values for text parameters (queries, bodies) used by the conformance checker and
    the random agent when an action's available form leaves them to the agent."""
    distance_bound: ClassVar[Any] = None
    """An admissible lower bound on the distance to a task's goal: ``(problem) -> Bound``
    (see :mod:`webmdp.tasks.distance`); None: every unmet goal is at least one action away."""
    informed_bound: ClassVar[Any] = None
    """An admissible lower bound on the informed distance (:mod:`webmdp.tasks.informed`):
    ``(problem) -> (state, facts, unseen, look) -> float``, ``unseen`` the entities whose
    detail fields are still to be seen, as ``(gap, entities)`` per kind (see
    :attr:`evidence_gap`). A site declares one when it can prove that its commits and the
    actions that reveal a detail screen are distinct, so the two counts add up; None: the
    larger of the state bound and the evidence bound."""
    evidence_gap: ClassVar[Mapping[str, int]] = {}
    """kind (entity id prefix) -> what the site guarantees about the screens that show detail
    fields (those not in ``visibility.card_fields``) of entities of that kind, each level
    including the ones before: 1, a screen shows at most one such entity's; 2, no action leads
    from one's screen straight to another's (two take at least 2 actions); 3, an entity's
    detail fields are first shown only by an action taken on a screen that shows the entity or
    offers an action naming it (its row on a list, its own page). A kind
    left out makes no claim (0). The informed distance turns it into a lower bound
    (:mod:`webmdp.tasks.informed`); ``tests/tasks/test_evidence_gap.py`` walks every site
    trying to refute it."""
    confirm_surfaces: ClassVar[frozenset[str]] = frozenset()
    """Surfaces that are a confirmation step: a review of what a commit will do, with the
    button that does it ("Confirm and pay"). An irreversible commit taken there is WebForge
    risk L2, elsewhere L3 (:mod:`webmdp.tasks.difficulty`)."""
    entity_fields: ClassVar[EntityFields] = {}
    """kind (entity id prefix) -> field -> JSON type: what every entity of a world must carry
    (:mod:`webmdp.core.entities`); a task file's world is checked against it when read.
    Empty: not checked."""
    domain: ClassVar[str] = "D1"
    """The WebForge task domain (``D1``..``D7``, :mod:`webmdp.tasks.domains`) of the site's
    templates. webmdp's own sites are in that module's tables; a plugin site declares its own."""
    task_count: ClassVar[int] = 180
    """How many tasks the site's built-in set holds (WebSTEP: 180 a site; a plugin site may
    ship fewer): :func:`webmdp.tasks.generate.plan` spreads them over the templates."""
    pixel_fields: ClassVar[Mapping[str, frozenset[str]]] = {}
    """surface -> the entity fields it shows only in pixels (a chart, a photo): no text in the
    DOM or the accessibility tree. WebForge's visual complexity counts them."""

    @classmethod
    def package(cls) -> str:
        """The package that holds this site's ``views/`` and ``static/`` folders: the class's
        own package, found through :mod:`importlib.resources` wherever it is installed."""
        return cls.__module__.rpartition(".")[0] or cls.__module__

    def __init__(self) -> None:
        self._actions = {a.name: a for a in self.actions}
        self._surfaces = {s.name: s for s in self.surfaces}

    # -- declared data -------------------------------------------------------------------------
    def action_spec(self, name: str) -> ActionSpec:
        try:
            return self._actions[name]
        except KeyError:
            if name in dialog.SPECS:  # a confirmation dialog's (a world knob: core.dialog)
                return dialog.SPECS[name]
            raise InvalidAction(f"unknown action {shown(name)} on site {self.name}") from None

    def card_fields_of(self, kind: str) -> frozenset[str]:
        """The fields a list shows of an entity of ``kind`` (the rest are detail fields):
        ``visibility.card_fields``; a site of sites answers for each member's kinds."""
        return frozenset(self.visibility.card_fields)

    def surface_kind(self, surface: str) -> SurfaceKind:
        return self._surfaces[surface].kind

    def skills(self) -> dict[SkillCategory, list[str]]:
        out: dict[SkillCategory, list[str]] = {c: [] for c in SkillCategory}
        for a in self.actions:
            if a.skill not in out[a.category]:
                out[a.category].append(a.skill)
        return out

    @property
    @abstractmethod
    def templates(self) -> Mapping[str, TaskTemplate]:
        """Task templates of this site by name."""

    @property
    def dial_templates(self) -> Mapping[str, TaskTemplate]:
        """Templates only the difficulty dial draws from (:mod:`webmdp.tasks.dial`): they
        widen what the dial reaches (visual information, longer paths) without changing the
        site's built-in task set, which :attr:`templates` alone makes."""
        return {}

    def template(self, name: str) -> TaskTemplate:
        """A template of :attr:`templates` or :attr:`dial_templates` by name."""
        found = self.templates.get(name) or self.dial_templates.get(name)
        if found is None:
            raise KeyError(f"{self.name} has no template '{name}'")
        return found

    # -- the three pure functions ----------------------------------------------------------------
    @abstractmethod
    def generate_world(self, spec: WorldSpec, rng: random.Random) -> World:
        """Complete the pinned entities and add fillers; consistent by construction."""

    @abstractmethod
    def initial_state(self, world: World) -> State:
        """rho_0: the start state of an episode."""

    @abstractmethod
    def transition(self, state: State, action: Action, world: World) -> State:
        """``T(s, a)``; raises :class:`InvalidAction` when a precondition fails."""

    @abstractmethod
    def observe(self, state: State, world: World) -> Observation:
        """What is on screen: surface, visible entities and fields, available actions."""

    def available(self, state: State, world: World) -> tuple[Action, ...]:
        """``observe(state, world).available``: the actions on offer. A site may compute them
        without drawing the rest of the page, for searches that only need the actions."""
        return self.observe(state, world).available

    @abstractmethod
    def facts(self, state: State) -> dict[str, Any]:
        """Flat application facts of a state (cart contents, starred threads, ...) that task
        verifier conditions are checked against."""

    def site_of(self, action: str) -> str | None:
        """The member site an action belongs to in a composite (cross-site) MDP; None for a
        single site, whose transitions need no tag."""
        return None

    def own_entities(self, world: World, ids: frozenset[str]) -> frozenset[str]:
        """The entities a focused distance search may act on (:func:`webmdp.tasks.distance.reach`),
        given the task's own ``ids`` (target, hard negatives, companions, the oracle's). A site
        where the shortest way may act on others adds them (Coding Q&A: every entity, since the
        way to a question can pass through any other question or user). The default: ``ids``;
        the search also acts on what the agent's changes name (``Problem.touched``)."""
        return ids

    def browser_back(self, state: State) -> Action | None:
        """The semantic action the browser's Back button stands for in ``state`` (None: none)."""
        return None

    def alignment_state(self, state: State) -> State:
        """The part of ``state`` that trajectory alignment compares (bifurcation analysis,
        ``docs/alignment-state.md``): position, opened entity and application data. A site
        clears what is neither shown nor read by any later transition (leftovers of a surface
        already left, a notice that lasts one step); the default keeps the whole state."""
        return state

    # -- helpers shared by every site ----------------------------------------------------------
    def validate_params(self, action: Action) -> ActionSpec:
        """Check names, types and lengths of an action's parameters against its spec."""
        spec = self.action_spec(action.name)
        known = {p.name for p in spec.params}
        extra = set(action.params) - known
        if extra:
            raise InvalidAction(f"{action.name}: unknown parameter(s) {shown(sorted(extra))}")
        for p in spec.params:
            if p.name not in action.params:
                if p.optional:
                    continue
                raise InvalidAction(f"{action.name}: missing parameter '{p.name}'")
            _check_type(action.name, p, action.params[p.name])
        return spec

    def step(self, state: State, action: Action, world: World) -> State:
        """Validate then transition: the entry point envs and oracles use. A confirmation
        dialog (:mod:`webmdp.core.dialog`) opens, applies or cancels here."""
        self.validate_params(action)
        opened = dialog.step(self, state, action, world)
        return self.transition(state, action, world) if opened is None else opened


def _check_type(action: str, p: ParamSpec, value: Any) -> None:
    ok: bool
    if p.type in ("str", "entity", "choice"):
        ok = isinstance(value, str)
    elif p.type == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif p.type == "float":
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    else:
        ok = True
    if not ok:
        raise InvalidAction(f"{action}: parameter '{p.name}' must be {p.type}, got {shown(value)}")
    if isinstance(value, str) and len(value) > p.max_length:
        raise InvalidAction(f"{action}: parameter '{p.name}' is {len(value)} characters, "
                            f"at most {p.max_length}")
    if p.choices and value not in p.choices:
        raise InvalidAction(f"{action}: parameter '{p.name}' must be one of {list(p.choices)}")


def fill(site: Site, action: Action) -> Action:
    """Complete an available action's agent-typed parameters from ``site.example_params``."""
    spec = site.action_spec(action.name)
    params = dict(action.params)
    for p in spec.params:
        if p.name not in params and p.name in site.example_params:
            params[p.name] = site.example_params[p.name]
    return Action(action.name, params)
