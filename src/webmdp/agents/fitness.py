"""Whether a site's tasks give the baselines (``greedy``, ``random``) something to measure
(`webmdp check`'s baseline lines).

``greedy`` searches with the instruction's quoted and capitalised words, opens the first
result that an INSPECT action with an entity parameter offers, and commits at once with the
offered state-changing action whose name the instruction uses. On a site where it cannot
search, never finds a result to open, or finds no commit on the page it opened, it scores 0
for reasons that have nothing to do with hard negatives, and a model compared with it is
compared with nothing. On tasks without hard negatives it should succeed sometimes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from webmdp.agents.builtin import GreedyAgent, text_searches
from webmdp.core.site import Site
from webmdp.core.spec import Action, SkillCategory
from webmdp.env.semantic import SemanticEnv
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace


@dataclass(frozen=True)
class BaselineFit:
    """How ``greedy`` fared on a site's checked tasks (semantic mode)."""

    tasks: int
    opened: int
    """Episodes in which it opened a result (an INSPECT action with an entity parameter)."""
    committed: int
    """Episodes with a valid state-changing action."""
    solved: int
    plain: int
    """Tasks without hard negatives."""
    plain_solved: int
    can_search: bool

    def lines(self) -> list[str]:
        """The summary line, then one line per reason the baseline is not meaningful."""
        if not self.can_search:
            return ["greedy cannot search: the site declares no SEARCH action with a text "
                    "parameter, so it finishes at once (docs/extending.md, Baselines)"]
        out = [f"greedy: opened a result in {self.opened}/{self.tasks} tasks, committed in "
               f"{self.committed}/{self.tasks}, solved {self.solved}/{self.tasks} "
               f"({self.plain_solved}/{self.plain} without hard negatives)"]
        if not self.opened:
            out.append("greedy never opened a result: its searches for the instruction's "
                       "quoted and capitalised words list nothing an INSPECT action with an "
                       "entity parameter opens")
        elif not self.committed:
            out.append("greedy never committed: the pages it opened offer no state-changing "
                       "action it could take")
        elif self.plain and not self.plain_solved:
            out.append("greedy solves no task without hard negatives: a search for the "
                       "instruction's words does not list the target first, or the commit's "
                       "name or values are not in the instruction")
        return out

    @property
    def meaningful(self) -> bool:
        return len(self.lines()) == 1


def baseline_fit(site: Site, tasks: Sequence[Task], *, step_budget: int = 20) -> BaselineFit:
    """Run ``greedy`` on ``tasks`` (semantic mode) and count what it managed."""
    can_search = bool(text_searches(site))
    opened = committed = solved = plain = plain_solved = 0
    if can_search:
        inspect = {a.name for a in site.actions if a.category == SkillCategory.INSPECT
                   and any(p.type == "entity" for p in a.params)}
        for task in tasks:
            trace = _play(SemanticEnv(task, agent="greedy", step_budget=step_budget))
            valid = [t for t in trace.transitions() if t.error is None]
            opened += any(t.action in inspect for t in valid)
            committed += any(t.changes_state for t in valid)
            solved += trace.success
            if not task.hard_negatives:
                plain += 1
                plain_solved += trace.success
    return BaselineFit(len(tasks), opened, committed, solved, plain, plain_solved, can_search)


def _play(env: SemanticEnv) -> EpisodeTrace:
    agent = GreedyAgent()
    obs, _ = env.reset()
    agent.reset(env.task, "semantic")
    while True:
        action = agent.act(obs).action
        assert isinstance(action, Action)  # in semantic mode greedy acts or finishes
        obs, _, term, trunc, _ = env.step(action)
        if term or trunc:
            return env.trace
