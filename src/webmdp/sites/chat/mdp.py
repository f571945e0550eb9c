"""Team Chat transition function (pure): channels, search results, the thread pane, member
profiles and direct messages, and the commits made on them."""

from __future__ import annotations

from functools import lru_cache

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.errors import require
from webmdp.sites._common.handlers import Handler, Params, catalog_action, dispatch, step
from webmdp.sites._common.listing import page_count
from webmdp.sites.chat import vocab as V
from webmdp.sites.chat.catalog import CATALOG, PEOPLE
from webmdp.sites.chat.state import ChatState

CHANNEL_PAGE = 20
"""Messages per screenful of a channel."""


@lru_cache(maxsize=4096)
def channel_ids(world: World, channel: str) -> tuple[str, ...]:
    """A channel's messages, oldest first (as on screen, top to bottom)."""
    mine = [e for e in world.entities.values() if e["channel"] == channel]
    mine.sort(key=lambda e: (e["posted"], e["id"]))
    return tuple(e["id"] for e in mine)


def channel_pages(world: World, channel: str) -> int:
    return page_count(len(channel_ids(world, channel)), CHANNEL_PAGE)


def channel_page(world: World, channel: str, page: int) -> tuple[str, ...]:
    """Page 1 is the newest screenful; each older page holds the messages above it."""
    ids = channel_ids(world, channel)
    end = len(ids) - (page - 1) * CHANNEL_PAGE
    return ids[max(0, end - CHANNEL_PAGE):max(0, end)]


def page_of(world: World, mid: str) -> int:
    ids = channel_ids(world, world.entities[mid]["channel"])
    return (len(ids) - 1 - ids.index(mid)) // CHANNEL_PAGE + 1


def is_pinned(s: ChatState, world: World, mid: str) -> bool:
    initially = bool(world.entities[mid].get("pinned"))
    return mid in s.pinned or (initially and mid not in s.unpinned)


def my_reactions(s: ChatState, mid: str) -> list[str]:
    return [e for m, e in s.reactions if m == mid]


def transition(s: ChatState, a: Action, world: World) -> ChatState:
    if a.name == CATALOG.search:
        require(s.surface != "MemberProfile", "Search: close the profile first")
    browsed = catalog_action(CATALOG, s, a, world, "search results", member="")
    return browsed or dispatch(_HANDLERS, s, a, world)


def _left(s: ChatState) -> ChatState:
    """Leaving search: the box and its filters are cleared, as when Slack closes search."""
    return s.replace(query="", filters=(), sort="", page=1, focus=None, member="", back="")


def _open_channel(s: ChatState, p: Params, world: World) -> ChatState:
    require(s.surface != "MemberProfile", "OpenChannel: close the profile first")
    require(p["channel"] in V.CHANNELS, f"OpenChannel: no channel {p['channel']!r}")
    return _left(s).replace(surface="ChannelView", channel=p["channel"], cpage=1,
                            origin="channel")


def _open_dm(s: ChatState, p: Params, world: World) -> ChatState:
    require(p["member"] in V.MEMBERS, f"OpenDM: no member {p['member']!r}")
    return _left(s).replace(surface="DirectMessageView", member=p["member"])


def _older(s: ChatState, p: Params, world: World) -> ChatState:
    require(s.surface == "ChannelView", "ShowOlderMessages: not in a channel")
    require(s.cpage < channel_pages(world, s.channel), "ShowOlderMessages: no older messages")
    return s.replace(cpage=s.cpage + 1)


def _open_thread(s: ChatState, p: Params, world: World) -> ChatState:
    mid = p["message_id"]
    require(s.surface in ("ChannelView", "ThreadView"), "OpenThread: not in a channel")
    require(mid in channel_page(world, s.channel, s.cpage),
            f"OpenThread: {mid} is not on screen")
    require(mid not in s.deleted, f"OpenThread: {mid} was deleted")
    return s.replace(surface="ThreadView", focus=mid)


def _open_result(s: ChatState, p: Params, world: World) -> ChatState:
    mid = p["message_id"]
    require(s.surface == "SearchResults", "OpenResult: no search results")
    require(mid in CATALOG.visible(world, s), f"OpenResult: {mid} is not on this page")
    require(mid not in s.deleted, f"OpenResult: {mid} was deleted")
    return s.replace(surface="ThreadView", focus=mid, origin="search",
                     channel=world.entities[mid]["channel"], cpage=page_of(world, mid))


def _open_member(s: ChatState, p: Params, world: World) -> ChatState:
    require(s.surface in ("ChannelView", "ThreadView"), "OpenMember: no message list here")
    require(p["member"] in PEOPLE, f"OpenMember: no member {p['member']!r}")
    return s.replace(surface="MemberProfile", member=p["member"], back=s.surface)


def _text(p: Params, name: str) -> str:
    text = str(p["text"]).strip()
    require(bool(text), f"{name}: the message is empty")
    return text


