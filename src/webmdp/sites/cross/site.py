"""The cross-site MDP (CAP, issue 20): the product of the sites a task spans, in one tab.

A cross-site task runs against a world made of one world per member site. The state holds every
member's state and which member is open (none on the start page, ``Home``): switching sites
keeps each site's state, as switching back to a tab would. Actions are the members' actions
with the site as prefix (``mail.Send``), plus ``OpenSite(site)`` and ``Home``: navigation by
links only (the start page lists the sites; every site's header has a switcher). A member's
action is valid only while its site is open, so every transition belongs to exactly one site
and the trace tags it (:meth:`CrossSite.site_of`).

Surfaces are ``site/Surface`` (``shopping/Product``); facts are the members' facts with the
site as prefix (``mail.sent.last.body``), plus ``surface`` and ``open_site``. Nothing here is
specific to a pair of sites: every member keeps its own exact MDP.
"""

from __future__ import annotations

import dataclasses
import random
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from webmdp.core.model import EntityView, Observation, State, World, WorldSpec
from webmdp.core.registry import get_site, site_names
from webmdp.core.site import Site
from webmdp.core.spec import (
    Action,
    ActionSpec,
    ParamSpec,
    SkillCategory,
    SurfaceKind,
    SurfaceSpec,
    VisibilitySpec,
)
from webmdp.errors import ConfigError, InvalidAction

if TYPE_CHECKING:
    from webmdp.tasks.template import TaskTemplate

NAME = "cross-site"
HOME = "Home"
OPEN_SITE = "OpenSite"
GO_HOME = "StartPage"
SEP = "."
"""Between a member site and its action or fact (``mail.Send``, ``mail.sent.count``)."""
SURFACE_SEP = "/"


@dataclass(frozen=True)
class CrossState(State):
    """``open_site`` is "" on the start page; ``parts`` holds each member's state, in the
    order of the world's sites."""

    open_site: str = ""
    parts: tuple[tuple[str, State], ...] = ()

    def part(self, site: str) -> State:
        for name, state in self.parts:
            if name == site:
                return state
        raise KeyError(site)

    def to_dict(self) -> dict[str, Any]:
        return {"surface": self.surface, "focus": self.focus, "open_site": self.open_site,
                "parts": {name: state.to_dict() for name, state in self.parts}}


def member_surface(site: str, surface: str) -> str:
    return f"{site}{SURFACE_SEP}{surface}"


def split_surface(surface: str) -> tuple[str, str]:
    """(site, member surface) of a cross-site surface; ("", "Home") for the start page."""
    site, sep, rest = surface.partition(SURFACE_SEP)
    return (site, rest) if sep else ("", surface)


def split_action(name: str) -> tuple[str, str]:
    """(site, member action) of a prefixed action name; ("", name) for OpenSite / Home."""
    site, sep, rest = name.partition(SEP)
    return (site, rest) if sep else ("", name)


def compose_world(worlds: Mapping[str, World], meta: Mapping[str, Any] | None = None) -> World:
    """One world of the member worlds (their entity ids never collide: each site has its own
    entity prefix). ``meta["parts"]`` keeps which entities and meta are each site's."""
    entities: dict[str, dict[str, Any]] = {}
    parts: dict[str, Any] = {}
    for site, world in worlds.items():
        clash = entities.keys() & world.entities.keys()
        if clash:
            raise ConfigError(f"entity ids {sorted(clash)[:3]} of {site} clash with another site")
        entities.update(world.entities)
        parts[site] = {"ids": list(world.entities), "meta": dict(world.meta)}
    return World(site=NAME, entities=entities, meta={**dict(meta or {}), "parts": parts})


_MEMBERS: weakref.WeakKeyDictionary[World, dict[str, World]] = weakref.WeakKeyDictionary()


_LAST: list[tuple[World, dict[str, World]]] = []


def member_worlds(world: World) -> dict[str, World]:
    """The member worlds of a cross-site world, by site (cached per world object; the last
    one is checked first, as an episode asks for it at every step)."""
    if _LAST and _LAST[0][0] is world:
        return _LAST[0][1]
    found = _MEMBERS.get(world)
    if found is None:
        parts = world.meta.get("parts")
        if world.site != NAME or not isinstance(parts, dict) or not parts:
            raise ConfigError(f"not a cross-site world (site {world.site!r})")
        found = {}
        for site, part in parts.items():
            if site not in site_names():
                raise ConfigError(f"cross-site world names site {site!r}, which is not "
                                  f"installed (installed: {', '.join(site_names())})")
            found[site] = World(site=site, entities={i: world.entities[i] for i in part["ids"]},
                                meta=dict(part.get("meta") or {}))
        _MEMBERS[world] = found
    _LAST[:] = [(world, found)]
    return found


def _prefixed(site: str, spec: ActionSpec) -> ActionSpec:
    return dataclasses.replace(spec, name=f"{site}{SEP}{spec.name}")


