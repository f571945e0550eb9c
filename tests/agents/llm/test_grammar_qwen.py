"""Qwen-VL ``computer_use`` grammar: every action, both coordinate conventions, tolerance.

Sources (public documentation and real model outputs) and the cases taken from each:
- QwenLM/Qwen3-VL cookbooks/utils/agent_function_call.py (``ComputerUse``; read in the public
  copy creative-graphic-design/Qwen3-VL at the same path): the action enum key, type,
  mouse_move, left_click, left_click_drag, right_click, middle_click, double_click,
  triple_click, scroll, hscroll, wait, terminate, answer; ``keys`` an array, ``text`` for type
  and answer, ``pixels`` positive = up, ``time`` in seconds, ``status`` success/failure
  -> test_clicks, test_move_and_drag, test_key_type, test_scroll_hscroll,
  test_wait_terminate_answer, test_tool_spec_schema.
- The Qwen2.5-VL cookbook's ``ComputerUse`` (same file in QwenLM/Qwen2.5-VL, read in public
  copies): the Qwen2.5 subset, ``left_click`` documented without a coordinate ("Click the left
  mouse button") and ``left_click_drag`` dragging from the pointer to ``coordinate``
  -> test_click_without_coordinate_uses_pointer, test_move_and_drag.
- QwenLM/Qwen-Agent qwen_agent/llm/fncall_prompts/nous_fncall_prompt.py (FN_CALL_TEMPLATE:
  signatures in ``<tools></tools>``, calls as ``<tool_call>{"name": <function-name>,
  "arguments": <args-json-object>}</tool_call>``) -> test_system_prompt, test_envelopes.
- QwenLM/Qwen3-VL issue #1741 (Qwen3-VL uses 0-1000 relative coordinates, Qwen2.5-VL absolute
  ones) and issue #1640 (Qwen2.5-VL coordinates live in the smart-resized image)
  -> test_absolute_default, test_relative1000.
- GUI-Owl-1.5 (Qwen-VL based, same ``computer_use`` tool) computer-use run log from the
  Mobile-Agent-v3.5 ``run_gui_owl_1_5_for_pc.py`` script, found by the code index (repository
  not named by the index): ``Action: 双击桌面上的微信图标\\n<tool_call>\\n{"name": "computer_use",
  "arguments": {"action": "double_click", "coordinate": [54, 311]}}\\n</tool_call>``, a
  ``wait`` with ``"time": 3``, ``type`` with ``"text": "测试"``, ``terminate`` success
  -> test_real_run_log.
- microsoft/fara src/fara/fara_agent.py ``_parse_thoughts_and_action`` (a Qwen2.5-VL model's
  tool call decoded with json, falling back to a Python literal) -> test_envelopes (single
  quotes).
Malformed outputs (bad JSON, unknown action, missing coordinate, wrong types) are written from
the schema -> test_malformed_outputs_are_invalid.
"""

from __future__ import annotations

import json

import pytest

from webmdp.agents.llm.grammars import get_grammar
from webmdp.agents.llm.grammars.base import VIEWPORT, ParseContext, smart_resize
from webmdp.agents.llm.grammars.qwen import GRAMMAR, QwenGrammar

IMAGE = (1428, 896)
"""The smart-resized 1440x900 screenshot: 900/28 -> 32*28 = 896, 1440/28 -> 51*28 = 1428."""
ABS = ParseContext(image_size=IMAGE, coords="absolute")
REL = ParseContext(image_size=IMAGE, coords="relative1000")


def vp(x: float, y: float, coords: str = "absolute") -> tuple[float, float]:
    vw, vh = VIEWPORT
    if coords == "absolute":
        px, py = x * vw / IMAGE[0], y * vh / IMAGE[1]
    else:
        px, py = x / 1000 * vw, y / 1000 * vh
    return round(min(max(px, 0.0), vw - 1), 1), round(min(max(py, 0.0), vh - 1), 1)


def call(thought: str = "", **arguments: object) -> str:
    body = json.dumps({"name": "computer_use", "arguments": arguments})
    return f"{thought}\n<tool_call>\n{body}\n</tool_call>"


def one(raw: str, ctx: ParseContext = ABS):
    parsed = GRAMMAR.parse(raw, ctx)
    assert parsed.ok, parsed.error
    assert len(parsed.actions) == 1
    return parsed, parsed.actions[0]


def test_registry_and_attributes() -> None:
    g = get_grammar("qwen")
    assert g is GRAMMAR and isinstance(g, QwenGrammar)
    assert (g.name, g.modes, g.default_coords) == ("qwen", ("browser",), "absolute")
    assert smart_resize(900, 1440) == (IMAGE[1], IMAGE[0])


