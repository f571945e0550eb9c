"""Bifurcation points (WebSTEP 4.3): hand-built trajectories with known answers, the alignment
state of both sites, and greedy failures against the oracle on generated tasks."""

from __future__ import annotations

import random
from typing import Any

import pytest

from support import random_walk, site_tasks
from webmdp.agents import GreedyAgent, OracleAgent
from webmdp.core.model import State, World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.env.semantic import SemanticEnv
from webmdp.errors import ConfigError, InvalidAction
from webmdp.eval.bifurcation import (
    INITIAL,
    ORACLE,
    Bifurcation,
    Trajectory,
    align,
    bifurcation_summary,
    bifurcations,
    find_bifurcation,
    oracle_trajectory,
    trajectory,
    trajectory_states,
)
from webmdp.runner.episode import run_episode
from webmdp.sites import get_site
from webmdp.tasks.distance import state_after
from webmdp.tasks.model import Complexity, Task
from webmdp.trace import EpisodeTrace, GUIStep, Restore, SemanticTransition
from webmdp.tracking import state_key

CATEGORY = {"Search": "search", "SetCategory": "filter", "OpenProduct": "inspect",
            "BackToResults": "navigate", "SortBy": "filter", "AddToCart": "commit",
            "SelectOption": "commit", "RemoveFromCart": "commit"}


# -- hand-built episodes on a site we do not implement: only the recorded keys count ---------
def tr(action: str, key: str, *, error: str | None = None) -> SemanticTransition:
    """A valid transition to the state keyed ``key`` (or a rejected one)."""
    cat = CATEGORY[action]
    return SemanticTransition(action=action, category=cat, surface_before="", surface_after="",
                              changes_state=cat == "commit", state_key=key, error=error)


def episode(agent: str, *moves: SemanticTransition, success: bool = False,
            **kw: Any) -> EpisodeTrace:
    steps = [GUIStep(index=i, action={"name": m.action}, transitions=[m])
             for i, m in enumerate(moves)]
    return EpisodeTrace(task_id="elsewhere_0001", site="elsewhere", template="t", agent=agent,
                        mode="browser", seed=0, steps=steps, success=success, **kw)


def foreign_task() -> Task:
    return Task(id="elsewhere_0001", site="elsewhere", template="t", index=1, seed=0,
                instruction="add T", params={}, target="T", hard_negatives=["H"], fillers=[],
                verifier=[], oracle=[], info_constraints=[],
                complexity=Complexity(hard_negative_count=1, oracle_length=5,
                                      access_level="detail"), world={})


TASK = foreign_task()
# The successful reference: search, inspect the hard negative H, back, inspect T, add T.
REF = episode("ref", tr("Search", "res"), tr("OpenProduct", "h"), tr("BackToResults", "res"),
              tr("OpenProduct", "t"), tr("AddToCart", "t+cart"), success=True)


def against_ref(*moves: SemanticTransition) -> Bifurcation | None:
    return find_bifurcation(trajectory(episode("fail", *moves), TASK), trajectory(REF, TASK))


def test_recorded_keys_start_from_the_shared_initial_sentinel() -> None:
    assert trajectory_states(REF, TASK) == [INITIAL, "res", "h", "res", "t", "t+cart"]


def test_wrong_branch_reports_the_failing_next_category() -> None:
    b = against_ref(tr("Search", "res"), tr("SetCategory", "res+cat"), tr("OpenProduct", "x"))
    assert b is not None
    assert (b.kind, b.index, b.reference_index, b.state_key) == ("wrong_branch", 1, 1, "res")
    assert (b.failing_action, b.failing_category) == ("SetCategory", "filter")
    assert (b.reference_action, b.reference_category) == ("OpenProduct", "inspect")
    assert b.suffix_categories == [] and b.plotted() == ["filter"]


def test_delayed_commit_reports_the_failing_suffix() -> None:
    """On T's page the reference adds it; the failing agent goes back (to a results state the
    reference left earlier, so no realignment), opens H and adds H."""
    b = against_ref(tr("Search", "res"), tr("OpenProduct", "t"), tr("BackToResults", "res"),
                    tr("OpenProduct", "h"), tr("AddToCart", "h+cart"))
    assert b is not None
    assert (b.kind, b.index, b.reference_index) == ("delayed_commit", 2, 4)
    assert (b.failing_action, b.reference_action) == ("BackToResults", "AddToCart")
    assert b.suffix_categories == ["navigate", "inspect", "commit"] == b.plotted()


