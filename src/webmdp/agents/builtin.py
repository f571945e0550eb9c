"""Built-in agents that need no model: ``oracle``, ``random`` and ``greedy``.

Each plans semantic actions on a :class:`SemanticView`; in browser mode the plan is carried out
through the GUI by :func:`plan_gui` (click and type at element coordinates, like a user).
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

from webmdp.agents.base import AgentOutput, SemanticView
from webmdp.agents.driver import needs_replan, noise_blocker, plan_gui
from webmdp.core.spec import Action, SkillCategory
from webmdp.env.actions import GUIAction, finish
from webmdp.env.semantic import FINISH
from webmdp.sites import get_site
from webmdp.tasks.codes import find_code
from webmdp.tasks.model import Task
from webmdp.trace import AgentLog, Mode


class PlanningAgent:
    """Base for built-in agents: subclasses choose the next semantic action (None = finish)."""

    name = "planning"
    log: AgentLog | None = None

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.task: Task | None = None
        self.mode: Mode = "semantic"
        self._gui: deque[GUIAction] = deque()
        self._pending: Action | None = None
        self._current: Action | None = None  # the action the queued GUI steps carry out
        self._stuck = 0

    def reset(self, task: Task, mode: Mode) -> None:
        self.task, self.mode = task, mode
        self._gui.clear()
        self._pending = None
        self._stuck = 0
        self.start(task)

    def start(self, task: Task) -> None:
        """Per-episode initialisation."""

    def bind(self, env: Any) -> None:
        """Built-in agents only act through observations."""

    def choose(self, view: SemanticView) -> Action | None:
        raise NotImplementedError

    def final_answer(self, obs: dict[str, Any]) -> str | None:
        """What the agent reports when it finishes: the confirmation code on screen."""
        return code_on_screen(obs)

    def act(self, obs: dict[str, Any]) -> AgentOutput:
        view = SemanticView.of(obs)
        if self.mode == "semantic":
            action = self.choose(view)
            if action is None:  # report the confirmation code the last commit showed, if any
                answer = self.final_answer(obs)
                return AgentOutput(Action(FINISH, {"answer": answer} if answer else {}),
                                   raw=None)
            return AgentOutput(action, raw=str(action))
        return self._act_gui(view, obs)

    def _act_gui(self, view: SemanticView, obs: dict[str, Any]) -> AgentOutput:
        nodes = obs.get("nodes", [])
        if self._gui:
            blocker = noise_blocker(self._gui[0], nodes)
            if blocker is None:
                return AgentOutput(self._gui.popleft())
            self._gui.clear()  # real-web noise in the way: close it, then plan the action anew
            self._pending = self._current
            return AgentOutput(blocker)
        action = self._pending or self.choose(view)
        self._pending = None
        if action is None:
            return AgentOutput(finish(self.final_answer(obs)))
        steps = plan_gui(action, nodes)
        if steps is None:
            self._stuck += 1
            if self._stuck > 3:
                return AgentOutput(finish())
            self._pending = action
            return AgentOutput(GUIAction(kind="wait", seconds=0.1))
        self._stuck = 0
        blocker = noise_blocker(steps[0], nodes)
        if blocker is not None:
            self._pending = action
            return AgentOutput(blocker)
        self._current = action
        if needs_replan(steps, action, nodes):
            self._pending = action
        self._gui.extend(steps[1:])
        return AgentOutput(steps[0], raw=str(action))


class OracleAgent(PlanningAgent):
    """Replays the task's oracle trajectory, then finishes."""

    name = "oracle"

    def start(self, task: Task) -> None:
        self._plan = deque(task.oracle_actions())

    def choose(self, view: SemanticView) -> Action | None:
        return self._plan.popleft() if self._plan else None

    def final_answer(self, obs: dict[str, Any]) -> str | None:
        """The task's value (it knows the task, as it knows the oracle), then the code."""
        parts = [self.task.answer if self.task else None, code_on_screen(obs)]
        return "; ".join(p for p in parts if p) or None


