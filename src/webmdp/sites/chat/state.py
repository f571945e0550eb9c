"""Team Chat semantic state: where the user is (channel, page, open thread, DM, profile, the
search box) and what they did (posts, replies, DMs, reactions, pins, edits, deletions,
mutes, reminders)."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.sites._common.catalog import BrowseState

Pair = tuple[str, str]


@dataclass(frozen=True)
class ChatState(BrowseState):
    channel: str = "general"
    cpage: int = 1
    """1 is the newest screenful of the channel; "Load older messages" counts up."""
    member: str = ""
    origin: str = "channel"
    """Where the open thread was opened from (``channel`` or ``search``): Close returns there."""
    back: str = ""
    """The surface a member profile closes back to."""
    posts: tuple[Pair, ...] = ()
    replies: tuple[Pair, ...] = ()
    dms: tuple[Pair, ...] = ()
    reactions: tuple[Pair, ...] = ()
    pinned: tuple[str, ...] = ()
    unpinned: tuple[str, ...] = ()
    edits: tuple[Pair, ...] = ()
    deleted: tuple[str, ...] = ()
    muted: tuple[str, ...] = ()
    reminders: tuple[Pair, ...] = ()
