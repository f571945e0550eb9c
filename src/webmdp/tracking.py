"""Apply a semantic action and record it as a :class:`SemanticTransition`.

Shared by the server (browser mode) and :class:`SemanticEnv`, so both modes produce the same
semantic trace for the same actions, and the same snapshot ids for tree-search backtracking.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from webmdp.core.model import State, World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.errors import ConfigError, InvalidAction
from webmdp.trace import SemanticTransition


def state_key(state: State) -> str:
    """Stable digest of a state, identical across processes, for aligning traces.

    It hashes the state's canonical JSON (sets sorted), not its ``repr``: a frozenset's repr
    follows string hashing, which differs from one process to the next."""
    canonical = json.dumps([type(state).__name__, state.to_dict()], sort_keys=True,
                           separators=(",", ":"), default=str)
    return hashlib.blake2b(canonical.encode(), digest_size=8).hexdigest()


def unknown_snapshot(snapshot_id: str, taken: int) -> str:
    """The one wording of a refused restore, in both modes and the control API."""
    return f"unknown snapshot {snapshot_id!r}; this episode took {taken} snapshot(s)"


class Tracker:
    """Holds one episode's semantic state and the (entity, field) pairs seen so far."""

    def __init__(self, site: Site, world: World,
                 coder: Callable[[dict[str, Any]], str] | None = None):
        self.site = site
        self.world = world
        self.coder = coder
        """Makes the confirmation code a commit shows from the facts after it
        (:class:`webmdp.tasks.codes.Coder`); None: no codes."""
        self.code: str | None = None
        """The code the latest commit showed."""
        self.state = site.initial_state(world)
        self.initial_revealed = sorted(site.observe(self.state, world).revealed())
        self.seen: set[tuple[str, str]] = set(self.initial_revealed)
        self.transitions: list[SemanticTransition] = []
        self.snapshots: dict[str, State] = {}
        self._codes: dict[str, str | None] = {}

    def snapshot(self) -> str:
        """Keep the current state (states are immutable) under a new id, ``snap-<n>``."""
        sid = f"snap-{len(self.snapshots) + 1}"
        self.snapshots[sid] = self.state
        self._codes[sid] = self.code
        return sid

    def restore(self, snapshot_id: str) -> State:
        """Make a snapshot's state current. The transition log stays append-only and the
        seen set is kept: a restore is not a transition and reveals nothing new."""
        try:
            self.state = self.snapshots[snapshot_id]
        except KeyError:
            raise ConfigError(unknown_snapshot(snapshot_id, len(self.snapshots))) from None
        self.code = self._codes[snapshot_id]
        return self.state

    def apply(self, action: Action) -> SemanticTransition:
        """Apply ``action``; an invalid one is recorded with its error and changes nothing."""
        before = self.state
        try:
            spec = self.site.action_spec(action.name)
            after = self.site.step(before, action, self.world)
        except InvalidAction as exc:
            rec = SemanticTransition(
                action=action.name, params=dict(action.params),
                surface_before=before.surface, surface_after=before.surface,
                focus_after=before.focus, changed=False, state_key=state_key(before),
                error=str(exc), site=self.site.site_of(action.name),
            )
            self.transitions.append(rec)
            return rec
        new = self.site.observe(after, self.world).revealed() - self.seen
        self.seen |= new
        self.state = after
        if self.coder is not None and spec.changes_state and after != before:
            facts = self.site.facts(after)
            if _effects(facts) != _effects(self.site.facts(before)):
                self.code = self.coder(facts)
        rec = SemanticTransition(
            action=action.name, params=dict(action.params), skill=spec.skill,
            category=spec.category.value, surface_before=before.surface,
            surface_after=after.surface, focus_after=after.focus, changed=after != before,
            changes_state=spec.changes_state, revealed=sorted(new), state_key=state_key(after),
            site=self.site.site_of(action.name),
        )
        self.transitions.append(rec)
        return rec


def _effects(facts: dict[str, Any]) -> dict[str, Any]:
    """Facts but the page: what a commit changes."""
    return {k: v for k, v in facts.items() if k != "surface"}
