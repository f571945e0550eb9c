# Sources for the cases below (model outputs written down from these, not copied code):
# - ServiceNow/BrowserGym browsergym/core/src/browsergym/core/action/functions.py: the
#   high-level action signatures and their docstring examples -- click('a51'), click('b22',
#   button="right"), click('48', button="middle", modifiers=["Shift"]), dblclick('12'),
#   fill('237', 'example value'), fill('45', "multi-line\\nexample"), select_option('a48',
#   "blue"), select_option('c48', ["red", "green", "blue"]), hover('b8'), press('88',
#   'Backspace'), press('a26', 'Control+a'), keyboard_press('Meta+Shift+t'), keyboard_type(
#   'Hello world!'), clear('996'), scroll(0, 200), scroll(-50.2, -100.5), noop(), noop(500),
#   send_msg_to_user("Based on the results of my search, the city was built in 1751."),
#   report_infeasible(...), goto / tab_focus / mouse_click (not offered here). BrowserGym bids
#   such as 'a51' are not numbers: our tree's ids are, so those are invalid here
#   -> test_browsergym_calls, test_browsergym_*_invalid.
# - ServiceNow/AgentLab src/agentlab/agents/dynamic_prompting.py (ActionPrompt) and published
#   AgentLab trajectories: "<think>...</think>\n<action>\nclick('a324')\n</action>", e.g.
#   "<think>... I will start by hovering over the "Storage & Organization" menu item ...
#   </think>\n<action>\nhover('786')\n</action>" -> test_agentlab_tags.
# - web-arena-x/webarena browser_env/actions.py create_id_based_action: click [id], hover [id],
#   type [id] [content] [press_enter_after] (default 1 -> trailing newline), press [key_comb]
#   (Meta -> Control off a Mac), scroll [up|down] by window.innerHeight, go_back, go_forward,
#   stop [answer] (no brackets -> empty answer), goto / new_tab / tab_focus / close_tab
#   -> test_webarena_commands.
# - The planning paper (shared/seeds/003, App. A prompt and Tables 8-10): "Let's think
#   step-by-step. This page has a search box whose ID is [164]. ... In summary, the next action
#   I will perform is ``Type [164] [restaurants near CMU] [1]''", "... ACTION: In summary, the
#   next action I will perform is ``Type [656] [Hobart Street, Pittsburgh] [0]''", the
#   ```click [1234]``` delimiter, the action inside “...”, and element accuracy (Def. 4.5: the
#   action the reasoning states vs the one executed) -> test_paper_*, test_intent_*.
from __future__ import annotations

import pytest

from webmdp.agents.llm.grammars.axtree import GRAMMAR
from webmdp.agents.llm.grammars.base import VIEWPORT, ParseContext, Parsed
from webmdp.env.actions import SCROLL_STEP_PX, GUIAction

IDS = frozenset({5, 12, 13, 45, 48, 88, 164, 174, 237, 656, 649, 996, 1234})
CTX = ParseContext(element_ids=IDS)


def parse(raw: str, ctx: ParseContext = CTX) -> Parsed:
    return GRAMMAR.parse(raw, ctx)


def only(p: Parsed) -> GUIAction:
    assert p.ok, p.error
    assert len(p.actions) == 1
    act = p.actions[0]
    assert isinstance(act, GUIAction)
    return act


