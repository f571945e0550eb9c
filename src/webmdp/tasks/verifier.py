"""Checks verifier conditions against a state's facts."""

from __future__ import annotations

from typing import Any

from webmdp.tasks.answers import mentions
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft


def check_condition(cond: Condition, facts: dict[str, Any]) -> bool:
    actual = facts.get(cond.fact)
    if cond.op == "eq":
        return bool(actual == cond.value)
    if cond.op == "contains":
        return actual is not None and cond.value in actual
    if cond.op == "not_contains":
        return actual is None or cond.value not in actual
    if cond.op == "mentions":
        wanted = cond.value if isinstance(cond.value, list) else [cond.value]
        texts = actual if isinstance(actual, list) else [actual]
        return any(all(mentions(w, t) for w in wanted) for t in texts)
    raise ValueError(f"unknown verifier op {cond.op!r}")


def verify(conditions: list[Condition], facts: dict[str, Any]) -> dict[str, bool]:
    """Result per condition, keyed by its description (or fact when undescribed)."""
    return {(c.description or c.fact): check_condition(c, facts) for c in conditions}


def membership(draft: Draft, fact: str, what: str) -> list[Condition]:
    """The list fact holds the target and none of the hard negatives."""
    return [Condition(fact=fact, op="contains", value=draft.target,
                      description=f"{draft.target} is {what}")] + [
        Condition(fact=fact, op="not_contains", value=h,
                  description=f"hard negative {h} is not {what}") for h in draft.hard_negatives]


def commit_conditions(prefix: str, expected: dict[str, Any], what: str = "") -> list[Condition]:
    """One condition per parameter of a multi-field commit: fact ``{prefix}.{name}`` equals the
    expected value (booking dates and guests, tour slot, delivery tip...), so a verdict names the
    parameter an agent got wrong."""
    lead = f"{what} " if what else ""
    return [Condition(fact=f"{prefix}.{k}", op="eq", value=v, description=f"{lead}{k} is {v!r}")
            for k, v in expected.items()]
