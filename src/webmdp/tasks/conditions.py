"""A verifier condition (C.3): its own module, so that the task model and rubric trees both
hold conditions without importing each other."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class Condition(BaseModel):
    """A verifier condition on the final semantic state's facts (C.3)."""

    model_config = ConfigDict(frozen=True)

    fact: str
    op: Literal["eq", "contains", "not_contains", "mentions"] = "eq"
    """``mentions``: the fact (a text, or a list of texts: any one) states every value of
    ``value`` (a list) somewhere in it, compared as :func:`webmdp.tasks.answers.mentions` does:
    how a cross-site task checks that a message carries what another site showed."""
    value: Any = None
    description: str = ""
