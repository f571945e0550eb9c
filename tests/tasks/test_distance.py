"""distance_to_goal: exact shortest distances to a task's goal over the agent action space.

Exactness is checked against an independent breadth-first search written here (its own action
enumeration, its own deduplication by ``repr``) up to a depth cap, on every oracle prefix of a
few small tasks and on states off the oracle path; everywhere else by the Bellman equation
and the oracle: d(final) == 0, d(prefix k) <= len(oracle) - k, d(s) <= 1 + d(T(s, a)).
"""

from __future__ import annotations

import collections
import itertools
import math
import random
from functools import cache

import pytest

from support import site_tasks
from webmdp.core import Action, State, World
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.tasks import Task
from webmdp.tasks.distance import (
    at_goal,
    candidate_actions,
    clear_cache,
    distance_to_goal,
    lower_bound,
    reach,
    state_after,
    value_of,
)
from webmdp.tasks.verifier import check_condition

SITES = ("shopping", "mail")


# -- an independent model of the documented action space and a plain BFS ----------------------
@cache
def _world(site: str, task_id: str) -> World:
    return World.from_dict(next(t for t in site_tasks(site) if t.id == task_id).world)


def _first(site: str, template: str, hn: int) -> Task:
    return next(t for t in site_tasks(site)
                if t.template == template and t.complexity.hard_negative_count == hn)


def agent_actions(task: Task, state: State) -> list[Action]:
    """Every offered action; a parameter it leaves open takes the oracle's values for that
    action and parameter, then the site's example value, and an optional one may be left out."""
    site, world = get_site(task.site), _world(task.site, task.id)
    out = []
    for offered in site.observe(state, world).available:
        choices: list[list[dict]] = []
        for p in site.action_spec(offered.name).params:
            if p.name in offered.params:
                continue
            values = [a.params[p.name] for a in task.oracle_actions()
                      if a.name == offered.name and p.name in a.params]
            if p.name in site.example_params:
                values.append(site.example_params[p.name])
            choices.append([{p.name: v} for v in values] + ([{}] if p.optional else []))
        for combo in itertools.product(*choices):
            params = dict(offered.params)
            for part in combo:
                params.update(part)
            out.append(Action(offered.name, params))
    return out


def _successors(task: Task, state: State, actions: list[Action] | None = None) -> list[State]:
    site, world = get_site(task.site), _world(task.site, task.id)
    out = []
    for a in agent_actions(task, state) if actions is None else actions:
        try:
            out.append(site.step(state, a, world))
        except InvalidAction:
            continue
    return out


def _goal(task: Task, state: State) -> bool:
    facts = get_site(task.site).facts(state)
    return all(check_condition(c, facts) for c in task.verifier)


def brute_force(task: Task, state: State, cap: int) -> int | None:
    """Shortest distance by level-by-level BFS up to ``cap``; None when it is larger."""
    if _goal(task, state):
        return 0
    level, seen = [state], {repr(state)}
    for depth in range(1, cap + 1):
        nxt = []
        for s in level:
            for child in _successors(task, s):
                if repr(child) in seen:
                    continue
                seen.add(repr(child))
                if _goal(task, child):
                    return depth
                nxt.append(child)
        level = nxt
    return None


def assert_exact(task: Task, state: State, cap: int) -> int | None:
    clear_cache()
    d = distance_to_goal(task, state)
    assert lower_bound(task, state) <= (math.inf if d is None else d)
    truth = brute_force(task, state, cap)
    if truth is not None:
        assert d == truth, (task.id, state)
    else:
        assert d is None or d > cap, (task.id, state, d)
    return d


def _prefix_states(task: Task) -> list[State]:
    actions = task.oracle_actions()
    return [state_after(task, actions[:k]) for k in range(len(actions) + 1)]