def test_premature_commit_reports_the_skipped_reference_suffix_up_to_its_commit() -> None:
    b = against_ref(tr("Search", "res"), tr("OpenProduct", "h"), tr("AddToCart", "h+cart"))
    assert b is not None
    assert (b.kind, b.index, b.reference_index) == ("premature_commit", 2, 2)
    assert (b.failing_category, b.reference_category) == ("commit", "navigate")
    assert b.suffix_categories == ["navigate", "inspect"]
    assert (b.failing_length, b.reference_length) == (3, 5)


def test_both_committing_differently_is_a_wrong_commit() -> None:
    b = against_ref(tr("Search", "res"), tr("OpenProduct", "h"), tr("BackToResults", "res"),
                    tr("OpenProduct", "t"), tr("SelectOption", "t-red"))
    assert b is not None
    assert (b.kind, b.index, b.failing_action, b.reference_action) == (
        "wrong_commit", 4, "SelectOption", "AddToCart")
    assert b.plotted() == ["commit"]


def test_a_strict_prefix_of_the_reference_stopped_early() -> None:
    b = against_ref(tr("Search", "res"), tr("OpenProduct", "h"))
    assert b is not None
    assert (b.kind, b.index, b.reference_index) == ("stopped_early", 2, 2)
    assert (b.failing_action, b.failing_category, b.reference_action) == (
        None, None, "BackToResults")
    assert b.suffix_categories == ["navigate", "inspect", "commit"]


def test_an_empty_trajectory_stops_at_the_initial_state() -> None:
    b = against_ref(tr("AddToCart", "", error="AddToCart: no product open"))
    assert b is not None
    assert (b.kind, b.index, b.state_key, b.failing_length) == ("stopped_early", 0, INITIAL, 0)
    assert b.suffix_categories == ["search", "inspect", "navigate", "inspect", "commit"]


def test_going_on_after_the_reference_ended_is_a_delayed_commit() -> None:
    """The failing agent reaches the reference's final state and removes T again."""
    b = against_ref(tr("Search", "res"), tr("OpenProduct", "h"), tr("BackToResults", "res"),
                    tr("OpenProduct", "t"), tr("AddToCart", "t+cart"),
                    tr("RemoveFromCart", "t"))
    assert b is not None
    assert (b.kind, b.index, b.reference_index) == ("delayed_commit", 5, 5)
    assert (b.reference_action, b.suffix_categories) == (None, ["commit"])


def test_an_identical_failing_trajectory_has_no_bifurcation() -> None:
    same = episode("fail", *(s.transitions[0] for s in REF.steps), final_answer="wrong")
    assert find_bifurcation(trajectory(same, TASK), trajectory(REF, TASK)) is None
    skipped: list[tuple[str, str]] = []
    assert bifurcations([(REF, TASK), (same, TASK)], skipped=skipped) == []
    assert len(skipped) == 1 and "no divergence" in skipped[0][1]


def test_no_shared_state_gives_no_bifurcation() -> None:
    moves = trajectory(REF, TASK).moves
    other = Trajectory(TASK.id, "a", "browser", tuple("ABCDEF"), moves)
    assert align(other.states, trajectory(REF, TASK).states) is None
    assert find_bifurcation(other, trajectory(REF, TASK)) is None


def test_without_any_commit_the_reference_end_is_the_time_to_finish() -> None:
    ref = episode("ref", tr("Search", "res"), tr("OpenProduct", "t"), success=True)
    late = episode("fail", tr("Search", "res"), tr("OpenProduct", "t"),
                   tr("BackToResults", "res"))
    off = episode("fail", tr("Search", "res"), tr("OpenProduct", "h"))
    b = find_bifurcation(trajectory(late, TASK), trajectory(ref, TASK))
    assert b is not None and (b.kind, b.index, b.suffix_categories) == (
        "delayed_commit", 2, ["navigate"])
    b = find_bifurcation(trajectory(off, TASK), trajectory(ref, TASK))
    assert b is not None and (b.kind, b.index, b.failing_category) == (
        "wrong_branch", 1, "inspect")


def test_alignment_resyncs_after_a_detour_and_keeps_the_last_shared_state() -> None:
    """Opening X and coming back to the results is a detour; the failure is adding H."""
    b = against_ref(tr("Search", "res"), tr("OpenProduct", "x"), tr("BackToResults", "res"),
                    tr("OpenProduct", "h"), tr("AddToCart", "h+cart"))
    assert b is not None
    assert (b.kind, b.index, b.reference_index) == ("premature_commit", 4, 2)


