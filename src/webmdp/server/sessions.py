"""Per-episode sessions: each holds its own MDP state, so many episodes share one server."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field

from webmdp.core.model import State, World
from webmdp.core.spec import Action
from webmdp.errors import ConfigError
from webmdp.sites import get_site
from webmdp.tasks.codes import Coder
from webmdp.trace import SemanticTransition
from webmdp.tracking import Tracker


@dataclass
class Session:
    id: str
    site_name: str
    tracker: Tracker
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def apply(self, action: Action) -> SemanticTransition:
        with self.lock:
            rec = self.tracker.apply(action)
            self.version += 1
            return rec

    def snapshot(self) -> tuple[str, State]:
        """Keep the current semantic state: its snapshot id and the state."""
        with self.lock:
            return self.tracker.snapshot(), self.tracker.state

    def restore(self, snapshot_id: str) -> tuple[State, int]:
        """Make a snapshot's state current (no transition is logged): the state and the new
        version. Raises :class:`ConfigError` for an unknown id."""
        with self.lock:
            state = self.tracker.restore(snapshot_id)
            self.version += 1
            return state, self.version


class SessionStore:
    """Sessions by id; ids are unguessable so one episode's page cannot reach another's."""

    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def create(self, site_name: str, world: dict, codes: dict | None = None) -> Session:
        """A session on ``world``; ``codes`` (:meth:`Coder.to_json`) makes commits show
        confirmation codes."""
        site = get_site(site_name)
        if world.get("site") != site_name:
            raise ConfigError(f"world is for site {world.get('site')!r}, not {site_name!r}")
        coder = Coder.from_json(codes).code if codes else None
        sess = Session(secrets.token_hex(8), site_name,
                       Tracker(site, World.from_dict(world), coder))
        with self._lock:
            self._sessions[sess.id] = sess
        return sess

    def get(self, sid: str) -> Session | None:
        return self._sessions.get(sid)

    def drop(self, sid: str) -> None:
        with self._lock:
            self._sessions.pop(sid, None)

    def __len__(self) -> int:
        return len(self._sessions)
