# Sources for the cases below (model outputs written down from these, not copied code):
# - Anthropic docs, "Computer use tool" (platform.claude.com/docs/en/agents-and-tools/tool-use/
#   computer-use-tool; the same action description ships in @ai-sdk/anthropic
#   computer_20250124.ts): the tool definition {"type": "computer_20250124", "name": "computer",
#   "display_width_px", "display_height_px"}; the actions key (xdotool syntax: "a", "Return",
#   "alt+Tab", "ctrl+s", "Up", "KP_0"), hold_key (text + duration), type, cursor_position,
#   mouse_move, left_mouse_down/up, left/right/middle/double/triple_click (coordinate, `text`
#   = modifier keys held), left_click_drag (start_coordinate + coordinate), scroll
#   (coordinate, scroll_direction, scroll_amount), wait (duration), screenshot; zoom (region) in
#   computer_20251124; responses as content blocks (text / thinking / tool_use with "toolu_" ids)
#   and a text-only turn when the task is done -> test_every_action, test_key_*, test_multi_block,
#   test_text_only_*.
# - anthropics/anthropic-quickstarts computer-use-demo/computer_use_demo/tools/computer.py
#   (ComputerTool20250124): scroll needs a direction in up/down/left/right and a non-negative
#   int amount; hold_key and wait need a numeric duration; left_mouse_down/up; coordinates are
#   non-negative and inside the screen; several keys in one `key` call (xdotool key a b) ->
#   test_malformed_*, test_key_sequence. loop.py ends the loop on a turn without tool_use.
# - anthropics/claude-quickstarts issue #263 ("20250124 implemented incorrectly?"): a real
#   model output {'action': 'left_click_drag', 'start_coordinate': [0, 0], 'coordinate':
#   [100, 100], 'text': 'ctrl'} (modifier in `text`) -> test_issue_263_ctrl_drag.
# - UKGovernmentBEIS/inspect_ai PR #5420: in computer_20250124+ a click without coordinate
#   clicks at the current cursor -> test_click_without_coordinate_*.
# Malformed cases (bad JSON, unknown action, missing or ill-typed coordinate, foreign tools and
# blocks) follow the same schemas.
from __future__ import annotations

import json

import pytest

from webmdp.agents.llm.grammars.anthropic_cua import GRAMMAR, xdotool_chord
from webmdp.agents.llm.grammars.base import VIEWPORT, ParseContext, Parsed
from webmdp.env.actions import SCROLL_STEP_PX, GUIAction

SHOT = (1280, 800)  # a WXGA screenshot, what computer-use-demo scales a 16:10 screen to
CTX = ParseContext(image_size=SHOT)


def vp(x: float, y: float, image: tuple[int, int] = SHOT) -> tuple[float, float]:
    """The viewport pixel a screenshot pixel maps to: x * 1440 / width, y * 900 / height."""
    return round(x * VIEWPORT[0] / image[0], 1), round(y * VIEWPORT[1] / image[1], 1)


def tool_use(inp: dict, tid: str = "toolu_01A09q90qw90lq917835lq9") -> dict:
    return {"type": "tool_use", "id": tid, "name": "computer", "input": inp}


def parse(obj: object, ctx: ParseContext = CTX) -> Parsed:
    return GRAMMAR.parse(json.dumps(obj), ctx)


def only(p: Parsed) -> GUIAction:
    assert p.ok, p.error
    assert len(p.actions) == 1
    act = p.actions[0]
    assert isinstance(act, GUIAction)
    return act


X, Y = vp(640, 400)  # (720.0, 450.0)


