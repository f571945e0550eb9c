"""The five planning metrics (planning paper, Defs. 4.1-4.5) on hand-built trajectories.

Expected values are worked out by hand from the definitions in each test's docstring.
"""

from __future__ import annotations

from typing import Any

import pytest
from eval_builders import H1, H2, T

from webmdp.core.spec import Action
from webmdp.errors import ConfigError
from webmdp.eval.planning import (
    PlanningMetrics,
    agent_steps,
    aggregate_planning,
    intent_verdict,
    planning_metrics,
)
from webmdp.tasks import Task
from webmdp.tasks.model import Condition
from webmdp.testing import Reply, Request, ScriptedModelServer
from webmdp.trace import EpisodeTrace, GUIStep, SemanticTransition, StepNotes


def t(name: str, error: str | None = None, **params: Any) -> SemanticTransition:
    return SemanticTransition(action=name, params=params, surface_before="", surface_after="",
                              error=error)


def sem(name: str, *, error: str | None = None, intent: dict[str, Any] | None = None,
        **params: Any) -> GUIStep:
    """A semantic-mode step: the action and the one transition it caused."""
    notes = StepNotes(intent=intent) if intent is not None else None
    return GUIStep(index=0, action={"name": name, "params": params},
                   transitions=[t(name, error, **params)], error=error, notes=notes)


def unparseable() -> GUIStep:
    return GUIStep(index=0, action={"kind": "invalid"}, error="unparseable output")


def gui(action: dict[str, Any], *transitions: SemanticTransition,
        intent: dict[str, Any] | None = None) -> GUIStep:
    notes = StepNotes(intent=intent) if intent is not None else None
    return GUIStep(index=0, action=action, transitions=list(transitions), notes=notes)


def episode(*steps: GUIStep, mode: str = "semantic", **kw: Any) -> EpisodeTrace:
    numbered = [s.model_copy(update={"index": i}) for i, s in enumerate(steps)]
    return EpisodeTrace(task_id="shopping_0000", site="shopping",
                        template="find_product_extract", agent="a", mode=mode, seed=1,
                        steps=numbered, **kw)


def go(name: str) -> Action:
    return Action("Open", {"page": name})


def step_go(name: str, **kw: Any) -> GUIStep:
    return sem("Open", page=name, **kw)


PRODUCTS, ELECTRONICS, PHONES = go("products"), go("electronics"), go("smartphones")
TABLE1_GOLD = [PRODUCTS, ELECTRONICS, PHONES]


# -- Table 1 of the paper -------------------------------------------------------------------------
def test_table1_of_the_paper() -> None:
    """Gold H1 products, H2 electronics, H3 smartphones; actual AA1 about, AA2 products,
    AA3 electronics, AA4 scroll, AA5 smartphones, AA6 back; planned AP6 smartphones.
    Recovery: AA1 deviates from H1, AA2 recovers; AA4 deviates from H3, AA5 recovers: 2/2.
    Step success 3/3 (AA2, AA3, AA5); element accuracy 5/6 (AP6 != AA6); no action repeats
    its predecessor: repetitiveness 1 - 0/6."""
    steps = [step_go("about"), step_go("products"), step_go("electronics"), sem("Scroll"),
             step_go("smartphones")]
    steps = [s.model_copy(update={"notes": StepNotes(intent=s.action)}) for s in steps]
    steps.append(sem("Back", intent={"name": "Open", "params": {"page": "smartphones"}}))
    m = planning_metrics(episode(*steps), None, gold=TABLE1_GOLD)
    assert (m.deviations, m.recoveries, m.recovery) == (2, 2, 1.0)
    assert (m.gold_matched, m.gold_steps, m.step_success) == (3, 3, 1.0)
    assert (m.intent_matches, m.intent_steps, m.element_accuracy) == (5, 6, pytest.approx(5 / 6))
    assert (m.repeated, m.actions, m.repetitiveness) == (0, 6, 1.0)
    assert m.partial_success is None and m.matcher == "exact" and m.window == 5


