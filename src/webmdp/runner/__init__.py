"""Running many episodes and storing their results.

The names below load on first use (PEP 562), so importing a light module of this package
(``runner.manifest``, ``runner.spec``) does not import the browser, the server and FastAPI:
every ``webmdp`` command that does not run episodes starts in a fraction of the time.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from webmdp.runner.episode import run_episode
    from webmdp.runner.local import RunConfig, run_tasks
    from webmdp.runner.store import RunStore

__all__ = ["RunConfig", "RunStore", "run_episode", "run_tasks"]
_HOME = {"run_episode": "episode", "RunConfig": "local", "run_tasks": "local",
         "RunStore": "store"}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
