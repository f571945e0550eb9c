"""Fara-7B grammar: its documented tool-call format and actions, mapped to a single-site browser.

Sources (public documentation and code of microsoft/fara) and the cases taken from each:
- microsoft/fara README.md (Fara-7B is Qwen2.5-VL-7B based and acts on predicted screenshot
  coordinates) and src/fara/fara_agent.py (the 1440x900 viewport; the screenshot resized by
  ``smart_resize`` with patch 14 x merge 2 = factor 28, min_pixels 3136, max_pixels 12845056;
  coordinates scaled back from that image to the viewport) -> test_absolute_coordinates,
  test_relative1000_override.
- src/fara/fara_agent.py ``_parse_thoughts_and_action`` (the thoughts are the text before
  ``<tool_call>\\n``, the call is ``{"name": ..., "arguments": {...}}`` JSON, with a Python
  literal fallback) and ``run`` (on a stop action the final answer is the thoughts)
  -> test_tool_call_format, test_terminate_answer_is_the_thought.
- src/fara/_prompts.py ``FaraComputerUse`` (the actions key, type, mouse_move, left_click,
  scroll, visit_url, web_search, history_back, pause_and_memorize_fact, wait, refresh,
  terminate; ``press_enter`` / ``delete_existing_text`` for type; ``pixels`` positive = up;
  ``status`` success/failure) -> one test per action below, test_system_prompt.
- src/fara/fara_agent.py ``execute_action`` (scroll by the sign of pixels only; type defaults
  press_enter to true and delete_existing_text to false; wait defaults to 3 s; the aliases
  click, hover, keypress, input_text, sleep, stop; history_back goes back) and
  src/fara/browser/playwright_controller.py (page_up / page_down turn the wheel 400 px;
  keypress holds the keys together; fill_coords clicks, selects all and deletes, types, then
  presses Enter) -> test_type_variants, test_scroll_sign_only, test_key_chord, test_aliases,
  test_wait_and_memorize, test_history_back.
- trycua/cua pull request #896 (Fara-7B emits ``left_click`` and sometimes extra parameters
  such as ``button`` or ``text`` on clicks) -> test_extra_parameters_are_ignored.
visit_url / web_search / refresh have no counterpart in the benchmark's sandboxed browser
-> test_unavailable_actions. Malformed outputs -> test_malformed_outputs_are_invalid.
"""

from __future__ import annotations

import json

import pytest

from webmdp.agents.llm.grammars import get_grammar
from webmdp.agents.llm.grammars.base import VIEWPORT, ParseContext, smart_resize
from webmdp.agents.llm.grammars.fara import GRAMMAR, FaraGrammar

IMAGE = (1428, 896)
"""Fara's view of the 1440x900 viewport: factor 28, 900/28 -> 32*28 = 896, 1440/28 -> 51*28 =
1428 (1,279,488 pixels, inside [3136, 12845056])."""
ABS = ParseContext(image_size=IMAGE, coords="absolute")


def vp(x: float, y: float, coords: str = "absolute") -> tuple[float, float]:
    vw, vh = VIEWPORT
    if coords == "absolute":
        px, py = x * vw / IMAGE[0], y * vh / IMAGE[1]
    else:
        px, py = x / 1000 * vw, y / 1000 * vh
    return round(min(max(px, 0.0), vw - 1), 1), round(min(max(py, 0.0), vh - 1), 1)


def fara(thoughts: str = "", **arguments: object) -> str:
    """An output as Fara writes it: thoughts, then the call between tags on their own lines."""
    body = json.dumps({"name": "computer_use", "arguments": arguments})
    return f"{thoughts}\n<tool_call>\n{body}\n</tool_call>"


def run(raw: str, ctx: ParseContext = ABS):
    parsed = GRAMMAR.parse(raw, ctx)
    assert parsed.ok, parsed.error
    return parsed, parsed.actions


def test_registry_and_attributes() -> None:
    g = get_grammar("fara")
    assert g is GRAMMAR and isinstance(g, FaraGrammar)
    assert (g.name, g.modes, g.default_coords) == ("fara", ("browser",), "absolute")
    assert g.tool_spec(IMAGE) is None
    assert smart_resize(900, 1440, min_pixels=3136, max_pixels=12845056) == (IMAGE[1], IMAGE[0])