def test_table1_planned_trajectory_repeats_once() -> None:
    """The planned trajectory AP1-AP6 ends smartphones, smartphones: AP6 is identical to its
    predecessor, AP5 is not (Def. 4.2 counts the repeat, not the original): 1 - 1/6. The
    paper's worked example says 2/6, which contradicts its own definition and its remark that
    repeating every step scores 0.5."""
    m = planning_metrics(episode(step_go("about"), step_go("products"), step_go("electronics"),
                                 sem("Scroll"), step_go("smartphones"), step_go("smartphones")),
                         None, gold=TABLE1_GOLD)
    assert (m.repeated, m.actions) == (1, 6)
    assert m.repetitiveness == pytest.approx(5 / 6)


# -- recovery (Def. 4.1) ---------------------------------------------------------------------------
def test_oracle_replay_has_no_deviation(task: Task) -> None:
    """The oracle itself: every step fulfils the current gold step; recovery is undefined
    (0 / 0), step success 7/7, no repeats."""
    m = planning_metrics(episode(*(sem(a.name, **a.params) for a in task.oracle)), task)
    assert (m.deviations, m.recoveries, m.recovery) == (0, 0, None)
    assert (m.gold_matched, m.gold_steps, m.step_success) == (7, 7, 1.0)
    assert (m.repeated, m.actions) == (0, 7)


def test_a_deviation_run_is_one_incident() -> None:
    """Gold A B C; agent X Y A Z B C. X opens an incident, Y stays in it, A recovers it; Z
    opens a second, B recovers it; C on track: 2 incidents, 2 recoveries (not 3 deviations)."""
    m = planning_metrics(episode(*(step_go(p) for p in "XYAZBC")), None,
                         gold=[go("A"), go("B"), go("C")])
    assert (m.deviations, m.recoveries, m.recovery) == (2, 2, 1.0)
    assert m.step_success == 1.0


def test_unrecovered_deviation() -> None:
    """Gold A B C D; agent A X Y: X deviates, nothing returns to B-D: 0/1; step success 1/4."""
    m = planning_metrics(episode(*(step_go(p) for p in "AXY")), None,
                         gold=[go(p) for p in "ABCD"])
    assert (m.deviations, m.recoveries, m.recovery) == (1, 0, 0.0)
    assert (m.gold_matched, m.step_success) == (1, 0.25)


def test_skipping_the_hard_negatives_and_the_window(task: Task) -> None:
    """Oracle Search, Open H1, Back, Open H2, Back, Open T, AddToCart; agent Search, Open T,
    AddToCart. Open T is not the current gold step (Open H1): a deviation. AddToCart is gold
    step 7, six steps from the current one (2): out of the default window of 5, inside a
    window of 6. Step success 3/7 either way."""
    trace = episode(sem("Search", query="t-shirts"), sem("OpenProduct", product_id=T),
                    sem("AddToCart"))
    assert task.oracle[1].params == {"product_id": H1} and task.oracle[3].params == {
        "product_id": H2}
    five = planning_metrics(trace, task)
    six = planning_metrics(trace, task, window=6)
    assert (five.deviations, five.recoveries) == (1, 0)
    assert (six.deviations, six.recoveries) == (1, 1)
    assert five.gold_matched == six.gold_matched == 3
    assert five.step_success == pytest.approx(3 / 7)


def test_window_of_one_only_returns_to_the_current_step() -> None:
    """Gold A B C; agent X B C. Window 1: only A recovers, B and C never do: 0/1, and the
    cursor never passes A. Window 2: B recovers."""
    trace = episode(*(step_go(p) for p in "XBC"))
    gold = [go(p) for p in "ABC"]
    assert planning_metrics(trace, None, gold=gold, window=1).recoveries == 0
    assert planning_metrics(trace, None, gold=gold, window=2).recoveries == 1
    with pytest.raises(ConfigError, match="window"):
        planning_metrics(trace, None, gold=gold, window=0)


