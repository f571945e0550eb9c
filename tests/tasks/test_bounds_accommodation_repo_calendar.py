"""The admissible bounds of Accommodation, Code Repo, Calendar and Housing (``bound`` modules).

Each bound must never exceed the true distance over the whole agent action space, and an
infinite bound must only be claimed where no goal is reachable. Checked three ways: against
the independent breadth-first search of ``test_distance`` (every oracle prefix of one task per
template, and seeded walks off the oracle path that prefer commits, wrong ones included); by
the oracle itself on every (template, hard-negative count); and by the MDP facts the proofs
rest on (the facts a bound calls final only ever grow).
"""

from __future__ import annotations

import collections
import math
import random

import pytest
from test_distance import _prefix_states, _successors, agent_actions, assert_exact

from support import site_tasks
from webmdp.core import Action, World
from webmdp.sites import get_site
from webmdp.tasks import Task
from webmdp.tasks.distance import clear_cache, distance_to_goal, lower_bound, state_after

SITES = ("accommodation", "repo", "calendar", "housing")


def _one_per_template(site: str) -> list[Task]:
    """The first task of each template with one hard negative (else the first one)."""
    out: dict[str, Task] = {}
    for t in site_tasks(site):
        if t.template not in out or (t.complexity.hard_negative_count == 1 and
                                     out[t.template].complexity.hard_negative_count != 1):
            out[t.template] = t
    return list(out.values())


@pytest.mark.parametrize("site", SITES)
def test_the_site_declares_a_bound(site: str) -> None:
    assert getattr(get_site(site), "distance_bound", None) is not None


@pytest.mark.parametrize("every", [2, pytest.param(1, marks=pytest.mark.slow)])
@pytest.mark.parametrize("site", SITES)
def test_equals_brute_force_on_every_oracle_prefix(site: str, every: int) -> None:
    """Depth 2: every prefix of one task per template (visits to hard negatives included);
    `make test` takes every second prefix, counted back from the final one, `make test-slow`
    all of them."""
    far = 0
    for task in _one_per_template(site):
        ds = [assert_exact(task, s, 2) for s in _prefix_states(task)[::-every]]
        assert ds[0] == 0, task.id
        far += sum(d is not None and d >= 2 for d in ds)
    assert far >= 3  # the searches had real work to do


WALKS = [("accommodation", 2, 10, 8), ("repo", 2, 30, 8), ("calendar", 2, 40, 6),
         pytest.param("repo", 2, 15, 8, marks=pytest.mark.slow),
         pytest.param("calendar", 2, 20, 6, marks=pytest.mark.slow),
         pytest.param("accommodation", 3, 45, 5, marks=pytest.mark.slow),
         pytest.param("repo", 3, 60, 4, marks=pytest.mark.slow)]
"""(site, BFS depth, task stride, steps per walk): depth 2 on many states, depth 3 on a few
(in `make test-slow`; Calendar offers about 150 actions a state, too many for depth 3). Repo
and Calendar walk from every second task of the full walks in `make test`, from all of them
in `make test-slow`."""


@pytest.mark.parametrize(("site", "cap", "stride", "steps"), WALKS)
def test_equals_brute_force_along_seeded_walks(site: str, cap: int, stride: int,
                                               steps: int) -> None:
    """Off-path states: seeded walks that prefer commits (a wrong booking, a hard negative
    starred or commented, an event saved with the wrong fields...) and actions on the task's
    own entities; the search equals the BFS and the bound stays below it."""
    rng = random.Random(f"bounds:{site}")
    seen: collections.Counter[int | None] = collections.Counter()
    commits = 0
    for task in site_tasks(site)[::stride]:
        own = {task.target, *task.hard_negatives, *task.companions}
        state = state_after(task, [])
        for _ in range(steps):
            seen[assert_exact(task, state, cap)] += 1
            moves = [a for a in agent_actions(task, state)
                     if own & {v for v in a.params.values() if isinstance(v, str)}
                     or get_site(site).action_spec(a.name).changes_state]
            preferred = _successors(task, state, moves) if rng.random() < 0.7 else []
            nxt = rng.choice(preferred or _successors(task, state))
            commits += get_site(site).facts(nxt) != get_site(site).facts(state)
            state = nxt
    assert len(seen) >= 3, seen  # goals, near and far states all occurred
    assert commits >= 3  # the walks changed the application's data, not only the screen


# -- the facts the proofs rest on ---------------------------------------------------------------
GROWING = {
    "accommodation": ("checkout.abandoned", "cancelled.listings", "cancelled.reservations"),
    "repo": ("commented", "closed", "reopened", "merged"),
    "calendar": ("edited",),
    "housing": ("toured", "contacted"),  # no final fact: the bound is never infinite
}


def _watch(facts: dict) -> dict:
    return {k: v for k, v in facts.items() if k.startswith(("watch.", "merge_method."))}


