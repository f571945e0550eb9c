"""Mail's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on mail tasks."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from webmdp.core.model import State
from webmdp.core.spec import Action
from webmdp.sites.mail.listing import visible_ids
from webmdp.sites.mail.state import MailState
from webmdp.tasks.distance import (
    Bound,
    Facts,
    InformedBound,
    Problem,
    Unseen,
    unmet,
    visits,
)
from webmdp.tasks.model import Condition
from webmdp.tasks.verifier import check_condition

_MEMBERSHIP = frozenset({"starred", "unread", "read", "inbox", "archived", "deleted", "spam",
                         "sent_folder"})
_MOVED = frozenset({"starred", "inbox", "archived", "deleted", "spam"})
"""Membership facts only a star or a move changes (read and unread: OpenThread too)."""
_SENT_FIELDS = frozenset({"mode", "thread", "to", "cc", "subject", "body"})
_OPENERS = {"new": "Compose", "reply": "Reply", "reply_all": "ReplyAll", "forward": "Forward"}


def mail_bound(p: Problem) -> Bound:
    """Mail. Facts used: a thread's flags, folder and labels change only by an action naming
    it (on its list row or its open thread) or a bulk action on the selection; a thread is
    selected or opened only from its visible row; AddLabel / RemoveLabel act on the open
    thread only; ``sent`` only grows, by Send, which sends the open draft whose mode and
    thread were fixed when Compose / Reply / ReplyAll / Forward opened it; each recipient
    action adds or removes one address, SetSubject / SetBody set one field."""
    world, conds = p.world, p.task.verifier
    member = [c for c in conds if c.fact in _MEMBERSHIP and c.op != "eq"]
    labels = [c for c in conds if c.fact.startswith("labels.") and c.op != "eq"]
    sent = [c for c in conds if c.fact.startswith("sent.")]
    want = _sent_goal(sent)
    rest = [c for c in conds if c not in member and c not in labels and
            (want is None or c not in sent)]
    fresh = _fresh_draft(p, want) if want is not None else None

    def on_row(s: MailState, tid: str, look: bool) -> bool:
        return s.surface == "ThreadList" and (not look or tid in visible_ids(world, s))

    def one_action(s: MailState, tid: str, look: bool) -> int:
        """1 when an action on ``tid`` applies now (its row, its open thread, or a bulk action
        on a selection holding it), else 2."""
        if s.surface == "ThreadView":
            return 1 if s.focus == tid else 2
        return 1 if s.surface == "ThreadList" and (tid in s.selected or on_row(s, tid, look)) else 2

    def label_action(s: MailState, tid: str, add: bool, look: bool) -> int:
        """AddLabel / RemoveLabel need ``tid`` open (BulkLabel: selected, adding only);
        opening or selecting it needs its row on screen."""
        if (s.surface == "ThreadView" and s.focus == tid) or \
                (add and s.surface == "ThreadList" and tid in s.selected):
            return 1
        near = s.focus == tid or on_row(s, tid, look) or (add and tid in s.selected)
        return 2 if near else 3

    def view_cost(s: MailState, tid: str, look: bool) -> int:
        """Actions before ``tid`` is the open thread: closing a draft returns to its thread,
        else OpenThread from its row, which may first need bringing on screen."""
        if s.focus == tid:
            return 0 if s.surface == "ThreadView" else 1
        return 1 if on_row(s, tid, look) else 2

    def send_cost(s: MailState, look: bool) -> float:
        """The one message must still be sent: Send, after the edits the draft needs; either
        the open draft (right mode and thread) or a new one opened from the right place."""
        assert want is not None
        if s.sent:
            return math.inf  # sent only grows: the first message is final and count is > 0
        if fresh is None:
            return 1 + (s.surface != "ComposeModal")
        mode, tid = fresh["mode"], fresh["thread"]
        keep, new = _drafts(s, want, fresh)
        opening = (s.surface == "ComposeModal") if mode == "new" else view_cost(s, tid, look)
        return min(keep, opening + new)

    def bound(state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, MailState)
        h = float(unmet(rest, facts))
        for c in member:
            if not check_condition(c, facts):
                h = max(h, one_action(state, str(c.value), look))
        for c in labels:
            if not check_condition(c, facts):
                h = max(h, label_action(state, c.fact.removeprefix("labels."),
                                        c.op == "contains", look))
        if want is not None and unmet(sent, facts):
            h = max(h, send_cost(state, look))
        return h

    return bound


def mail_informed(p: Problem) -> InformedBound:
    """Mail's bound on the informed distance (:mod:`webmdp.tasks.informed`): three kinds of
    action, counted apart because no action is of two kinds.

    - OpenThread, one per thread still to open: each thread whose detail fields are unseen
      (only its ThreadView shows them, and a reply or forward draft of it is opened from
      there) and the thread the message to send replies to, unless it is the thread already
      open (its ThreadView, or the draft over it, which Send or DiscardDraft closes back onto
      it). OpenThread opens a row of the list, and is the only action that changes the open
      thread.
    - A way back to the list before each of those but a first one taken from the list:
      OpenThread leads to a ThreadView, and nothing that opens, edits, sends or discards a
      draft leads from a ThreadView to the list (a draft closes back onto the thread it was
      opened over). On the list, when no thread still to open has a row on screen, one more.
    - The message to send: its opener, its edits and Send (:func:`mail_bound`), not counting
      the way to its thread, counted above.
    - The labels: one RemoveLabel per label still to take off a thread, one AddLabel or
      BulkLabel per label still to add (a BulkLabel adds one label to every thread
      selected). They act on the open thread or the selection, and change no screen.
    - One star or move, when one still to make on a thread cannot stand in for an action
      counted above: a star never leaves a screen; a move made on the list is not a way back;
      a move made on a thread's page (it returns to the list it came from, of the same
      scope) is the way back before the next OpenThread only if that thread was opened by
      a counted OpenThread or is open now, and, for a thread in Trash or Spam (listed in its
      folder's own view alone), only if another thread to open lies in that folder; else the
      next OpenThread waits for a change of list. On a list that shows no thread to open, a
      star or move of a thread not on screen nor selected cannot be the change it waits for.
      A thread changes folder only by a move, which is an action of its own.
    """
    conds = p.task.verifier
    labels = [c for c in conds if c.fact.startswith("labels.") and
              c.op in ("contains", "not_contains")]
    sent = [c for c in conds if c.fact.startswith("sent.")]
    want = _sent_goal(sent)
    fresh = _fresh_draft(p, want) if want is not None else None
    world = p.world
    moves = [c for c in conds if c.fact in _MOVED and c.op in ("contains", "not_contains")]

    def move_part(s: MailState, facts: Facts, to_open: set[str], on_list: bool) -> int:
        """1 when a star or move still to make cannot be one of the ways back to the list
        counted, nor the first change of the list: see :func:`mail_informed`."""
        here = s.focus if s.surface != "ThreadList" else None
        shown = set(visible_ids(world, s)) | s.selected if on_list else set()
        for c in moves:
            tid = str(c.value)
            if check_condition(c, facts) or tid in shown:
                continue
            folder = s.folder_of(tid)
            alone = folder in ("trash", "spam") and all(
                s.folder_of(t) != folder for t in to_open if t != tid)
            if c.fact == "starred" or (tid not in to_open and tid != here) or alone:
                return 1
        return 0

    def compose_part(s: MailState) -> tuple[float, str | None]:
        """(opener + edits + Send, the thread its opener needs open, or None)."""
        assert want is not None
        if s.sent:
            return math.inf, None
        if fresh is None:
            return 1 + (s.surface != "ComposeModal"), None
        keep, new = _drafts(s, want, fresh)
        if keep < math.inf:
            return min(keep, new), None
        return new, (fresh["thread"] or None)

    def bound(state: State, facts: Facts, unseen: Unseen, look: bool) -> float:
        assert isinstance(state, MailState)
        to_open = {t for _, threads, _ in unseen for t in threads}
        h = 0.0
        if want is not None and unmet(sent, facts):
            h, thread = compose_part(state)
            if thread is not None:
                to_open.add(thread)
        todo = [c for c in labels if not check_condition(c, facts)]
        h += sum(c.op == "not_contains" for c in todo) + len(
            {c.value for c in todo if c.op == "contains"})
        to_open.discard(state.focus)  # type: ignore[arg-type]
        if not to_open:
            return h
        # a way off the open thread first; on the list, one when no row to open is on screen
        blank = look and state.surface == "ThreadList" and to_open.isdisjoint(
            visible_ids(world, state))
        away = bool(state.surface == "ThreadView" or state.focus) or blank
        h += move_part(state, facts, to_open, blank) if look else 0
        return h + visits(len(to_open), not away)

    return bound


def _sent_goal(sent: list[Condition]) -> dict[str, Any] | None:
    """The fields of 'exactly one message was sent, with these fields', or None when the
    sent conditions have another shape."""
    eq = {c.fact: c.value for c in sent if c.op == "eq"}
    fields = {k.removeprefix("sent.0."): v for k, v in eq.items() if k.startswith("sent.0.")}
    if not sent or len(eq) != len(sent) or eq.get("sent.count") != 1 or \
            len(fields) != len(eq) - 1 or set(fields) - _SENT_FIELDS:
        return None
    return fields


def _drafts(s: MailState, want: Mapping[str, Any], fresh: Mapping[str, Any]
            ) -> tuple[float, float]:
    """The message still to send, its way there aside: (the open draft's edits and Send,
    inf unless it has the wanted mode and thread; a fresh draft's opener, edits and Send)."""
    keep = math.inf
    if s.surface == "ComposeModal" and s.compose == fresh["mode"] and \
            s.reply_thread == fresh["thread"]:
        keep = 1 + _edits(_draft_of(s), want)
    return keep, 2 + _edits(fresh, want)


def _draft_of(s: Any) -> dict[str, Any]:
    return {"mode": s.compose, "thread": s.reply_thread, "to": list(s.to), "cc": list(s.cc),
            "subject": s.subject, "body": s.body}


def _fresh_draft(p: Problem, want: dict[str, Any]) -> dict[str, Any] | None:
    """The draft the wanted mode opens on the wanted thread, by the site's own transition;
    None when the goal leaves the mode or thread open (then only Send itself is counted)."""
    mode, tid = want.get("mode"), want.get("thread", "")
    if mode not in _OPENERS or (mode == "new") != (tid == "") or \
            (tid and tid not in p.world.entities):
        return None
    start = p.site.initial_state(p.world)
    surface = "ThreadList" if mode == "new" else "ThreadView"
    draft = p.site.step(start.replace(surface=surface, focus=tid or None),
                        Action(_OPENERS[mode]), p.world)
    return _draft_of(draft)


def _edits(draft: Mapping[str, Any], want: Mapping[str, Any]) -> int:
    """Edit actions a draft needs: one per differing subject / body, and per address to add
    or remove (at least one when only the order differs)."""
    n = 0
    for f in ("to", "cc"):
        if f in want and list(draft[f]) != list(want[f]):
            have, need = set(draft[f]), set(want[f])
            n += max(1, len(need - have) + len(have - need))
    return n + sum(f in want and draft[f] != want[f] for f in ("subject", "body"))
