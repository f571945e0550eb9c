"""Skill invocation (WebSTEP 4.2, Tables 6, 13, 14) and temporal skill patterns (Figure 4).

A task *requires* a skill when its oracle trajectory contains an action of it; an episode
*invokes* it when its valid transitions contain one. Rates are over requiring episodes and are
reported only with at least :data:`MIN_SUPPORT` of them (a dash under 20, as the paper
prints). Skills are looked up in the site's action specs; for sites this project does not
implement (imported runs) the skill and category recorded on the transitions of any loaded
episode stand in.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel

from webmdp.errors import ConfigError, InvalidAction
from webmdp.eval.aggregate import SKILL_ORDER
from webmdp.eval.metrics import site_data, valid_transitions
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace

MIN_SUPPORT = 20
"""Requiring episodes below which a rate is shown as a dash (WebSTEP Tables 13-14)."""
TEMPORAL_BINS = 10
"""Bins of the normalised trajectory position in the temporal pattern (Figure 4)."""

Episode = tuple[EpisodeTrace, Task]


@dataclass
class SkillBook:
    """``action name -> (fine-grained skill, category)`` per site."""

    known: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, episodes: Iterable[Episode]) -> SkillBook:
        book = cls()
        for trace, _ in episodes:
            for t in trace.transitions():
                if t.category:
                    book.known.setdefault((trace.site, t.action), (t.skill or t.action,
                                                                   t.category))
        return book

    def lookup(self, task: Task, action: str) -> tuple[str, str] | None:
        """From the task's site (registered, or declared by an imported task), else from what
        the loaded transitions recorded."""
        try:
            spec = site_data(task).action_spec(action)
        except (ConfigError, InvalidAction, KeyError):
            return self.known.get((task.site, action))
        return spec.skill or action, spec.category.value


class Invocation(BaseModel):
    """One cell of Tables 13-14: invoked / requiring episodes; ``rate`` None under support."""

    invoked: int
    required: int
    rate: float | None


def _cell(invoked: int, required: int, min_support: int) -> Invocation:
    rate = invoked / required if required >= max(1, min_support) else None
    return Invocation(invoked=invoked, required=required, rate=rate)


def _required_and_used(trace: EpisodeTrace, task: Task, book: SkillBook
                       ) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(skill, category) pairs the oracle requires and those the episode invoked."""
    req = {sc for a in task.oracle if (sc := book.lookup(task, a.name))}
    used = set()
    for t in valid_transitions(trace):
        sc = (t.skill or t.action, t.category) if t.category else book.lookup(task, t.action)
        if sc:
            used.add(sc)
    return req, used


def skill_invocation(episodes: Sequence[Episode], *, by: str = "category",
                     min_support: int = MIN_SUPPORT) -> dict[str, dict[str, dict[str, Invocation]]]:
    """``{agent: {site or "all": {skill: Invocation}}}`` for ``by`` = ``"category"`` (Table 14,
    columns in paper order) or ``"skill"`` (Table 13, fine-grained names). Infra-error episodes
    are excluded."""
    if by not in ("category", "skill"):
        raise ValueError(f"by must be 'category' or 'skill', not {by!r}")
    book = SkillBook.of(episodes)
    counts: dict[str, dict[str, dict[str, list[int]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(lambda: [0, 0])))
    for trace, task in episodes:
        if trace.termination == "infra_error":
            continue
        req, used = _required_and_used(trace, task, book)
        pick = 1 if by == "category" else 0
        needed = {sc[pick] for sc in req}
        invoked = {sc[pick] for sc in used}
        for name in needed:
            for site in (trace.site, "all"):
                cell = counts[trace.agent][site][name]
                cell[1] += 1
                cell[0] += name in invoked
    order = {k: i for i, k in enumerate(SKILL_ORDER)}
    return {agent: {site: {k: _cell(c[0], c[1], min_support)
                           for k, c in sorted(per.items(), key=lambda kv: (order.get(kv[0], 99),
                                                                            kv[0]))}
                    for site, per in sorted(sites.items(), key=lambda kv: (kv[0] == "all",
                                                                           kv[0]))}
            for agent, sites in sorted(counts.items())}


def temporal_pattern(episodes: Sequence[Episode], *, bins: int = TEMPORAL_BINS
                     ) -> dict[str, dict[str, list[float]]]:
    """Figure 4: per agent and category, the share of that agent's invocations of the category
    falling in each bin of the normalised position ``i / (n - 1)`` along the valid transitions
    (a single transition sits at 0). Each category's row sums to 1 (or is all zeros)."""
    hist: dict[str, dict[str, list[int]]] = defaultdict(
        lambda: {k: [0] * bins for k in SKILL_ORDER})
    book = SkillBook.of(episodes)
    for trace, task in episodes:
        if trace.termination == "infra_error":
            continue
        valid = valid_transitions(trace)
        n = len(valid)
        for i, t in enumerate(valid):
            cat = t.category or (book.lookup(task, t.action) or ("", ""))[1]
            if cat not in SKILL_ORDER:
                continue
            pos = i / (n - 1) if n > 1 else 0.0
            hist[trace.agent][cat][min(bins - 1, int(pos * bins))] += 1
    return {agent: {k: [c / sum(row) if sum(row) else 0.0 for c in row]
                    for k, row in per.items()}
            for agent, per in sorted(hist.items())}
