"""What a backend tells the scheduler about an episode."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from webmdp.runner.spec import EpisodeSpec

EventKind = Literal["start", "beat", "done", "retry", "store_error", "lost"]


@dataclass
class Event:
    """``start``: a worker took the episode; ``beat``: step ``n`` ended; ``done``: stored
    (``row``); ``retry``: an infrastructure failure with attempts left (``cause``);
    ``store_error``: the trace could not be written; ``lost``: the worker died or was killed
    (``cause`` None: an innocent bystander of another episode's kill, retried at no cost)."""

    kind: EventKind | str
    spec: EpisodeSpec | None
    row: dict[str, Any] | None = None
    cause: str | None = None
    n: int = 0
    seconds: float = 0.0
    """The worker's wall time on the attempt (its outcome's ``seconds``)."""
