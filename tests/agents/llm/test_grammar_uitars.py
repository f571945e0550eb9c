"""UI-TARS grammar: every documented action, both coordinate conventions, malformed outputs.

Sources (public documentation and real model outputs) and the cases taken from each:
- bytedance/UI-TARS README_coordinates.md ("Processing Model Coordinate Outputs"): the model
  output ``Thought: xxx\\nAction: click(start_box='(197,525)')`` and the rule that UI-TARS-1.5
  coordinates are absolute pixels of the smart-resized image -> test_readme_coordinates_example,
  test_smart_resized_viewport.
- bytedance/UI-TARS issues #189 and #119 (maintainers: UI-TARS-1.5 uses absolute coordinates,
  UI-TARS-1 / Doubao 0-1000 relative) -> test_default_coords_absolute, test_relative1000.
- bytedance/UI-TARS issue #131 (real UI-TARS-1.5-7B output on a web page:
  ``Action: click(start_box='(1099,64)')``) and bytedance/UI-TARS-desktop issue #718 (real
  output ``click(start_box='(660,1059)')``) -> test_real_outputs_from_issues.
- xlang-ai/OSWorld issue #296 (real UI-TARS-1.5-7B output ``type(content='community')``)
  -> test_real_outputs_from_issues.
- bytedance/UI-TARS codes/ui_tars/prompt.py (COMPUTER_USE action space: click/left_double/
  right_single with ``point='<point>x1 y1</point>'``, drag with start_point/end_point,
  ``hotkey(key='ctrl c')``, ``type(content='xxx')`` with ``\\'``, ``\\"``, ``\\n`` escapes and a
  trailing ``\\n`` to submit, ``scroll(point=..., direction=...)``, ``wait()`` = 5 s,
  ``finished(content='xxx')``) -> test_point_form_actions, test_type_escapes_and_submit,
  test_scroll_directions, test_wait_finished.
- UI-TARS-1 / UI-TARS-desktop SDK prompt (``click(start_box='<|box_start|>(x1,y1)<|box_end|>')``,
  ``call_user() # Submit the task and call the user when the task is unsolvable``) and
  bytedance/UI-TARS codes/tests/action_parser_test.py (``click(point='<point>200 300</point>')``,
  ``click(start_box='<|box_start|>(112,224)<|box_end|>')``) -> test_box_token_forms,
  test_call_user.
- bytedance/UI-TARS codes/ui_tars/action_parser.py (Reflection/Action_Summary thoughts; actions
  split at blank lines; ``point=``/``start_point=``/``end_point=`` renames; hotkey keys split on
  spaces, also as ``hotkey=``; ``press``; scroll of 5 wheel notches; unescaped quotes inside
  ``type`` content taken up to the last ``')``) -> test_reflection_summary, test_multiple_actions,
  test_hotkey_and_press, test_unescaped_quote_in_content, test_scroll_directions.
- bytedance/UI-TARS-desktop packages/ui-tars/action-parser/test/actionParser.test.ts
  (``<bbox>637 964 637 964</bbox>``, boxes ``[348, 333, 928, 365]``, ``<think>`` before the
  thought, the full-width colon (U+FF1A) after ``Action``, ``Action:`` inside the thought or
  inside quoted content, ``click(...) then wait()``, a hallucinated continuation after the
  action, an empty ``Action:``, ``type(content='()()')``, the
  ``<|box_start|>(1290,718)<|box_end|>(1350,747)`` box) -> test_desktop_parser_cases,
  test_box_centre, test_empty_and_trailing_text.
Malformed outputs (missing Action:, unknown action, unbalanced quotes/parentheses, missing
coordinates) are written from the grammar's rules -> test_malformed_outputs_are_invalid.
"""

from __future__ import annotations

import pytest

from webmdp.agents.llm.grammars import get_grammar
from webmdp.agents.llm.grammars.base import VIEWPORT, ParseContext, smart_resize
from webmdp.agents.llm.grammars.uitars import GRAMMAR, UITarsGrammar

IMAGE = (1428, 896)
"""The smart-resized 1440x900 screenshot UI-TARS sees: 900/28 -> 32*28 = 896, 1440/28 -> 51*28
= 1428 (both within the min/max pixel bounds)."""
ABS = ParseContext(image_size=IMAGE, coords="absolute")
REL = ParseContext(image_size=IMAGE, coords="relative1000")


def vp(x: float, y: float, coords: str = "absolute") -> tuple[float, float]:
    """Viewport pixels by the conventions' definitions (clamped to the viewport)."""
    vw, vh = VIEWPORT
    if coords == "absolute":
        px, py = x * vw / IMAGE[0], y * vh / IMAGE[1]
    else:
        px, py = x / 1000 * vw, y / 1000 * vh
    return round(min(max(px, 0.0), vw - 1), 1), round(min(max(py, 0.0), vh - 1), 1)


