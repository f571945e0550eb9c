# Sources for the cases below:
# - The grammar's own reply contract (json_grammar.SEMANTIC_PROMPT / BROWSER_PROMPT): one
#   {"thought", "action"} object, bare, fenced as ```json or inside prose, as chat models
#   answer JSON-format prompts -> test_reply_shapes, test_semantic_*, test_browser_*.
# - OpenAI Chat Completions function calling (platform.openai.com/docs/guides/function-calling):
#   tools as {"type": "function", "function": {"name", "description", "parameters"}} with a
#   JSON-Schema object (properties, required, additionalProperties, enum), the Responses API's
#   flat {"type": "function", "name", ...}, and tool calls whose `arguments` is a JSON string
#   -> test_semantic_tools_*, test_parse_tool_call_*.
# - Anthropic Messages API tool use: assistant content blocks with {"type": "tool_use", "name",
#   "input"} next to text blocks -> test_native_calls_in_raw.
# - webmdp's own clients (agents/llm/clients): the raw they hand a chat grammar when the model
#   called tools -- {"content", "tool_calls": [{"id", "name", "arguments"}]} (OpenAI) or the
#   content blocks (Anthropic) -> test_native_calls_in_raw.
# Semantic-mode cases run against real generated tasks and SemanticEnv (tests/support.py).
from __future__ import annotations

import json

import pytest

from support import site_tasks
from webmdp.agents.llm.grammars.base import VIEWPORT, ParseContext, Parsed
from webmdp.agents.llm.grammars.json_grammar import (
    GRAMMAR,
    gui_actions_doc,
    parse_tool_call,
    semantic_actions_doc,
    semantic_tools,
)
from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction
from webmdp.env.semantic import SemanticEnv
from webmdp.sites import get_site

SEM = ParseContext(mode="semantic")
BROWSER = ParseContext(mode="browser", image_size=(1280, 800), element_ids=frozenset({12, 40}))


def only(p: Parsed) -> GUIAction | Action:
    assert p.ok, p.error
    assert len(p.actions) == 1
    return p.actions[0]


# -- reply shapes -------------------------------------------------------------------------------
REPLY = {"thought": "Search for the shirts first.",
         "action": {"name": "Search", "params": {"query": "t-shirt"}}}


@pytest.mark.parametrize("raw", [
    json.dumps(REPLY),
    json.dumps(REPLY, indent=2),
    "```json\n" + json.dumps(REPLY) + "\n```",
    "Here is my next step:\n```json\n" + json.dumps(REPLY, indent=1) + "\n```\nLet me know.",
    "```\n" + json.dumps(REPLY) + "\n```",
    "Sure! " + json.dumps(REPLY) + " That should work.",
])
def test_reply_shapes(raw: str) -> None:
    p = GRAMMAR.parse(raw, SEM)
    assert only(p) == Action("Search", {"query": "t-shirt"})
    assert p.thought == "Search for the shirts first."
    assert p.raw == raw


def test_prose_is_the_thought_when_the_object_has_none() -> None:
    raw = 'I should open the cart now.\n{"action": {"name": "OpenCart", "params": {}}}'
    p = GRAMMAR.parse(raw, SEM)
    assert only(p) == Action("OpenCart", {})
    assert p.thought == "I should open the cart now."


def test_object_with_action_preferred_over_an_earlier_object() -> None:
    raw = ('The filter state is {"brand": "Northpeak"}. So:\n'
           '{"thought": "sort", "action": {"name": "SortBy", "params": {"order": "price_asc"}}}')
    assert only(GRAMMAR.parse(raw, SEM)) == Action("SortBy", {"order": "price_asc"})