def test_a_reference_move_that_stays_in_the_state_is_skipped() -> None:
    ref = episode("ref", tr("Search", "res"), tr("SortBy", "res"), tr("OpenProduct", "t"),
                  tr("AddToCart", "t+cart"), success=True)
    b = find_bifurcation(trajectory(episode("fail", tr("Search", "res"), tr("OpenProduct", "x")),
                                    TASK), trajectory(ref, TASK))
    assert b is not None
    assert (b.index, b.reference_index, b.reference_action) == (1, 2, "OpenProduct")


def test_a_restore_rewinds_the_failing_path() -> None:
    """Tree search: H opened, then the session restored to the results before X is opened;
    the abandoned branch is not part of the path."""
    trace = episode("tree", tr("Search", "res"), tr("OpenProduct", "h"), tr("OpenProduct", "x"),
                    restores=[Restore(before_step=2, snapshot="snap-1", state_key="res")])
    path = trajectory(trace, TASK)
    assert path.states == (INITIAL, "res", "x")
    assert [m.action for m in path.moves] == ["Search", "OpenProduct"]
    b = find_bifurcation(path, trajectory(REF, TASK))
    assert b is not None and (b.kind, b.index) == ("wrong_branch", 1)


def test_trajectories_of_different_tasks_do_not_align() -> None:
    other = Trajectory("elsewhere_0002", "a", "browser", (INITIAL,), ())
    with pytest.raises(ConfigError, match="cannot align"):
        find_bifurcation(other, trajectory(REF, TASK))


# -- choosing the reference ------------------------------------------------------------------
def test_reference_is_the_shortest_success_of_another_agent_ties_by_label() -> None:
    fail = episode("fail", tr("Search", "res"), tr("OpenProduct", "h"), tr("AddToCart", "h+c"))
    short_b = episode("b", tr("Search", "res"), tr("OpenProduct", "t"), tr("AddToCart", "t+cart"),
                      success=True)
    short_a = short_b.model_copy(update={"agent": "a"})
    own = episode("fail", tr("Search", "res"), tr("AddToCart", "t+cart"),
                  success=True).model_copy(update={"mode": "semantic"})
    same_label = episode("fail", tr("AddToCart", "t+cart"), success=True)
    rows = bifurcations([(fail, TASK), (REF, TASK), (short_b, TASK), (short_a, TASK),
                         (same_label, TASK)])
    assert [r.reference for r in rows] == ["a (browser)"]
    # the same agent in another mode is another trajectory, and the shortest here
    rows = bifurcations([(fail, TASK), (REF, TASK), (own, TASK)])
    assert [r.reference for r in rows] == ["fail (semantic)"]


def test_without_a_success_a_foreign_task_is_skipped_with_the_reason() -> None:
    fail = episode("fail", tr("Search", "res"))
    crashed = episode("crash", tr("Search", "res"), termination="infra_error",
                      infra_error="BrowserError: crashed")
    skipped: list[tuple[str, str]] = []
    assert bifurcations([(fail, TASK), (crashed, TASK)], skipped=skipped) == []
    assert skipped == [("fail/browser/elsewhere_0001",
                        "bifurcation: no successful episode of another agent, and site "
                        "'elsewhere' is not implemented here: its oracle cannot be replayed")]


def test_recorded_keys_are_required_on_a_foreign_site() -> None:
    skipped: list[tuple[str, str]] = []
    keyless = episode("fail", tr("Search", ""))
    assert bifurcations([(keyless, TASK), (REF, TASK)], skipped=skipped) == []
    assert "no state keys" in skipped[0][1]


def test_summary_counts_kinds_and_distributes_categories() -> None:
    fails = [
        episode("x", tr("Search", "res"), tr("SetCategory", "c")),  # wrong branch: filter
        episode("x", tr("Search", "res"), tr("OpenProduct", "x")),  # wrong branch: inspect
        episode("x", tr("Search", "res"), tr("OpenProduct", "h"), tr("AddToCart", "hc")),
        episode("y", tr("Search", "res"), tr("OpenProduct", "t"), tr("BackToResults", "res"),
                tr("SetCategory", "c")),  # delayed: navigate, filter
        episode("y", tr("AddToCart", "", error="no product open")),  # stopped early: all of REF
    ]
    rows = [find_bifurcation(trajectory(f, TASK), trajectory(REF, TASK)) for f in fails]
    assert all(r is not None for r in rows)
    summary = bifurcation_summary([r for r in rows if r is not None])
    x, y = summary["x (browser)"], summary["y (browser)"]
    assert x["failures"] == 3 and x["references"] == {"agent": 3}
    assert x["counts"] == {"wrong_branch": 2, "delayed_commit": 0, "premature_commit": 1,
                           "wrong_commit": 0, "stopped_early": 0}
    assert x["categories"]["wrong_branch"] == {"filter": 1, "inspect": 1}
    assert x["shares"]["premature_commit"] == {"inspect": 0.5, "navigate": 0.5}
    assert y["counts"]["delayed_commit"] == y["counts"]["stopped_early"] == 1
    assert y["shares"]["delayed_commit"] == {"filter": 0.5, "navigate": 0.5}
    assert list(y["categories"]["stopped_early"].items()) == [  # in SKILL_ORDER
        ("search", 1), ("inspect", 2), ("navigate", 1), ("commit", 1)]
    assert y["categories"]["wrong_commit"] == {} and y["shares"]["wrong_commit"] == {}


