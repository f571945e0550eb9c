"""What every coordinate grammar shares, checked the same way in each of them.

- A point outside the image the model saw is an invalid step whose error names the bound in the
  model's own coordinate space (pixels of the screenshot, 0-1000 relative or 0-1 normalized);
  no grammar clamps it to the screen edge and clicks there.
- Scroll distances are scaled from the image the model saw to the viewport like coordinates
  (qwen ``pixels`` and openai-cua ``scroll_x`` / ``scroll_y``; fara keeps its sign-only page
  step).
- A right click is ``right_click`` in every grammar, never ``click`` with ``button: "right"``.
- Coordinates written as numeric strings ("640") read like numbers in every grammar.
- Prose around a tool call never becomes a ``finish`` whose answer holds the call.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from webmdp.agents.llm.grammars import get_grammar
from webmdp.agents.llm.grammars.base import VIEWPORT, Coords, ParseContext, Parsed
from webmdp.env.actions import GUIAction

SHOT = (1280, 800)
SCALE = (VIEWPORT[0] / SHOT[0], VIEWPORT[1] / SHOT[1])  # 1.125 on both axes


def ctx(coords: Coords = "absolute") -> ParseContext:
    return ParseContext(image_size=SHOT, coords=coords)


def _uitars(x: Any, y: Any) -> str:
    return f"Thought: Click it.\nAction: click(start_box='({x},{y})')"


def _qwen(x: Any, y: Any) -> str:
    args = {"action": "left_click", "coordinate": [x, y]}
    return f"<tool_call>{json.dumps({'name': 'computer_use', 'arguments': args})}</tool_call>"


def _openai(x: Any, y: Any) -> str:
    return json.dumps({"type": "click", "button": "left", "x": x, "y": y})


def _anthropic(x: Any, y: Any) -> str:
    return json.dumps({"action": "left_click", "coordinate": [x, y]})


def _json(x: Any, y: Any) -> str:
    return json.dumps({"thought": "Click it.", "action": {"kind": "click", "x": x, "y": y}})


CLICK: dict[str, Callable[[Any, Any], str]] = {
    "uitars": _uitars, "qwen": _qwen, "fara": _qwen, "openai-cua": _openai,
    "anthropic-cua": _anthropic, "json": _json}
"""A left click at (x, y) as each coordinate grammar's model writes it."""
FOLLOWS_CTX = ("uitars", "qwen", "fara", "json")
"""Grammars that read ``ctx.coords``; the computer-use APIs always give screenshot pixels."""


def parse(grammar: str, raw: str, context: ParseContext) -> Parsed:
    return get_grammar(grammar).parse(raw, context)


def only(p: Parsed) -> GUIAction:
    assert p.ok, p.error
    assert len(p.actions) == 1
    act = p.actions[0]
    assert isinstance(act, GUIAction)
    return act


# -- 16. off-screen coordinates ----------------------------------------------------------------
OFF_SCREEN: list[tuple[Coords, float, float, str]] = [
    ("absolute", 1500, 400, "x=1500 is outside the screen: x must be within 0..1279"),
    ("absolute", 1280, 400, "x=1280 is outside the screen: x must be within 0..1279"),
    ("absolute", 640, 800, "y=800 is outside the screen: y must be within 0..799"),
    ("absolute", -3, 400, "x=-3 is outside the screen: x must be within 0..1279"),
    ("relative1000", 1200, 500, "x=1200 is outside the screen: x must be within 0..1000"),
    ("relative1000", 500, -1, "y=-1 is outside the screen: y must be within 0..1000"),
    ("normalized1", 1.5, 0.5, "x=1.5 is outside the screen: x must be within 0..1"),
    ("normalized1", 0.5, 1.01, "y=1.01 is outside the screen: y must be within 0..1"),
]


def _applicable(cases: list[tuple]) -> list[tuple]:  # type: ignore[type-arg]
    """(grammar, *case) pairs where the grammar reads the case's coordinate convention (the
    computer-use grammars read screenshot pixels only)."""
    return [(g, *c) for g in CLICK for c in cases if c[0] == "absolute" or g in FOLLOWS_CTX]


@pytest.mark.parametrize(("grammar", "coords", "x", "y", "error"), _applicable(OFF_SCREEN))
def test_off_screen_point_is_invalid_and_names_the_bound(grammar: str, coords: Coords, x: float,
                                                         y: float, error: str) -> None:
    p = parse(grammar, CLICK[grammar](x, y), ctx(coords))
    assert not p.ok and p.actions == []
    assert p.error is not None and error in p.error, p.error
    assert p.to_json()["kind"] == "invalid"