def test_system_prompt() -> None:
    prompt = GRAMMAR.system_prompt(mode="browser")
    tools = prompt.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0]
    spec = json.loads(tools)
    assert spec["function"]["name"] == "computer_use"
    assert "resolution is 1428x896" in spec["function"]["description"]
    assert '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n' \
           "</tool_call>" in prompt
    wide = QwenGrammar(display_size=(1000, 1000)).system_prompt(mode="browser")
    assert "resolution is 1000x1000" in wide
    with pytest.raises(ValueError):
        GRAMMAR.system_prompt(mode="semantic")


def test_tool_spec_schema() -> None:
    spec = GRAMMAR.tool_spec((1280, 800))
    fn = spec["function"]
    assert spec["type"] == "function" and fn["name"] == "computer_use"
    assert "1280x800" in fn["description"]
    assert set(fn["parameters"]["properties"]["action"]["enum"]) == {
        "key", "type", "mouse_move", "left_click", "left_click_drag", "right_click",
        "middle_click", "double_click", "triple_click", "scroll", "hscroll", "wait",
        "terminate", "answer"}
    assert fn["parameters"]["required"] == ["action"]


def test_absolute_default() -> None:
    parsed, act = one(call("I will click the 'Sign in' link.", action="left_click",
                           coordinate=[714, 448]))
    assert (act.kind, act.button, act.x, act.y) == ("click", "left", *vp(714, 448))
    assert (act.x, act.y) == (720.0, 450.0)
    assert parsed.thought == "I will click the 'Sign in' link."
    assert parsed.intent == {"kind": "click", "target": "Sign in"}


def test_relative1000() -> None:
    _, act = one(call(action="left_click", coordinate=[250, 800]), REL)
    assert (act.x, act.y) == vp(250, 800, "relative1000") == (360.0, 720.0)


def test_clicks() -> None:
    cases = {"right_click": ("right_click", "left"), "middle_click": ("click", "middle"),
             "double_click": ("double_click", "left"), "triple_click": ("triple_click", "left")}
    for action, (kind, button) in cases.items():
        _, act = one(call(action=action, coordinate=[100, 200]))
        assert (act.kind, act.button, act.x, act.y) == (kind, button, *vp(100, 200))


def test_click_without_coordinate_uses_pointer() -> None:
    raw = call(action="mouse_move", coordinate=[300, 400]) + call(action="left_click")
    parsed = GRAMMAR.parse(raw, ABS)
    assert parsed.ok
    assert [(a.kind, a.x, a.y) for a in parsed.actions] == [("move", *vp(300, 400)),
                                                          ("click", *vp(300, 400))]
    parsed = GRAMMAR.parse(call(action="left_click"), ABS)
    assert not parsed.ok and "left_click needs coordinate" in (parsed.error or "")


def test_move_and_drag() -> None:
    _, act = one(call(action="mouse_move", coordinate=[10, 20]))
    assert (act.kind, act.x, act.y) == ("move", *vp(10, 20))
    parsed = GRAMMAR.parse(call(action="left_click_drag", coordinate=[500, 600]), ABS)
    assert [a.kind for a in parsed.actions] == ["mouse_down", "move", "mouse_up"]
    assert (parsed.actions[1].x, parsed.actions[1].y) == vp(500, 600)
    raw = call(action="mouse_move", coordinate=[10, 20]) + call(action="left_click_drag",
                                                                coordinate=[500, 600])
    parsed = GRAMMAR.parse(raw, ABS)
    drag = parsed.actions[1]
    assert drag.kind == "drag"
    assert (drag.x, drag.y, drag.x2, drag.y2) == (*vp(10, 20), *vp(500, 600))


def test_key_type() -> None:
    _, act = one(call(action="key", keys=["ctrl", "a"]))
    assert (act.kind, act.key) == ("key", "Control+a")
    _, act = one(call(action="key", keys=["Return"]))
    assert act.key == "Enter"
    _, act = one(call(action="key", keys="escape"))
    assert act.key == "Escape"
    _, act = one(call(action="type", text="blue mug\n"))
    assert (act.kind, act.text) == ("type", "blue mug\n")  # trailing newline: submit
    _, act = one(call(action="type", text='say "hi"\tnow'))
    assert act.text == 'say "hi"\tnow'


def test_scroll_hscroll() -> None:
    """``pixels`` are pixels of the 1428x896 screenshot: scaled to the 1440x900 viewport like
    coordinates (300 * 900 / 896 = 301.3); wheel notches (``scroll_unit_px``) are not."""
    _, act = one(call(action="scroll", pixels=-300))
    assert (act.kind, act.dx, act.dy, act.x, act.y) == ("scroll", 0, 301.3, None, None)
    _, act = one(call(action="scroll", pixels=200, coordinate=[700, 450]))
    assert (act.dy, act.x, act.y) == (-200.9, *vp(700, 450))
    _, act = one(call(action="hscroll", pixels=150))
    assert (act.dx, act.dy) == (151.3, 0)
    _, act = one(call(action="scroll", pixels="-300"))
    assert act.dy == 301.3
    notches = QwenGrammar(scroll_unit_px=100)
    act = notches.parse(call(action="scroll", pixels=-5), ABS).actions[0]
    assert act.dy == 500