def test_rejected_and_unparseable_steps() -> None:
    """Gold A B C; agent A, B (rejected), unparseable, B, C. Against typed gold the agent steps
    are the 4 transitions: the rejected B fulfils nothing and deviates, the unparseable output
    caused no transition and is not a step; the valid B recovers: 1/1, step success 3/3.
    Repetitiveness skips the unparseable step, so the rejected B and the retried B are
    adjacent identical actions: 1 repeat of 4 actions."""
    trace = episode(step_go("A"), step_go("B", error="not now"), unparseable(), step_go("B"),
                    step_go("C"))
    m = planning_metrics(trace, None, gold=[go(p) for p in "ABC"])
    assert m.agent_steps == 4
    assert (m.deviations, m.recoveries) == (1, 1)
    assert (m.gold_matched, m.step_success) == (3, 1.0)
    assert (m.repeated, m.actions) == (1, 4)


def test_browser_steps_without_transition_are_not_semantic_steps() -> None:
    """Browser mode, gold Search(q), Open(P1), AddToCart: typing (no transition), Enter
    (Search), a scroll, one click causing two transitions (Open P1 then AddToCart). Agent
    steps at the gold's level: the three transitions; no deviation, 3/3."""
    trace = episode(
        gui({"kind": "type", "element": 4, "text": "shirts"}),
        gui({"kind": "key", "key": "Enter"}, t("Search", query="shirts")),
        gui({"kind": "scroll", "direction": "down", "dy": 300.0}),
        gui({"kind": "click", "element": 9}, t("Open", page="P1"), t("AddToCart")),
        mode="browser")
    gold = [Action("Search", {"query": "shirts"}), go("P1"), Action("AddToCart")]
    units = agent_steps(trace, typed_gold=True)
    assert [(u.index, u.gui) for u in units] == [
        (1, "key(key=Enter)"), (3, "click(element=9)"), (3, "click(element=9)")]
    m = planning_metrics(trace, None, gold=gold)
    assert (m.deviations, m.gold_matched, m.agent_steps) == (0, 3, 3)
    assert (m.actions, m.repeated) == (4, 0)


# -- step success (Def. 4.3) -----------------------------------------------------------------------
def test_a_repeated_gold_step_must_be_repeated() -> None:
    """Gold A, Back, B, Back, C; agent A, Back, B, C: each agent step fulfils one gold step,
    so the second Back is unmatched: 4/5 (App. D, rule 2)."""
    back = Action("Back")
    m = planning_metrics(episode(step_go("A"), sem("Back"), step_go("B"), step_go("C")), None,
                         gold=[go("A"), back, go("B"), back, go("C")])
    assert (m.gold_matched, m.gold_steps) == (4, 5)
    assert m.step_success == pytest.approx(0.8)


def test_step_success_is_greedy_not_ordered() -> None:
    """App. D matches each gold step with the first unmatched agent step that fulfils it,
    wherever it is: gold A B, agent B A matches both (2/2) though B comes first."""
    m = planning_metrics(episode(step_go("B"), step_go("A")), None, gold=[go("A"), go("B")])
    assert m.gold_matched == 2
    assert (m.deviations, m.recoveries) == (1, 1)  # B deviates from A; A then recovers


def test_default_gold_needs_a_task() -> None:
    with pytest.raises(ConfigError, match="task or explicit gold"):
        planning_metrics(episode(step_go("A")), None)


# -- repetitiveness (Def. 4.2) ---------------------------------------------------------------------
def test_every_step_done_twice_scores_one_half() -> None:
    """A A B B C C: three actions repeat their predecessor: 1 - 3/6 = 0.5, as the paper says
    of trajectories that repeat all steps."""
    m = planning_metrics(episode(*(step_go(p) for p in "AABBCC")), None, gold=[go("A")])
    assert (m.repeated, m.actions, m.repetitiveness) == (3, 6, 0.5)


def test_repeats_are_of_the_previous_action_only() -> None:
    """A B A B: similar actions not adjacent are not repetitive; A, unparseable, A is (the
    unparseable output is not an action); a retried rejected action is. Same GUI click twice
    in browser mode repeats; a different element does not."""
    assert planning_metrics(episode(*(step_go(p) for p in "ABAB")), None,
                            gold=[go("A")]).repeated == 0
    m = planning_metrics(episode(step_go("A"), unparseable(), step_go("A"),
                                 sem("AddToCart", error="no product open"),
                                 sem("AddToCart", error="no product open")),
                         None, gold=[go("A")])
    assert (m.repeated, m.actions) == (2, 4)
    click = {"kind": "click", "element": 3}
    m = planning_metrics(episode(gui(click), gui(click), gui({"kind": "click", "element": 4}),
                                 mode="browser"), None, gold=[go("A")])
    assert (m.repeated, m.actions) == (1, 3)


