"""Typed information ports (CAP §3.3-3.4): what a site's task can output, and where another
site's task can take it in.

* An output is a field of the task's target that its oracle shows on the way (so doing the
  task finds it), typed (money, name, text, number, time, email, code): found by
  :func:`webmdp.tasks.outputs.find_output`, which WebForge's Direct and Mixed answers share.
* An input is a message a task sends: a free-text parameter of its commit (a reply, a note to
  a recruiter, a comment, a message to an agent) that the task's instruction quotes and its
  verifier checks. Found generically in the task (:func:`find_sink`): a text input takes any
  type. The cross-site version of the task must carry the value in that message, and its
  verifier checks that it does (``mentions``).
"""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.core.registry import get_site
from webmdp.tasks.conditions import Condition
from webmdp.tasks.model import Port, Task

TEXT_PARAMS = ("text", "body", "message", "note")
"""Commit parameters that are messages a person writes (a sink takes a value in them)."""
MIN_TEXT = 8


@dataclass(frozen=True)
class Sink:
    """Where a task takes values in: oracle step ``index``'s text parameter ``param``, whose
    value ``text`` the instruction quotes and ``conditions`` (indices into the verifier)
    check."""

    index: int
    param: str
    text: str
    conditions: tuple[int, ...]


def find_sink(task: Task) -> Sink | None:
    """The task's message, if it sends one (see the module docstring)."""
    site = get_site(task.site)
    for i in range(len(task.oracle) - 1, -1, -1):
        action = task.oracle[i]
        spec = site.action_spec(action.name)
        for p in spec.params:
            text = action.params.get(p.name)
            if p.name not in TEXT_PARAMS or not isinstance(text, str) or len(text) < MIN_TEXT:
                continue
            if f"'{text}'" not in task.instruction and f'"{text}"' not in task.instruction:
                continue
            conds = tuple(k for k, c in enumerate(task.verifier)
                          if c.value == text and c.op in ("eq", "contains"))
            if conds:
                return Sink(i, p.name, text, conds)
    return None


def carried(text: str, ports: list[Port]) -> str:
    """The message the oracle sends with ``ports`` in it."""
    extra = "; ".join(f"{p.label}: {p.value}" for p in ports)
    return f"{text} ({extra})"


def sink_conditions(task: Task, sink: Sink, ports: list[Port]) -> list[Condition]:
    """The task's verifier with the message's conditions now asking for its quoted text and
    every carried value."""
    out: list[Condition] = []
    for k, c in enumerate(task.verifier):
        if k in sink.conditions:
            labels = ", ".join(p.label for p in ports)
            c = Condition(fact=c.fact, op="mentions", value=[sink.text, *(p.value for p in ports)],
                          description=f"{c.description or c.fact}, with the {labels}")
        out.append(c)
    return out