def test_wait_terminate_answer() -> None:
    _, act = one(call(action="wait", time=2))
    assert (act.kind, act.seconds) == ("wait", 2.0)
    parsed, act = one(call(action="terminate", status="success"))
    assert (act.kind, act.answer, parsed.meta["status"]) == ("finish", None, "success")
    parsed, act = one(call(action="terminate", status="failure"))
    assert parsed.meta["status"] == "failure"
    _, act = one(call(action="answer", text="$12.99"))
    assert (act.kind, act.answer) == ("finish", "$12.99")


def test_real_run_log() -> None:
    parsed, act = one('Action: 双击桌面上的微信图标\n<tool_call>\n{"name": "computer_use", '
                      '"arguments": {"action": "double_click", "coordinate": [54, 311]}}\n'
                      "</tool_call>", REL)
    assert (act.kind, act.x, act.y) == ("double_click", *vp(54, 311, "relative1000"))
    assert parsed.thought == "Action: 双击桌面上的微信图标"
    _, act = one('Action: 等待微信客户端完成登录加载流程。\n<tool_call>\n{"name": "computer_use", '
                 '"arguments": {"action": "wait", "time": 3}}\n</tool_call>')
    assert (act.kind, act.seconds) == ("wait", 3.0)
    _, act = one('<tool_call>\n{"name": "computer_use", "arguments": {"action": "type", '
                 '"text": "测试"}}\n</tool_call>')
    assert act.text == "测试"


def test_envelopes() -> None:
    inner = {"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [1, 2]}}
    body = json.dumps(inner)
    for raw in (f"thinking\n<tool_call>\n{body}",                # no closing tag
                f"thinking\n```json\n{body}\n```",               # fenced
                f"thinking\n{body}",                             # bare JSON
                f"thinking\n<tool_call>{body}}}</tool_call>",     # a stray extra brace
                "thinking\n<tool_call>\n{'name': 'computer_use', 'arguments': "
                "{'action': 'left_click', 'coordinate': [1, 2]}}\n</tool_call>",  # Python dict
                "<think>thinking</think>\n<tool_call>" + json.dumps(
                    {"name": "computer_use", "arguments": json.dumps(inner["arguments"])})
                + "</tool_call>",                                # arguments as a JSON string
                'thinking\n<tool_call>{"action": "left_click", "coordinate": [1, 2]}</tool_call>'):
        parsed, act = one(raw)
        assert (act.kind, act.x, act.y) == ("click", *vp(1, 2)), raw
        assert parsed.thought == "thinking", raw


def test_several_calls_in_order() -> None:
    raw = ("Fill the search box and submit." + call(action="left_click", coordinate=[100, 50])
           + call(action="type", text="mug\n") + call(action="wait", time=1))
    parsed = GRAMMAR.parse(raw, ABS)
    assert [a.kind for a in parsed.actions] == ["click", "type", "wait"]
    assert parsed.thought == "Fill the search box and submit."


@pytest.mark.parametrize(("raw", "reason"), [
    ("I am not sure what to do.", "no <tool_call> block"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", '
     '"coordinate": [1, }}</tool_call>', "not a JSON object"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click"', "not a JSON"),
    (call(action="fly"), "unknown action 'fly'"),
    (call(coordinate=[1, 2]), "no action"),
    (call(action="left_click", coordinate=[1]), "coordinate must be [x, y]"),
    (call(action="left_click", coordinate=["a", "b"]), "two numbers"),
    (call(action="mouse_move"), "mouse_move needs coordinate"),
    (call(action="left_click_drag"), "left_click_drag needs coordinate"),
    (call(action="key", keys=[]), "non-empty list"),
    (call(action="type"), "type needs text"),
    (call(action="scroll"), "scroll needs pixels"),
    (call(action="scroll", pixels=0), "non-zero"),
    (call(action="wait", time="soon"), "wait needs time"),
    (call(action="terminate", status="done"), "'success' or 'failure'"),
    (call(action="answer"), "answer needs text"),
    ('<tool_call>{"name": "browser", "arguments": {"action": "left_click"}}</tool_call>',
     "unknown function 'browser'"),
    ('<tool_call>{"name": "computer_use", "arguments": "{not json"}</tool_call>',
     "arguments are not JSON"),
    (call(action="left_click", coordinate=[1, 2]) + call(action="fly"), "tool call 2: unknown"),
])
def test_malformed_outputs_are_invalid(raw: str, reason: str) -> None:
    parsed = GRAMMAR.parse(raw, ABS)
    assert not parsed.ok
    assert parsed.actions == []
    assert parsed.raw == raw
    assert parsed.error is not None and reason in parsed.error
    assert parsed.to_json() == {"kind": "invalid", "error": parsed.error, "raw": raw}


def test_semantic_mode_is_refused() -> None:
    parsed = GRAMMAR.parse(call(action="wait", time=1), ParseContext(mode="semantic"))
    assert not parsed.ok and "browser-mode" in (parsed.error or "")
