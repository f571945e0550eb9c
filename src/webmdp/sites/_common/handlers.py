"""Transition and observation machinery the sites share.

A site's ``mdp.py`` keeps a table, action name -> ``handler(state, params, world)``, run by
:func:`dispatch`. Most handlers only check where the action is taken and set fields: :func:`step`
builds them from the surfaces (or a test of the state), the error message and the changes.
:func:`catalog_action` routes the catalog's listing actions to the list surface, :func:`switch`
builds on / off commit pairs (star / unstar, save / unsave) over a tuple of ids, and
:func:`keyed` / :func:`grouped` build per-entity verifier facts. Handlers with more to check
stay functions in the site, with their own preconditions and messages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from webmdp.core.model import EntityView, Observation, State, World
from webmdp.core.spec import Action, SurfaceKind, SurfaceSpec
from webmdp.errors import InvalidAction, require
from webmdp.sites._common.catalog import BrowseState, Catalog

Params = dict[str, Any]
S = TypeVar("S", bound=State)
B = TypeVar("B", bound=BrowseState)
Handler = Callable[[S, Params, World], S]
Where = str | tuple[str, ...] | Callable[[Any], bool]
"""A surface, several, or a test of the state."""


def dispatch(handlers: Mapping[str, Handler[S]], s: S, a: Action, world: World) -> S:
    """``T(s, a)`` by the handler of the action's name."""
    handler = handlers.get(a.name)
    if handler is None:
        raise InvalidAction(f"unknown action {a.name!r}")
    return handler(s, a.params, world)


def at(s: State, where: Where) -> bool:
    if callable(where):
        return bool(where(s))
    return s.surface in ((where,) if isinstance(where, str) else where)


def step(where: Where | None, error: str, **changes: Any) -> Handler[Any]:
    """A handler refused (``error``) unless ``where`` holds, that sets fields: each change is a
    value or a function of the state and the params."""

    def go(s: Any, p: Params, world: World) -> Any:
        require(where is None or at(s, where), error)
        return s.replace(**{k: v(s, p) if callable(v) else v for k, v in changes.items()})

    return go


def listed(name: str, eid: str, ids: Iterable[str], where: str = "on this page") -> str:
    """``eid``, which action ``name`` may only take from ``ids``."""
    require(eid in ids, f"{name}: {eid} is not {where}")
    return eid


def offer(name: str, param: str, ids: Iterable[Any]) -> list[Action]:
    """One ``name`` action per id: the buttons of a list."""
    return [Action(name, {param: i}) for i in ids]


def surfaces(**specs: tuple[SurfaceKind, str]) -> tuple[SurfaceSpec, ...]:
    """A site's surfaces: name = (kind, description)."""
    return tuple(SurfaceSpec(name, kind, doc) for name, (kind, doc) in specs.items())


def observation(s: State, specs: tuple[SurfaceSpec, ...], entities: Iterable[EntityView],
                actions: Iterable[Action], ctx: dict[str, Any]) -> Observation:
    kind = next(x.kind for x in specs if x.name == s.surface)
    return Observation(s.surface, kind, tuple(entities), tuple(actions), ctx)


def view(world: World, eid: str, fields: Sequence[str]) -> EntityView:
    """An entity as a surface shows it."""
    e = world.entities[eid]
    return EntityView(eid, {f: e[f] for f in fields})


def views(world: World, ids: Iterable[str], fields: tuple[str, ...]) -> tuple[EntityView, ...]:
    return tuple(view(world, i, fields) for i in ids)


def record(prefix: str, keys: tuple[str, ...], values: Iterable[Any]) -> dict[str, Any]:
    """Facts ``{prefix}.{key}`` of one stored tuple (a booking, a tour request...)."""
    return {f"{prefix}.{k}": v for k, v in zip(keys, values, strict=True)}


Target = Callable[[S, Params, World, str], str]
"""Checks where action ``name`` is done and names the entity it acts on."""


def catalog_action(catalog: Catalog, s: B, a: Action, world: World, where: str,
                   **opened: Any) -> B | None:
    """A listing action, or None when ``a`` is not the catalog's. The search box opens the
    catalog's surface (``opened`` clears what the page left behind); the other listing actions
    work only there (``where`` names it in the error)."""
    if a.name == catalog.search:
        s = s.replace(surface=catalog.surface, focus=None, **opened)
        return catalog.transition(s, a, world)
    if catalog.handles(a.name):
        require(s.surface == catalog.surface, f"{a.name}: only on {where}")
        return catalog.transition(s, a, world)
    return None


def toggle(items: tuple[str, ...], item: str, on: bool | None = None) -> tuple[str, ...]:
    """``items`` with ``item`` added at the end (``on``) or removed; None flips it."""
    if on is None:
        on = item not in items
    return (*items, item) if on else tuple(i for i in items if i != item)


def switch(names: tuple[str, str], field: str, what: str, target: Target[S]
           ) -> dict[str, Handler[S]]:
    """The handlers of an on / off commit pair over the state's tuple ``field`` (``StarRepo``
    / ``UnstarRepo``): each refuses what is ``already`` / ``not`` ``what``."""

    def handler(name: str, on: bool) -> Handler[S]:
        def go(s: S, p: Params, world: World) -> S:
            item = target(s, p, world, name)
            items = getattr(s, field)
            require((item in items) != on, f"{name}: {'already' if on else 'not'} {what}")
            return s.replace(**{field: toggle(items, item, on)})
        return go

    return {names[0]: handler(names[0], True), names[1]: handler(names[1], False)}


def keyed(pattern: str, pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """A fact per key of ``pairs``, named by ``pattern`` with the key in; the last value wins."""
    return {pattern.format(k): v for k, v in pairs}


def grouped(pattern: str, pairs: Iterable[tuple[str, Any]]) -> dict[str, list[Any]]:
    """A fact per key of ``pairs``: every value of the key, in order."""
    out: dict[str, list[Any]] = {}
    for k, v in pairs:
        out.setdefault(pattern.format(k), []).append(v)
    return out
