"""Oracle building blocks shared by every template (WebSTEP E.3)."""

from __future__ import annotations

from collections.abc import Sequence

from webmdp.core.spec import Action


def explore_then_open(
    ranked: Sequence[str],
    target: str,
    hard_negatives: Sequence[str],
    *,
    open_action: Action,
    back: Action,
    entity_param: str,
    inspect: Sequence[Action] = (),
    all_negatives: bool = False,
) -> list[Action]:
    """Stage 2 of E.3: visit hard negatives in ranking order (those ranked above the target, or
    all of them for comparisons), then open the target last."""
    pos = {eid: i for i, eid in enumerate(ranked)}
    limit = len(ranked) if all_negatives else pos[target]
    visits = sorted((h for h in hard_negatives if pos[h] < limit), key=pos.__getitem__)
    steps: list[Action] = []
    for eid in visits:
        steps.append(Action(open_action.name, {**open_action.params, entity_param: eid}))
        steps.extend(inspect)
        steps.append(back)
    steps.append(Action(open_action.name, {**open_action.params, entity_param: target}))
    steps.extend(inspect)
    return steps