@pytest.mark.parametrize(("inp", "expected"), [
    ({"action": "left_click", "coordinate": [640, 400]}, {"kind": "click", "x": X, "y": Y}),
    ({"action": "right_click", "coordinate": [640, 400]}, {"kind": "right_click", "x": X, "y": Y}),
    ({"action": "middle_click", "coordinate": [640, 400]},
     {"kind": "click", "button": "middle", "x": X, "y": Y}),
    ({"action": "double_click", "coordinate": [640, 400]},
     {"kind": "double_click", "x": X, "y": Y}),
    ({"action": "triple_click", "coordinate": [640, 400]},
     {"kind": "triple_click", "x": X, "y": Y}),
    ({"action": "mouse_move", "coordinate": [1279, 799]},
     {"kind": "move", "x": vp(1279, 799)[0], "y": vp(1279, 799)[1]}),
    ({"action": "left_click_drag", "start_coordinate": [100, 100], "coordinate": [400, 400]},
     {"kind": "drag", "x": vp(100, 100)[0], "y": vp(100, 100)[1],
      "x2": vp(400, 400)[0], "y2": vp(400, 400)[1]}),
    ({"action": "left_mouse_down"}, {"kind": "mouse_down"}),
    ({"action": "left_mouse_up"}, {"kind": "mouse_up"}),
    ({"action": "left_mouse_down", "coordinate": [640, 400]},
     {"kind": "mouse_down", "x": X, "y": Y}),
    ({"action": "scroll", "coordinate": [512, 400], "scroll_direction": "down",
      "scroll_amount": 5},
     {"kind": "scroll", "x": vp(512, 400)[0], "y": vp(512, 400)[1], "direction": "down",
      "amount": 5.0, "dy": 5.0 * SCROLL_STEP_PX}),
    ({"action": "scroll", "coordinate": [640, 400], "scroll_direction": "up", "scroll_amount": 3},
     {"kind": "scroll", "x": X, "y": Y, "direction": "up", "amount": 3.0,
      "dy": -3.0 * SCROLL_STEP_PX}),
    ({"action": "scroll", "coordinate": [640, 400], "scroll_direction": "left",
      "scroll_amount": 2},
     {"kind": "scroll", "x": X, "y": Y, "direction": "left", "amount": 2.0,
      "dx": -2.0 * SCROLL_STEP_PX}),
    ({"action": "scroll", "scroll_direction": "right", "scroll_amount": 1},
     {"kind": "scroll", "direction": "right", "amount": 1.0, "dx": 1.0 * SCROLL_STEP_PX}),
    ({"action": "key", "text": "ctrl+s"}, {"kind": "key", "key": "Control+s"}),
    ({"action": "hold_key", "text": "shift", "duration": 1}, {"kind": "key", "key": "Shift"}),
    ({"action": "type", "text": "username@example.com"},
     {"kind": "type", "text": "username@example.com"}),
    ({"action": "wait", "duration": 0.5}, {"kind": "wait", "seconds": 0.5}),
    ({"action": "screenshot"}, {"kind": "wait", "seconds": 0.0}),
    ({"action": "cursor_position"}, {"kind": "wait", "seconds": 0.0}),
    ({"action": "zoom", "region": [0, 0, 640, 400]}, {"kind": "wait", "seconds": 0.0}),
])
def test_every_action(inp: dict, expected: dict) -> None:
    assert only(parse(tool_use(inp))).to_dict() == expected


def test_tool_use_block_bare_input_and_message_agree() -> None:
    inp = {"action": "left_click", "coordinate": [640, 400]}
    block = parse(tool_use(inp))
    assert only(block) == only(parse(inp)) == only(parse({"id": "msg_01", "role": "assistant",
                                                          "content": [tool_use(inp)],
                                                          "stop_reason": "tool_use"}))
    assert block.meta == {"tool_use_id": "toolu_01A09q90qw90lq917835lq9"}
    assert parse(inp).meta == {}


@pytest.mark.parametrize(("text", "chord"), [
    ("a", "a"), ("Return", "Enter"), ("alt+Tab", "Alt+Tab"), ("ctrl+s", "Control+s"),
    ("Up", "ArrowUp"), ("KP_0", "Numpad0"), ("BackSpace", "Backspace"), ("Page_Down", "PageDown"),
    ("super+l", "Meta+l"), ("ctrl+minus", "Control+Minus"), ("Escape", "Escape"),
    ("F5", "F5"),
])
def test_key_xdotool_names(text: str, chord: str) -> None:
    assert only(parse(tool_use({"action": "key", "text": text}))).key == chord


def test_key_sequence() -> None:
    p = parse(tool_use({"action": "key", "text": "ctrl+a BackSpace"}))
    assert [a.key for a in p.actions] == ["Control+a", "Backspace"]  # type: ignore[union-attr]


def test_key_repeat() -> None:
    p = parse(tool_use({"action": "key", "text": "Down", "repeat": 3}))
    assert [a.key for a in p.actions] == ["ArrowDown"] * 3  # type: ignore[union-attr]


def test_xdotool_chord() -> None:
    assert xdotool_chord("ctrl+shift+Return") == "ctrl+shift+Enter"


def test_issue_263_ctrl_drag() -> None:
    p = parse(tool_use({"action": "left_click_drag", "start_coordinate": [0, 0],
                        "coordinate": [100, 100], "text": "ctrl"}))
    assert only(p).to_dict() == {"kind": "drag", "x": 0.0, "y": 0.0,
                                 "x2": vp(100, 100)[0], "y2": vp(100, 100)[1]}
    assert p.meta["held_keys"] == "ctrl"