# -- the oracle: every template, every hard-negative count -------------------------------------
@pytest.mark.parametrize("site", (*SITES, "accommodation", "repo", "calendar"))
def test_distance_along_every_oracle_prefix(site: str) -> None:
    """d(final) = 0, d(prefix k) <= len - k, the bound never above d, one oracle step lowers d
    by at most one (the other sites with bounds: tests/tasks/test_bounds_*.py)."""
    sample = {(t.template, t.complexity.hard_negative_count): t for t in site_tasks(site)}
    assert {hn for _, hn in sample} == {0, 1, 2, 3}
    assert {tpl for tpl, _ in sample} == set(get_site(site).templates)
    for task in sample.values():
        clear_cache()
        states = _prefix_states(task)
        ds = [distance_to_goal(task, s) for s in states]
        n = len(states) - 1
        assert ds[-1] == 0, task.id
        for k, (s, d) in enumerate(zip(states, ds, strict=True)):
            assert d is not None and d <= n - k, (task.id, k, ds)
            assert lower_bound(task, s) <= d, (task.id, k)
        for k in range(n):  # one oracle step lowers d by at most one: d(s) <= 1 + d(T(s, a))
            assert ds[k] <= 1 + ds[k + 1], (task.id, k, ds)


@pytest.mark.parametrize("site", SITES)
def test_initial_state_is_away_from_the_goal_unless_already_solved(site: str) -> None:
    for task in site_tasks(site):
        start = state_after(task, [])
        d = distance_to_goal(task, start)
        assert d is not None and d <= len(task.oracle), task.id
        assert (d == 0) == _goal(task, start) == at_goal(task, start), task.id
        assert d > 0, task.id  # no generated task starts solved


# -- exactness against the independent BFS ----------------------------------------------------
SHOPPING_TEMPLATES = ("find_product_extract", "cheapest_filter_sort", "cart_add_two_remove_one",
                      "compare_detail_pages", "checkout_with_options", "review_extract")
SMALL = [*(("shopping", tpl, 3) for tpl in SHOPPING_TEMPLATES),
         *(("mail", tpl, 2) for tpl in ("find_email_extract", "label_by_cc",
                                        "delete_by_signature"))]


@pytest.mark.parametrize(("site", "template", "cap"), SMALL)
def test_equals_brute_force_on_every_oracle_prefix(site: str, template: str, cap: int) -> None:
    """Shopping to depth 3, Mail (about 140 actions a state) to depth 2; hard negative count 1,
    so the prefixes include visits to a hard negative; labelling needs two actions."""
    task = next(t for t in site_tasks(site) if t.template == template
                and t.complexity.hard_negative_count == 1 and t.params.get("action") != "star")
    ds = [assert_exact(task, s, cap) for s in _prefix_states(task)]
    assert any(d is not None and d >= 2 for d in ds), ds  # the search had real work to do


def test_off_path_shopping_states_match_brute_force() -> None:
    task = next(t for t in site_tasks("shopping") if t.template == "find_product_extract"
                and t.complexity.hard_negative_count == 1 and t.params["query"] != "headphones")
    hn, query = task.hard_negatives[0], task.oracle_actions()[0]
    wrong = state_after(task, [Action("Search", {"query": "headphones"})])
    assert assert_exact(task, wrong, 3) == 3
    opened = state_after(task, [query, Action("OpenProduct", {"product_id": hn})])
    assert assert_exact(task, opened, 3) == 3  # back, open the target, add it
    added = state_after(task, [query, Action("OpenProduct", {"product_id": hn}),
                               Action("AddToCart")])
    # beyond the cap: the BFS only proves d > 3; by hand it is 5 (back, open, add, cart, remove)
    assert assert_exact(task, added, 3) == 5


def test_off_path_mail_states_match_brute_force() -> None:
    task = next(t for t in site_tasks("mail") if t.template == "find_email_extract"
                and t.params["action"] == "star" and t.complexity.hard_negative_count >= 1)
    search = task.oracle_actions()[0]
    wrong = state_after(task, [Action("SearchEmails", {"query": "budget review"})])
    assert assert_exact(task, wrong, 2) is not None
    starred = state_after(task, [search, Action("Star", {"thread_id": task.hard_negatives[0]})])
    assert assert_exact(task, starred, 2) == 2  # unstar it, star the target