def test_absolute_bound_names_the_screenshot() -> None:
    p = parse("qwen", _qwen(1500, 10), ctx())
    assert p.error == ("left_click: x=1500 is outside the screen: x must be within 0..1279 "
                       "(pixels of the 1280x800 screenshot)")
    p = parse("uitars", _uitars(10, 2000), ctx("relative1000"))
    assert p.error == ("click: y=2000 is outside the screen: y must be within 0..1000 "
                       "(relative 0-1000 coordinates)")


@pytest.mark.parametrize(("grammar", "coords", "x", "y"), _applicable([
    ("absolute", 0, 0), ("absolute", 1279, 799), ("relative1000", 1000, 1000),
    ("normalized1", 1, 0)]))
def test_edge_points_are_on_screen(grammar: str, coords: Coords, x: float, y: float) -> None:
    act = only(parse(grammar, CLICK[grammar](x, y), ctx(coords)))
    assert 0 <= (act.x or 0) <= VIEWPORT[0] - 1 and 0 <= (act.y or 0) <= VIEWPORT[1] - 1


@pytest.mark.parametrize(("grammar", "raw"), [
    ("uitars", "Action: drag(start_box='(10,10)', end_box='(1300,10)')"),
    ("uitars", "Action: scroll(start_box='(10,900)', direction='down')"),
    ("uitars", "Action: click(start_box='(1270,10,1390,30)')"),  # a box: its centre counts
    ("qwen", '<tool_call>{"name": "computer_use", "arguments": {"action": "scroll", '
             '"pixels": -100, "coordinate": [10, 900]}}</tool_call>'),
    ("qwen", '<tool_call>{"name": "computer_use", "arguments": {"action": "left_click_drag", '
             '"coordinate": [1300, 10]}}</tool_call>'),
    ("fara", '<tool_call>{"name": "computer_use", "arguments": {"action": "type", '
             '"text": "a", "coordinate": [10, 900]}}</tool_call>'),
    ("openai-cua", '{"type": "drag", "path": [{"x": 10, "y": 10}, {"x": 1300, "y": 10}]}'),
    ("openai-cua", '{"type": "scroll", "x": 10, "y": 900, "scroll_x": 0, "scroll_y": 100}'),
    ("anthropic-cua", '{"action": "left_click_drag", "start_coordinate": [10, 10], '
                      '"coordinate": [1300, 10]}'),
    ("anthropic-cua", '{"action": "zoom", "region": [0, 0, 1300, 100]}'),
    ("json", '{"action": {"kind": "drag", "x": 10, "y": 10, "x2": 1300, "y2": 10}}'),
])
def test_every_pointed_action_checks_its_points(grammar: str, raw: str) -> None:
    p = parse(grammar, raw, ctx())
    assert not p.ok and p.error is not None and "outside the screen" in p.error, p.error


# -- 17. scroll amounts ------------------------------------------------------------------------
def test_qwen_scroll_pixels_scale_like_openai_cua() -> None:
    """300 screenshot pixels down is 337.5 viewport pixels in both grammars."""
    qwen = only(parse("qwen", '<tool_call>{"name": "computer_use", "arguments": '
                              '{"action": "scroll", "pixels": -300}}</tool_call>', ctx()))
    cua = only(parse("openai-cua", '{"type": "scroll", "x": 10, "y": 10, "scroll_x": 0, '
                                   '"scroll_y": 300}', ctx()))
    assert qwen.dy == cua.dy == 300 * SCALE[1] == 337.5
    qwen = only(parse("qwen", '<tool_call>{"name": "computer_use", "arguments": '
                              '{"action": "hscroll", "pixels": 200}}</tool_call>', ctx()))
    cua = only(parse("openai-cua", '{"type": "scroll", "x": 10, "y": 10, "scroll_x": 200, '
                                   '"scroll_y": 0}', ctx()))
    assert qwen.dx == cua.dx == 200 * SCALE[0] == 225.0


def test_qwen_relative_scroll_scales_from_the_declared_screen() -> None:
    """With 0-1000 coordinates the prompt declares a 1000x1000 screen: pixels of that screen."""
    act = only(parse("qwen", '<tool_call>{"name": "computer_use", "arguments": '
                             '{"action": "scroll", "pixels": -100}}</tool_call>',
                     ctx("relative1000")))
    assert act.dy == 100 * VIEWPORT[1] / 1000


def test_fara_scroll_keeps_its_sign_only_page_step() -> None:
    for pixels in (-1, -300, -5000):
        act = only(parse("fara", '<tool_call>{"name": "computer_use", "arguments": '
                                 f'{{"action": "scroll", "pixels": {pixels}}}}}</tool_call>',
                         ctx()))
        assert (act.dx, act.dy) == (0, 400)


# -- 18. action kinds and numeric strings ------------------------------------------------------
RIGHT_CLICK = {
    "uitars": "Action: right_single(start_box='(640,400)')",
    "qwen": '<tool_call>{"name": "computer_use", "arguments": {"action": "right_click", '
            '"coordinate": [640, 400]}}</tool_call>',
    "openai-cua": '{"type": "click", "button": "right", "x": 640, "y": 400}',
    "anthropic-cua": '{"action": "right_click", "coordinate": [640, 400]}',
    "json": '{"action": {"kind": "click", "button": "right", "x": 640, "y": 400}}',
}