@pytest.mark.parametrize("site", SITES)
def test_final_facts_only_grow(site: str) -> None:
    """What a bound calls final (an infinite bound where a hard negative is in it) never
    leaves: over every successor of seeded walks' states, these list facts only grow; in Code
    Repo a watch or merge method, once set, stays set (a merge method never changes); in
    Calendar new events can never be opened (so never edited)."""
    rng = random.Random(f"final:{site}")
    site_obj = get_site(site)
    checked = 0
    for task in site_tasks(site)[::20]:
        world = World.from_dict(task.world)
        state = state_after(task, [])
        for _ in range(12):
            before = site_obj.facts(state)
            children = _successors(task, state)
            for child in children:
                after = site_obj.facts(child)
                for fact in GROWING[site]:
                    assert set(before.get(fact, ())) <= set(after.get(fact, ())), (task.id, fact)
                if site == "repo":
                    assert set(_watch(before)) <= set(_watch(after))
                    assert all(after[k] == v for k, v in _watch(before).items()
                               if k.startswith("merge_method."))
                checked += 1
            if site == "calendar":
                offered = site_obj.observe(state, world).available
                assert not any(str(a.params.get("event_id")).startswith("NEW-") for a in offered)
            state = rng.choice(children)
    assert checked > 200


def _book(task: Task, listing: str) -> list[Action]:
    """Open ``listing`` and start its checkout with the oracle's dates and guests."""
    book = next(a for a in task.oracle_actions() if a.name == "BookListing")
    return [Action("ViewListing", {"listing_id": listing}), book]


def _opened_negative(task: Task, opener: str, param: str) -> str:
    """The first hard negative the oracle opens (so it is on screen where the oracle is)."""
    return next(a.params[param] for a in task.oracle_actions()
                if a.name == opener and a.params[param] in task.hard_negatives)


def test_accommodation_dead_ends_and_repairs() -> None:
    """A hard negative's checkout abandoned is final; a wrong booking is repaired by cancelling
    it (the search finds the exact count, the bound stays below)."""
    task = next(t for t in site_tasks("accommodation") if t.template == "abandon_checkout"
                and t.complexity.hard_negative_count >= 1)
    first = task.oracle_actions()[:3]  # search, type, sort: the group on screen
    hn = _opened_negative(task, "ViewListing", "listing_id")
    left = state_after(task, [*first, *_book(task, hn), Action("CancelCheckout")])
    assert lower_bound(task, left) == math.inf
    assert distance_to_goal(task, left) is None
    booking = next(t for t in site_tasks("accommodation") if t.template == "top_rated_flexible"
                   and t.complexity.hard_negative_count >= 1)
    head = booking.oracle_actions()[:3]
    wrong = state_after(booking, [*head, *_book(booking, _opened_negative(booking, "ViewListing",
                                                                      "listing_id")),
                                  Action("ConfirmBooking")])
    d = assert_exact(booking, wrong, 2)
    assert d is not None and lower_bound(booking, wrong) <= d


def test_repo_dead_end_and_unstar() -> None:
    """Closing a hard negative is final; a hard negative starred costs one UnstarRepo."""
    close = next(t for t in site_tasks("repo") if t.template == "close_issue_in_milestone"
                 and t.complexity.hard_negative_count >= 1)
    actions = close.oracle_actions()
    hn = _opened_negative(close, "OpenIssue", "issue_id")
    opened = state_after(close, actions[:4])  # the filtered list, the issues on screen
    shut = state_after(close, [*actions[:4], Action("OpenIssue", {"issue_id": hn}),
                               Action("CloseIssue")])
    assert lower_bound(close, shut) == math.inf
    assert distance_to_goal(close, shut) is None
    assert assert_exact(close, opened, 2) == 2
    star = next(t for t in site_tasks("repo") if t.template == "fork_default_branch")
    opened_hn = state_after(star, star.oracle_actions()[:2])
    hn = _opened_negative(star, "OpenRepo", "repo_id")
    starred = get_site("repo").step(opened_hn, Action("StarRepo", {"repo_id": hn}),
                                    World.from_dict(star.world))
    d = assert_exact(star, starred, 3)
    assert d is not None and d >= 3 and lower_bound(star, starred) <= d


def test_calendar_blocked_slot_is_costed() -> None:
    """An event moved into the slot a new event needs must be moved away first (open it, edit,
    save), then the new event is created and saved: the bound counts it and stays below."""
    task = next(t for t in site_tasks("calendar") if t.template == "follow_up_same_guests")
    save = task.oracle_actions()[-1]
    moved = state_after(task, [*task.oracle_actions()[:2], Action("EditEvent"),
                               Action("SaveEvent", save.params)])
    clear_cache()
    d = distance_to_goal(task, moved)
    assert d is not None and d >= 4, d  # open it, edit, save elsewhere, create, save
    assert 4 <= lower_bound(task, moved) <= d
    made = state_after(task, [Action("CreateEvent"), Action("SaveEvent", save.params)])
    assert distance_to_goal(task, made) == 0
    again = get_site("calendar").step(made, Action("CreateEvent"), World.from_dict(task.world))
    again = get_site("calendar").step(again, Action("SaveEvent", {**save.params, "title": "x"}),
                                      World.from_dict(task.world))
    assert lower_bound(task, again) == math.inf  # a new event is in the slot for good
    assert distance_to_goal(task, again) is None