# -- semantic mode ------------------------------------------------------------------------------
@pytest.mark.parametrize(("action", "expected"), [
    ({"name": "AddToCart", "params": {}}, Action("AddToCart", {})),
    ({"name": "AddToCart"}, Action("AddToCart", {})),
    ("AddToCart", Action("AddToCart", {})),
    ({"name": "OpenProduct", "product_id": "PRD-011"}, Action("OpenProduct",
                                                               {"product_id": "PRD-011"})),
    ({"name": "GoToPage", "params": {"page": 2}}, Action("GoToPage", {"page": 2})),
    ({"name": "Finish", "params": {"answer": "PRD-011"}}, Action("Finish", {"answer": "PRD-011"})),
    ({"name": "finish", "params": {"answer": 19.99}}, Action("Finish", {"answer": "19.99"})),
    ({"name": "Finish", "params": {}}, Action("Finish", {"answer": None})),
])
def test_semantic_actions(action: object, expected: Action) -> None:
    assert only(GRAMMAR.parse(json.dumps({"thought": "t", "action": action}), SEM)) == expected


def test_semantic_intent() -> None:
    raw = json.dumps({"thought": "t", "intent": {"name": "OpenProduct",
                                                 "params": {"product_id": "PRD-011"}},
                      "action": {"name": "OpenProduct", "params": {"product_id": "PRD-012"}}})
    p = GRAMMAR.parse(raw, SEM)
    assert p.intent == {"name": "OpenProduct", "params": {"product_id": "PRD-011"}}
    assert GRAMMAR.parse(json.dumps(REPLY), SEM).intent is None


@pytest.mark.parametrize(("raw", "reason"), [
    ('{"thought": "x", "action": ', "invalid JSON"),
    ('{"thought": "x", "action": {"name": "Search",}}', "invalid JSON"),
    ("```json\n{'action': {'name': 'AddToCart'}}\n```", "invalid JSON"),
    ("I will add it to the cart.", "no JSON object"),
    ("", "empty reply"),
    ("[1, 2]", "not an object"),
    ('{"thought": "done"}', 'no "action" key'),
    ('{"action": ["Search", "x"]}', "action must be an object"),
    ('{"action": {"params": {}}}', 'action needs "name"'),
    ('{"action": {"name": 5}}', 'action needs "name"'),
    ('{"action": {"name": "Search", "params": ["t-shirt"]}}', "params must be an object"),
    ('{"action": {"name": "Search", "params": "t-shirt"}}', "params must be an object"),
    ('{"action": {"name": "Finish", "params": {"answer": ["a"]}}}', "answer must be a string"),
    ('{"action": {"name": "Finish", "params": {"result": "a"}}}', "takes only answer"),
    ('{"action": "add to cart"}', "action must be an object"),
])
def test_semantic_malformed_is_invalid_with_raw_kept(raw: str, reason: str) -> None:
    p = GRAMMAR.parse(raw, SEM)
    assert not p.ok and p.actions == []
    assert p.error is not None and reason in p.error, p.error
    assert p.raw == raw


def test_invalid_keeps_the_thought() -> None:
    p = GRAMMAR.parse('{"thought": "open it", "action": {"name": 3}}', SEM)
    assert not p.ok and p.thought == "open it"


def test_parsed_actions_apply_in_semantic_env() -> None:
    task = site_tasks("shopping")[0]
    env = SemanticEnv(task)
    env.reset()
    p = GRAMMAR.parse(json.dumps(REPLY), SEM)
    obs, _, terminated, _, info = env.step(only(p), raw_output=p.raw)
    assert info["error"] is None and not terminated
    assert obs["observation"].surface == "SearchResults"
    assert obs["observation"].context["query"] == "t-shirt"
    finish = GRAMMAR.parse('{"action": {"name": "Finish", "params": {"answer": ""}}}', SEM)
    _, _, terminated, _, _ = env.step(only(finish))
    assert terminated and env.trace.final_answer == ""