def test_no_action_no_repetitiveness() -> None:
    m = planning_metrics(episode(unparseable()), None, gold=[go("A")])
    assert (m.actions, m.repetitiveness) == (0, None)
    assert (m.agent_steps, m.deviations, m.step_success) == (0, 0, 0.0)


# -- partial success (Def. 4.4) --------------------------------------------------------------------
def test_partial_success_counts_verifier_conditions(task: Task) -> None:
    """The Shopping task has 3 conditions (T in cart, H1 and H2 not in cart). The agent added
    H1 instead of T: T missing, H1 present, H2 absent: 1/3."""
    keys = [c.description for c in task.verifier]
    assert len(keys) == 3
    verdict = {keys[0]: False, keys[1]: False, keys[2]: True}
    m = planning_metrics(episode(sem("AddToCart"), verifier=verdict), task)
    assert (m.requirements_met, m.requirements) == (1, 3)
    assert m.partial_success == pytest.approx(1 / 3)


def test_partial_success_on_an_unsealed_trace_is_zero(task: Task) -> None:
    """No verifier verdicts recorded (e.g. a trace that never closed): every condition is
    unmet, not skipped."""
    m = planning_metrics(episode(sem("AddToCart")), task)
    assert (m.requirements_met, m.requirements, m.partial_success) == (0, 3, 0.0)


def test_single_condition_task_has_no_partial_success(task: Task) -> None:
    one = task.model_copy(update={"verifier": [Condition(fact="cart.products", op="contains",
                                                         value=T, description="T in cart")]})
    m = planning_metrics(episode(sem("AddToCart"), verifier={"T in cart": True}), one)
    assert (m.requirements, m.requirements_met, m.partial_success) == (1, 1, None)


def test_partial_success_without_a_task_uses_the_trace_verdicts() -> None:
    m = planning_metrics(episode(step_go("A"), verifier={"a": True, "b": False}), None,
                         gold=[go("A")])
    assert (m.requirements_met, m.requirements, m.partial_success) == (1, 2, 0.5)


# -- element accuracy (Def. 4.5) -------------------------------------------------------------------
def test_no_stated_intent_no_element_accuracy() -> None:
    m = planning_metrics(episode(step_go("A"), step_go("B")), None, gold=[go("A")])
    assert (m.intent_steps, m.element_accuracy) == (0, None)


CLICK12 = {"kind": "click", "element": 12}


@pytest.mark.parametrize(("intent", "step", "verdict"), [
    (CLICK12, gui(CLICK12), True),
    (CLICK12, gui({"kind": "click", "element": 13}), False),
    (CLICK12, gui({"kind": "double_click", "element": 12}), False),
    ({"kind": "click", "x": 100.4, "y": 199.6}, gui({"kind": "click", "x": 100, "y": 200}),
     True),
    ({"kind": "click", "x": 100, "y": 200}, gui({"kind": "click", "x": 103, "y": 200}), False),
    (CLICK12, gui({"kind": "click", "x": 100, "y": 200}), None),  # id vs point: undecidable
    ({"kind": "click", "target": "Add to Cart"}, gui({"kind": "click", "x": 1, "y": 2}), None),
    ({"kind": "key", "key": "Enter"}, gui({"kind": "key", "key": "Escape"}), False),
    ({"kind": "key", "key": "enter"}, gui({"kind": "key", "key": "Enter"}), True),
    ({"kind": "scroll", "direction": "down"}, gui({"kind": "scroll", "dy": 300.0}), True),
    ({"kind": "scroll", "direction": "down"}, gui({"kind": "scroll", "dy": -300.0}), False),
    ({"kind": "type", "element": 5, "text": "a"}, gui({"kind": "type", "element": 5,
                                                       "text": "b"}), True),
    ({"kind": "type", "element": 5, "text": "a"}, gui({"kind": "type", "text": "a"}), None),
    ({"kind": "go_back"}, gui({"kind": "go_back"}), True),
    (CLICK12, unparseable(), False),  # stated, nothing executed (paper, Fig. 4)
    ({"kind": "scroll", "direction=down": True}, unparseable(), False),
    ({"name": "Open", "params": {"page": "A"}}, step_go("A"), True),
    ({"name": "Open", "params": {"page": "A"}}, step_go("B"), False),
    ({"name": "Open", "params": {"page": "A"}}, gui(CLICK12, t("Open", page="A")), True),
    ({"name": "Open", "params": {"page": "A"}}, gui(CLICK12, t("Open", page="B")), False),
    ({"name": "Open", "params": {"page": "A"}},
     gui(CLICK12, t("Open", error="gone", page="A")), False),
    (CLICK12, step_go("A"), None),  # a GUI intent against a semantic action
    ({"thought": "click it"}, gui(CLICK12), False),  # the stated "action" is no action
])
def test_intent_verdict(intent: dict[str, Any], step: GUIStep, verdict: bool | None) -> None:
    assert intent_verdict(intent, step) is verdict