def test_system_prompt() -> None:
    prompt = GRAMMAR.system_prompt(mode="browser")
    assert prompt.startswith("You are a helpful assistant.")
    spec = json.loads(prompt.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0])
    fn = spec["function"]
    assert fn["name"] == "computer_use"
    assert "resolution is 1428x896" in fn["description"]
    props = fn["parameters"]["properties"]
    assert {"press_enter", "delete_existing_text", "fact", "pixels"} <= set(props)
    assert "history_back" in props["action"]["enum"]
    assert "visit_url" not in props["action"]["enum"]  # the sandbox cannot honour it
    assert "<tool_call>" in prompt
    with pytest.raises(ValueError):
        GRAMMAR.system_prompt(mode="semantic")


def test_tool_call_format() -> None:
    parsed, acts = run(fara("I see the search bar at the top. I'll click the 'Search' box.",
                            action="left_click", coordinate=[714, 448]))
    assert [(a.kind, a.x, a.y) for a in acts] == [("click", *vp(714, 448))]
    assert parsed.thought == "I see the search bar at the top. I'll click the 'Search' box."
    assert parsed.intent == {"kind": "click", "target": "Search"}
    raw = ("Thoughts.\n<tool_call>\n{'name': 'computer_use', 'arguments': {'action': "
           "'mouse_move', 'coordinate': [10, 20]}}\n</tool_call>")
    _, acts = run(raw)
    assert [(a.kind, a.x, a.y) for a in acts] == [("move", *vp(10, 20))]


def test_absolute_coordinates() -> None:
    _, acts = run(fara(action="left_click", coordinate=[1427, 895]))
    assert (acts[0].x, acts[0].y) == vp(1427, 895) == (1439.0, 899.0)
    _, acts = run(fara(action="left_click", coordinate=[357, 224]))
    assert (acts[0].x, acts[0].y) == vp(357, 224) == (360.0, 225.0)


def test_relative1000_override() -> None:
    ctx = ParseContext(image_size=IMAGE, coords="relative1000")
    _, acts = run(fara(action="left_click", coordinate=[500, 500]), ctx)
    assert (acts[0].x, acts[0].y) == vp(500, 500, "relative1000") == (720.0, 450.0)


def test_type_variants() -> None:
    _, acts = run(fara(action="type", coordinate=[700, 100], text="running shoes"))
    assert [a.kind for a in acts] == ["click", "type"]
    assert (acts[0].x, acts[0].y) == vp(700, 100)
    assert acts[1].text == "running shoes\n"  # press_enter defaults to true: submit
    _, acts = run(fara(action="type", coordinate=[700, 100], text="Seattle",
                       press_enter=False, delete_existing_text=True))
    assert [(a.kind, a.key or a.text) for a in acts[1:]] == [
        ("key", "Control+a"), ("key", "Backspace"), ("type", "Seattle")]
    _, acts = run(fara(action="type", text="no coordinate", press_enter=False))
    assert [(a.kind, a.text) for a in acts] == [("type", "no coordinate")]


def test_key_chord() -> None:
    _, acts = run(fara(action="key", keys=["Escape"]))
    assert acts[0].key == "Escape"
    _, acts = run(fara(action="key", keys=["Control", "a"]))
    assert acts[0].key == "Control+a"


def test_scroll_sign_only() -> None:
    _, acts = run(fara(action="scroll", pixels=-500))
    assert (acts[0].kind, acts[0].dx, acts[0].dy) == ("scroll", 0, 400)
    _, acts = run(fara(action="scroll", pixels=30))
    assert acts[0].dy == -400
    _, acts = run(fara(action="scroll", pixels=-1, coordinate=[100, 800]))
    assert (acts[0].dy, acts[0].x, acts[0].y) == (400, *vp(100, 800))


def test_history_back() -> None:
    _, acts = run(fara("Wrong page; go back.", action="history_back"))
    assert [a.kind for a in acts] == ["go_back"]


