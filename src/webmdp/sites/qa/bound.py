"""Coding Q&A's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on qa tasks."""

from __future__ import annotations

import math
from collections.abc import Callable

from webmdp.core.model import State
from webmdp.sites.qa.mdp import DETAIL, LIST, TAG, USER, listed
from webmdp.sites.qa.state import QAState
from webmdp.tasks.distance import Bound, Facts, InformedBound, Problem, Unseen, unmet
from webmdp.tasks.model import Condition

_GROWING = frozenset({"answered", "commented"})
"""List facts no action ever shrinks: a violated ``not_contains`` on one is final."""
_LISTS = (LIST, TAG, USER)


def qa_bound(p: Problem) -> Bound:
    """Coding Q&A. Facts used: every commit acts on the open question page (QuestionDetail),
    on the question or one of its answers, and changes one item: Vote one post's vote,
    Bookmark the question's bookmark, PostAnswer one answer, AcceptAnswer one acceptance;
    a comment is OpenCommentBox then PostComment on its post (one action when its box is
    open); ``answered`` and ``commented`` never lose an item. A question page opens only by
    OpenQuestion from a list, tag page or profile showing it, or by GoBack when it tops the
    back trail; each opens one question, and no commit changes the page, its lists or the
    trail."""
    world = p.world
    todo_of, rest = _goal(p)

    def opens(s: QAState, qid: str, look: bool) -> bool:
        """OpenQuestion or GoBack opens ``qid`` now."""
        if s.surface != LIST and s.trail and s.trail[-1] == (DETAIL, qid):
            return True
        if s.surface not in _LISTS:
            return False
        return not look or qid in listed(world, s)

    def bound(state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, QAState)
        s = state
        todo = todo_of(s, facts)
        if todo is None:
            return math.inf
        h = float(sum(todo.values()))
        here = s.focus if s.surface == DETAIL else None
        away = [q for q in todo if q != here]
        if away:
            # one arrival per page still to visit; if none opens from here, some navigation
            # (no commit changes what opens) comes first
            h += len(away) + (not any(opens(s, q, look) for q in away))
        return max(h, float(unmet(rest, facts)))

    return bound


def qa_informed(p: Problem) -> InformedBound:
    """Coding Q&A's bound on the informed distance (:mod:`webmdp.tasks.informed`): a
    question's detail fields show on its page only (:func:`qa_bound`'s facts). Three kinds of
    action, counted apart: the commits still to make; one arrival (OpenQuestion or GoBack)
    per question page still to open, for a commit or for its unseen detail, but the open
    one; and a way to a list, tag page or profile before each OpenQuestion of an unseen
    question but a first one taken there (and on a list that shows none of them, one action
    that changes what it lists). An unseen question is opened only by
    OpenQuestion (GoBack returns to pages already seen), every arrival lands on a question
    page, which offers no OpenQuestion, and no commit changes the page."""
    todo_of, _ = _goal(p)

    def bound(state: State, facts: Facts, unseen: Unseen, look: bool) -> float:
        assert isinstance(state, QAState)
        todo = todo_of(state, facts)
        if todo is None:
            return math.inf
        here = state.focus if state.surface == DETAIL else None
        fresh = {q for _, qids, _ in unseen for q in qids} - {here}
        visit = (set(todo) | fresh) - {here}
        ways = max(0, len(fresh) - (state.surface in _LISTS))
        # on a list showing none of them, the first OpenQuestion waits for a change of list
        first = bool(fresh) and look and state.surface in _LISTS and \
            fresh.isdisjoint(listed(p.world, state))
        return float(sum(todo.values()) + len(visit) + ways + first)

    return bound


def _goal(p: Problem) -> tuple[Callable[[QAState, Facts], dict[str, int] | None],
                                list[Condition]]:
    """The task's commits, as a function of the state (:func:`qa_bound`'s facts): the
    commits still to make per question page (None when one never can be), and the
    conditions left over."""
    world = p.world
    work: dict[tuple[str, str], list[Condition]] = {}
    dead: list[Condition] = []
    rest: list[Condition] = []
    for c in p.task.verifier:
        head, _, tail = c.fact.partition(".")
        v = str(c.value)
        if c.fact in _GROWING and c.op == "not_contains":
            dead.append(c)
        elif c.fact in ("votes.up", "votes.down") or (head == "vote" and tail):
            work.setdefault((v if head == "votes" else tail, "vote"), []).append(c)
        elif c.fact == "bookmarks":
            work.setdefault((v, "bookmark"), []).append(c)
        elif c.fact == "answered" or (head == "answer" and tail):
            work.setdefault((tail or v, "answer"), []).append(c)
        elif head == "comment" and tail:
            work.setdefault((tail, "comment"), []).append(c)
        elif c.fact == "accepted" or (head == "accepted" and tail):
            work.setdefault((tail or v, "accept"), []).append(c)
        else:
            rest.append(c)
    page = {key: _question(world, key[0]) for key in work}
    if any(q is None for q in page.values()):  # a post the world lacks: count nothing special
        rest += [c for key, cs in work.items() if page[key] is None for c in cs]
        work = {key: cs for key, cs in work.items() if page[key] is not None}

    def todo_of(s: QAState, facts: Facts) -> dict[str, int] | None:
        """The commits still to make per question page; None when one never can be."""
        if unmet(dead, facts):
            return None
        todo: dict[str, int] = {}
        for key, cs in work.items():
            if unmet(cs, facts):
                qid = page[key]
                assert qid is not None
                n = 1
                if key[1] == "comment" and not (s.surface == DETAIL and s.focus == qid
                                                and s.commenting == key[0]):
                    n = 2  # OpenCommentBox, PostComment
                todo[qid] = todo.get(qid, 0) + n
        return todo

    return todo_of, rest


def _question(world: object, post: str) -> str | None:
    """The question whose page shows ``post``."""
    ents = world.entities  # type: ignore[attr-defined]
    if post not in ents:
        return None
    return post if post.startswith("QST") else ents[post].get("question_id")
