"""Exact verdicts for a rubric tree's leaves (:mod:`webmdp.tasks.rubric`) from one episode:
its semantic transitions (each tagged with its site in a cross-site episode), the (entity,
field) pairs it showed, its final facts and its final answer."""

from __future__ import annotations

import json
from typing import Any

from webmdp.errors import ConfigError
from webmdp.tasks.answers import matches
from webmdp.tasks.rubric import (
    AnswerCheck,
    FactCheck,
    RevealedCheck,
    RubricNode,
    TransitionCheck,
    aggregate,
)
from webmdp.tasks.verifier import check_condition
from webmdp.trace import LeafVerdict, RubricResult, SemanticTransition


def evaluate(tree: RubricNode, transitions: list[SemanticTransition],
             initial_revealed: list[tuple[str, str]] | list[list[str]],
             final_facts: dict[str, Any], final_answer: str | None) -> RubricResult:
    """Every leaf's exact verdict from one episode, then eq. 2."""
    leaves = tree.leaves()
    wanted = {(c.entity, c.field) for leaf in leaves
              if isinstance(c := leaf.check, RevealedCheck)}
    seen = _Index(transitions, initial_revealed, wanted)
    verdicts = [_leaf(leaf, seen, final_facts, final_answer) for leaf in leaves]
    scores: dict[str, float] = {}
    root = aggregate(tree, {v.id: v.score for v in verdicts}, scores)
    return RubricResult(root=root, leaves=verdicts,
                        scores={k: (None if v != v else v) for k, v in scores.items()})


class _Index:
    """One pass over an episode: where each (site, action) first succeeded and where each
    (entity, field) was first shown, so a leaf is one lookup."""

    def __init__(self, transitions: list[SemanticTransition],
                 initial_revealed: list[tuple[str, str]] | list[list[str]],
                 wanted: set[tuple[str, str]]):
        self.acted: dict[tuple[str | None, str], tuple[int, str]] = {}
        self.shown: dict[tuple[str, str], tuple[int, str, str | None]] = {
            (e, f): (-1, "", None) for e, f in initial_revealed if (e, f) in wanted}
        for i, t in enumerate(transitions):
            if t.error is not None:
                continue
            site, name = _member(t)
            self.acted.setdefault((site, name), (i, t.action))
            self.acted.setdefault((None, name), (i, t.action))
            for e, f in t.revealed:
                if (e, f) in wanted and (e, f) not in self.shown:
                    self.shown[e, f] = (i, t.action, t.site)


def _leaf(leaf: RubricNode, seen: _Index, facts: dict[str, Any],
          answer: str | None) -> LeafVerdict:
    check = leaf.check
    kind = leaf.kind or "other"
    if isinstance(check, TransitionCheck):
        hits = [seen.acted[key] for a in check.actions
                if (key := (check.site, a)) in seen.acted]
        if hits:
            i, action = min(hits)
            return LeafVerdict(id=leaf.id, kind=kind, score=1,
                               evidence=f"transition {i}: {action}")
        return LeafVerdict(id=leaf.id, kind=kind, score=0,
                           evidence=f"no successful {'/'.join(sorted(check.actions))}"
                                    f"{' on ' + check.site if check.site else ''}")
    if isinstance(check, RevealedCheck):
        hit = seen.shown.get((check.entity, check.field))
        if hit is not None and (check.site is None or hit[2] in (None, check.site)):
            i, action, _ = hit
            return LeafVerdict(id=leaf.id, kind=kind, score=1,
                               evidence="on the first page" if i < 0 else
                               f"shown after transition {i}: {action}")
        return LeafVerdict(id=leaf.id, kind=kind, score=0,
                           evidence=f"{check.entity}.{check.field} never shown")
    if isinstance(check, FactCheck):
        cond = check.condition
        ok = check_condition(cond, facts)
        actual = facts.get(cond.fact)
        return LeafVerdict(id=leaf.id, kind=kind, score=int(ok),
                           evidence=f"{cond.fact} = {_short(actual)}")
    if isinstance(check, AnswerCheck):
        ok = matches(check.value, answer)
        return LeafVerdict(id=leaf.id, kind=kind, score=int(ok),
                           evidence=f"final answer: {_short(answer)}")
    raise ConfigError(f"rubric leaf {leaf.id}: no check")  # pragma: no cover (validated)


def _member(t: SemanticTransition) -> tuple[str | None, str]:
    """(site, member action name) of a transition: a cross-site one is ``site.Action``."""
    site, sep, name = t.action.partition(".")
    return (t.site or site, name) if sep else (t.site, t.action)


def _short(value: Any, n: int = 80) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, str) else value
    return text if len(text) <= n else text[: n - 1] + "…"