def test_element_accuracy_leaves_undecidable_steps_out() -> None:
    """Four steps state an intent: a match, a mismatch (element 13 for 12), an undecidable
    one (element id vs point) and a match; one step states none. Accuracy 2/3, 1 undecided."""
    trace = episode(
        gui(CLICK12, intent=CLICK12),
        gui({"kind": "click", "element": 13}, intent=CLICK12),
        gui({"kind": "click", "x": 5, "y": 5}, intent=CLICK12),
        gui({"kind": "key", "key": "Enter"}, intent={"kind": "key", "key": "Enter"}),
        gui({"kind": "wait"}),
        mode="browser")
    m = planning_metrics(trace, None, gold=[go("A")])
    assert (m.intent_matches, m.intent_steps, m.intent_undecided) == (2, 3, 1)
    assert m.element_accuracy == pytest.approx(2 / 3)


# -- text gold and the matchers --------------------------------------------------------------------
HUMAN = ["Click the Products link", "Click Electronics category", "Click Smartphones filter"]


def browser_table1() -> EpisodeTrace:
    """The agent's actual trajectory of Table 1 in browser mode, element ids 1-5."""
    return episode(
        gui({"kind": "click", "element": 1}, t("Open", page="about")),
        gui({"kind": "click", "element": 2}, t("Open", page="products")),
        gui({"kind": "click", "element": 3}, t("Open", page="electronics")),
        gui({"kind": "scroll", "direction": "down"}),
        gui({"kind": "click", "element": 4}, t("Open", page="smartphones")),
        gui({"kind": "go_back"}, t("Back")),
        mode="browser")


def test_text_gold_uses_every_gui_step_and_the_normalised_matcher() -> None:
    """Text gold matches on normalised text without any judge: gold written as the semantic
    step it names. Against text gold every GUI step is an agent step (the scroll too), so
    Table 1's recovery is 2/2 again; step success 3/3."""
    gold = ["open page: products", "OPEN(page = electronics)", "Open page smartphones"]
    m = planning_metrics(browser_table1(), None, gold=gold)
    assert m.matcher == "normalized"
    assert m.agent_steps == 6
    assert (m.gold_matched, m.deviations, m.recoveries) == (3, 2, 2)


def test_text_gold_without_a_configured_judge_never_calls_a_model() -> None:
    """Human phrasing that only a judge could match: with no judge configured the normalised
    matcher finds nothing (0/3, one open incident) and the model server sees no request."""
    def never(_: Request) -> Reply:
        raise AssertionError("no judge is configured")

    with ScriptedModelServer(never) as srv:
        m = planning_metrics(browser_table1(), None, gold=HUMAN)
        assert srv.requests == []
    assert (m.gold_matched, m.deviations, m.recoveries) == (0, 1, 0)


