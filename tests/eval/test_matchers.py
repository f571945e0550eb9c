"""Matchers: exact and normalised comparison, and the LLM judge (planning paper, Table 2)
against the scripted model server through the real SDK."""

from __future__ import annotations

import pytest

from webmdp.agents.llm.clients import client_config, make_client
from webmdp.core.spec import Action
from webmdp.errors import ConfigError
from webmdp.eval.matchers import (
    JUDGE_SYSTEM,
    AgentStep,
    ExactMatcher,
    LLMJudgeMatcher,
    NormalizedMatcher,
    make_matcher,
    normalize,
    parse_score,
    render_action,
    render_step_action,
)
from webmdp.testing import Reply, Request, ScriptedModelServer

ADD = Action("AddToCart", {"product_id": "PRD-1"})
SEMANTIC = AgentStep(0, (ADD,))
CLICK = AgentStep(1, (ADD,), gui="click(element=12)")


def judge(srv: ScriptedModelServer, threshold: float = 0.5) -> LLMJudgeMatcher:
    client = make_client(client_config("vllm/judge", base_url=srv.base_url, api_key="x",
                                       max_retries=0))
    return LLMJudgeMatcher(client, threshold=threshold)


def test_renderings_are_canonical() -> None:
    a = Action("Filter", {"size": "M", "colour": "red", "max_price": 20, "tags": ["a", "b"]})
    assert render_action(a) == 'Filter(colour=red, max_price=20, size=M, tags=["a", "b"])'
    assert render_step_action({"name": "AddToCart", "params": {"product_id": "PRD-1"}}) == \
        "AddToCart(product_id=PRD-1)"
    assert render_step_action({"kind": "click", "x": 10.5, "y": 3}) == "click(x=10.5, y=3)"
    assert CLICK.text == "click(element=12) -> AddToCart(product_id=PRD-1)"
    assert CLICK.renderings() == (CLICK.text, "click(element=12)", "AddToCart(product_id=PRD-1)")
    assert AgentStep(2).text == "(no action)"


def test_normalize_ignores_case_spaces_and_punctuation() -> None:
    assert normalize("Add to cart (product_id = PRD-1)") == "addtocartproductidprd1"
    assert normalize("AddToCart(product_id=PRD-1)") == normalize("add-to-cart product id prd 1")
    assert normalize("PRD-1") != normalize("PRD-11")


def test_exact_matcher_typed_gold_needs_same_name_and_params() -> None:
    m = ExactMatcher()
    assert m.matches(SEMANTIC, Action("AddToCart", {"product_id": "PRD-1"}))
    assert not m.matches(SEMANTIC, Action("AddToCart", {"product_id": "PRD-2"}))
    assert not m.matches(SEMANTIC, Action("AddToCart"))
    assert not m.matches(AgentStep(0), ADD)  # a step that accomplished nothing


def test_exact_matcher_text_gold_is_verbatim() -> None:
    m = ExactMatcher()
    assert m.matches(SEMANTIC, "AddToCart(product_id=PRD-1)")
    assert m.matches(CLICK, " click(element=12) ")
    assert not m.matches(SEMANTIC, "add to cart product_id PRD-1")


def test_normalized_matcher_text_against_typed_and_gui_renderings() -> None:
    m = NormalizedMatcher()
    assert m.matches(SEMANTIC, "add to cart, product_id: PRD-1")
    assert m.matches(CLICK, "CLICK (element = 12)")
    assert m.matches(SEMANTIC, ADD)  # typed gold still matches
    assert not m.matches(SEMANTIC, "add to cart product PRD-2")
    assert not m.matches(CLICK, "Click the Products link")


@pytest.mark.parametrize(("reply", "score"), [
    ("1", 1.0), ("Output: 0", 0.0), ("0.8", 0.8), ("Output: 1.", 1.0),
    ("The agent clicked [12] while the human clicked 'Products'. Output: 0", 0.0),
    ("they differ", None), ("score 7", None),
])
def test_parse_score_takes_the_last_number_in_range(reply: str, score: float | None) -> None:
    assert parse_score(reply) == score


def test_llm_judge_asks_with_the_table2_prompt_and_caches_verdicts() -> None:
    with ScriptedModelServer([Reply(text="1"), Reply(text="Output: 0")]) as srv:
        j = judge(srv)
        assert j.matches(CLICK, "Click the Add to Cart button")
        assert not j.matches(CLICK, "Click the Products link")
        # the same pairs again, a normalised-equal pair and an invalid step: no request
        assert j.matches(CLICK, "Click the Add to Cart button")
        assert not j.matches(CLICK, "Click the Products link")
        assert j.matches(CLICK, "add to cart product_id PRD-1")
        assert not j.matches(AgentStep(3, gui="click(element=4)", valid=False), "Click it")
        requests = list(srv.requests)
    assert len(requests) == 2
    texts = requests[0].texts()
    assert JUDGE_SYSTEM in texts
    assert texts[-1] == ("Human-Recorded Action: Click the Add to Cart button\n"
                         f"Agent-Recorded Action: {CLICK.text}\nOutput:")
    assert j.scores == {(CLICK.text, "Click the Add to Cart button"): 1.0,
                        (CLICK.text, "Click the Products link"): 0.0}
    assert len(j.calls) == 2 and j.calls[0].raw == "1"
    assert j.name == "llm-judge(vllm/judge, threshold=0.5)"


@pytest.mark.parametrize(("threshold", "expected"), [(0.5, True), (0.7, True), (0.8, False)])
def test_llm_judge_threshold_on_a_graded_score(threshold: float, expected: bool) -> None:
    with ScriptedModelServer([Reply(text="0.7")]) as srv:
        assert judge(srv, threshold).matches(CLICK, "Put the product in the basket") is expected


def test_llm_judge_reply_without_a_score_is_no_match_and_is_kept() -> None:
    with ScriptedModelServer([Reply(text="I cannot tell.")]) as srv:
        j = judge(srv)
        assert not j.matches(CLICK, "Open the cart")
    assert j.unparsed == [(CLICK.text, "Open the cart", "I cannot tell.")]


def test_llm_judge_typed_gold_is_exact_first() -> None:
    def never(_: Request) -> Reply:
        raise AssertionError("the judge must not be asked")

    with ScriptedModelServer(never) as srv:
        assert judge(srv).matches(SEMANTIC, ADD)
        assert srv.requests == []


def test_make_matcher_by_name() -> None:
    assert make_matcher("exact").name == "exact"
    assert make_matcher("normalized").name == "normalized"
    with ScriptedModelServer([]) as srv:
        j = make_matcher("llm-judge", judge_model="vllm/judge", threshold=0.9,
                         base_url=srv.base_url, api_key="x")
        assert isinstance(j, LLMJudgeMatcher)
        assert j.name == "llm-judge(vllm/judge, threshold=0.9)"
        assert srv.requests == []  # made, not yet asked
    with pytest.raises(ConfigError, match="judge model"):
        make_matcher("llm-judge")
    with pytest.raises(ConfigError, match="valid choices: exact, llm-judge, normalized"):
        make_matcher("fuzzy")
    with pytest.raises(ConfigError, match="threshold"):
        LLMJudgeMatcher(make_client(client_config("vllm/judge", api_key="x")), threshold=2.0)