class CrossSite(Site):
    """The product MDP of the sites in a cross-site world (see the module docstring)."""

    name = NAME
    title = "Start page"
    entity_prefix = ""
    surfaces: ClassVar[tuple[SurfaceSpec, ...]] = ()
    actions: ClassVar[tuple[ActionSpec, ...]] = ()
    visibility: ClassVar[VisibilitySpec] = VisibilitySpec((), ())

    def __init__(self) -> None:
        members = {n: get_site(n) for n in site_names()}
        self.members = members
        cls = type(self)  # declared data: every registered site's, built once (one instance)
        navigation = (
            ActionSpec(OPEN_SITE, "site_switching", SkillCategory.NAVIGATE,
                       (ParamSpec("site", "choice", tuple(members)),),
                       description="open a site from the start page or the site switcher"),
            ActionSpec(GO_HOME, "site_switching", SkillCategory.NAVIGATE,
                       description="back to the start page"),
        )
        cls.actions = navigation + tuple(
            _prefixed(n, a) for n, s in members.items() for a in s.actions)
        cls.surfaces = (SurfaceSpec(HOME, SurfaceKind.OTHER, "the start page"), *(
            SurfaceSpec(member_surface(n, x.name), x.kind, x.description)
            for n, s in members.items() for x in s.surfaces))
        cls.visibility = VisibilitySpec(
            (), (), {member_surface(n, k): v for n, s in members.items()
                     for k, v in s.visibility.surface_fields.items()})
        cls.confirm_surfaces = frozenset(member_surface(n, x) for n, s in members.items()
                                          for x in s.confirm_surfaces)
        cls.pixel_fields = {member_surface(n, k): v for n, s in members.items()
                             for k, v in s.pixel_fields.items()}
        cls.example_params = {k: v for s in members.values()
                               for k, v in s.example_params.items()}
        owners: dict[str, set[str]] = {}
        for n, s in members.items():
            for kind in s.evidence_gap:
                owners.setdefault(kind, set()).add(n)
        # a kind two members both declare makes no claim here (their screens would interleave)
        self._kind_owner = {k: next(iter(v)) for k, v in owners.items() if len(v) == 1}
        cls.evidence_gap = {k: members[n].evidence_gap[k] for k, n in self._kind_owner.items()}
        super().__init__()

    def card_fields_of(self, kind: str) -> frozenset[str]:
        """The member site's card fields for its own kinds (none for a kind it cannot tell)."""
        owner = self._kind_owner.get(kind)
        return self.members[owner].card_fields_of(kind) if owner else frozenset()

    # -- the sites of a state or action ------------------------------------------------------
    def site_of(self, action: str) -> str | None:
        """The member site an action belongs to (None: OpenSite / Home, the start page's)."""
        return split_action(action)[0] or None

    @property
    def templates(self) -> Mapping[str, TaskTemplate]:
        return {}

    # -- the pure functions ------------------------------------------------------------------
    def generate_world(self, spec: WorldSpec, rng: random.Random) -> World:
        raise ConfigError("cross-site worlds are composed from member worlds "
                          "(webmdp.cap.compose), not generated from a spec")

    def initial_state(self, world: World) -> State:
        parts = tuple((n, self.members[n].initial_state(w))
                      for n, w in member_worlds(world).items())
        return CrossState(surface=HOME, parts=parts)

    def transition(self, state: State, action: Action, world: World) -> State:
        s = _own(state)
        worlds = member_worlds(world)
        if action.name == OPEN_SITE:
            target = action.params.get("site")
            if target not in worlds:
                raise InvalidAction(f"OpenSite: {target!r} is not one of this task's sites "
                                    f"({', '.join(worlds)})")
            return self._opened(s, str(target))
        if action.name == GO_HOME:
            return s.replace(surface=HOME, focus=None, open_site="")
        site, member_action = _split(action.name)
        if not site:
            raise InvalidAction(f"unknown action '{action.name}' on the start page")
        if site != s.open_site:
            where = f"{s.open_site} is open" if s.open_site else "the start page is open"
            raise InvalidAction(f"{action.name}: {site} is not open ({where}); open it first")
        member = self.members[site]
        after = member.transition(s.part(site), Action(member_action, action.params),
                                  worlds[site])
        parts = tuple((n, after if n == site else p) for n, p in s.parts)
        return s.replace(surface=member_surface(site, after.surface), focus=after.focus,
                         parts=parts)

    def _opened(self, s: CrossState, site: str) -> CrossState:
        part = s.part(site)
        return s.replace(surface=member_surface(site, part.surface), focus=part.focus,
                         open_site=site)

    def observe(self, state: State, world: World) -> Observation:
        s = _own(state)
        worlds = member_worlds(world)
        others = tuple(Action(OPEN_SITE, {"site": n}) for n in worlds if n != s.open_site)
        if not s.open_site:
            return Observation(surface=HOME, kind=SurfaceKind.OTHER, entities=(),
                               available=others,
                               context={"sites": [[n, self.members[n].title] for n in worlds]})
        site = s.open_site
        obs = self.members[site].observe(s.part(site), worlds[site])
        available = tuple(Action(f"{site}{SEP}{a.name}", a.params) for a in obs.available)
        return Observation(
            surface=member_surface(site, obs.surface), kind=obs.kind,
            entities=tuple(EntityView(e.id, e.fields) for e in obs.entities),
            available=(*available, Action(GO_HOME), *others),
            context={**obs.context, "_site": site, "_surface": obs.surface,
                     "_sites": [[n, self.members[n].title] for n in worlds]},
        )

    def facts(self, state: State) -> dict[str, Any]:
        s = _own(state)
        out: dict[str, Any] = {"surface": s.surface, "open_site": s.open_site}
        for name, part in s.parts:
            for key, value in self.members[name].facts(part).items():
                out[f"{name}{SEP}{key}"] = value
        return out

    def browser_back(self, state: State) -> Action | None:
        s = _own(state)
        if not s.open_site:
            return None
        back = self.members[s.open_site].browser_back(s.part(s.open_site))
        return None if back is None else Action(f"{s.open_site}{SEP}{back.name}", back.params)

    def alignment_state(self, state: State) -> State:
        s = _own(state)
        return s.replace(parts=tuple((n, self.members[n].alignment_state(p))
                                     for n, p in s.parts))


@lru_cache(maxsize=4096)
def _split(name: str) -> tuple[str, str]:
    return split_action(name)


def _own(state: State) -> CrossState:
    if not isinstance(state, CrossState):
        raise InvalidAction(f"not a cross-site state: {type(state).__name__}")
    return state