class RandomAgent(PlanningAgent):
    """Uniform over the offered actions; text parameters are words of the instruction."""

    name = "random"
    finish_probability = 0.03

    def start(self, task: Task) -> None:
        self.rng = random.Random(f"{self.seed}:{task.id}")
        self.site = get_site(task.site)
        self.words = re.findall(r"[A-Za-z][A-Za-z-]{2,}", task.instruction) or ["item"]

    def choose(self, view: SemanticView) -> Action | None:
        if not view.available or self.rng.random() < self.finish_probability:
            return None
        act = self.rng.choice(view.available)
        params = dict(act.params)
        for p in self.site.action_spec(act.name).params:
            if p.name in params or p.optional:
                continue
            if p.type == "int":
                params[p.name] = self.rng.randint(1, 3)
            else:
                params[p.name] = self.site.example_params.get(p.name) if not p.text else \
                    " ".join(self.rng.sample(self.words, min(2, len(self.words))))
        return Action(act.name, params)


class GreedyAgent(PlanningAgent):
    """Searches with words from the instruction, opens the first plausible result and commits
    at once: a baseline that ignores hard negatives."""

    name = "greedy"

    def start(self, task: Task) -> None:
        self.site = get_site(task.site)
        search = next(a for a in self.site.actions if a.category == SkillCategory.SEARCH
                      and any(p.text for p in a.params))
        self.search_action = search.name
        self.search_param = next(p.name for p in search.params if p.text)
        self.queries = deque(candidate_queries(task.instruction))
        self.commit = task.oracle_actions()[-1]
        self.phase = "search"

    def choose(self, view: SemanticView) -> Action | None:
        inspect = [a for a in view.available
                   if self.site.action_spec(a.name).category == SkillCategory.INSPECT
                   and any(p.type == "entity" for p in self.site.action_spec(a.name).params)]
        if self.phase == "search" or (self.phase == "open" and not inspect):
            if not self.queries:
                return None
            self.phase = "open"
            return Action(self.search_action, {self.search_param: self.queries.popleft()})
        if self.phase == "open":
            self.phase = "commit"
            return inspect[0]
        if self.phase == "commit":
            self.phase = "done"
            return self._commit(view)
        return None

    def _commit(self, view: SemanticView) -> Action | None:
        spec = self.site.action_spec(self.commit.name)
        entity_params = {p.name for p in spec.params if p.type == "entity"}
        same = [a for a in view.available if a.name == self.commit.name]
        if not entity_params and same:
            return Action(self.commit.name, dict(self.commit.params))
        if same:
            return same[0]
        commits = [a for a in view.available if self.site.action_spec(a.name).changes_state]
        return commits[0] if commits else None


def candidate_queries(instruction: str) -> list[str]:
    """Search queries a hurried user would take from an instruction, best first."""
    out: list[str] = []
    m = re.search(r"[Ss]earch for (.+?) in ", instruction)
    if m:
        out.append(m.group(1))
    out += re.findall(r"'([^']{3,})'", instruction)
    sentence_starts = {m.end() for m in re.finditer(r"(^|[.!?]\s+)", instruction)}
    for m in re.finditer(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)", instruction):
        if m.start() not in sentence_starts:
            out.append(m.group(1))
    first = re.match(r"\s*([A-Z][a-z]+(?:\s+[A-Z][a-z]+)+)", instruction)
    if first:
        out.append(first.group(1))
    return list(dict.fromkeys(q for q in out if q.strip()))


def code_on_screen(obs: dict[str, Any]) -> str | None:
    """The confirmation code the page shows (:mod:`webmdp.tasks.codes`), from the semantic
    text, the accessibility text or the page's nodes."""
    texts = [obs.get("text"), obs.get("axtree"),
             *(str(n.get("name") or n.get("text") or "") for n in obs.get("nodes", []))]
    return next((c for t in texts if t and (c := find_code(str(t)))), None)