def test_wait_and_memorize() -> None:
    _, acts = run(fara(action="wait", time=2))
    assert (acts[0].kind, acts[0].seconds) == ("wait", 2.0)
    _, acts = run(fara(action="wait"))
    assert acts[0].seconds == 3.0
    parsed, acts = run(fara("The price is listed.", action="pause_and_memorize_fact",
                            fact="Blue Mug costs $12.99"))
    assert (acts[0].kind, acts[0].seconds) == ("wait", 0.0)
    assert parsed.meta["fact"] == "Blue Mug costs $12.99"


def test_terminate_answer_is_the_thought() -> None:
    thoughts = "The cheapest mug is the Blue Mug at $12.99."
    parsed, acts = run(fara(thoughts, action="terminate", status="success"))
    assert (acts[0].kind, acts[0].answer) == ("finish", thoughts)
    assert parsed.meta["status"] == "success"
    parsed, acts = run(fara("", action="terminate", status="failure"))
    assert (acts[0].answer, parsed.meta["status"]) == (None, "failure")
    _, acts = run(fara("Done.", action="terminate", status="success", answer="12345"))
    assert acts[0].answer == "12345"


def test_aliases() -> None:
    _, acts = run(fara(action="click", coordinate=[1, 2]))
    assert acts[0].kind == "click"
    _, acts = run(fara(action="hover", coordinate=[1, 2]))
    assert acts[0].kind == "move"
    _, acts = run(fara(action="keypress", keys=["Enter"]))
    assert acts[0].key == "Enter"
    _, acts = run(fara(action="input_text", coordinate=[1, 2], text_value="x"))
    assert acts[-1].text == "x\n"
    _, acts = run(fara(action="sleep", duration=1))
    assert acts[0].seconds == 1.0
    _, acts = run(fara("ok", action="stop"))
    assert acts[0].kind == "finish"


def test_extra_parameters_are_ignored() -> None:
    _, acts = run(fara(action="left_click", coordinate=[10, 10], button="left", text=""))
    assert (acts[0].kind, acts[0].x, acts[0].y) == ("click", *vp(10, 10))


@pytest.mark.parametrize(("action", "args", "reason"), [
    ("visit_url", {"url": "https://www.bing.com"}, "only reaches this site"),
    ("web_search", {"query": "cheap mugs"}, "only reaches this site"),
    ("refresh", {}, "not available"),
])
def test_unavailable_actions(action: str, args: dict[str, object], reason: str) -> None:
    raw = fara("Let me look elsewhere.", action=action, **args)
    parsed = GRAMMAR.parse(raw, ABS)
    assert not parsed.ok and parsed.raw == raw
    assert reason in (parsed.error or "")
    assert parsed.thought == "Let me look elsewhere."


@pytest.mark.parametrize(("raw", "reason"), [
    ("I think I am done.", "no <tool_call> block"),
    ("t\n<tool_call>\n{\"name\": \"computer_use\", \"arguments\": {\"action\": \"left_click\","
     " \"coordinate\": [1, 2]\n</tool_call>", "not a JSON object"),
    (fara(action="teleport"), "unknown action 'teleport'"),
    (fara(action="left_click"), "left_click needs coordinate"),
    (fara(action="left_click", coordinate=[1, 2, 3]), "coordinate must be [x, y]"),
    (fara(action="type", coordinate=[1, 2]), "type needs text"),
    (fara(action="type", text="x", press_enter="yes"), "true or false"),
    (fara(action="key", keys=[]), "non-empty list"),
    (fara(action="scroll"), "scroll needs pixels"),
    (fara(action="scroll", pixels=0), "non-zero"),
    (fara(action="pause_and_memorize_fact"), "needs fact"),
    (fara(action="terminate", status="maybe"), "'success' or 'failure'"),
])
def test_malformed_outputs_are_invalid(raw: str, reason: str) -> None:
    parsed = GRAMMAR.parse(raw, ABS)
    assert not parsed.ok
    assert parsed.actions == []
    assert parsed.raw == raw
    assert parsed.error is not None and reason in parsed.error
    assert parsed.to_json() == {"kind": "invalid", "error": parsed.error, "raw": raw}