def test_click_modifier_is_reported() -> None:
    p = parse(tool_use({"action": "left_click", "coordinate": [500, 300], "text": "shift"}))
    assert only(p).to_dict() == {"kind": "click", "x": vp(500, 300)[0], "y": vp(500, 300)[1]}
    assert p.meta["held_keys"] == "shift"


def test_hold_key_duration_and_zoom_region_are_reported() -> None:
    assert parse(tool_use({"action": "hold_key", "text": "a", "duration": 2})).meta[
        "hold_seconds"] == 2.0
    zoom = parse(tool_use({"action": "zoom", "region": [0, 0, 640, 400]}))
    assert zoom.meta["zoom"] == [0.0, 0.0, X, Y]


def test_multi_block() -> None:
    blocks = [
        {"type": "thinking", "thinking": "The login form is in the middle.", "signature": "s"},
        {"type": "text", "text": "I'll fill in the login form."},
        tool_use({"action": "left_click", "coordinate": [300, 200]}, "toolu_1"),
        tool_use({"action": "type", "text": "owner@demo.dev"}, "toolu_2"),
        tool_use({"action": "key", "text": "Return"}, "toolu_3"),
    ]
    p = parse(blocks)
    assert p.ok
    assert [a.to_dict() for a in p.actions] == [
        {"kind": "click", "x": vp(300, 200)[0], "y": vp(300, 200)[1]},
        {"kind": "type", "text": "owner@demo.dev"}, {"kind": "key", "key": "Enter"}]
    assert p.thought == "The login form is in the middle.\nI'll fill in the login form."
    assert p.meta == {"tool_use_id": "toolu_1", "tool_use_ids": ["toolu_1", "toolu_2", "toolu_3"]}
    assert p.intent is None


def test_click_without_coordinate_uses_the_cursor_moved_this_turn() -> None:
    p = parse([tool_use({"action": "mouse_move", "coordinate": [100, 100]}, "t1"),
               tool_use({"action": "left_click"}, "t2"),
               tool_use({"action": "scroll", "scroll_direction": "down", "scroll_amount": 2},
                        "t3")])
    assert p.ok
    move, click, scroll = p.actions
    assert isinstance(move, GUIAction) and isinstance(click, GUIAction)
    assert isinstance(scroll, GUIAction)
    assert (click.kind, click.x, click.y) == ("click", *vp(100, 100))
    assert (scroll.x, scroll.y) == vp(100, 100)


def test_click_without_coordinate_and_no_cursor_is_invalid() -> None:
    p = parse(tool_use({"action": "left_click"}))
    assert not p.ok and "coordinate" in (p.error or "") and "cursor" in (p.error or "")


def test_text_only_turn_finishes() -> None:
    p = parse([{"type": "thinking", "thinking": "Done.", "signature": "s"},
               {"type": "text", "text": "The order was placed."}])
    act = only(p)
    assert (act.kind, act.answer) == ("finish", "The order was placed.")
    assert p.thought == "Done."


def test_text_only_turn_as_plain_text() -> None:
    """The Anthropic client passes a turn without tool_use as its text, not JSON."""
    p = GRAMMAR.parse("The cheapest tent is the Northpeak Dome 2 at $89.99.", CTX)
    assert only(p).answer == "The cheapest tent is the Northpeak Dome 2 at $89.99."


def test_coordinates_follow_the_screenshot_size() -> None:
    ctx = ParseContext(image_size=(1356, 847))  # the docs' scale of a 1440x900 screen
    act = only(parse(tool_use({"action": "left_click", "coordinate": [678, 423]}), ctx))
    assert (act.x, act.y) == vp(678, 423, (1356, 847)) == (720.0, 449.5)


def test_tool_spec() -> None:
    assert GRAMMAR.tool_spec((1280, 800)) == {
        "type": "computer_20250124", "name": "computer", "display_width_px": 1280,
        "display_height_px": 800}


def test_system_prompt() -> None:
    text = GRAMMAR.system_prompt(mode="browser")
    assert "computer tool" in text and "text only" in text
    with pytest.raises(ValueError, match="browser"):
        GRAMMAR.system_prompt(mode="semantic")
    assert (GRAMMAR.name, GRAMMAR.modes, GRAMMAR.default_coords) == (
        "anthropic-cua", ("browser",), "absolute")