@pytest.mark.parametrize(("raw", "expected", "meta"), [
    ("click('12')", {"kind": "click", "element": 12}, {}),
    ("click('12', button=\"right\")", {"kind": "right_click", "element": 12}, {}),
    ("click('48', button=\"middle\", modifiers=[\"Shift\"])",
     {"kind": "click", "element": 48, "button": "middle"}, {"modifiers": ["Shift"]}),
    ("dblclick('12')", {"kind": "double_click", "element": 12}, {}),
    ("fill('237', 'example value')", {"kind": "type", "element": 237, "text": "example value"},
     {"replace": True}),
    ("fill('45', \"multi-line\\nexample\")",
     {"kind": "type", "element": 45, "text": "multi-line\nexample"}, {"replace": True}),
    ("clear('996')", {"kind": "type", "element": 996}, {"replace": True}),
    ("select_option('48', \"blue\")",
     {"kind": "select_option", "element": 48, "option": "blue"}, {}),
    ("select_option('48', [\"blue\"])",
     {"kind": "select_option", "element": 48, "option": "blue"}, {}),
    ("hover('5')", {"kind": "move", "element": 5}, {}),
    ("press('88', 'Backspace')", {"kind": "key", "element": 88, "key": "Backspace"}, {}),
    ("press('12', 'Control+a')", {"kind": "key", "element": 12, "key": "Control+a"}, {}),
    ("keyboard_press('Meta+Shift+t')", {"kind": "key", "key": "Meta+Shift+t"}, {}),
    ("keyboard_type('Hello world!')", {"kind": "type", "text": "Hello world!"}, {}),
    ("scroll(0, 200)", {"kind": "scroll", "dy": 200.0}, {}),
    ("scroll(-50.2, -100.5)", {"kind": "scroll", "dx": -50.2, "dy": -100.5}, {}),
    ("go_back()", {"kind": "go_back"}, {}),
    ("go_forward()", {"kind": "go_forward"}, {}),
    ("noop()", {"kind": "wait", "seconds": 1.0}, {}),
    ("noop(500)", {"kind": "wait", "seconds": 0.5}, {}),
    ("noop(wait_ms=250)", {"kind": "wait", "seconds": 0.25}, {}),
    ("send_msg_to_user(\"Based on the results of my search, the city was built in 1751.\")",
     {"kind": "finish", "answer": "Based on the results of my search, the city was built in 1751."},
     {}),
    ("stop('$279.49')", {"kind": "finish", "answer": "$279.49"}, {}),
    ("stop()", {"kind": "finish"}, {}),
    ("report_infeasible(\"I cannot follow these instructions because there is no email field in "
     "this form.\")", {"kind": "finish", "answer": "N/A"},
     {"infeasible": "I cannot follow these instructions because there is no email field in this "
                    "form."}),
])
def test_browsergym_calls(raw: str, expected: dict, meta: dict) -> None:
    p = parse(raw)
    assert only(p).to_dict() == expected
    assert p.meta == meta
    assert p.thought == "" and p.intent is None


@pytest.mark.parametrize(("raw", "expected"), [
    ("click [12]", {"kind": "click", "element": 12}),
    ("click[12]", {"kind": "click", "element": 12}),
    ("hover [5]", {"kind": "move", "element": 5}),
    ("type [164] [restaurants near CMU] [1]",
     {"kind": "type", "element": 164, "text": "restaurants near CMU\n"}),
    ("type [656] [Hobart Street, Pittsburgh] [0]",
     {"kind": "type", "element": 656, "text": "Hobart Street, Pittsburgh"}),
    ("type [164] [restaurants near CMU]", {"kind": "type", "element": 164,
                                           "text": "restaurants near CMU\n"}),
    ("type [164] [size [M] shirts] [0]",
     {"kind": "type", "element": 164, "text": "size [M] shirts"}),
    ("select [48] [Price: low to high]",
     {"kind": "select_option", "element": 48, "option": "Price: low to high"}),
    ("press [Ctrl+v]", {"kind": "key", "key": "Control+v"}),
    ("press [Meta+a]", {"kind": "key", "key": "Control+a"}),
    ("press [Enter]", {"kind": "key", "key": "Enter"}),
    ("go_back", {"kind": "go_back"}),
    ("go_forward", {"kind": "go_forward"}),
    ("stop [N/A]", {"kind": "finish", "answer": "N/A"}),
    ("stop [The order number is 000161]",
     {"kind": "finish", "answer": "The order number is 000161"}),
    ("stop []", {"kind": "finish"}),
    ("stop", {"kind": "finish"}),
])
def test_webarena_commands(raw: str, expected: dict) -> None:
    assert only(parse(raw)).to_dict() == expected


@pytest.mark.parametrize("raw", ["scroll [down]", "scroll [direction=down]", "Scroll [DOWN]"])
def test_webarena_scroll_is_one_screen(raw: str) -> None:
    act = only(parse(raw))
    screen = VIEWPORT[1] / SCROLL_STEP_PX  # window.innerHeight in wheel notches
    assert (act.kind, act.direction, act.amount, act.dy) == ("scroll", "down", screen, 900.0)
    assert only(parse("scroll [up]")).dy == -900.0


