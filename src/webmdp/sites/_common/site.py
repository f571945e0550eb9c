"""The glue every site shares: a site declares its state class, start surface, Back table and
the functions of its own modules; :class:`ModularSite` does the delegating (DESIGN.md, The site
toolkit)."""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from webmdp.core import dialog
from webmdp.core.model import Observation, State, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action, SkillCategory

if TYPE_CHECKING:
    from webmdp.tasks.template import TaskTemplate

StateT = TypeVar("StateT", bound=State)
NAV, SE, FI, INS, CO = (SkillCategory.NAVIGATE, SkillCategory.SEARCH, SkillCategory.FILTER,
                        SkillCategory.INSPECT, SkillCategory.COMMIT)
"""The skill categories a site's action declarations name."""


@dataclass(frozen=True)
class SiteLogic:
    """The domain functions a site's own modules implement (world, mdp, observe)."""

    generate_world: Callable[[WorldSpec, random.Random], World]
    transition: Callable[[Any, Action, World], State]
    observe: Callable[[Any, World], Observation]
    facts: Callable[[Any], dict[str, Any]]
    available: Callable[[Any, World], Iterable[Action]] | None = None
    """The actions ``observe`` offers, computed alone (what ``observe`` passes as its
    observation's ``available``); None: read from ``observe``."""


class ModularSite(Site, Generic[StateT]):
    """A :class:`Site` whose three pure functions live in the site's modules.

    A subclass declares ``state_class``, ``start_surface``, ``back_actions`` (surface -> the
    action the browser's Back button stands for) and ``logic``; it overrides a method only where
    its rule is not a table (an initial state read from the world, a Back that depends on state).
    Templates are read lazily from the site package's ``templates.TEMPLATES``.
    """

    state_class: ClassVar[type[State]]
    start_surface: ClassVar[str]
    back_actions: ClassVar[Mapping[str, str]] = {}
    logic: ClassVar[SiteLogic]

    def own(self, state: State) -> StateT:
        """``state``, checked to be this site's state class."""
        assert isinstance(state, self.state_class)
        return cast(StateT, state)

    @property
    def templates(self) -> Mapping[str, TaskTemplate]:
        package = type(self).__module__.rpartition(".")[0]
        templates: Mapping[str, TaskTemplate] = importlib.import_module(
            f"{package}.templates").TEMPLATES
        return templates

    @property
    def dial_templates(self) -> Mapping[str, TaskTemplate]:
        """The site package's ``dial.DIAL_TEMPLATES`` (templates only the difficulty dial
        draws from: visual-only information...), none when it has no ``dial`` module."""
        package = type(self).__module__.rpartition(".")[0]
        if importlib.util.find_spec(f"{package}.dial") is None:
            return {}
        found: Mapping[str, TaskTemplate] = importlib.import_module(f"{package}.dial") \
            .DIAL_TEMPLATES
        return found

    def generate_world(self, spec: WorldSpec, rng: random.Random) -> World:
        return self.logic.generate_world(spec, rng)

    def initial_state(self, world: World) -> State:
        return self.state_class(surface=self.start_surface)

    def transition(self, state: State, action: Action, world: World) -> State:
        return self.logic.transition(self.own(state), action, world)

    def observe(self, state: State, world: World) -> Observation:
        if state.pending is not None:  # a confirmation dialog over the page (core.dialog)
            page = self.logic.observe(self.own(state.replace(pending=None)), world)
            return dialog.observe(page, state)
        return self.logic.observe(self.own(state), world)

    def available(self, state: State, world: World) -> tuple[Action, ...]:
        """The logic's ``available`` where it has one (a dialog's page offers the dialog's
        buttons instead: read from :meth:`observe`)."""
        if state.pending is not None or self.logic.available is None:
            return super().available(state, world)
        return tuple(self.logic.available(self.own(state), world))

    def facts(self, state: State) -> dict[str, Any]:
        return self.logic.facts(self.own(state))

    def browser_back(self, state: State) -> Action | None:
        back = self.back_actions.get(self.own(state).surface)
        return Action(back) if back else None
