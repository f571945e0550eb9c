"""Each run's state, as its manifest says, read and never written.

The state is the last invocation's (:func:`webmdp.runner.manifest.run_state`): ``completed``,
``interrupted``, ``failed``, ``running``, or :data:`~webmdp.runner.manifest.OWNER_GONE` for an
invocation still marked running whose process is dead (a killed run). A run without a manifest
(written by the library's ``run_tasks`` or imported) or with one that cannot be read says so
instead: a report or a viewer never fails on it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from webmdp.errors import ConfigError
from webmdp.runner import manifest as mf

NO_MANIFEST = "no manifest"
UNREADABLE = "unreadable manifest"


@dataclass(frozen=True)
class RunState:
    """A run directory, its state and how many invocations its manifest records."""

    path: str
    state: str
    invocations: int
    code_key: str | None = None
    """The fingerprint of the install key the run's codes were made with (None: no key)."""
    split: dict[str, Any] | None = None
    """The RL split the run's tasks were drawn from (``split``, ``holdout``,
    ``split_version``: ``webmdp run --split``); None for any other selection."""

    @property
    def completed(self) -> bool:
        return self.state == "completed"

    def as_json(self) -> dict[str, Any]:
        """The run's row in ``report.json``; ``code_key`` only for a run made with one."""
        out = asdict(self)
        for key in ("code_key", "split"):
            if out[key] is None:
                del out[key]
        return out


def run_state(root: str | Path) -> RunState:
    """The state of the run in ``root`` (see the module docstring); reads only."""
    path = str(root)
    try:
        manifest = mf.read(Path(root))
    except (ConfigError, OSError):
        return RunState(path, UNREADABLE, 0)
    if manifest is None:
        return RunState(path, NO_MANIFEST, 0)
    try:
        invocations = manifest.get("invocations") or []
        split = (manifest.get("task_set") or {}).get("split")
        return RunState(path, mf.run_state(manifest), len(invocations),
                        manifest.get("code_key"), dict(split) if split else None)
    except (AttributeError, TypeError, ValueError, KeyError):
        return RunState(path, UNREADABLE, 0)