def test_paper_table10_first_example() -> None:
    raw = ("Let's think step-by-step. This page has a search box whose ID is [164]. According to "
           "the nominatim rule of openstreetmap, I can search for the restaurants near a location "
           "by \"restaurants near\". I can submit my typing by pressing the Enter afterwards. In "
           "summary, the next action I will perform is ``Type [164] [restaurants near CMU] [1]''")
    p = parse(raw)
    assert only(p).to_dict() == {"kind": "type", "element": 164, "text": "restaurants near CMU\n"}
    assert p.thought.startswith("Let's think step-by-step. This page has a search box")
    assert p.thought.endswith("pressing the Enter afterwards.")
    assert p.intent is None  # the thought names an id but states no action expression


def test_paper_table10_second_example() -> None:
    raw = ("Let's think step-by-step. There are two textboxes available: one for the starting "
           "point and one for the destination. I will search for 'Hobart Street, Pittsburgh' in "
           "the 'From' textbox that has an id of [656]. After typing, I will not submit my input "
           "by pressing Enter, because I need to complete the destination first. ACTION: In "
           "summary, the next action I will perform is ``Type [656] [Hobart Street, Pittsburgh] "
           "[0]''")
    p = parse(raw)
    assert only(p).to_dict() == {"kind": "type", "element": 656,
                                 "text": "Hobart Street, Pittsburgh"}
    assert p.thought.endswith("complete the destination first.")  # "ACTION:" label dropped


@pytest.mark.parametrize("wrapped", ["```click [1234]```", "“click [1234]”", "\"click [1234]\"",
                                     "`click [1234]`", "click [1234]."])
def test_paper_delimiters(wrapped: str) -> None:
    raw = f"The link is [1234]. In summary, the next action I will perform is {wrapped}"
    p = parse(raw)
    assert only(p).to_dict() == {"kind": "click", "element": 1234}
    assert p.thought == "The link is [1234]."


def test_intent_from_the_thought() -> None:
    raw = ("The cart button is [12], so I will click [12] to open the cart. In summary, the next "
           "action I will perform is ```click [13]```")
    p = parse(raw)
    assert only(p).element == 13
    assert p.intent == {"kind": "click", "element": 12}


def test_intent_is_the_last_stated_action() -> None:
    raw = ("I could type [164] [tents] [1], but first I should press [Escape] to close the "
           "pop-up.\nclick [174]")
    p = parse(raw)
    assert only(p).element == 174
    assert p.intent == {"kind": "key", "key": "Escape"}


def test_intent_not_checked_against_the_page() -> None:
    raw = "I will click [99].\nclick [12]"
    p = parse(raw)
    assert only(p).element == 12 and p.intent == {"kind": "click", "element": 99}


def test_agentlab_tags() -> None:
    raw = ("<think>\nTo browse the products, I need to reveal the subcategories. I will start by "
           "hovering over the \"Storage & Organization\" menu item.\n</think>\n<action>\n"
           "hover('5')\n</action>")
    p = parse(raw)
    assert only(p).to_dict() == {"kind": "move", "element": 5}
    assert p.thought.startswith("To browse the products")
    assert "<think>" not in p.thought and p.intent is None


def test_agentlab_truncated_action_tag() -> None:
    p = parse("<think>\nClose the dialog.\n</think>\n\n<action>\nclick('12')`")
    assert only(p).to_dict() == {"kind": "click", "element": 12}


def test_last_expression_in_the_action_region_runs() -> None:
    p = parse("<action>\nfill('164', 'tents')\nclick('12')\n</action>")
    assert only(p).to_dict() == {"kind": "click", "element": 12}


def test_fenced_and_labelled_actions() -> None:
    assert only(parse("I need the next page.\n```python\nclick('13')\n```")).element == 13
    assert only(parse("Thought: open it\nAction: click [5]")).element == 5


def test_strings_inside_calls_are_not_actions() -> None:
    p = parse("fill('164', 'click [5] and stop [x]')")
    assert only(p).to_dict() == {"kind": "type", "element": 164, "text": "click [5] and stop [x]"}
    assert p.intent is None


