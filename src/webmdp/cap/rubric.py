"""A cross-site task's rubric tree, generated from the task (CAP §4.3), and its scores.

The tree, for steps s1..sk of the DAG::

    root
    ├─ s1         the step's outcome: its verifier conditions (each a critical ``other``
    │             leaf) and, when it outputs a value, seeing that value (a critical
    │             ``perception`` leaf). Critical for the root when a later step (or the
    │             final answer) consumes its output.
    ├─ s1.points  the step's covered points, none critical: an ``action`` leaf per execution
    │             point, a ``perception`` leaf per piece of information it needs
    ├─ ...
    └─ answer     the final answer states the compared value (critical; parallel patterns)

Eq. 2 then gives 0 when a consumed step failed (what follows it worked from a wrong value),
else the mean over the rest: partial credit for the steps nobody depends on and for the
covered points. Every leaf has an exact check (:mod:`webmdp.tasks.rubric_eval`).
"""

from __future__ import annotations

from collections.abc import Callable

from webmdp.tasks.model import CoveredPoint, DagStep, Task
from webmdp.tasks.rubric import (
    AnswerCheck,
    FactCheck,
    RevealedCheck,
    RubricNode,
    TransitionCheck,
)


def rubric_for(task: Task, dag: list[DagStep], covered: list[CoveredPoint],
               consumers: Callable[[str], list[str]], step_of: dict[str, str],
               answer: str | None) -> RubricNode:
    node_of = {v: k for k, v in step_of.items()}
    children: list[RubricNode] = []
    for step in dag:
        prefix = f"{step.site}: "
        conditions = [c for c in task.verifier if c.description.startswith(prefix)]
        outcome = [RubricNode(id=f"{step.id}.c{k + 1}", kind="other", critical=True,
                              site=step.site, description=c.description[len(prefix):],
                              check=FactCheck(condition=c))
                   for k, c in enumerate(conditions)]
        if step.output is not None:
            out = step.output
            outcome.append(RubricNode(
                id=f"{step.id}.found", kind="perception", critical=True, site=step.site,
                description=f"see the {out.label} ({out.entity}.{out.field})",
                check=RevealedCheck(site=step.site, entity=out.entity, field=out.field)))
        consumed = bool(consumers(node_of[step.id])) or (
            answer is not None and step.output is not None)
        children.append(RubricNode(id=step.id, critical=consumed, site=step.site,
                                   description=f"on {step.site}: {step.goal}",
                                   children=outcome))
        points = [p for p in covered if p.site == step.site]
        leaves = [_point_leaf(step.id, k, p) for k, p in enumerate(points)]
        if leaves:
            children.append(RubricNode(id=f"{step.id}.points", critical=False, site=step.site,
                                       description=f"the covered points of step {step.id}",
                                       children=leaves))
    if answer is not None:
        children.append(RubricNode(id="answer", kind="other", critical=True,
                                   description=f"the final answer states {answer}",
                                   check=AnswerCheck(value=answer)))
    return RubricNode(id="root", description="the task", children=children)


def _point_leaf(step: str, k: int, p: CoveredPoint) -> RubricNode:
    if p.kind == "action":
        return RubricNode(id=f"{step}.a{k + 1}", kind="action", type_id=p.type_id, site=p.site,
                          description=p.description,
                          check=TransitionCheck(site=p.site, actions=list(p.actions)))
    assert p.entity is not None and p.field is not None
    return RubricNode(id=f"{step}.p{k + 1}", kind="perception", type_id=p.type_id,
                      site=p.site, description=p.description,
                      check=RevealedCheck(site=p.site, entity=p.entity, field=p.field))