def one(raw: str, ctx: ParseContext = ABS):
    parsed = GRAMMAR.parse(raw, ctx)
    assert parsed.ok, parsed.error
    assert len(parsed.actions) == 1
    return parsed, parsed.actions[0]


def test_registry_and_attributes() -> None:
    g = get_grammar("uitars")
    assert g is GRAMMAR and isinstance(g, UITarsGrammar)
    assert (g.name, g.modes, g.default_coords) == ("uitars", ("browser",), "absolute")
    assert g.tool_spec(IMAGE) is None


def test_system_prompt_lists_the_action_space() -> None:
    prompt = GRAMMAR.system_prompt(mode="browser")
    assert "Thought: ...\nAction: ..." in prompt
    for call in ("click(start_box=", "left_double(", "right_single(", "drag(", "hotkey(key=",
                 "type(content=", "scroll(", "wait()", "finished(content=", "call_user()"):
        assert call in prompt
    assert GRAMMAR.system_prompt(mode="browser", actions_doc="EXTRA").endswith("\n\nEXTRA")
    with pytest.raises(ValueError):
        GRAMMAR.system_prompt(mode="semantic")


def test_smart_resized_viewport() -> None:
    assert smart_resize(900, 1440) == (IMAGE[1], IMAGE[0])


def test_readme_coordinates_example() -> None:
    parsed, act = one("Thought: xxx\nAction: click(start_box='(197,525)')")
    assert (act.kind, act.button, (act.x, act.y)) == ("click", "left", vp(197, 525))
    assert parsed.thought == "xxx"
    assert parsed.intent is None


def test_default_coords_absolute() -> None:
    assert GRAMMAR.default_coords == "absolute"
    _, act = one("Thought: t\nAction: click(start_box='(714,448)')")
    assert (act.x, act.y) == vp(714, 448) == (720.0, 450.0)


def test_relative1000() -> None:
    _, act = one("Thought: t\nAction: click(start_box='(500,250)')", REL)
    assert (act.x, act.y) == vp(500, 250, "relative1000") == (720.0, 225.0)
    _, act = one("Thought: t\nAction: click(start_box='(1000,1000)')", REL)
    assert (act.x, act.y) == (1439.0, 899.0)  # clamped to the last viewport pixel


def test_real_outputs_from_issues() -> None:
    raw = ("Thought: I see a search button at the top of the page, it's the magnifying glass "
           "icon in the upper right corner. To find information about Apple Pencil, I need to "
           "click this search button to open the search box.\n"
           "Action: click(start_box='(1099,64)')")
    parsed, act = one(raw)
    assert (act.kind, act.x, act.y) == ("click", *vp(1099, 64))
    assert parsed.thought.startswith("I see a search button")
    # A point below the 1428x896 screenshot (the issue's screen was taller): invalid, not
    # clamped to the bottom edge.
    parsed = GRAMMAR.parse("Action: click(start_box='(660,1059)')", ABS)
    assert not parsed.ok and parsed.error == (
        "click: y=1059 is outside the screen: y must be within 0..895 (pixels of the 1428x896 "
        "screenshot)")
    _, act = one("Thought: type the query\nAction: type(content='community')")
    assert (act.kind, act.text) == ("type", "community")


def test_point_form_actions() -> None:
    _, act = one("Thought: t\nAction: click(point='<point>200 300</point>')")
    assert (act.kind, act.x, act.y) == ("click", *vp(200, 300))
    _, act = one("Thought: t\nAction: left_double(point='<point>10 20</point>')")
    assert (act.kind, act.x, act.y) == ("double_click", *vp(10, 20))
    _, act = one("Thought: t\nAction: right_single(point='<point>30 40</point>')")
    assert (act.kind, act.x, act.y) == ("right_click", *vp(30, 40))
    _, act = one("Thought: t\nAction: drag(start_point='<point>100 200</point>', "
                 "end_point='<point>300 400</point>')")
    assert act.kind == "drag"
    assert (act.x, act.y, act.x2, act.y2) == (*vp(100, 200), *vp(300, 400))


def test_box_token_forms() -> None:
    _, act = one("Thought: t\nAction: click(start_box='<|box_start|>(112,224)<|box_end|>')")
    assert (act.x, act.y) == vp(112, 224)
    _, act = one("Thought: t\nAction: drag(start_box='<|box_start|>(1,2)<|box_end|>', "
                 "end_box='<|box_start|>(3,4)<|box_end|>')")
    assert (act.x, act.y, act.x2, act.y2) == (*vp(1, 2), *vp(3, 4))
    _, act = one("Thought: t\nAction: click(start_box=(40, 50))")  # unquoted tuple
    assert (act.x, act.y) == vp(40, 50)