def test_unknown_element_id() -> None:
    for raw in ("click [99]", "click('99')", "type [99] [x] [1]", "In summary, the next action "
                "I will perform is ```hover [99]```"):
        p = parse(raw)
        assert not p.ok and p.error == "no element 99 on this page", raw
        assert p.raw == raw


def test_ids_unchecked_without_a_tree() -> None:
    assert only(parse("click [99]", ParseContext())).element == 99


@pytest.mark.parametrize(("raw", "reason"), [
    ("click('a51')", "element id must be a number"),
    ("click [abc]", "element id must be a number"),
    ("click []", "element id must be a number"),
    ("click", "click needs an element id"),
    ("fill('12', 5)", "value must be a string"),
    ("fill('12')", "fill needs value"),
    ("click('12', 'left', [], 'extra')", "takes 3 argument(s)"),
    ("click('12', colour='red')", "no argument 'colour'"),
    ("click('12', button='side')", "button must be left, middle or right"),
    ("select_option('48', ['red', 'green', 'blue'])", "one option"),
    ("scroll('down', 'fast')", "scroll takes two numbers"),
    ("scroll(0)", "scroll needs delta_y"),
    ("noop(-5)", "wait_ms must be a non-negative number"),
    ("click(12", "unbalanced parentheses"),
    ("click(bid)", "literal arguments"),
    ("goto('http://example.com')", "goto is not available"),
    ("mouse_click(887.2, 68)", "mouse_click is not available"),
    ("goto [http://example.com]", "goto is not available"),
    ("new_tab", "new_tab is not available"),
    ("tab_focus [1]", "tab_focus is not available"),
    ("scroll [left]", "scroll needs a direction"),
    ("type [12]", "type needs an element id and text"),
    ("press []", "press needs a key combination"),
    ("stop the task", "stop needs brackets"),
    ("swipe [12]", "unknown action 'swipe'"),
    ("scroll_down()", "unknown action 'scroll_down'"),
    ("I am not sure what to do.", "no action found"),
    ("In summary, the next action I will perform is ``````", "empty"),
    ("", "empty output"),
    ("In summary, the next action I will perform is type [522] AMC Waterfront.",
     "type needs an element id and text"),
])
def test_malformed_is_invalid_with_raw_kept(raw: str, reason: str) -> None:
    p = parse(raw)
    assert not p.ok and p.actions == []
    assert p.error is not None and reason in p.error, p.error
    assert p.raw == raw


def test_invalid_keeps_the_thought() -> None:
    p = parse("The search box is [164]. In summary, the next action I will perform is "
              "```type [164]```")
    assert not p.ok and p.thought == "The search box is [164]."


def test_system_prompt_follows_the_papers_format() -> None:
    text = GRAMMAR.system_prompt(mode="browser")
    for command in ("click [id]", "type [id] [text] [press_enter_after]", "hover [id]",
                    "press [key_comb]", "scroll [down]", "go_back", "stop [answer]",
                    "select [id] [option]", "In summary, the next action I will perform is",
                    "```click [1234]```"):
        assert command in text
    assert GRAMMAR.system_prompt(mode="browser", actions_doc="NOTE").endswith("NOTE")
    with pytest.raises(ValueError):
        GRAMMAR.system_prompt(mode="semantic")
    assert GRAMMAR.tool_spec(VIEWPORT) is None
    assert (GRAMMAR.name, GRAMMAR.modes) == ("axtree", ("browser",))


def test_the_prompts_own_example_parses() -> None:
    text = GRAMMAR.system_prompt(mode="browser")
    example = text[text.index("for example: ") + len("for example: "):].splitlines()[0]
    assert only(parse(example, ParseContext())).to_dict() == {"kind": "click", "element": 1234}


@pytest.mark.parametrize("raw", ["(((", "click('12", "]]]]", "<action></action>", "```\n```",
                                 "stop [", "type [", "click(**{'bid': '12'})", "click(*x)",
                                 "\x00\x01", "<action>" * 3, "select_option('12', None)"])
def test_never_raises(raw: str) -> None:
    p = parse(raw)
    assert not p.ok and p.error and p.raw == raw