@pytest.mark.parametrize(("site", "cap", "stride", "steps"),
                         [("shopping", 3, 20, 5), ("mail", 2, 60, 4)])
def test_equals_brute_force_along_seeded_walks(site: str, cap: int, stride: int,
                                               steps: int) -> None:
    """Off-path states: a seeded walk that prefers commits and actions on the task's own
    entities (hard negatives put into the cart, starred, labelled, wrong messages...)."""
    rng = random.Random(f"distance:{site}")
    seen: collections.Counter[int | None] = collections.Counter()
    for task in site_tasks(site)[::stride]:
        own = {task.target, *task.hard_negatives, *task.companions}
        state = state_after(task, [])
        for _ in range(steps):
            seen[assert_exact(task, state, cap)] += 1
            moves = [a for a in agent_actions(task, state)
                     if own & {v for v in a.params.values() if isinstance(v, str)}
                     or get_site(site).action_spec(a.name).changes_state]
            preferred = _successors(task, state, moves) if rng.random() < 0.7 else []
            state = rng.choice(preferred or _successors(task, state))
    assert len(seen) >= 3, seen  # goals, near and far states all occurred


def _bellman_states() -> list[tuple[Task, State]]:
    find = _first("shopping", "find_product_extract", 2)
    checkout = _first("shopping", "checkout_with_options", 1)
    query, hn = find.oracle_actions()[0], find.hard_negatives[0]
    crowded = _first("shopping", "checkout_with_options", 3)
    fill = [crowded.oracle_actions()[0]]
    for h in crowded.hard_negatives:  # three wrong lines: one PlaceOrder beats three removals
        fill += [Action("OpenProduct", {"product_id": h}), Action("AddToCart"),
                 Action("BackToResults")]
    return [
        (find, state_after(find, [query, Action("OpenProduct", {"product_id": hn}),
                                  Action("AddToCart")])),
        (checkout, state_after(checkout, checkout.oracle_actions()[:1])),
        (checkout, state_after(checkout, [*checkout.oracle_actions()[:-4], Action("GoHome")])),
        (crowded, state_after(crowded, [*fill, Action("OpenCart")])),
        (crowded, state_after(crowded, [*fill, Action("OpenCart"), Action("ProceedToCheckout")])),
    ]


@pytest.mark.parametrize("case", range(5))
def test_bellman_equation_holds_beyond_the_brute_force_cap(case: int) -> None:
    """d(s) = 1 + min over successors of d(s'), at states too far for the BFS."""
    task, state = _bellman_states()[case]
    clear_cache()
    d = distance_to_goal(task, state)
    children = [distance_to_goal(task, c) for c in _successors(task, state)]
    finite = [c for c in children if c is not None]
    assert d is not None and d > 3
    assert d == 1 + min(finite)
    assert all(d <= 1 + c for c in finite)
    assert lower_bound(task, state) <= d


# -- the action space, replay, value, limits, cache --------------------------------------------
@pytest.mark.parametrize("site", SITES)
def test_candidate_actions_are_the_documented_space(site: str) -> None:
    def key(a: Action) -> str:
        return f"{a.name}{sorted(a.params.items())}"

    for task in site_tasks(site)[::30]:
        for state in _prefix_states(task):
            assert sorted(map(key, candidate_actions(task, state))) == \
                sorted(set(map(key, agent_actions(task, state))))


def test_states_hash_so_the_search_deduplicates_them() -> None:
    for site in SITES:
        task = site_tasks(site)[0]
        for a, b in zip(_prefix_states(task), _prefix_states(task), strict=True):
            copy = b.replace()  # a distinct object (a site may cache its initial state)
            assert copy is not a and a == b == copy and hash(a) == hash(b) == hash(copy)


