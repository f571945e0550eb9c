"""What each Team Chat surface shows and offers, and the verifier's facts."""

from __future__ import annotations

from typing import Any

from webmdp.core.model import Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.sites._common.handlers import grouped, keyed, observation, surfaces, view
from webmdp.sites.chat import vocab as V
from webmdp.sites.chat.catalog import CATALOG, PEOPLE
from webmdp.sites.chat.mdp import (
    channel_page,
    channel_pages,
    is_pinned,
    my_reactions,
)
from webmdp.sites.chat.state import ChatState
from webmdp.sites.chat.world import CARD_FIELDS, DETAIL_FIELDS, when

SURFACES = surfaces(
    ChannelView=(SurfaceKind.CARD, "channel sidebar, messages, composer"),
    SearchResults=(SurfaceKind.CARD, "matching messages, In / From, sort"),
    ThreadView=(SurfaceKind.DETAIL, "thread pane: parent, replies, actions"),
    DirectMessageView=(SurfaceKind.COMMIT, "a direct conversation"),
    MemberProfile=(SurfaceKind.OTHER, "a member's profile pane"),
)
SIDEBAR = ("ChannelView", "SearchResults", "ThreadView", "DirectMessageView")


def available(s: ChatState, world: World) -> tuple[Action, ...]:
    surf = s.surface
    out: list[Action] = []
    if surf in SIDEBAR:
        out.append(Action("Search"))
        out += [Action("OpenChannel", {"channel": c}) for c in V.CHANNELS]
        out += [Action("OpenDM", {"member": m}) for m in V.MEMBERS]
    if surf in ("ChannelView", "ThreadView"):
        page = channel_page(world, s.channel, s.cpage)
        out += [Action("OpenThread", {"message_id": m}) for m in page if m not in s.deleted]
        out += [Action("OpenMember", {"member": m})
                for m in dict.fromkeys(world.entities[i]["author"] for i in page)]
    if surf == "ChannelView":
        if s.cpage < channel_pages(world, s.channel):
            out.append(Action("ShowOlderMessages"))
        if s.cpage > 1:
            out.append(Action("ShowNewerMessages"))
        out += [Action("MuteChannel", {"channel": s.channel}), Action("SendMessage")]
    elif surf == "SearchResults":
        out += CATALOG.available(s, world)
        out += [Action("OpenResult", {"message_id": m}) for m in CATALOG.visible(world, s)
                if m not in s.deleted]
    elif surf == "ThreadView":
        out += _message_actions(s, world, s.focus or "")
    elif surf == "MemberProfile":
        out.append(Action("CloseMember"))
        if s.member in V.MEMBERS:
            out.append(Action("OpenDM", {"member": s.member}))
    elif surf == "DirectMessageView":
        out.append(Action("SendDM"))
    unique = {(a.name, tuple(sorted(a.params.items()))): a for a in out}
    return tuple(unique.values())


def _message_actions(s: ChatState, world: World, mid: str) -> list[Action]:
    ref = {"message_id": mid}
    mine = my_reactions(s, mid)
    out = [Action("CloseThread"), Action("ReplyInThread")]
    out += [Action("OpenMember", {"member": r[0]}) for r in world.entities[mid]["replies"]]
    out += [Action("AddReaction", {**ref, "emoji": e}) for e in V.EMOJI_NAMES if e not in mine]
    out += [Action("RemoveReaction", {**ref, "emoji": e}) for e in mine]
    out.append(Action("UnpinMessage" if is_pinned(s, world, mid) else "PinMessage", ref))
    out += [Action("RemindMe", {**ref, "when": w}) for w in V.REMIND_TIMES]
    if world.entities[mid]["author"] == V.ME:
        out += [Action("EditMessage", ref), Action("DeleteMessage", ref)]
    return out


def observe(s: ChatState, world: World) -> Observation:
    surf = s.surface
    ctx: dict[str, Any] = {
        "channel": s.channel, "channels": list(V.CHANNELS), "members": list(V.MEMBERS),
        "me": V.ME, "today": V.TODAY, "muted": list(s.muted), "query": s.query,
        "topic": V.TOPICS[s.channel], "colors": dict(zip(PEOPLE, V.COLORS, strict=True)),
        "titles": V.TITLES, "emoji": V.EMOJI, "remind_times": list(V.REMIND_TIMES),
    }
    ids: tuple[str, ...] = ()
    if surf in ("ChannelView", "ThreadView", "MemberProfile"):
        ids = channel_page(world, s.channel, s.cpage)
        ctx.update(older=s.cpage < channel_pages(world, s.channel), newer=s.cpage > 1,
                   posts=[t for c, t in s.posts if c == s.channel])
    elif surf == "SearchResults":
        ids = CATALOG.visible(world, s)
        ctx.update(CATALOG.context(s, world))
    opened = s.focus if surf == "ThreadView" else None
    views = [view(world, m, CARD_FIELDS + (DETAIL_FIELDS if m == opened else ())) for m in ids]
    if surf == "ThreadView" and s.focus not in ids:
        views.append(view(world, s.focus or "", CARD_FIELDS + DETAIL_FIELDS))
    shown = [v.id for v in views]
    ctx.update(
        focus=s.focus, member=s.member, origin=s.origin,
        when={m: when(world.entities[m]["posted"]) for m in shown},
        reply_when={m: [when(r[2]) for r in world.entities[m]["replies"]] for m in shown},
        last_reply_when={m: when(world.entities[m]["last_reply"])
                         for m in shown if world.entities[m]["last_reply"]},
        pinned=[m for m in shown if is_pinned(s, world, m)],
        mine={m: my_reactions(s, m) for m in shown},
        edited={m: t for m, t in s.edits if m in shown},
        deleted=[m for m in shown if m in s.deleted],
        my_replies={m: [t for mm, t in s.replies if mm == m] for m in shown},
        reminders={m: w for m, w in s.reminders if m in shown},
        dm_history=_dm_history(s) if surf == "DirectMessageView" else [],
    )
    return observation(s, SURFACES, views, available(s, world), ctx)


def _dm_history(s: ChatState) -> list[list[str]]:
    """The conversation so far: a fixed opener from the member, then what you sent."""
    i = V.MEMBERS.index(s.member)
    opener = V.FILLER_TEXTS[(i * 5) % len(V.FILLER_TEXTS)]
    return [[s.member, opener, "Thu 4:12 PM"], *([V.ME, t, "Today"] for m, t in s.dms
                                                   if m == s.member)]


def facts(s: ChatState) -> dict[str, Any]:
    """Per message: your last reply, reactions, pin, edit, reminder; per channel / member:
    the last message you posted / sent; lists of every message you touched."""
    return {
        "surface": s.surface, "replied": [m for m, _ in s.replies],
        "reacted": list(dict.fromkeys(m for m, _ in s.reactions)),
        "pinned": list(s.pinned), "unpinned": list(s.unpinned), "deleted": list(s.deleted),
        "edited": [m for m, _ in s.edits], "muted": list(s.muted),
        "reminded": [m for m, _ in s.reminders], "posted_in": [c for c, _ in s.posts],
        "dm_to": [m for m, _ in s.dms], **keyed("reply.{}.text", s.replies),
        **grouped("reaction.{}.emoji", s.reactions), **keyed("edit.{}.text", s.edits),
        **keyed("reminder.{}.when", s.reminders), **keyed("post.{}.text", s.posts),
        **keyed("dm.{}.text", s.dms),
    }