@pytest.mark.parametrize("grammar", list(RIGHT_CLICK))
def test_right_click_is_one_kind_everywhere(grammar: str) -> None:
    act = only(parse(grammar, RIGHT_CLICK[grammar], ctx()))
    assert act.to_dict() == {"kind": "right_click", "x": 720.0, "y": 450.0}


def test_axtree_right_click_is_right_click() -> None:
    p = parse("axtree", "click('12', button=\"right\")", ParseContext())
    assert only(p).to_dict() == {"kind": "right_click", "element": 12}


@pytest.mark.parametrize("grammar", list(CLICK))
@pytest.mark.parametrize(("x", "y"), [("640", "400"), (" 640 ", "400.0"), ("640", 400)])
def test_numeric_strings_read_as_numbers(grammar: str, x: Any, y: Any) -> None:
    act = only(parse(grammar, CLICK[grammar](x, y), ctx()))
    assert (act.x, act.y) == (720.0, 450.0)


@pytest.mark.parametrize("grammar", ["qwen", "openai-cua", "anthropic-cua", "json"])
@pytest.mark.parametrize("x", ["640px", "nan", "inf", "", True])
def test_non_numeric_coordinates_are_invalid(grammar: str, x: Any) -> None:
    p = parse(grammar, CLICK[grammar](x, 400), ctx())
    assert not p.ok and p.error


def test_openai_numeric_string_scroll() -> None:
    act = only(parse("openai-cua", '{"type": "scroll", "x": "10", "y": "10", "scroll_x": "0", '
                                   '"scroll_y": "-80"}', ctx()))
    assert (act.dx, act.dy) == (0, -90.0)


# -- 19. prose around a call -------------------------------------------------------------------
@pytest.mark.parametrize("raw", [
    'I will click the cart.\n{"action": "left_click", "coordinate": [640, 400]}',
    'I will click the cart.\n```json\n{"action": "left_click", "coordinate": [640, 400]}\n```',
    'I will click the cart. {"type": "tool_use", "name": "computer", "id": "toolu_1", '
    '"input": {"action": "left_click", "coordinate": [640, 400]}}',
])
def test_anthropic_prose_then_call_executes_the_call(raw: str) -> None:
    p = parse("anthropic-cua", raw, ctx())
    act = only(p)
    assert act.to_dict() == {"kind": "click", "x": 720.0, "y": 450.0}
    assert p.thought == "I will click the cart."


def test_anthropic_call_in_a_text_block_is_not_an_answer() -> None:
    raw = json.dumps([{"type": "text", "text": 'Clicking now: {"action": "left_click", '
                                               '"coordinate": [640, 400]}'}])
    p = parse("anthropic-cua", raw, ctx())
    assert only(p).kind == "click" and p.thought == "Clicking now:"


@pytest.mark.parametrize("raw", [
    'I will click.\n{"action": "left_click", "coordinate": [5000, 400]}',
    'I will click.\n{"action": "teleport", "coordinate": [6, 4]}',
    'I will click.\n{"action": "left_click", "coordinate": [640, 400]',
])
def test_anthropic_prose_with_a_bad_call_is_invalid(raw: str) -> None:
    p = parse("anthropic-cua", raw, ctx())
    assert not p.ok and p.actions == [] and p.error
    assert p.thought == "I will click."


@pytest.mark.parametrize("raw", [
    "The cheapest tent is $89.99.",
    'The answer is {"price": 89.99}.',
    "Use the {action} placeholder.",
])
def test_anthropic_plain_answers_still_finish(raw: str) -> None:
    act = only(parse("anthropic-cua", raw, ctx()))
    assert (act.kind, act.answer) == ("finish", raw)


def test_openai_action_in_a_message_is_not_an_answer() -> None:
    raw = json.dumps([{"type": "message", "content": [{"type": "output_text", "text":
                       'Opening the cart. {"type": "click", "button": "left", "x": 640, '
                       '"y": 400}'}]}])
    p = parse("openai-cua", raw, ctx())
    assert only(p).to_dict() == {"kind": "click", "x": 720.0, "y": 450.0}
    assert p.thought == "Opening the cart."
    bad = raw.replace("640", "6400")
    p = parse("openai-cua", bad, ctx())
    assert not p.ok and "x=6400 is outside the screen" in (p.error or "")
    answer = json.dumps([{"type": "message", "content": 'The total is {"usd": 5}.'}])
    p = parse("openai-cua", answer, ctx())
    assert (only(p).kind, only(p).answer) == ("finish", 'The total is {"usd": 5}.')