def test_state_after_replays_and_names_the_failing_step() -> None:
    task = site_tasks("shopping")[0]
    assert at_goal(task, state_after(task, task.oracle_actions()))
    with pytest.raises(InvalidAction) as err:
        state_after(task, [Action("GoHome"), Action("AddToCart")])
    assert err.value.task_id == task.id and err.value.step == 1


def test_value_of() -> None:
    assert value_of(0) == 1.0
    assert value_of(3) == 0.25
    assert value_of(None) == 0.0


def test_expansion_limit_gives_none_and_a_larger_limit_recovers() -> None:
    task = _first("shopping", "checkout_with_options", 0)
    start = state_after(task, [])
    clear_cache()
    assert distance_to_goal(task, start, max_expansions=3) is None
    assert distance_to_goal(task, start, max_expansions=3) is None  # asked again: same
    assert distance_to_goal(task, start) == 9
    assert distance_to_goal(task, state_after(task, task.oracle_actions()),
                            max_expansions=0) == 0


def test_a_wrong_message_sent_is_a_dead_end() -> None:
    task = _first("mail", "reply_after_expanding", 0)
    sent = state_after(task, [Action("Compose"),
                              Action("AddRecipient", {"address": "alex.doe@example.com"}),
                              Action("Send")])
    assert lower_bound(task, sent) == math.inf
    assert distance_to_goal(task, sent) is None
    assert value_of(distance_to_goal(task, sent)) == 0.0


def test_reach_tells_unreachable_from_unknown() -> None:
    """Three ways: a distance, a provably unreachable goal, a budget that ran out."""
    task = _first("mail", "reply_after_expanding", 0)
    start = state_after(task, [])
    sent = state_after(task, [Action("Compose"),
                              Action("AddRecipient", {"address": "alex.doe@example.com"}),
                              Action("Send")])
    clear_cache()
    budget = reach(task, start, max_expansions=1)
    assert (budget.distance, budget.unreachable, budget.known) == (None, False, False)
    dead = reach(task, sent)
    assert (dead.distance, dead.unreachable, dead.known) == (None, True, True)
    found = reach(task, start)
    assert found.known and not found.unreachable
    assert found.distance == distance_to_goal(task, start)
    assert 0 < found.distance <= len(task.oracle_actions())
    assert reach(task, sent, max_expansions=0).unreachable  # cached as proved


def test_cache_follows_task_content_not_just_its_id() -> None:
    task = _first("shopping", "find_product_extract", 0)
    start = state_after(task, [])
    assert distance_to_goal(task, start) == 3
    solved = task.model_copy(update={"verifier": []})
    assert distance_to_goal(solved, start) == 0
    assert distance_to_goal(task, start) == 3


@pytest.mark.parametrize("site", ["shopping", "mail", "calendar", "chat", "food", "housing",
                                  "jobs", "qa", "repo", "accommodation"])
def test_focused_search_finds_the_same_distances(site: str) -> None:
    """The grading search skips actions on entities the task does not name; on states a
    noisy walk reaches (an offered action, then the oracle goes on), both searches agree
    wherever both settle."""
    rng = random.Random(7)
    compared = 0
    for task in site_tasks(site)[::180]:
        site_obj = get_site(site)
        world = _world(site, task.id)
        state = site_obj.initial_state(world)
        for action in task.oracle_actions()[:4]:
            offered = site_obj.observe(state, world).available
            detour = rng.choice(offered)
            for s in (state, _try(site_obj, state, detour, world)):
                full = reach(task, s, max_expansions=300)
                focused = reach(task, s, max_expansions=300, focused=True)
                if full.known and focused.known:
                    assert (full.distance, full.unreachable) == \
                        (focused.distance, focused.unreachable), (task.id, detour)
                    compared += 1
            state = site_obj.step(state, action, world)
    assert compared >= 2


def _try(site, state: State, action: Action, world: World) -> State:  # type: ignore[no-untyped-def]
    try:
        return site.step(state, action, world)
    except InvalidAction:
        return state