@pytest.mark.parametrize(("inp", "reason"), [
    ({"action": "teleport", "coordinate": [1, 2]}, "unknown action 'teleport'"),
    ({"coordinate": [1, 2]}, "tool input has no action"),
    ({"action": "mouse_move"}, "mouse_move needs coordinate"),
    ({"action": "left_click", "coordinate": [640]}, "coordinate must be [x, y] numbers"),
    ({"action": "left_click", "coordinate": ["640px", "400"]}, "coordinate must be [x, y] numbers"),
    ({"action": "left_click", "coordinate": "640,400"}, "coordinate must be [x, y] numbers"),
    ({"action": "left_click", "coordinate": [1280, 10]},
     "x=1280 is outside the screen: x must be within 0..1279 (pixels of the 1280x800 screenshot)"),
    ({"action": "double_click", "coordinate": [-5, 10]},
     "x=-5 is outside the screen: x must be within 0..1279"),
    ({"action": "double_click", "coordinate": [5, 800]},
     "y=800 is outside the screen: y must be within 0..799"),
    ({"action": "left_click_drag", "coordinate": [10, 10]}, "needs start_coordinate"),
    ({"action": "left_click_drag", "start_coordinate": [10, 10]}, "needs coordinate"),
    ({"action": "scroll", "coordinate": [1, 2], "scroll_amount": 3}, "scroll_direction"),
    ({"action": "scroll", "scroll_direction": "sideways", "scroll_amount": 3}, "scroll_direction"),
    ({"action": "scroll", "scroll_direction": "down", "scroll_amount": -1}, "scroll_amount"),
    ({"action": "scroll", "scroll_direction": "down", "scroll_amount": 2.5}, "scroll_amount"),
    ({"action": "scroll", "scroll_direction": "down"}, "scroll_amount"),
    ({"action": "key"}, "key needs text"),
    ({"action": "key", "text": "  "}, "key needs text"),
    ({"action": "key", "text": "a", "repeat": 0}, "repeat"),
    ({"action": "hold_key", "text": "shift"}, "hold_key needs duration"),
    ({"action": "type", "text": ["a"]}, "type needs text"),
    ({"action": "wait"}, "wait needs duration"),
    ({"action": "wait", "duration": "2"}, "wait needs duration"),
    ({"action": "wait", "duration": -1}, "wait needs duration"),
    ({"action": "zoom", "region": [0, 0, 10]}, "zoom needs region"),
])
def test_malformed_input_is_invalid(inp: dict, reason: str) -> None:
    raw = json.dumps([{"type": "text", "text": "Trying."}, tool_use(inp)])
    p = GRAMMAR.parse(raw, CTX)
    assert not p.ok and p.actions == []
    assert p.error is not None and reason in p.error
    assert p.raw == raw and p.thought == "Trying."


@pytest.mark.parametrize(("raw", "reason"), [
    ('[{"type": "tool_use", "name": "computer", "input": {"action": "left_', "not JSON"),
    ("{not json}", "not JSON"),
    ("", "empty response"),
    ("   ", "empty response"),
    ("[]", "non-empty list"),
    ("[1]", "every content block must be a JSON object"),
    ('[{"type": "tool_use", "name": "bash", "input": {"command": "ls"}}]', "tool 'bash'"),
    ('[{"type": "tool_use", "name": "computer", "input": "screenshot"}]', "must be a JSON object"),
    ('[{"type": "image", "source": {}}]', "'image' is not part"),
    ('[{"type": "thinking", "thinking": "hmm", "signature": "s"}]', "no tool_use and no text"),
])
def test_malformed_turn_is_invalid(raw: str, reason: str) -> None:
    p = GRAMMAR.parse(raw, CTX)
    assert not p.ok and p.error is not None and reason in p.error
    assert p.raw == raw
    assert p.to_json()["kind"] == "invalid"


def test_one_bad_block_invalidates_the_turn() -> None:
    p = parse([tool_use({"action": "left_click", "coordinate": [1, 2]}, "t1"),
               tool_use({"action": "left_click", "coordinate": [9999, 2]}, "t2")])
    assert not p.ok and p.actions == [] and "outside" in (p.error or "")


@pytest.mark.parametrize("raw", ["{}", "[[]]", '{"content": 3}', '{"action": null}',
                                 '{"type": "tool_use"}', '[{"type": "text", "text": 5}]',
                                 '{"action": "left_click", "coordinate": [NaN, 1]}'])
def test_never_raises(raw: str) -> None:
    p = GRAMMAR.parse(raw, CTX)
    assert not p.ok and p.error and p.raw == raw
