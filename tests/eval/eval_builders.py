"""Builders of hand-written episodes for one real Shopping task.

Template find_product_extract with 2 hard negatives.

Task: target T = PRD-011, hard negatives H1 = PRD-028, H2 = PRD-029; five information
constraints C = {T.category, T.department, T.material, H1.material, H2.material}; oracle
Search, OpenProduct, BackToResults, ..., AddToCart -> S* = {search, inspect, navigate, commit}.
"""

from __future__ import annotations

from typing import Any

from webmdp.trace import EpisodeTrace, GUIStep, SemanticTransition

T, H1, H2 = "PRD-011", "PRD-028", "PRD-029"
CAT = {"Search": "search", "OpenProduct": "inspect", "ShowReviews": "inspect",
       "BackToResults": "navigate", "AddToCart": "commit"}


def tr(action: str, after: str, focus: str | None = None, *, revealed: tuple = (),
       changed: bool = True, error: str | None = None, before: str = "") -> SemanticTransition:
    """A transition with the category/changes_state the Shopping spec declares."""
    return SemanticTransition(
        action=action, category=CAT[action], surface_before=before, surface_after=after,
        focus_after=focus, changed=changed, changes_state=action == "AddToCart",
        revealed=list(revealed), error=error,
    )


def steps(*items: SemanticTransition | str | None) -> list[GUIStep]:
    """One GUI step per item: a transition, None (no transition) or a str (step error)."""
    out = []
    for i, it in enumerate(items):
        if isinstance(it, SemanticTransition):
            out.append(GUIStep(index=i, action={"name": it.action}, transitions=[it]))
        elif isinstance(it, str):
            out.append(GUIStep(index=i, action={"name": "?"}, error=it))
        else:
            out.append(GUIStep(index=i, action={"name": "scroll"}))
    return out


def trace(agent: str, mode: str, items: list[GUIStep], success: bool, **kw: Any) -> EpisodeTrace:
    return EpisodeTrace(task_id="shopping_0000", site="shopping", template="find_product_extract",
                        agent=agent, mode=mode, seed=1, initial_surface="Home", steps=items,
                        success=success, **kw)


