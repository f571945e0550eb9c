"""Housing's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on housing tasks."""

from __future__ import annotations

from collections.abc import Callable

from webmdp.core.model import State, World
from webmdp.sites.housing.mdp import _cards
from webmdp.sites.housing.state import HousingState
from webmdp.sites.housing.world import AGENT_FIELDS
from webmdp.tasks.distance import Bound, Facts, InformedBound, Problem, Unseen, unmet
from webmdp.tasks.model import Condition


def housing_bound(p: Problem) -> Bound:
    """Housing. Facts used: only SaveHome adds a home to ``saved`` and only UnsaveHome takes
    one out, one home an action; each acts on the open home (PropertyDetail) or on a card of
    the list on screen (SearchResults, SavedHomes). Neither brings a home onto the screen
    (UnsaveHome on SavedHomes only takes a card away), so when some home still to be saved or
    unsaved is on no card and not open, another action comes first (on the tour form,
    SubmitTourRequest may be it). A tour and a message still to send add their own actions
    (:func:`_commits`). Every other unmet condition takes at least one action; the two parts
    may share it, so their maximum."""
    todo = _hearts(p)
    tour, contact = _forms(p)
    rest = [c for c in p.task.verifier
            if (c.fact != "saved" or c.op not in ("contains", "not_contains"))
            and c not in tour and c not in contact]
    world = p.world

    def bound(state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, HousingState)
        hearts = todo(state)
        on_form = state.surface == "TourRequest"
        h = len(hearts) + _commits(tour, contact, facts, on_form)
        if hearts and look:
            here = _here(state, world)
            h += any(x not in here for x in hearts) and not on_form  # Submit may be the way
        return float(max(h, unmet(rest, facts)))

    return bound


def _forms(p: Problem) -> tuple[list[Condition], list[Condition]]:
    """The task's conditions on the last tour booked and on the last message sent."""
    return ([c for c in p.task.verifier if c.fact.startswith("tour.")],
            [c for c in p.task.verifier if c.fact.startswith("contact.")])


def _commits(tour: list[Condition], contact: list[Condition], facts: Facts,
             on_form: bool) -> int:
    """A tour still to book: RequestTour and SubmitTourRequest (Submit alone on the form); a
    message still to send: ContactAgent. Neither changes the home on screen."""
    n = int(unmet(contact, facts))
    return n + (1 if on_form else 2) if unmet(tour, facts) else n


def _hearts(p: Problem) -> Callable[[HousingState], list[str]]:
    """The homes still to save or unsave in a state: one SaveHome or UnsaveHome each."""
    adds = [c.value for c in p.task.verifier if c.fact == "saved" and c.op == "contains"]
    drops = [c.value for c in p.task.verifier if c.fact == "saved" and c.op == "not_contains"]
    return lambda s: [h for h in adds if h not in s.saved] + [h for h in drops if h in s.saved]


def _here(s: HousingState, world: World) -> set[str | None]:
    """The homes a heart can act on without another action: the open one, or the cards."""
    return {s.focus} if s.surface == "PropertyDetail" else set(_cards(s, world))


def housing_informed(p: Problem) -> InformedBound:
    """Housing's bound on the informed distance (:mod:`webmdp.tasks.informed`): the hearts
    still to give or take, plus the other actions the path needs, which are at least one
    when a home still to save or unsave is on no card and not open (see
    :func:`housing_bound`), and at least the way into the nearest home whose detail fields
    are unseen and on through the others (a gap of 2 or more: two actions from one home's
    page to the next). A home's detail fields show on its PropertyDetail only (its listing
    agent's once ShowListingAgent opens them), which OpenProperty opens from a card on screen
    and CancelTour or SubmitTourRequest returns to from its tour form; SaveHome and UnsaveHome
    change no screen, so they reveal nothing, and the two counts add up.

    A tour still to book adds RequestTour and SubmitTourRequest (Submit alone on the tour
    form), a message still to send ContactAgent: RequestTour and ContactAgent change no home,
    and on the tour form, whose only ways out are Submit and Cancel, the way back to the
    home's page is taken one fewer time (Submit may be it).

    A home whose listing agent's fields are unseen adds its ShowListingAgent: they show only
    once it opens the 'Listed by' section of the home's page, which each OpenProperty shows
    closed, and it changes no home, heart or form."""
    todo = _hearts(p)
    world = p.world
    tour, contact = _forms(p)

    def bound(state: State, facts: Facts, unseen: Unseen, look: bool) -> float:
        assert isinstance(state, HousingState)
        hearts = todo(state)
        on_form = state.surface == "TourRequest"
        commits = float(len(hearts) + _commits(tour, contact, facts, on_form))
        agents = sum(not f.isdisjoint(AGENT_FIELDS) for _, _, fields in unseen for f in fields)
        if not look:
            return commits + max(agents, bool(unseen) - on_form)
        here = _here(state, world)
        nav = int(any(x not in here for x in hearts))
        near = here | ({state.focus} if on_form else set())
        page = state.focus if state.surface == "PropertyDetail" else None
        for gap, homes, _ in unseen:  # CancelTour goes back to the home's page
            # the open home's unseen fields are its agent's: its ShowListingAgent, counted
            first = 0 if page in homes else 1 if any(h in near for h in homes) else 2
            nav = max(nav, first + (len(homes) - 1) * (1 if gap == 1 else 2))
        return commits + max(0, nav - on_form) + agents

    return bound
