"""Running many episodes and storing their results."""

from webmdp.runner.episode import run_episode
from webmdp.runner.local import RunConfig, run_tasks
from webmdp.runner.store import RunStore

__all__ = ["RunConfig", "RunStore", "run_episode", "run_tasks"]
