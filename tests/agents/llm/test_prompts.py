"""Plan / value prompt helpers: plans are parsed, plan steps and replans found, values bounded."""

from __future__ import annotations

import pytest

from webmdp.agents.llm.prompts import (
    format_plan,
    parse_plan,
    parse_value,
    replan_reason,
    stated_plan_step,
    strip_plan_lines,
)


def test_parse_plan_numbered_forms() -> None:
    text = ("Here is the plan:\n1. Search for 'sneakers' (type) \n2) Open the cheapest result\n"
            "Step 3: Add it to the cart\n\nDone.")
    assert parse_plan(text) == ["Search for 'sneakers' (type)", "Open the cheapest result",
                                "Add it to the cart"]


def test_parse_plan_unnumbered_falls_back_to_lines() -> None:
    assert parse_plan("search\n\nopen result\n") == ["search", "open result"]


def test_format_plan_round_trips() -> None:
    steps = ["Search", "Open", "Buy"]
    assert parse_plan(format_plan(steps)) == steps


@pytest.mark.parametrize(("raw", "step"), [
    ("Plan step: 2\nThought: x\nAction: click(start_box='(1,2)')", 2),
    ('{"thought": "Plan step #3: open it", "action": {}}', 3),
    ("plan STEP 11", 11),
    ("Thought: no step here", None),
])
def test_stated_plan_step(raw: str, step: int | None) -> None:
    assert stated_plan_step(raw) == step


def test_replan_reason_and_strip() -> None:
    raw = "Plan step: 2\nReplan: the search returned nothing\n"
    assert replan_reason(raw) == "the search returned nothing"
    assert replan_reason("Thought: fine\nAction: wait()") is None
    assert strip_plan_lines("Plan step: 4\nThought: t\nAction: wait()") == \
        "Thought: t\nAction: wait()"


@pytest.mark.parametrize(("text", "value"), [
    ("Value: 0.75", 0.75), ("value=1", 1.0), ("I think... Value: .3", 0.3),
    ("VALUE: 0", 0.0), ("no number", None),
])
def test_parse_value(text: str, value: float | None) -> None:
    assert parse_value(text) == value
