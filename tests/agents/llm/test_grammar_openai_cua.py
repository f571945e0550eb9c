# Sources for the cases below (model outputs written down from these, not copied code):
# - OpenAI platform docs, "Computer use" guide (platform.openai.com/docs/guides/tools-computer-use):
#   the reasoning + computer_call click example (x=156, y=50 on a 1024x768 display, call_id
#   "call_zw3...", summary "Clicking on the browser address bar."), the tool definition
#   (computer_use_preview, display_width/height, environment "browser"), the loop that stops when
#   a response has no computer_call (final message), `wait` = sleep 2 s, `screenshot` = nothing
#   to do, and safety checks (malicious_instructions / irrelevant_domain / sensitive_domain) that
#   must be acknowledged next turn -> test_docs_example, test_safety_checks_*, test_message_*.
# - openai/openai-cua-sample-app computers/base_playwright.py: the action methods and their
#   arguments -- click(x, y, button) with buttons left/right/wheel/back/forward, double_click,
#   scroll(x, y, scroll_x, scroll_y), type(text), wait, move, keypress(keys) with CUA key names
#   (CTRL, ENTER, SPACE, ...), drag(path of {x, y}) -> test_every_action, test_keypress_*.
#   agent/agent.py: message items end the turn; computer_call_output echoes call_id and the
#   pending checks -> test_message_ends_episode.
# - openai-agents-js ComputerUseCallItem type (openai.github.io/openai-agents-js): the action
#   union (screenshot, click with button, double_click, scroll, type, wait, move, keypress,
#   drag with path) and the GA tool's batched `actions` list -> test_batched_actions.
# - openai-python ResponseComputerToolCall / PendingSafetyCheck (id, code, message) and the
#   Response object's `output` list -> test_whole_response_object.
# Malformed cases (bad JSON, unknown action, missing or non-numeric coordinates, points off the
# screenshot, wrong parameter types, foreign item types) follow the same schemas.
from __future__ import annotations

import json
from typing import Any

import pytest

from webmdp.agents.llm.grammars.base import VIEWPORT, ParseContext, Parsed
from webmdp.agents.llm.grammars.openai_cua import GRAMMAR, WAIT_SECONDS
from webmdp.env.actions import GUIAction

DISPLAY = (1024, 768)
CTX = ParseContext(image_size=DISPLAY)


def vp(x: float, y: float, image: tuple[int, int] = DISPLAY) -> tuple[float, float]:
    """The viewport pixel a screenshot pixel maps to: x * 1440 / width, y * 900 / height."""
    return round(x * VIEWPORT[0] / image[0], 1), round(y * VIEWPORT[1] / image[1], 1)


def parse(obj: object, ctx: ParseContext = CTX) -> Parsed:
    return GRAMMAR.parse(json.dumps(obj), ctx)


def only(p: Parsed) -> GUIAction:
    assert p.ok, p.error
    assert len(p.actions) == 1
    act = p.actions[0]
    assert isinstance(act, GUIAction)
    return act


DOCS_OUTPUT: list[dict[str, Any]] = [
    {"type": "reasoning", "id": "rs_67cc...",
     "summary": [{"type": "summary_text", "text": "Clicking on the browser address bar."}]},
    {"type": "computer_call", "id": "cu_67cc...", "call_id": "call_zw3...",
     "action": {"type": "click", "button": "left", "x": 156, "y": 50},
     "pending_safety_checks": [], "status": "completed"},
]


def test_docs_example() -> None:
    p = parse(DOCS_OUTPUT)
    act = only(p)
    assert (act.kind, act.button) == ("click", "left")
    assert (act.x, act.y) == vp(156, 50) == (219.4, 58.6)
    assert p.thought == "Clicking on the browser address bar."
    assert p.meta == {"call_id": "call_zw3...", "pending_safety_checks": []}
    assert p.intent is None


def test_single_item_and_bare_action_parse_alike() -> None:
    item = only(parse(DOCS_OUTPUT[1]))
    bare = only(parse(DOCS_OUTPUT[1]["action"]))
    assert item == bare
    assert parse(DOCS_OUTPUT[1]).meta["call_id"] == "call_zw3..."
    assert "call_id" not in parse(DOCS_OUTPUT[1]["action"]).meta


def test_whole_response_object() -> None:
    response = {"id": "resp_67d3", "object": "response", "status": "completed",
                "model": "computer-use-preview-2025-03-11", "output": DOCS_OUTPUT}
    assert only(parse(response)) == only(parse(DOCS_OUTPUT))