# -- the alignment state of our sites --------------------------------------------------------
def _fill(site: Site, a: Action) -> Action:
    """Give an offered action the parameters an agent would type."""
    params = dict(a.params)
    for p in site.action_spec(a.name).params:
        if p.name not in params and not p.optional:
            params[p.name] = site.example_params.get(p.name, 1)
    return Action(a.name, params)


def _walk_states(site: Site, n_tasks: int, steps: int) -> list[tuple[World, State]]:
    out: list[tuple[World, State]] = []
    for task in site_tasks(site.name)[:n_tasks]:
        world = World.from_dict(task.world)
        walk = random_walk(site, world, random.Random(task.id), steps,
                           lambda a: _fill(site, a))
        out += [(world, s) for s in walk]
    return out


@pytest.mark.parametrize("site_name", ["shopping", "mail"])
def test_alignment_state_is_a_behavioural_equivalence(site_name: str) -> None:
    """A state and its alignment state accept the same actions and lead to states of the same
    alignment key: what is cleared is read by no transition."""
    site = get_site(site_name)
    cleared = 0
    for world, s in _walk_states(site, 12, 40):
        a = site.alignment_state(s)
        cleared += a != s
        assert site.facts(a) == site.facts(s)
        for offered in site.observe(s, world).available:
            act = _fill(site, offered)
            results = []
            for start in (s, a):
                try:
                    results.append(state_key(site.alignment_state(site.step(start, act, world))))
                except InvalidAction as exc:
                    results.append(str(exc))
            assert results[0] == results[1], (s, act)
    assert cleared > 0  # the walks do reach states with something to clear


def test_shopping_results_after_a_product_align_with_the_results_before() -> None:
    task = next(t for t in site_tasks("shopping") if t.complexity.hard_negative_count)
    site, world = get_site("shopping"), World.from_dict(task.world)
    oracle = task.oracle_actions()
    assert [a.name for a in oracle[:3]] == ["Search", "OpenProduct", "BackToResults"]
    results = state_after(task, oracle[:1])
    back = state_after(task, oracle[:3])
    assert state_key(back) != state_key(results)  # the last product's options linger
    assert state_key(site.alignment_state(back)) == state_key(results)
    assert site.alignment_state(site.step(back, oracle[3], world)) == site.step(
        back, oracle[3], world)  # a product page keeps its options


def test_mail_notice_is_not_part_of_the_alignment_state() -> None:
    task = site_tasks("mail")[0]
    site, world = get_site("mail"), World.from_dict(task.world)
    s = site.initial_state(world)
    tid = site.observe(s, world).entities[0].id
    archived = site.step(s, Action("Archive", {"thread_id": tid}), world)
    assert archived.notice and not site.alignment_state(archived).notice
    assert Site.alignment_state(site, archived) is archived  # the contract's default


# -- real episodes: greedy against the oracle ------------------------------------------------
def _run(task: Task, agent: Any) -> EpisodeTrace:
    return run_episode(SemanticEnv(task, agent=agent.name), agent)


def _actions(trace: EpisodeTrace) -> list[tuple[str, dict[str, Any]]]:
    return [(t.action, t.params) for t in trace.transitions() if t.error is None]


def test_oracle_episode_aligns_with_the_replayed_oracle() -> None:
    task = site_tasks("mail")[1]
    run = _run(task, OracleAgent())
    assert run.success
    states = trajectory_states(run, task)
    assert states == list(oracle_trajectory(task).states)
    assert states[0] == state_key(state_after(task, []))
    assert len(states) == 1 + len(_actions(run))


