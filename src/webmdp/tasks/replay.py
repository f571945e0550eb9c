"""Replay a semantic trajectory through a site's transition function."""

from __future__ import annotations

from dataclasses import dataclass, field

from webmdp.core.model import State, World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.errors import InvalidAction


@dataclass
class ReplayResult:
    states: list[State]
    final: State
    error: tuple[int, str] | None = None
    revealed: list[set[tuple[str, str]]] = field(default_factory=list)


def replay(site: Site, world: World, actions: list[Action], *,
           observe: bool = False) -> ReplayResult:
    """Apply ``actions`` from the initial state; stop at the first invalid one."""
    state = site.initial_state(world)
    states = [state]
    revealed = [site.observe(state, world).revealed()] if observe else []
    for i, action in enumerate(actions):
        try:
            state = site.step(state, action, world)
        except InvalidAction as exc:
            return ReplayResult(states, state, (i, str(exc)), revealed)
        states.append(state)
        if observe:
            revealed.append(site.observe(state, world).revealed())
    return ReplayResult(states, state, None, revealed)