@pytest.mark.parametrize(("action", "expected"), [
    ({"type": "click", "button": "left", "x": 405, "y": 157},
     {"kind": "click", "x": vp(405, 157)[0], "y": vp(405, 157)[1]}),
    ({"type": "click", "button": "right", "x": 10, "y": 700},
     {"kind": "right_click", "x": vp(10, 700)[0], "y": vp(10, 700)[1]}),
    ({"type": "click", "button": "wheel", "x": 512, "y": 384},
     {"kind": "click", "button": "middle", "x": 720.0, "y": 450.0}),
    ({"type": "click", "button": "back", "x": 0, "y": 0}, {"kind": "go_back"}),
    ({"type": "click", "button": "forward", "x": 0, "y": 0}, {"kind": "go_forward"}),
    ({"type": "double_click", "x": 300, "y": 200},
     {"kind": "double_click", "x": vp(300, 200)[0], "y": vp(300, 200)[1]}),
    ({"type": "drag", "path": [{"x": 100, "y": 200}, {"x": 150, "y": 250}, {"x": 200, "y": 300}]},
     {"kind": "drag", "x": vp(100, 200)[0], "y": vp(100, 200)[1],
      "x2": vp(200, 300)[0], "y2": vp(200, 300)[1]}),
    ({"type": "keypress", "keys": ["CTRL", "A"]}, {"kind": "key", "key": "Control+a"}),
    ({"type": "keypress", "keys": ["ENTER"]}, {"kind": "key", "key": "Enter"}),
    ({"type": "move", "x": 1023, "y": 767},
     {"kind": "move", "x": vp(1023, 767)[0], "y": vp(1023, 767)[1]}),
    ({"type": "scroll", "x": 512, "y": 384, "scroll_x": 0, "scroll_y": 300},
     {"kind": "scroll", "x": 720.0, "y": 450.0, "dy": round(300 * 900 / 768, 1)}),
    ({"type": "scroll", "x": 512, "y": 384, "scroll_x": -64, "scroll_y": -96},
     {"kind": "scroll", "x": 720.0, "y": 450.0, "dx": -90.0, "dy": -112.5}),
    ({"type": "type", "text": "penguin"}, {"kind": "type", "text": "penguin"}),
    ({"type": "wait"}, {"kind": "wait", "seconds": WAIT_SECONDS}),
    ({"type": "screenshot"}, {"kind": "wait", "seconds": 0.0}),
])
def test_every_action(action: dict, expected: dict) -> None:
    assert only(parse(action)).to_dict() == expected


def test_wait_is_the_guides_two_seconds() -> None:
    assert WAIT_SECONDS == 2.0


def test_identity_when_the_screenshot_is_the_viewport() -> None:
    act = only(parse({"type": "click", "button": "left", "x": 1439, "y": 899},
                     ParseContext(image_size=VIEWPORT)))
    assert (act.x, act.y) == (1439.0, 899.0)


@pytest.mark.parametrize(("keys", "chord"), [
    (["CTRL", "SHIFT", "T"], "Control+Shift+t"),
    (["ctrl", "l"], "Control+l"),
    (["ESC"], "Escape"),
    (["SPACE"], "Space"),
    (["ARROWDOWN"], "ArrowDown"),
    (["PAGEDOWN"], "PageDown"),
    (["BACKSPACE"], "Backspace"),
])
def test_keypress_is_one_chord(keys: list[str], chord: str) -> None:
    assert only(parse({"type": "keypress", "keys": keys})).key == chord


def test_safety_checks_travel_in_meta() -> None:
    check = {"id": "cu_sc_67cb", "code": "malicious_instructions",
             "message": "We've detected instructions that may cause your application to perform "
                        "malicious or unauthorized actions."}
    call = {"type": "computer_call", "id": "cu_1", "call_id": "call_1",
            "action": {"type": "type", "text": "hello"}, "pending_safety_checks": [check],
            "status": "completed"}
    p = parse([call])
    assert only(p).text == "hello"
    assert p.meta == {"call_id": "call_1", "pending_safety_checks": [check]}


def test_batched_actions() -> None:
    call = {"type": "computer_call", "id": "cu_2", "call_id": "call_2", "status": "completed",
            "actions": [{"type": "click", "button": "left", "x": 405, "y": 157},
                        {"type": "type", "text": "penguin"}]}
    p = parse({"output": [call]})
    assert p.ok
    assert [a.to_dict() for a in p.actions] == [
        {"kind": "click", "x": vp(405, 157)[0], "y": vp(405, 157)[1]},
        {"kind": "type", "text": "penguin"}]
    assert p.meta["call_id"] == "call_2"


def test_two_calls_keep_every_call_id() -> None:
    calls = [{"type": "computer_call", "call_id": f"call_{i}",
              "action": {"type": "screenshot"}} for i in range(2)]
    p = parse(calls)
    assert len(p.actions) == 2
    assert p.meta["call_id"] == "call_0" and p.meta["call_ids"] == ["call_0", "call_1"]


def test_message_ends_episode() -> None:
    output = [
        {"type": "reasoning", "id": "rs_1",
         "summary": [{"type": "summary_text", "text": "The price is shown on the page."}]},
        {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "The HP fax machine costs $279.49.",
                      "annotations": []}]},
    ]
    p = parse(output)
    act = only(p)
    assert (act.kind, act.answer) == ("finish", "The HP fax machine costs $279.49.")
    assert p.thought == "The price is shown on the page."


