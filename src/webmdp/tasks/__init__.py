"""Tasks: model, templates, generation, oracle, verifier and task files."""

from webmdp.tasks.generate import generate_site_tasks, make_task, plan, task_id, task_seed
from webmdp.tasks.model import Complexity, Condition, InfoConstraint, Task
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import verify

__all__ = [
    "Complexity", "Condition", "Draft", "InfoConstraint", "Task", "TaskTemplate",
    "generate_site_tasks", "make_task", "plan", "task_id", "task_seed", "verify",
]
