"""Team Chat's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on chat tasks."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from webmdp.core.model import State, World
from webmdp.sites.chat import vocab as V
from webmdp.sites.chat.catalog import CATALOG
from webmdp.sites.chat.mdp import channel_page, is_pinned, my_reactions
from webmdp.sites.chat.state import ChatState
from webmdp.tasks.distance import Bound, Facts, InformedBound, Problem, Unseen, unmet
from webmdp.tasks.model import Condition
from webmdp.tasks.verifier import check_condition

_LISTS = ("ChannelView", "ThreadView", "SearchResults")
_GROWING = frozenset({"replied", "edited", "reminded", "deleted", "posted_in", "dm_to"})
"""List facts no action ever shrinks: a violated ``not_contains`` on one is final."""
_ONE_COMMIT = {"replied": "reply", "reminded": "remind", "edited": "edit", "deleted": "delete"}
_KEYED = {"reply": "reply", "reminder": "remind", "edit": "edit"}

Need = Callable[[ChatState, Facts], float]
"""Commits a condition group still needs on one message's thread (``math.inf``: never)."""


@dataclass(frozen=True)
class _Goal:
    """A chat task's goal as :func:`chat_bound` and :func:`chat_informed` count it: the
    commits each thread needs, the posts and DMs, the conditions no action can meet again
    (``dead``) and the rest."""

    threads: Mapping[str, Sequence[Need]]
    posts: Sequence[tuple[str, list[Condition]]]
    dms: Sequence[tuple[str, list[Condition]]]
    dead: Sequence[Condition]
    rest: Sequence[Condition]

    def parts(self, state: ChatState, facts: Facts) -> tuple[float, set[str], int]:
        """(thread commits still needed, or inf; the threads still to open for them; the
        posts and DMs still to send)."""
        if unmet(self.dead, facts):
            return math.inf, set(), 0
        commits, away = 0.0, set()
        for mid, needs in self.threads.items():
            n = sum(need(state, facts) for need in needs)
            if not n:
                continue
            if mid in state.deleted:  # a deleted message never opens again
                return math.inf, set(), 0
            commits += n
            if state.surface != "ThreadView" or state.focus != mid:
                away.add(mid)
        return commits, away, sum(unmet(conds, facts) for _, conds in (*self.posts, *self.dms))


def _goal(p: Problem) -> _Goal:
    """Facts used: every message commit (ReplyInThread, AddReaction, RemoveReaction, PinMessage,
    UnpinMessage, RemindMe, EditMessage, DeleteMessage) acts on the open thread (ThreadView) and
    changes one item of one fact: one reply, one emoji, one pin flag, one reminder, one edit,
    one deletion; a pinned-from-the-start message needs UnpinMessage before PinMessage;
    EditMessage / DeleteMessage need your own message. ``replied``, ``edited``, ``reminded``,
    ``deleted``, ``posted_in`` and ``dm_to`` never lose an item. A thread becomes the open one
    only by OpenThread (ChannelView / ThreadView, the message on the channel page shown, not
    deleted), OpenResult (SearchResults, on the page shown, not deleted) or CloseMember (a
    profile opened from that thread); each opens one thread. No commit changes the channel page
    or results shown (DeleteMessage leaves the thread for the same channel page). SendMessage
    (on ChannelView of its channel) and SendDM (on DirectMessageView of its member) change one
    post / DM each and never move; OpenChannel / OpenDM / CloseThread / CloseMember /
    DeleteMessage are the ways there."""
    world = p.world
    threads: dict[str, list[Need]] = {}
    posts: list[tuple[str, list[Condition]]] = []
    dms: list[tuple[str, list[Condition]]] = []
    dead: list[Condition] = []
    rest: list[Condition] = []

    def add(mid: str, need: Need) -> None:
        threads.setdefault(mid, []).append(need)

    emoji_in: dict[str, list[str]] = {}
    emoji_out: dict[str, list[str]] = {}
    react_in: set[str] = set()
    react_out: set[str] = set()
    kinds: dict[tuple[str, str], list[Condition]] = {}
    for c in p.task.verifier:
        head, _, tail = c.fact.partition(".")
        if c.op == "not_contains" and c.fact in _GROWING:
            dead.append(c)
        elif c.fact in _ONE_COMMIT and c.op == "contains":
            kinds.setdefault((str(c.value), _ONE_COMMIT[c.fact]), []).append(c)
        elif head in _KEYED and tail.count(".") == 1 and c.op == "eq":
            kinds.setdefault((tail.split(".")[0], _KEYED[head]), []).append(c)
        elif c.fact == "reacted" and c.op == "contains":
            react_in.add(str(c.value))
        elif c.fact == "reacted" and c.op == "not_contains":
            react_out.add(str(c.value))
        elif head == "reaction" and tail.endswith(".emoji") and c.op in ("contains",
                                                                         "not_contains"):
            mid = tail.removesuffix(".emoji")
            (emoji_in if c.op == "contains" else emoji_out).setdefault(mid, []).append(
                str(c.value))
        elif c.fact == "pinned" and c.op in ("contains", "not_contains"):
            add(str(c.value), _pin_need(world, c))
        elif head == "post" and tail.endswith(".text") and c.op == "eq":
            posts.append((tail.removesuffix(".text"), [c]))
        elif head == "dm" and tail.endswith(".text") and c.op == "eq":
            dms.append((tail.removesuffix(".text"), [c]))
        else:
            rest.append(c)
    for (mid, kind), conds in kinds.items():
        if kind in ("edit", "delete") and world.entities.get(mid, {}).get("author") != V.ME:
            add(mid, _never(conds))  # only your own messages are edited or deleted
        else:
            add(mid, _one(conds))
    for mid in react_in | set(emoji_in):
        add(mid, _adds(mid, mid in react_in, emoji_in.get(mid, [])))
    for mid in react_out | set(emoji_out):
        add(mid, _removals(mid, mid in react_out, emoji_out.get(mid, [])))

    return _Goal(threads, posts, dms, dead, rest)