@pytest.mark.parametrize("site", ["shopping", "mail"])
def test_every_offered_action_round_trips(site: str) -> None:
    """Each action a real first screen offers, written as the reply format, parses back to
    itself and is accepted by the MDP."""
    for task in site_tasks(site)[:20:5]:
        env = SemanticEnv(task)
        obs, _ = env.reset()
        offered = obs["observation"].available
        assert offered
        for action in offered:
            raw = json.dumps({"thought": "t", "action": action.to_dict()})
            assert only(GRAMMAR.parse(raw, SEM)) == action
        fill = {p.name: get_site(site).example_params[p.name]
                for p in get_site(site).action_spec(offered[0].name).params if p.text}
        chosen = Action(offered[0].name, {**offered[0].params, **fill})
        _, _, _, _, info = env.step(only(GRAMMAR.parse(json.dumps({"action": chosen.to_dict()}),
                                                       SEM)))
        assert info["error"] is None


def test_wrong_param_type_is_an_invalid_step_in_the_env() -> None:
    """The grammar reads any params object; the MDP rejects wrong types as an invalid step."""
    env = SemanticEnv(site_tasks("shopping")[0])
    env.reset()
    p = GRAMMAR.parse('{"action": {"name": "Search", "params": {"query": 5}}}', SEM)
    _, _, terminated, _, info = env.step(only(p))
    assert not terminated and "must be str" in info["error"]


# -- browser mode -------------------------------------------------------------------------------
def vp(x: float, y: float, image: tuple[int, int] = (1280, 800)) -> tuple[float, float]:
    return round(x * VIEWPORT[0] / image[0], 1), round(y * VIEWPORT[1] / image[1], 1)


@pytest.mark.parametrize(("action", "expected"), [
    ({"kind": "click", "x": 640, "y": 400}, {"kind": "click", "x": vp(640, 400)[0],
                                             "y": vp(640, 400)[1]}),
    ({"kind": "click", "element": 12}, {"kind": "click", "element": 12}),
    ({"kind": "click", "element": 12, "button": "right"},
     {"kind": "right_click", "element": 12}),
    ({"kind": "drag", "x": 100, "y": 200, "x2": 300, "y2": 200},
     {"kind": "drag", "x": vp(100, 200)[0], "y": vp(100, 200)[1], "x2": vp(300, 200)[0],
      "y2": vp(300, 200)[1]}),
    ({"kind": "scroll", "direction": "down", "amount": 3},
     {"kind": "scroll", "direction": "down", "amount": 3.0, "dy": 300.0}),
    ({"kind": "type", "element": 40, "text": "blue shoes\n"},
     {"kind": "type", "element": 40, "text": "blue shoes\n"}),
    ({"kind": "key", "key": "ctrl+a"}, {"kind": "key", "key": "Control+a"}),
    ({"kind": "select_option", "element": 12, "option": "Blue"},
     {"kind": "select_option", "element": 12, "option": "Blue"}),
    ({"kind": "go_back"}, {"kind": "go_back"}),
    ({"kind": "wait", "seconds": 1}, {"kind": "wait", "seconds": 1.0}),
    ({"kind": "finish", "answer": "42"}, {"kind": "finish", "answer": "42"}),
])
def test_browser_actions(action: dict, expected: dict) -> None:
    p = GRAMMAR.parse(json.dumps({"thought": "t", "action": action}), BROWSER)
    assert only(p).to_dict() == expected


def test_browser_coordinates_follow_ctx_coords() -> None:
    ctx = ParseContext(mode="browser", coords="relative1000")
    act = only(GRAMMAR.parse('{"action": {"kind": "click", "x": 500, "y": 250}}', ctx))
    assert (act.x, act.y) == (720.0, 225.0)  # 500/1000 * 1440, 250/1000 * 900


def test_browser_intent_is_normalised() -> None:
    raw = json.dumps({"intent": {"kind": "click", "x": 640, "y": 400},
                      "action": {"kind": "click", "element": 12}})
    assert GRAMMAR.parse(raw, BROWSER).intent == {"kind": "click", "x": vp(640, 400)[0],
                                                  "y": vp(640, 400)[1]}


