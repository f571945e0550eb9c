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
from webmdp.core.spec import Action, ActionSpec, SkillCategory
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
    at once: a baseline that ignores hard negatives. It decides from the instruction and the
    observations alone: the commit is the offered state-changing action whose name shares
    most words with the instruction, its values the instruction's quoted text, named choices
    and numbers (:func:`commit_params`)."""

    name = "greedy"

    def start(self, task: Task) -> None:
        self.site = get_site(task.site)
        self.instruction = task.instruction
        words = instruction_words(task.instruction)
        searches = text_searches(self.site)
        # the search the instruction names (SearchJobs for "... job ..."), else the first
        search = max(searches, key=lambda a: sum(matches(w, words) for w in
                                                 action_words(a.name) - {"search"}),
                     default=None)
        self.search = search
        self.queries = deque(candidate_queries(task.instruction) if search else ())
        self.phase, self.moved = "search", False
        self.commits, self.committed_on = 0, "\0"

    def choose(self, view: SemanticView) -> Action | None:
        inspect = [a for a in view.available
                   if self.site.action_spec(a.name).category == SkillCategory.INSPECT
                   and any(p.type == "entity" for p in self.site.action_spec(a.name).params)]
        if self.phase == "search" or (self.phase == "open" and not inspect):
            if not self.queries or self.search is None:
                return None
            if self.search.name not in view.names() and not self.moved:
                self.moved = True  # once: go where the search is (GoToJobs for SearchJobs)
                go = self._towards(view, self.search.name)
                if go is not None:
                    return go
            self.phase = "open"
            param = next(p.name for p in self.search.params if p.text)
            return Action(self.search.name, {param: self.queries.popleft()})
        if self.phase == "open":
            self.phase = "commit"
            return inspect[0]
        if self.phase == "commit" and view.surface != self.committed_on:
            # a commit that opens a form or a checkout (OpenEasyApply, BookListing) is
            # followed by the next page's commit, up to three (browser mode shows no surface
            # name: one commit)
            self.commits += 1
            self.phase = "commit" if self.commits < 3 else "done"
            self.committed_on = view.surface
            return self._commit(view, chained=self.commits > 1)
        return None

    def _towards(self, view: SemanticView, name: str) -> Action | None:
        """An offered navigation without parameters that shares a word with ``name``."""
        want = action_words(name) - {"search"}
        return next((a for a in view.available if not a.params
                     and self.site.action_spec(a.name).category == SkillCategory.NAVIGATE
                     and action_words(a.name) & want), None)

    def _commit(self, view: SemanticView, *, chained: bool = False) -> Action | None:
        """The offered commit whose name the instruction uses most (then the one whose values
        it names, then one that changes the state); after a first commit only one the
        instruction names (ConfirmBooking after BookListing)."""
        commits = [a for a in view.available if self.site.action_spec(a.name).changes_state
                   or self.site.action_spec(a.name).category == SkillCategory.COMMIT]
        if not commits:
            return None
        words = instruction_words(self.instruction)

        def score(a: Action) -> tuple[int, int, bool]:
            spec = self.site.action_spec(a.name)
            named = sum(all(matches(x, words) for x in w) for k, v in a.params.items()
                        if spec.param(k).type != "entity" and (w := instruction_words(str(v))))
            return sum(matches(w, words) for w in action_words(a.name)), named, \
                spec.changes_state

        best = max(commits, key=score)  # the first on ties
        if chained and not score(best)[0]:
            return None
        spec = self.site.action_spec(best.name)
        return Action(best.name, {**commit_params(spec, self.instruction), **best.params})


def text_searches(site: Any) -> list[ActionSpec]:
    """The site's SEARCH actions that take typed text: what ``greedy`` can search with."""
    return [a for a in site.actions
            if a.category == SkillCategory.SEARCH and any(p.text for p in a.params)]


STOP = frozenset({"to", "in", "on", "of", "by", "a", "the", "as", "for"})
QUOTED = re.compile(r"""(?<![A-Za-z])(['"])(.+?)\1(?![A-Za-z])""")


def instruction_words(text: str) -> set[str]:
    """A text's words, lower case, each also without a plural or verb ending."""
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", text)}
    return words | {_stem(w) for w in words}


def action_words(name: str) -> set[str]:
    """An action name's words (``AddToCart``: add, cart), stemmed, without small words."""
    return {_stem(w.lower()) for w in re.findall(r"[A-Z][a-z]*|[a-z]+", name)} - STOP


def matches(word: str, words: set[str]) -> bool:
    """``word`` is one of ``words``, or begins or ends one (vote: upvote; react: reaction)."""
    return word in words or (len(word) > 1 and any(w.startswith(word) or w.endswith(word)
                                                   for w in words))


def _stem(word: str) -> str:
    for end in ("ing", "ed", "es", "s"):
        if word.endswith(end) and len(word) > len(end) + 2:
            return word[: -len(end)]
    return word


def commit_params(spec: ActionSpec, instruction: str) -> dict[str, Any]:
    """Values for a commit's required non-entity parameters, read from the instruction: a
    choice the instruction names (else the first); for a parameter named like a date, the
    instruction's dates in order (:func:`dates_in`); other text: quoted text in order, from
    the first quote after the action's verb (else the instruction's first name); a number:
    the one before the parameter's name ("4 guests"), else the first (else 1)."""
    verbs = action_words(spec.name)
    at = next((m.start() for m in re.finditer(r"[A-Za-z]+", instruction)
               if any(matches(v, instruction_words(m.group())) for v in verbs)), 0)
    quotes = [(m.start(), m.group(2)) for m in QUOTED.finditer(instruction)]
    texts = deque([q for i, q in quotes if i > at] or [q for _, q in quotes])
    dates = deque(dates_in(instruction))
    numbers = re.findall(r"(?<![\d$,.:-])\d+(?![\d,.:-])", instruction)
    low = instruction.lower()
    out: dict[str, Any] = {}
    for p in spec.params:
        if p.optional or p.type == "entity":
            continue
        if p.choices:
            out[p.name] = next((c for c in p.choices if c.lower() in low), p.choices[0])
        elif p.type in ("int", "float"):
            named = re.search(rf"(\d+)\s+{re.escape(_stem(p.name.lower()))}", low)
            n = named.group(1) if named else numbers[0] if numbers else "1"
            out[p.name] = int(n) if p.type == "int" else float(n)
        elif dates and any(k in p.name.lower() for k in ("date", "check", "day")):
            out[p.name] = dates.popleft()
        else:
            out[p.name] = texts.popleft() if texts else (candidate_queries(instruction) or
                                                         [instruction])[0]
    return out


MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
_DATE = re.compile(r"(\d{4})-(\d\d)-(\d\d)|(" + "|".join(m.title() for m in MONTHS)
                   + r")\s+(\d{1,2})(?:\s*-\s*(\d{1,2}))?,\s*(\d{4})")


def dates_in(text: str) -> list[str]:
    """The dates a text names, as YYYY-MM-DD, in order: ``2025-06-12``, ``March 10, 2026``
    and a range ``September 16-19, 2026`` (two dates)."""
    out = []
    for m in _DATE.finditer(text):
        if m.group(1):
            out.append(m.group(0))
            continue
        year, month = m.group(7), MONTHS.index(m.group(4).lower()) + 1
        out += [f"{year}-{month:02d}-{int(d):02d}" for d in (m.group(5), m.group(6)) if d]
    return out


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