def test_a_replay_that_disagrees_with_the_record_falls_back_to_recorded_keys() -> None:
    task = site_tasks("shopping")[1]
    run = _run(task, OracleAgent())
    tampered = run.model_copy(deep=True)
    tampered.steps[1].transitions[0].state_key = "forged"
    states = trajectory_states(tampered, task)
    assert states[2] == "forged"
    assert states[1:] == [t.state_key for t in tampered.transitions()]


def test_greedy_commits_on_the_first_hard_negative_before_the_oracle() -> None:
    """Shopping, a hard-negative task: greedy searches, opens the first result and adds it;
    the oracle opens that same hard negative first, then goes back. At the hard negative's
    page greedy commits and the oracle does not: a premature commit that skipped going back
    and inspecting the target."""
    task = next(t for t in site_tasks("shopping") if t.template == "find_product_extract"
                and t.complexity.hard_negative_count > 0)
    greedy, oracle = _run(task, GreedyAgent()), _run(task, OracleAgent())
    assert oracle.success and not greedy.success
    g, o = _actions(greedy), _actions(oracle)
    assert [a for a, _ in g] == ["Search", "OpenProduct", "AddToCart"]
    assert g[:2] == o[:2] and g[1][1]["product_id"] in task.hard_negatives
    assert [a for a, _ in o[2:]] == ["BackToResults", "OpenProduct", "AddToCart"]

    skipped: list[tuple[str, str]] = []
    rows = bifurcations([(greedy, task)], skipped=skipped)  # alone: the oracle is the reference
    assert skipped == [] and len(rows) == 1
    b = rows[0]
    assert (b.reference, b.kind, b.index, b.reference_index) == (
        ORACLE, "premature_commit", 2, 2)
    assert (b.failing_action, b.reference_action) == ("AddToCart", "BackToResults")
    assert b.suffix_categories == ["navigate", "inspect"]
    assert b.state_key == trajectory_states(oracle, task)[2]

    # with the oracle's episode in the run, it is the reference, and nothing changes
    again = bifurcations([(greedy, task), (oracle, task)])
    assert [(r.reference, r.kind, r.index) for r in again] == [
        ("oracle (semantic)", "premature_commit", 2)]


def test_greedy_searching_the_wrong_words_is_a_wrong_branch_at_the_start() -> None:
    task, greedy = next((t, r) for t in site_tasks("mail") if t.template == "forward_attachment"
                        and t.complexity.hard_negative_count > 0
                        and not (r := _run(t, GreedyAgent())).success)
    g, o = _actions(greedy), [(a.name, a.params) for a in task.oracle_actions()]
    assert g[0][0] == o[0][0] == "SearchEmails" and g[0][1] != o[0][1]
    (b,) = bifurcations([(greedy, task)])
    assert (b.kind, b.index, b.failing_category, b.reference_category) == (
        "wrong_branch", 0, "search", "search")


def test_results_after_a_detour_realign_with_the_oracle_through_the_alignment_state() -> None:
    """Search, open X, back, open Y, add Y (X, Y: products the oracle never opens). The
    results page after Back still holds X's options in the full state, but its alignment
    state is the results page the oracle is on: the decisive branch is opening Y (index 3),
    not opening X (index 1)."""
    def unopened(task: Task) -> list[str]:
        """Products on the oracle's first results page that it never opens."""
        opened = {a.params.get("product_id") for a in task.oracle_actions()}
        results = state_after(task, task.oracle_actions()[:1])
        shown = get_site("shopping").observe(results, World.from_dict(task.world)).entities
        return [e.id for e in shown if e.id not in opened]

    task = next(t for t in site_tasks("shopping") if t.template == "find_product_extract"
                and len(unopened(t)) >= 2)
    x, y = unopened(task)[:2]
    env = SemanticEnv(task, agent="detour")
    env.reset()
    env.step(task.oracle_actions()[0])
    for action in (Action("OpenProduct", {"product_id": x}), Action("BackToResults"),
                   Action("OpenProduct", {"product_id": y}), Action("AddToCart"),
                   Action("Finish")):
        env.step(action)
    trace = env.trace
    assert trace.terminated and not trace.success
    recorded = [t.state_key for t in trace.transitions()]
    states = trajectory_states(trace, task)
    assert recorded[2] != recorded[0] and states[3] == states[1]
    (b,) = bifurcations([(trace, task)])
    assert (b.kind, b.index, b.reference_index) == ("wrong_branch", 3, 1)
    assert b.failing_action == "OpenProduct" and b.failing_category == "inspect"