@pytest.mark.parametrize(("action", "reason"), [
    ({"kind": "clack", "x": 1, "y": 2}, "unknown kind 'clack'"),
    ({"x": 1, "y": 2}, "kind: Field required"),
    ({"kind": "click"}, "click needs x and y or an element id"),
    ({"kind": "click", "x": "left", "y": 2}, "click: x and y must be numbers, got 'left', 2"),
    ({"kind": "click", "x": 1280, "y": 2}, "click: x=1280 is outside the screen: x must be "
                                           "within 0..1279 (pixels of the 1280x800 screenshot)"),
    ({"kind": "drag", "x": 1, "y": 2, "x2": 5, "y2": 900}, "drag: y2=900 is outside the screen: "
                                                          "y2 must be within 0..799"),
    ({"kind": "click", "element": "the button"}, "element: Input should be a valid integer"),
    ({"kind": "click", "element": 99}, "no element 99 on this page"),
    ({"kind": "drag", "x": 1, "y": 2}, "drag needs x2 and y2"),
    ({"kind": "key"}, "key needs a key name"),
    ({"kind": "select_option", "element": 12}, "select_option needs an element id and an option"),
    ({"kind": "scroll", "direction": "diagonal"}, "direction: Input should be"),
    ({"kind": "click", "x": 1, "y": 2, "button": "side"}, "button: Input should be"),
    ("click", "action must be an object"),
])
def test_browser_malformed_is_invalid(action: object, reason: str) -> None:
    raw = json.dumps({"thought": "t", "action": action})
    p = GRAMMAR.parse(raw, BROWSER)
    assert not p.ok and p.error is not None and reason in p.error, p.error
    assert p.raw == raw and p.thought == "t"


# -- documentation and tools ----------------------------------------------------------------------
@pytest.mark.parametrize("name", ["shopping", "mail"])
def test_semantic_actions_doc(name: str) -> None:
    site = get_site(name)
    lines = semantic_actions_doc(site).splitlines()
    assert len(lines) == len(site.actions) + 3
    assert [ln.split("(")[0].removeprefix("- ") for ln in lines] == [
        *(a.name for a in site.actions), "Confirm", "Cancel", "Finish"]
    assert lines[-2].endswith("(only while a confirmation dialog is open)")
    for line, spec in zip(lines, site.actions, strict=False):
        for p in spec.params:
            assert f"{p.name}{'?' if p.optional else ''}: " in line
            for choice in p.choices:
                assert json.dumps(choice) in line


def test_semantic_actions_doc_details() -> None:
    doc = semantic_actions_doc(get_site("shopping"))
    assert '- SetPriceRange(min?: number you choose, max?: number you choose) - ' in doc
    assert '- OpenProduct(product_id: PRD id) - ' in doc
    assert '- Search(query: string you choose) - submit the header search box' in doc
    assert '- SortBy(order: "featured" | "price_asc"' in doc


def test_gui_actions_doc_examples_parse() -> None:
    """Every example object in the browser action list is a valid action."""
    doc, decoder, checked = gui_actions_doc(), json.JSONDecoder(), 0
    i = doc.find("{")
    while i >= 0:
        try:
            data, end = decoder.raw_decode(doc, i)
        except json.JSONDecodeError:  # a schematic example such as {"kind": "a" | "b", ...}
            i = doc.find("{", i + 1)
            continue
        p = GRAMMAR.parse(json.dumps({"action": data}), ParseContext(mode="browser"))
        assert p.ok, (data, p.error)
        checked += 1
        i = doc.find("{", end)
    assert checked >= 12


@pytest.mark.parametrize("name", ["shopping", "mail"])
def test_semantic_tools(name: str) -> None:
    site = get_site(name)
    tools = semantic_tools(site)
    assert [t["function"]["name"] for t in tools] == [*(a.name for a in site.actions),
                                                      "Confirm", "Cancel", "Finish"]
    for tool, spec in zip(tools, site.actions, strict=False):
        assert tool["type"] == "function"
        params = tool["function"]["parameters"]
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert set(params["properties"]) == {p.name for p in spec.params}
        assert params["required"] == [p.name for p in spec.params if not p.optional]
        for p in spec.params:
            schema = params["properties"][p.name]
            expected = {"int": "integer", "float": "number"}.get(p.type, "string")
            assert schema["type"] == expected
            if p.choices:
                assert schema["enum"] == list(p.choices)
    assert tools[-1]["function"]["parameters"]["required"] == ["answer"]
    flat = semantic_tools(site, api="responses")
    assert flat[0] == {"type": "function", **tools[0]["function"]}