def _send(s: ChatState, p: Params, world: World) -> ChatState:
    require(s.surface == "ChannelView", "SendMessage: not in a channel")
    return s.replace(posts=(*s.posts, (s.channel, _text(p, "SendMessage"))))


def _reply(s: ChatState, p: Params, world: World) -> ChatState:
    require(s.surface == "ThreadView", "ReplyInThread: no thread open")
    return s.replace(replies=(*s.replies, (s.focus or "", _text(p, "ReplyInThread"))))


def _send_dm(s: ChatState, p: Params, world: World) -> ChatState:
    require(s.surface == "DirectMessageView", "SendDM: no conversation open")
    return s.replace(dms=(*s.dms, (s.member, _text(p, "SendDM"))))


def _focused(s: ChatState, p: Params, name: str) -> str:
    require(s.surface == "ThreadView", f"{name}: no thread open")
    require(p["message_id"] == s.focus, f"{name}: {p['message_id']} is not the open message")
    return str(s.focus)


def _own(s: ChatState, p: Params, world: World, name: str) -> str:
    mid = _focused(s, p, name)
    require(world.entities[mid]["author"] == V.ME, f"{name}: you can only change your own "
            "messages")
    return mid


def _react(s: ChatState, p: Params, world: World) -> ChatState:
    mid = _focused(s, p, "AddReaction")
    require(p["emoji"] not in my_reactions(s, mid), "AddReaction: you already reacted so")
    return s.replace(reactions=(*s.reactions, (mid, p["emoji"])))


def _unreact(s: ChatState, p: Params, world: World) -> ChatState:
    mid = _focused(s, p, "RemoveReaction")
    require(p["emoji"] in my_reactions(s, mid), "RemoveReaction: not your reaction")
    return s.replace(reactions=tuple(r for r in s.reactions if r != (mid, p["emoji"])))


def _pin(s: ChatState, p: Params, world: World) -> ChatState:
    mid = _focused(s, p, "PinMessage")
    require(not is_pinned(s, world, mid), "PinMessage: already pinned")
    return s.replace(pinned=tuple(sorted({*s.pinned, mid})),
                     unpinned=tuple(m for m in s.unpinned if m != mid))


def _unpin(s: ChatState, p: Params, world: World) -> ChatState:
    mid = _focused(s, p, "UnpinMessage")
    require(is_pinned(s, world, mid), "UnpinMessage: not pinned")
    return s.replace(pinned=tuple(m for m in s.pinned if m != mid),
                     unpinned=tuple(sorted({*s.unpinned, mid})))


def _edit(s: ChatState, p: Params, world: World) -> ChatState:
    mid = _own(s, p, world, "EditMessage")
    text = _text(p, "EditMessage")
    return s.replace(edits=(*[e for e in s.edits if e[0] != mid], (mid, text)))


def _delete(s: ChatState, p: Params, world: World) -> ChatState:
    mid = _own(s, p, world, "DeleteMessage")
    return s.replace(surface="ChannelView", focus=None, origin="channel",
                     deleted=tuple(sorted({*s.deleted, mid})))


def _mute(s: ChatState, p: Params, world: World) -> ChatState:
    require(s.surface == "ChannelView", "MuteChannel: not in a channel")
    require(p["channel"] == s.channel, "MuteChannel: not the open channel")
    return s.replace(muted=tuple(c for c in V.CHANNELS
                                 if (c in s.muted) != (c == s.channel)))


def _remind(s: ChatState, p: Params, world: World) -> ChatState:
    mid = _focused(s, p, "RemindMe")
    require(p["when"] in V.REMIND_TIMES, f"RemindMe: {p['when']!r} is not offered")
    return s.replace(reminders=(*[r for r in s.reminders if r[0] != mid], (mid, p["when"])))


_HANDLERS: dict[str, Handler[ChatState]] = {
    "OpenChannel": _open_channel, "OpenDM": _open_dm, "ShowOlderMessages": _older,
    "ShowNewerMessages": step(lambda s: s.surface == "ChannelView" and s.cpage > 1,
                              "ShowNewerMessages: not in a channel, or at the newest messages",
                              cpage=lambda s, p: s.cpage - 1),
    "OpenThread": _open_thread, "OpenResult": _open_result, "OpenMember": _open_member,
    "CloseThread": step("ThreadView", "CloseThread: no thread open", focus=None,
                        surface=lambda s, p: "SearchResults" if s.origin == "search"
                        else "ChannelView"),
    "CloseMember": step("MemberProfile", "CloseMember: no profile open",
                        surface=lambda s, p: s.back, member="", back=""),
    "SendMessage": _send, "ReplyInThread": _reply, "SendDM": _send_dm, "AddReaction": _react,
    "RemoveReaction": _unreact, "PinMessage": _pin, "UnpinMessage": _unpin,
    "EditMessage": _edit, "DeleteMessage": _delete, "MuteChannel": _mute, "RemindMe": _remind,
}
