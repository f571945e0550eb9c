"""GUIAction's free strings are bounded (``text`` by core.spec.MAX_TEXT, as semantic params),
a malformed action is reported in one line, and a million-key ``type`` is an invalid step that
returns at once in Chromium instead of typing for minutes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from webmdp.agents.llm.grammars.anthropic_cua import AnthropicCUAGrammar
from webmdp.agents.llm.grammars.base import ParseContext, parse_output
from webmdp.agents.llm.grammars.json_grammar import JsonGrammar
from webmdp.core import MAX_TEXT
from webmdp.env.actions import MAX_KEY, MAX_MODIFIERS, GUIAction, invalid_reason
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.chromium import BrowserHost
from webmdp.server.runner import ServerHandle
from webmdp.tasks import Task

HUGE = "a" * 1_000_000


def _reason(data: dict[str, Any]) -> str:
    with pytest.raises(ValidationError) as err:
        GUIAction.model_validate(data)
    return invalid_reason(err.value, data.get("kind"))


def test_free_strings_are_bounded() -> None:
    GUIAction(kind="type", text="a" * MAX_TEXT)
    GUIAction(kind="finish", answer="a" * MAX_TEXT)
    GUIAction(kind="click", x=1, y=1, modifiers=["shift"] * MAX_MODIFIERS)
    assert _reason({"kind": "type", "text": HUGE}) == \
        "type: text is 1000000 characters, at most 2000"
    assert _reason({"kind": "finish", "answer": HUGE}) == \
        "finish: answer is 1000000 characters, at most 2000"
    assert _reason({"kind": "select_option", "element": 3, "option": HUGE}) == \
        "select_option: option is 1000000 characters, at most 2000"
    assert _reason({"kind": "key", "key": "k" * (MAX_KEY + 1)}) == \
        f"key: key is {MAX_KEY + 1} characters, at most {MAX_KEY}"
    assert _reason({"kind": "click", "x": 1, "y": 1, "modifiers": ["shift"] * 100}) == \
        f"click: modifiers has 100 items, at most {MAX_MODIFIERS}"
    assert _reason({"kind": "click", "x": 1, "y": 1, "modifiers": [HUGE]}) == \
        f"click: modifiers.0 is 1000000 characters, at most {MAX_KEY}"


def test_invalid_reason_is_one_short_line() -> None:
    assert _reason({"kind": "click"}) == "click needs x and y or an element id"
    assert _reason({"kind": HUGE}).startswith("unknown kind 'aaa")
    assert _reason({"kind": "wait", "seconds": HUGE}) == \
        "wait: seconds: Input should be a valid number, unable to parse string as a number"
    for data in ({"kind": HUGE}, {"kind": "type", "text": HUGE, "x": HUGE, "button": HUGE}):
        reason = _reason(data)
        assert "\n" not in reason and len(reason) < 400


def test_grammars_make_an_out_of_bounds_action_an_invalid_step() -> None:
    ctx = ParseContext(mode="browser")
    reply = json.dumps({"action": {"kind": "type", "text": HUGE}})
    parsed = parse_output(JsonGrammar(), reply, ctx)
    assert parsed.error == "invalid GUI action: type: text is 1000000 characters, at most 2000"
    parsed = parse_output(AnthropicCUAGrammar(), "The answer is " + HUGE, ctx)
    assert parsed.error == \
        "invalid GUI action: answer is 1000014 characters, at most 2000"


@pytest.fixture
def shop(server: ServerHandle, host: BrowserHost,
         shopping_tasks: list[Task]) -> Iterator[BrowserEnv]:
    env = BrowserEnv(shopping_tasks[0], agent="test", server=server, host=host,
                     config=BrowserConfig(observation="axtree"))
    env.reset()
    yield env
    env.close()


@pytest.mark.browser
@pytest.mark.timeout(120)  # today's code types the million keys for far longer
def test_a_million_key_type_returns_at_once_as_an_invalid_step(shop: BrowserEnv) -> None:
    box = next(n for n in shop._last_obs["nodes"] if n.get("field") == "query")
    obs, reward, term, trunc, info = shop.step({"kind": "type", "element": box["id"],
                                                "text": HUGE})
    assert (reward, term, trunc) == (0.0, False, False) and info["steps"] == 1
    assert info["error"] == \
        "malformed action: type: text is 1000000 characters, at most 2000"
    assert shop.trace.steps[-1].action == {"kind": "invalid"}
    assert "a" * 100 not in obs["axtree"]
    shop.step({"kind": "type", "element": box["id"], "text": "tent\n"})
    assert [(t.action, t.params) for t in shop.trace.steps[-1].transitions] == [
        ("Search", {"query": "tent"})]
    assert shop.trace.steps[-1].error is None and len(shop.trace.steps) == 2
