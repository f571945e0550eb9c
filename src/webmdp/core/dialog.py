"""Confirmation dialogs: a world knob that puts every state-changing action behind a dialog.

WebForge's Risk Factor grades an irreversible action by its warning: L2 when a confirmation
dialog asks first, L3 when nothing does. A world whose ``meta`` lists action names under
``"confirm"`` (the difficulty dial's ``confirm-dialogs`` knob lists the actions the site's
templates commit with: ``PlaceOrder``, ``Send``, ``MergePR``...) turns each of them into two
steps:

1. the action opens a dialog: the state keeps it in ``State.pending`` and nothing else changes
   (the action is checked first, so an invalid one fails as it would without the dialog);
2. ``Confirm`` applies it; ``Cancel`` closes the dialog and leaves the state as it was.

While a dialog is open only those two actions are valid, and the observation offers only
them, over the page the action was taken on (``context["confirm_dialog"]`` says what it will
do; the views draw a modal). Facts never see ``pending``, so verifiers and codes are
unchanged. ``Confirm`` and ``Cancel`` are known to every site's :meth:`Site.action_spec`, but
they are not in a site's declared ``actions``: only a knob world offers them.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from webmdp.core.model import Observation, State, World
from webmdp.core.spec import Action, ActionSpec, SkillCategory
from webmdp.errors import InvalidAction

if TYPE_CHECKING:
    from webmdp.core.site import Site

CONFIRM, CANCEL = "Confirm", "Cancel"
META = "confirm"
"""The world ``meta`` key that turns the dialogs on."""
SPECS = {
    CONFIRM: ActionSpec(CONFIRM, "confirm", SkillCategory.COMMIT, changes_state=True,
                        description="do the action the open dialog asks about"),
    CANCEL: ActionSpec(CANCEL, "cancel", SkillCategory.NAVIGATE,
                       description="close the open dialog without doing its action"),
}


def asks(world: World, action: Action) -> bool:
    """Whether ``action`` opens a dialog in ``world``."""
    names = world.meta.get(META) or ()
    return action.name in names


def pending_action(state: State) -> Action | None:
    return None if state.pending is None else Action.from_dict(json.loads(state.pending))


def step(site: Site, state: State, action: Action, world: World) -> State | None:
    """The dialog's part of a step: the next state, or ``None`` when the dialog has no say
    (the site's own transition applies)."""
    waiting = pending_action(state)
    if waiting is not None:
        if action.name == CONFIRM:
            return site.transition(state.replace(pending=None), waiting, world)
        if action.name == CANCEL:
            return state.replace(pending=None)
        raise InvalidAction(f"{action.name}: a confirmation dialog is open (Confirm or Cancel)")
    if action.name in SPECS:
        raise InvalidAction(f"{action.name}: no confirmation dialog is open")
    if asks(world, action):
        site.transition(state, action, world)  # an invalid action fails here, as without it
        return state.replace(pending=json.dumps(action.to_dict(), sort_keys=True))
    return None


def observe(base: Observation, state: State) -> Observation:
    """The observation with the dialog open over ``base`` (the page it was opened on)."""
    waiting = pending_action(state)
    if waiting is None:
        return base
    return Observation(surface=base.surface, kind=base.kind, entities=base.entities,
                       available=(Action(CONFIRM), Action(CANCEL)),
                       context={**base.context, "confirm_dialog": describe(waiting)})


def describe(action: Action) -> str:
    """What the dialog asks: "Place order?" from ``PlaceOrder``."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", action.name).lower()
    return f"{words[:1].upper()}{words[1:]}?"
