"""Checks verifier conditions against a state's facts."""

from __future__ import annotations

from typing import Any

from webmdp.tasks.model import Condition


def check_condition(cond: Condition, facts: dict[str, Any]) -> bool:
    actual = facts.get(cond.fact)
    if cond.op == "eq":
        return bool(actual == cond.value)
    if cond.op == "contains":
        return actual is not None and cond.value in actual
    if cond.op == "not_contains":
        return actual is None or cond.value not in actual
    raise ValueError(f"unknown verifier op {cond.op!r}")


def verify(conditions: list[Condition], facts: dict[str, Any]) -> dict[str, bool]:
    """Result per condition, keyed by its description (or fact when undescribed)."""
    return {(c.description or c.fact): check_condition(c, facts) for c in conditions}
