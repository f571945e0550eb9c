"""Housing's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on housing tasks."""

from __future__ import annotations

from webmdp.core.model import State
from webmdp.sites.housing.mdp import _cards
from webmdp.sites.housing.state import HousingState
from webmdp.tasks.distance import Bound, Facts, Problem, unmet


def housing_bound(p: Problem) -> Bound:
    """Housing. Facts used: only SaveHome adds a home to ``saved`` and only UnsaveHome takes
    one out, one home an action; each acts on the open home (PropertyDetail) or on a card of
    the list on screen (SearchResults, SavedHomes). Neither brings a home onto the screen
    (UnsaveHome on SavedHomes only takes a card away), so when some home still to be saved or
    unsaved is on no card and not open, another action comes first. Every other unmet
    condition takes at least one action; the two parts may share it, so their maximum."""
    adds = [c.value for c in p.task.verifier if c.fact == "saved" and c.op == "contains"]
    drops = [c.value for c in p.task.verifier if c.fact == "saved" and c.op == "not_contains"]
    rest = [c for c in p.task.verifier
            if c.fact != "saved" or c.op not in ("contains", "not_contains")]
    world = p.world

    def bound(state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, HousingState)
        todo = [h for h in adds if h not in state.saved]
        todo += [h for h in drops if h in state.saved]
        h = len(todo)
        if todo and look:
            here = ({state.focus} if state.surface == "PropertyDetail"
                    else set(_cards(state, world)))
            h += any(x not in here for x in todo)
        return float(max(h, unmet(rest, facts)))

    return bound