def test_parse_tool_call_semantic() -> None:
    p = parse_tool_call("OpenProduct", '{"product_id": "PRD-011"}', SEM)
    assert only(p) == Action("OpenProduct", {"product_id": "PRD-011"})
    assert json.loads(p.raw) == {"name": "OpenProduct", "arguments": '{"product_id": "PRD-011"}'}
    assert only(parse_tool_call("AddToCart", "", SEM)) == Action("AddToCart", {})
    assert only(parse_tool_call("Finish", {"answer": "done"}, SEM)) == Action(
        "Finish", {"answer": "done"})


def test_parse_tool_call_browser() -> None:
    p = parse_tool_call("click", {"element": 12}, BROWSER)
    assert only(p).to_dict() == {"kind": "click", "element": 12}


@pytest.mark.parametrize(("name", "arguments", "reason"), [
    ("Search", '{"query": ', "arguments are not JSON"),
    ("Search", '["t-shirt"]', "arguments must be a JSON object"),
    ("", "{}", "no function name"),
    ("Finish", '{"answer": {"a": 1}}', "answer must be a string"),
])
def test_parse_tool_call_malformed(name: str, arguments: str, reason: str) -> None:
    p = parse_tool_call(name, arguments, SEM)
    assert not p.ok and p.error is not None and reason in p.error
    assert json.loads(p.raw) == {"name": name, "arguments": arguments}


def test_native_calls_in_raw() -> None:
    openai_raw = json.dumps({"content": "Let me search.", "tool_calls": [
        {"id": "call_1", "name": "Search", "arguments": '{"query": "tent"}'}]})
    p = GRAMMAR.parse(openai_raw, SEM)
    assert only(p) == Action("Search", {"query": "tent"}) and p.thought == "Let me search."
    anthropic_raw = json.dumps([
        {"type": "text", "text": "Opening the cart."},
        {"type": "tool_use", "id": "toolu_1", "name": "OpenCart", "input": {}}])
    p = GRAMMAR.parse(anthropic_raw, SEM)
    assert only(p) == Action("OpenCart", {}) and p.thought == "Opening the cart."
    bad = json.dumps({"content": "", "tool_calls": [{"name": "Search", "arguments": "{"}]})
    assert "arguments are not JSON" in (GRAMMAR.parse(bad, SEM).error or "")


def test_system_prompts() -> None:
    doc = semantic_actions_doc(get_site("shopping"))
    sem = GRAMMAR.system_prompt(mode="semantic", actions_doc=doc)
    assert doc in sem and '"action": {"name": "Finish", "params": {"answer"' in sem
    browser = GRAMMAR.system_prompt(mode="browser")
    assert gui_actions_doc() in browser and '{"kind": "finish", "answer"' in browser
    assert GRAMMAR.modes == ("semantic", "browser") and GRAMMAR.tool_spec(VIEWPORT) is None
    with pytest.raises(ValueError):
        GRAMMAR.system_prompt(mode="voice")  # type: ignore[arg-type]


@pytest.mark.parametrize("raw", ["{", "}{", "{}", "[]", "null", "```json\n```", "{" * 50,
                                 '{"action": null}', '{"action": {"name": "X", "params": null}}',
                                 '{"tool_calls": [1]}', '[{"type": "tool_use"}]'])
@pytest.mark.parametrize("ctx", [SEM, BROWSER])
def test_never_raises(raw: str, ctx: ParseContext) -> None:
    p = GRAMMAR.parse(raw, ctx)
    assert p.raw == raw
    assert p.ok or p.error