def _openable(world: World, s: ChatState, mid: str, look: bool) -> bool:
    """An arrival action (OpenThread / OpenResult / CloseMember) opens ``mid`` now: from a
    channel or a thread, only a message of the channel shown (of its page shown, ``look``)."""
    if s.surface == "MemberProfile":
        return s.back == "ThreadView" and s.focus == mid
    if s.surface not in _LISTS or mid in s.deleted:
        return False
    if s.surface == "SearchResults":
        return not look or mid in CATALOG.visible(world, s)
    if world.entities[mid]["channel"] != s.channel:
        return False
    return not look or mid in channel_page(world, s.channel, s.cpage)


def chat_bound(p: Problem) -> Bound:
    """Team Chat (the facts used: :func:`_goal`): the commits each thread still needs,
    one arrival per thread still to open, one navigation first when none opens from here,
    and the posts and DMs still to send."""
    goal = _goal(p)
    world = p.world

    def bound(state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, ChatState)
        commits, away, sends = goal.parts(state, facts)
        if commits == math.inf:
            return math.inf
        # each thread still to visit costs its own arrival; if none opens from here, some
        # navigation (not a commit: none changes what is shown) comes first
        near = any(_openable(world, state, mid, look) for mid in away)
        h = commits + len(away) + (bool(away) and not near) + sends
        for channel, conds in goal.posts:
            if unmet(conds, facts):
                h = max(h, 1 + (state.surface != "ChannelView" or state.channel != channel))
        for member, conds in goal.dms:
            if unmet(conds, facts):
                h = max(h, 1 + (state.surface != "DirectMessageView" or state.member != member))
        return max(h, float(unmet(goal.rest, facts)))

    return bound


def chat_informed(p: Problem) -> InformedBound:
    """Team Chat's bound on the informed distance (:mod:`webmdp.tasks.informed`): a message's
    detail fields show on its ThreadView only, so each message whose detail is unseen is a
    thread still to open, beside those with commits to make (:func:`chat_bound`). Four kinds
    of action, counted apart: the commits, one arrival per thread still to open, the posts
    and DMs, and navigation. An arrival from a thread or a channel opens only a message of
    the channel shown, and no commit, arrival, post or DM changes the channel (DeleteMessage
    stays in it): threads in k channels take k - 1 navigations between them, and one more
    first when no thread still to open opens from here."""
    goal = _goal(p)
    world = p.world

    def bound(state: State, facts: Facts, unseen: Unseen, look: bool) -> float:
        assert isinstance(state, ChatState)
        commits, away, sends = goal.parts(state, facts)
        if commits == math.inf:
            return math.inf
        away |= {m for _, mids, _ in unseen for m in mids}
        away.discard(state.focus if state.surface == "ThreadView" else "")  # type: ignore[arg-type]
        if not away:
            return commits + sends
        channels = {world.entities[m]["channel"] for m in away}
        near = any(_openable(world, state, m, look) for m in away)
        return commits + sends + len(away) + len(channels) - 1 + (not near)

    return bound


def _one(conds: list[Condition]) -> Need:
    """Reply / remind / edit / delete: one commit sets the message's item."""
    return lambda s, facts: float(unmet(conds, facts))


def _never(conds: list[Condition]) -> Need:
    return lambda s, facts: math.inf if unmet(conds, facts) else 0.0


def _pin_need(world: object, c: Condition) -> Need:
    mid = str(c.value)

    def need(s: ChatState, facts: Facts) -> float:
        if check_condition(c, facts):
            return 0.0
        if c.op == "not_contains":
            return 1.0  # UnpinMessage
        return 1.0 + is_pinned(s, world, mid)  # type: ignore[arg-type]

    return need


def _adds(mid: str, any_needed: bool, emojis: list[str]) -> Need:
    """AddReaction adds one of your emoji to the message."""
    def need(s: ChatState, facts: Facts) -> float:
        mine = my_reactions(s, mid)
        missing = len({e for e in emojis if e not in mine})
        return float(max(missing, any_needed and not mine))

    return need


def _removals(mid: str, every: bool, emojis: list[str]) -> Need:
    """RemoveReaction takes one of your emoji off the message."""
    def need(s: ChatState, facts: Facts) -> float:
        mine = set(my_reactions(s, mid))
        return float(len(mine) if every else len(mine & set(emojis)))

    return need