def test_message_beside_a_call_is_thought_not_answer() -> None:
    output = [{"type": "message", "role": "assistant",
               "content": [{"type": "output_text", "text": "I'll open the cart first."}]},
              DOCS_OUTPUT[1]]
    p = parse(output)
    assert only(p).kind == "click"
    assert p.thought == "I'll open the cart first."


def test_refusal_message_finishes_and_is_flagged() -> None:
    output = [{"type": "message", "role": "assistant",
               "content": [{"type": "refusal", "refusal": "I can't help with that."}]}]
    p = parse(output)
    assert only(p).answer == "I can't help with that."
    assert p.meta["refusal"] is True


def test_tool_spec() -> None:
    assert GRAMMAR.tool_spec((1024, 768)) == {
        "type": "computer_use_preview", "display_width": 1024, "display_height": 768,
        "environment": "browser"}


def test_system_prompt() -> None:
    text = GRAMMAR.system_prompt(mode="browser")
    assert "computer tool" in text and "message" in text
    assert GRAMMAR.system_prompt(mode="browser", actions_doc="EXTRA").endswith("EXTRA")
    with pytest.raises(ValueError, match="browser"):
        GRAMMAR.system_prompt(mode="semantic")
    assert (GRAMMAR.name, GRAMMAR.modes, GRAMMAR.default_coords) == (
        "openai-cua", ("browser",), "absolute")


@pytest.mark.parametrize(("raw", "reason"), [
    ('[{"type": "computer_call", "action": {"type": "click"', "not JSON"),
    ("", "not JSON"),
    ("[]", "non-empty list"),
    ("null", "non-empty list"),
    ("[1, 2]", "every output item must be a JSON object"),
    ('{"type": "zoom", "x": 1, "y": 2}', "unknown action type 'zoom'"),
    ('{"x": 1, "y": 2}', "action has no type"),
    ('{"type": "click", "button": "left"}', "click needs x and y"),
    ('{"type": "click", "x": "156px", "y": 50}', "x and y must be numbers"),
    ('{"type": "click", "x": true, "y": 50}', "x and y must be numbers"),
    ('{"type": "click", "x": 2000, "y": 50}',
     "x=2000 is outside the screen: x must be within 0..1023 (pixels of the 1024x768 "
     "screenshot)"),
    ('{"type": "move", "x": -1, "y": 50}', "x=-1 is outside the screen: x must be within 0..1023"),
    ('{"type": "move", "x": 10, "y": 768}', "y=768 is outside the screen: y must be within 0..767"),
    ('{"type": "click", "x": 1, "y": 2, "button": "side"}', "unknown button 'side'"),
    ('{"type": "double_click", "y": 2}', "double_click needs x and y"),
    ('{"type": "drag", "path": [{"x": 1, "y": 2}]}', "at least two"),
    ('{"type": "drag", "path": "1,2 to 3,4"}', "at least two"),
    ('{"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 1}]}', "drag needs x and y"),
    ('{"type": "keypress", "keys": []}', "non-empty list of key names"),
    ('{"type": "keypress", "keys": "ctrl+a"}', "non-empty list of key names"),
    ('{"type": "keypress", "keys": ["CTRL", 5]}', "non-empty list of key names"),
    ('{"type": "type", "text": 42}', "type needs text"),
    ('{"type": "type"}', "type needs text"),
    ('{"type": "scroll", "x": 1, "y": 2, "scroll_y": "down"}', "scroll_x and scroll_y"),
    ('{"type": "scroll", "scroll_y": 100}', "scroll needs x and y"),
    ('{"type": "computer_call", "call_id": "c"}', "no action object"),
    ('{"type": "computer_call", "call_id": "c", "actions": []}', "empty actions list"),
    ('[{"type": "function_call", "name": "goto", "arguments": "{}"}]',
     "'function_call' is not part"),
    ('[{"type": "reasoning", "summary": [{"type": "summary_text", "text": "hm"}]}]',
     "no computer_call and no message"),
])
def test_malformed_is_invalid_with_raw_kept(raw: str, reason: str) -> None:
    p = GRAMMAR.parse(raw, CTX)
    assert not p.ok and p.actions == []
    assert p.error is not None and reason in p.error
    assert p.raw == raw
    assert p.to_json() == {"kind": "invalid", "error": p.error, "raw": raw}


def test_invalid_keeps_the_reasoning_as_thought() -> None:
    output = [DOCS_OUTPUT[0], {"type": "computer_call", "call_id": "c",
                               "action": {"type": "teleport"}}]
    p = parse(output)
    assert not p.ok and "teleport" in (p.error or "")
    assert p.thought == "Clicking on the browser address bar."


@pytest.mark.parametrize("raw", ["0", '"click"', "true", '{"output": 5}', '[[]]', '{"type": null}',
                                 '{"type": "click", "x": NaN, "y": 1}', "\x00", "[{}]"])
def test_never_raises(raw: str) -> None:
    p = GRAMMAR.parse(raw, CTX)
    assert not p.ok and p.error and p.raw == raw