def test_box_centre() -> None:
    _, act = one("Thought: t\nAction: click(start_box='[348, 333, 928, 365]')", REL)
    assert (act.x, act.y) == vp((348 + 928) / 2, (333 + 365) / 2, "relative1000")
    _, act = one("Thought: t\nAction: click(start_box='(100,200,300,400)')")
    assert (act.x, act.y) == vp(200, 300)
    _, act = one("Thought: Click open\nAction: click(start_box='<|box_start|>(1290,718)"
                 "<|box_end|>(1350,747)<|box_end|>')")
    assert (act.x, act.y) == vp(1320, 732.5)


def test_type_escapes_and_submit() -> None:
    _, act = one("Thought: t\nAction: type(content='It\\'s a \\\"test\\\"\\nline2')")
    assert act.text == 'It\'s a "test"\nline2'
    _, act = one("Thought: search\nAction: type(content='wireless mouse\\n')")
    assert act.text == "wireless mouse\n"  # trailing newline: submit
    _, act = one("Thought: t\nAction: type(content=\"say 'hi'\")")
    assert act.text == "say 'hi'"
    _, act = one("Thought: Type literal parentheses\nAction: type(content='()()')")
    assert act.text == "()()"


def test_unescaped_quote_in_content() -> None:
    _, act = one("Thought: t\nAction: type(content='I'm looking for Joe's cafe\\n')")
    assert act.text == "I'm looking for Joe's cafe\n"
    _, act = one("Thought: done\nAction: finished(content='It's $5')")
    assert (act.kind, act.answer) == ("finish", "It's $5")


def test_hotkey_and_press() -> None:
    _, act = one("Thought: t\nAction: hotkey(key='ctrl c')")
    assert (act.kind, act.key) == ("key", "Control+c")
    _, act = one("Thought: t\nAction: hotkey(key='ctrl shift t')")
    assert act.key == "Control+Shift+t"
    _, act = one("Thought: t\nAction: hotkey(hotkey='enter')")
    assert act.key == "Enter"
    _, act = one("Thought: t\nAction: press(key='pagedown')")
    assert act.key == "PageDown"


def test_scroll_directions() -> None:
    _, act = one("Thought: t\nAction: scroll(start_box='(714,448)', direction='down')")
    assert (act.kind, act.direction, act.amount, act.dx, act.dy) == ("scroll", "down", 5, 0, 500)
    assert (act.x, act.y) == vp(714, 448)
    _, act = one("Thought: t\nAction: scroll(point='<point>10 10</point>', direction='up')")
    assert (act.dx, act.dy) == (0, -500)
    _, act = one("Thought: t\nAction: scroll(direction='left')")
    assert (act.x, act.y, act.dx, act.dy) == (None, None, -500, 0)
    _, act = one("Thought: t\nAction: scroll(start_box='(1,1)', direction='right', steps='2')")
    assert (act.dx, act.dy) == (200, 0)


def test_wait_finished() -> None:
    _, act = one("Thought: loading\nAction: wait()")
    assert (act.kind, act.seconds) == ("wait", 5.0)
    _, act = one("Thought: t\nAction: finished(content='The cheapest is \\'Blue Mug\\' at $4')")
    assert (act.kind, act.answer) == ("finish", "The cheapest is 'Blue Mug' at $4")
    _, act = one("Thought: all done\nAction: finished()")
    assert (act.kind, act.answer) == ("finish", None)


def test_call_user() -> None:
    parsed, act = one("Thought: I cannot log in without a password.\nAction: call_user()")
    assert (act.kind, act.answer) == ("finish", None)
    assert parsed.meta["call_user"] is True


def test_reflection_summary() -> None:
    raw = ("Reflection: The page did not change.\nAction_Summary: Click on the 'Search' button "
           "again\nAction: click(start_box='(300,400)')")
    parsed, act = one(raw, REL)
    assert parsed.thought == "Click on the 'Search' button again"
    assert parsed.meta["reflection"] == "The page did not change."
    assert parsed.intent == {"kind": "click", "target": "Search"}
    assert (act.x, act.y) == vp(300, 400, "relative1000")


def test_intent_only_when_stated() -> None:
    parsed, _ = one("Thought: I will click the \"Add to Cart\" button below the price.\n"
                    "Action: click(start_box='(1,2)')")
    assert parsed.intent == {"kind": "click", "target": "Add to Cart"}
    parsed, _ = one("Thought: The user's cart is empty; click the cart icon.\n"
                    "Action: click(start_box='(1,2)')")
    assert parsed.intent is None


def test_multiple_actions() -> None:
    raw = ("Thought: Perform multiple actions\nAction: click(start_box='(100,200)')\n\n"
           "type(content='Hello\\n')")
    parsed = GRAMMAR.parse(raw, ABS)
    assert parsed.ok
    assert [a.kind for a in parsed.actions] == ["click", "type"]
    assert parsed.actions[1].text == "Hello\n"
    assert parsed.to_json()["kind"] == "sequence"