def test_text_gold_with_the_llm_judge() -> None:
    """The judge says 1 when the agent's step opens the page the human text names. Table 1:
    step success 3/3, recovery 2/2. Each distinct (step, gold) pair is asked once although
    both metrics compare the same pairs."""
    from webmdp.agents.llm.clients import client_config, make_client
    from webmdp.eval.matchers import LLMJudgeMatcher

    def responder(req: Request) -> Reply:
        human, agent = req.last_text().splitlines()[:2]
        for page in ("products", "electronics", "smartphones"):
            if page in human.lower() and f"page={page}" in agent:
                return Reply(text="Output: 1")
        return Reply(text="Output: 0")

    with ScriptedModelServer(responder) as srv:
        judge = LLMJudgeMatcher(make_client(client_config(
            "vllm/judge", base_url=srv.base_url, api_key="x", max_retries=0)))
        m = planning_metrics(browser_table1(), None, gold=HUMAN, matcher=judge)
        asked = [(r.last_text().splitlines()[0], r.last_text().splitlines()[1])
                 for r in srv.requests]
    assert (m.gold_matched, m.step_success) == (3, 1.0)
    assert (m.deviations, m.recoveries) == (2, 2)
    assert m.matcher == "llm-judge(vllm/judge, threshold=0.5)"
    assert len(asked) == len(set(asked)) == len(judge.scores)


# -- aggregation -----------------------------------------------------------------------------------
def row(**counts: Any) -> PlanningMetrics:
    base: dict[str, Any] = dict(
        task_id="t", agent="a", mode="semantic", infra_error=False, matcher="exact", window=5,
        step_success=None, recovery=None, repetitiveness=None, partial_success=None,
        element_accuracy=None, gold_steps=0, gold_matched=0, agent_steps=0, deviations=0,
        recoveries=0, actions=0, repeated=0, requirements=0, requirements_met=0,
        intent_steps=0, intent_matches=0, intent_undecided=0)
    return PlanningMetrics(**(base | counts))


def test_aggregate_micro_and_macro() -> None:
    """Episode 1: steps 3/3, recovery 2/2, 0 of 6 repeated, 1 of 3 requirements, intent 5/6.
    Episode 2: steps 3/7, recovery 0/1, 1 of 4 repeated, single requirement (no partial
    success), no intent. An infra error is left out.
    Micro: steps 6/10, recovery 2/3, repetitiveness 1 - 1/10, partial 1/3, element 5/6.
    Macro (the paper's mean of rates): steps (1 + 3/7)/2, recovery 1/2, repetitiveness
    (1 + 3/4)/2."""
    r1 = row(step_success=1.0, gold_steps=3, gold_matched=3, recovery=1.0, deviations=2,
             recoveries=2, repetitiveness=1.0, actions=6, partial_success=1 / 3,
             requirements=3, requirements_met=1, element_accuracy=5 / 6, intent_steps=6,
             intent_matches=5, intent_undecided=2)
    r2 = row(step_success=3 / 7, gold_steps=7, gold_matched=3, recovery=0.0, deviations=1,
             repetitiveness=0.75, actions=4, repeated=1, requirements=1, requirements_met=1)
    infra = row(infra_error=True, step_success=0.0, gold_steps=7, actions=1,
                repetitiveness=1.0)
    agg = aggregate_planning([r1, r2, infra])
    assert agg["step_success"] == pytest.approx(0.6)
    assert agg["recovery"] == pytest.approx(2 / 3)
    assert agg["repetitiveness"] == pytest.approx(0.9)
    assert agg["partial_success"] == pytest.approx(1 / 3)
    assert agg["element_accuracy"] == pytest.approx(5 / 6)
    assert agg["macro"]["step_success"] == pytest.approx((1 + 3 / 7) / 2)
    assert agg["macro"]["recovery"] == pytest.approx(0.5)
    assert agg["macro"]["repetitiveness"] == pytest.approx(0.875)
    assert agg["counts"]["gold_steps"] == 10 and agg["counts"]["requirements"] == 3
    assert agg["counts"]["deviations_unrecovered"] == 1
    assert agg["counts"]["intent_undecided"] == 2
    assert agg["episodes"] == {"step_success": 2, "recovery": 2, "repetitiveness": 2,
                               "partial_success": 1, "element_accuracy": 1}
    assert agg["infra_errors"] == 1


def test_aggregate_of_nothing_is_undefined() -> None:
    agg = aggregate_planning([])
    assert agg["step_success"] is None and agg["macro"]["recovery"] is None
    assert agg["episodes"]["step_success"] == 0
