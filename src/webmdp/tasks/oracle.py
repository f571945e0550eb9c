"""Oracle building blocks shared by every template (WebSTEP E.3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.tasks.listing import ranked_after

if TYPE_CHECKING:
    from webmdp.core.site import Site
    from webmdp.tasks.template import Draft


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
    # a hard negative the prefix's filters already removed is never on screen: nothing to visit
    visits = sorted((h for h in hard_negatives if h in pos and pos[h] < limit),
                    key=pos.__getitem__)
    steps: list[Action] = []
    for eid in visits:
        steps.append(Action(open_action.name, {**open_action.params, entity_param: eid}))
        steps.extend(inspect)
        steps.append(back)
    steps.append(Action(open_action.name, {**open_action.params, entity_param: target}))
    steps.extend(inspect)
    return steps


def reach_and_explore(
    site: Site,
    world: World,
    draft: Draft,
    prefix: list[Action],
    *,
    open_action: Action,
    back: Action,
    entity_param: str,
    inspect: Sequence[Action] = (),
    all_negatives: bool = False,
) -> list[Action]:
    """E.3 stages 1-2: ``prefix`` reaches the list surface holding the target, then hard
    negatives are opened in its display order and the target last."""
    ranked = ranked_after(site, world, prefix)
    return [*prefix, *explore_then_open(ranked, draft.target, draft.hard_negatives,
                                        open_action=open_action, back=back,
                                        entity_param=entity_param, inspect=inspect,
                                        all_negatives=all_negatives)]