def test_desktop_parser_cases() -> None:
    _, act = one("Thought: 我需要先点击任务栏上的浏览器图标来启动浏览器。\n"
                 "Action: click(start_box='<bbox>637 964 637 964</bbox>')", REL)
    assert (act.x, act.y) == vp(637, 964, "relative1000")
    raw = ("<think>\nOkay, the search bar has \"hi\" in it. First, I need to clear that.\n"
           "</think>\nThought: To search for news, first clear the existing text by clicking "
           "the 'X' icon.\nAction: click(point='<point>510 150</point>')")
    parsed, act = one(raw)
    assert parsed.thought.startswith("To search for news")
    assert "search bar" in parsed.meta["reasoning"]
    assert (act.x, act.y) == vp(510, 150)
    _, act = one("Thought: I need to click this button\nAction\uff1aclick(start_box='(100,200)')")
    assert (act.x, act.y) == vp(100, 200)
    _, act = one("Thought: Type raw text exactly\nAction: type(content='Action: wait()')")
    assert act.text == "Action: wait()"
    parsed, act = one("Thought: I should avoid writing \"Action: wait()\" in reasoning.\n"
                      "Action: click(start_box='[100,200]')")
    assert act.kind == "click"
    _, act = one("Thought: click \"Settings\nAction: wait()")
    assert act.kind == "wait"


def test_empty_and_trailing_text() -> None:
    parsed, act = one("Thought: Click then explain\nAction: click(start_box='(100,200)') then "
                      "wait()")
    assert act.kind == "click"
    assert parsed.meta["ignored"] == "then wait()"
    raw = ("Thought: Open Start menu first.\nAction: hotkey(key='ctrl esc')Thought: Type "
           "Cursor in search.\nAction: type(content='Cursor\\n')Thought: Wait.\nAction: wait()")
    parsed, act = one(raw)
    assert (act.kind, act.key) == ("key", "Control+Escape")  # the model's continuation is cut
    assert parsed.thought == "Open Start menu first."
    parsed, act = one("Thought: t\nAction: click(start_box='(1,2)') # the icon")
    assert act.kind == "click"
    _, act = one("Thought: t\nAction:\n```\ntype(content='run `ls`')\n```")
    assert act.text == "run `ls`"
    _, act = one("Thought: t\nAction: `wait()`")
    assert act.kind == "wait"


@pytest.mark.parametrize(("raw", "reason"), [
    ("", "empty output"),
    ("I think I should click the button.", "no 'Action:' line"),
    ("click(start_box=\"(100,200)\")", "no 'Action:' line"),
    ("Thought: Empty action\nAction:", "'Action:' is empty"),
    ("Thought: t\nAction: fly(start_box='(1,2)')", "unknown action 'fly'"),
    ("Thought: t\nAction: type(content='hello)", "unterminated ' string"),
    ("Thought: t\nAction: click(start_box='(1,2)'", "no closing parenthesis"),
    ("Thought: t\nAction: click()", "click needs start_box"),
    ("Thought: t\nAction: click(start_box='(12)')", "must hold a point"),
    ("Thought: t\nAction: drag(start_box='(1,2)')", "drag needs end_box"),
    ("Thought: t\nAction: scroll(start_box='(1,2)', direction='down or up')", "direction"),
    ("Thought: t\nAction: hotkey(key='')", "hotkey needs key"),
    ("Thought: t\nAction: type(content='')", "non-empty content"),
    ("Thought: t\nAction: open_url(url='https://example.com')", "only reaches the site"),
    ("Thought: t\nAction: press_home()", "mobile action"),
    ("Thought: t\nAction: the button", "expected '('"),
    ("Thought: t\nAction: click(start_box='(1,2)')\n\ntype(content='oops)", "action 2: type"),
    ("Thought: t\nAction: click(start_box='(1,2)')\n\nfly()", "unknown action 'fly'"),
])
def test_malformed_outputs_are_invalid(raw: str, reason: str) -> None:
    parsed = GRAMMAR.parse(raw, ABS)
    assert not parsed.ok
    assert parsed.actions == []
    assert parsed.raw == raw
    assert parsed.error is not None and reason in parsed.error
    assert parsed.to_json() == {"kind": "invalid", "error": parsed.error, "raw": raw}


def test_invalid_keeps_thought_and_semantic_mode_is_refused() -> None:
    parsed = GRAMMAR.parse("Thought: I will fly.\nAction: fly()", ABS)
    assert parsed.thought == "I will fly." and not parsed.ok
    parsed = GRAMMAR.parse("Thought: t\nAction: wait()", ParseContext(mode="semantic"))
    assert not parsed.ok and "browser-mode" in (parsed.error or "")
