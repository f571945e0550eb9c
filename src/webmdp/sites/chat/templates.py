"""Team Chat task templates (WebSTEP H.1 style), 12 families of 15 tasks.

Building blocks of the Team Chat templates: a group of look-alike messages (same author,
channel and text on their cards), the E.3 oracle prefixes and the commit verifiers."""

from __future__ import annotations

import random
import sys
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.templates import TARGET, PinnedTemplate, collect
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.chat import vocab as V
from webmdp.sites.chat.world import WEEK, WORKDAY, clock
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions, membership

Pins = tuple[Entity, list[Entity], dict[str, Any]]
"""A template's target extras, its hard negatives' differing values, extra parameters."""


def speaker(rng: random.Random, *, exclude: tuple[str, ...] = ()) -> str:
    return rng.choice([m for m in V.MEMBERS if m not in exclude])


class GroupTemplate(PinnedTemplate):
    """A message posted again and again (one of ``vocab.RECURRING``): the target and its hard
    negatives share the card values the instruction names; the thread tells them apart. The
    oracle opens the channel, inspects the look-alike threads above the target (all of them for
    a comparison), then opens the target's thread."""

    card: tuple[str, ...] = ("author", "channel", "text")
    opener = ("OpenThread", "CloseThread", "message_id")
    by = {"channel": lambda p: Action("OpenChannel", {"channel": p["channel"]}),
          "search": lambda p: Action("Search", {"query": p["title"]})}
    narrow = ("channel",)
    own = False
    """The group is the signed-in user's own messages (edits, deletions)."""

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        raise NotImplementedError

    def decoys(self, rng: random.Random, pins: Pins) -> tuple[Entity, ...]:
        """Look-alikes that satisfy the instruction's detail constraint but lose on its
        superlative; they join as fillers."""
        return ()

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return True

    def base(self, rng: random.Random) -> Entity:
        author = V.ME if self.own else speaker(rng)
        return {"author": author, "channel": rng.choice(V.TASK_CHANNELS),
                "text": rng.choice(V.RECURRING)}

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        base = self.base(rng)
        target, negatives, extra = self.pins(rng, hard_negatives, base)
        decoys = self.decoys(rng, (target, negatives, extra))
        named: dict[str, Any] = {k: base[k] for k in ("author", "channel") if k in base}
        params = {"title": base["text"], **named, **extra}
        avoid: tuple[Entity, ...] = ({k: base[k] for k in ("channel", "text") if k in base},)
        group = pin_group(rng, {**base, "pinned": False}, target, negatives)
        fill = tuple({**base, **d, "role": "filler"} for d in decoys)
        return self.compose(params, WorldSpec((*group, *fill), 0, avoid))

    def criteria(self, p: dict[str, Any]) -> dict[str, Any]:
        """The group's text and named author and channel, and what ``wants`` asks."""
        named: dict[str, Any] = {k: p[k] for k in ("author", "channel") if k in p}
        return {"text": p["title"], **named, **super().criteria(p)}

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return super().fits(e, p) and self.accept(e, p)


class Reacts(PinnedTemplate):
    """Commit: a reaction with the instruction's emoji on the target."""

    commit_action, commit_with = "AddReaction", {"message_id": TARGET, "emoji": "emoji"}

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "reacted", "reacted to"),
                Condition(fact=f"reaction.{d.target}.emoji", op="contains",
                          value=d.params["emoji"], description=f"emoji is {d.params['emoji']!r}")]


class Replies(PinnedTemplate):
    """Commit: the instruction's reply in the target's thread."""

    commit_action, commit_with = "ReplyInThread", {"text": "reply"}
    marked, stored = ("replied", "replied to"), ("reply.{}", "reply")


class Pin(PinnedTemplate):
    """Commit: pin the target."""

    commit_action, commit_with = "PinMessage", {"message_id": TARGET}
    marked = ("pinned", "pinned")


# Templates inside one channel: the user opens the threads of look-alike messages and commits
# on the one the instruction describes (reply, reaction, pin, reminder, edit, deletion).
def _mentions(e: Entity, keyword: str) -> bool:
    return any(keyword in r[1] for r in e["replies"])


def _keyword_pins(rng: random.Random, k: int) -> Pins:
    kw = rng.choice(V.KEYWORDS)
    negs = [{"keyword": o, "reply_count": rng.randint(1, 4)}
            for o in rng.choices([w for w in V.KEYWORDS if w != kw], k=k)]
    return {"keyword": kw, "reply_count": rng.randint(2, 4)}, negs, {"keyword": kw}


def _file_pins(rng: random.Random, k: int) -> Pins:
    file = rng.choice(V.FILES)
    negs: list[Entity] = [{"file": rng.choice([*(f for f in V.FILES if f != file), None]),
                           "reply_count": rng.randint(1, 4)} for _ in range(k)]
    return {"file": file, "reply_count": rng.randint(2, 4)}, negs, {"file": file}


def _reactor_pins(rng: random.Random, k: int, base: Entity) -> Pins:
    who = speaker(rng, exclude=(base["author"],))
    negs: list[Entity] = [{"not_people": [who]} for _ in range(k)]
    return {"reactor": who}, negs, {"member": who}


class ReplyMentioning(Replies, GroupTemplate):
    """Detail-only target: the keyword is in a reply, visible only in the thread pane."""

    name = "reply_thread_mentions"
    description = "Open look-alike threads, reply in the one whose replies mention a keyword"
    detail = ("replies",)
    sentence = ("In #{channel}, {author} posted several '{title}' messages. Reply '{reply}' in the "
                "thread that mentions {keyword}.")

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        target, negs, params = _keyword_pins(rng, k)
        return target, negs, {**params, "reply": rng.choice(V.NEW_POSTS)}

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return _mentions(e, p["keyword"])


class ReactToFileThread(Reacts, GroupTemplate):
    """Detail-only target: the file shared in the thread."""

    name = "react_thread_with_file"
    description = "Open look-alike threads, react to the one where a file was shared"
    detail, wants = ("thread_files",), {"thread_files": "file"}
    sentence = ("{author} posted '{title}' in #{channel} more than once. React with :{emoji}: to "
                "the one whose thread has {file} attached.")

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        target, negs, params = _file_pins(rng, k)
        return target, negs, {**params, "emoji": rng.choice(V.EMOJI_NAMES)}


class PinReactedBy(Pin, GroupTemplate):
    """Detail-only target: who reacted (the card shows only emoji counts)."""

    name = "pin_reacted_by"
    description = "Open look-alike threads, pin the one a given member reacted to"
    detail = ("reactors",)
    sentence = "Pin {author}'s '{title}' message in #{channel} that {member} reacted to."

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        return _reactor_pins(rng, k, base)

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return any(p["member"] in names for _, names in e["reactors"])


class RemindRepliedBy(GroupTemplate):
    """Detail-only target: who replied in the thread; the reminder time is a second
    parameter (``commit_timing``)."""

    name = "remind_replied_by"
    description = "Open look-alike threads, set a reminder on the one a member replied to"
    commit_action, commit_with = "RemindMe", {"message_id": TARGET, "when": "when"}
    marked, stored = ("reminded", "reminded about"), ("reminder.{}", "reminder")
    detail, wants = ("repliers",), {"repliers": "member"}
    sentence = ("Set a reminder '{when}' for {author}'s '{title}' message in #{channel} that "
                "{member} replied to.")

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        who = speaker(rng, exclude=(base["author"],))
        negs: list[Entity] = [{"not_people": [who], "reply_count": rng.randint(1, 4)}
                              for _ in range(k)]
        return ({"replier": who, "reply_count": rng.randint(1, 4)}, negs,
                {"member": who, "when": rng.choice(V.REMIND_TIMES)})


class MostReplies(Reacts, GroupTemplate):
    """Superlative over a card field (reply count) restricted by a detail field (who
    replied): the hard negatives have more replies but not the member's; a decoy has the
    member's reply but fewer replies."""

    name = "react_most_replies"
    description = "Among threads a member replied to, react to the one with the most replies"
    detail, wants = ("repliers",), {"repliers": "member"}
    sentence = ("Of {author}'s '{title}' messages in #{channel} that {member} replied to, react "
                "with :{emoji}: to the one with the most replies.")
    best_by, highest = "reply_count", True

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        who = speaker(rng, exclude=(base["author"],))
        counts = sorted(rng.sample(range(1, 10), k + 2), reverse=True)
        negs: list[Entity] = [{"reply_count": c, "not_people": [who]} for c in counts[:k]]
        return ({"reply_count": counts[k], "replier": who}, negs,
                {"member": who, "emoji": rng.choice(V.EMOJI_NAMES), "fewer": counts[k + 1]})

    def decoys(self, rng: random.Random, pins: Pins) -> tuple[Entity, ...]:
        p = pins[2]
        return ({"reply_count": p.pop("fewer"), "replier": p["member"]},)


class LatestReply(Replies, GroupTemplate):
    """Comparison over a detail field: the last reply's time is only in the thread pane."""

    name = "reply_latest_thread"
    description = "Compare look-alike threads' last replies, reply in the most recent one"
    detail = ("last_reply",)
    compare = True
    sentence = ("{author} started several '{title}' threads in #{channel}. Reply '{reply}' in the "
                "one with the most recent reply.")
    best_by, highest = "last_reply", True

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        posted = [clock(t) for t in rng.sample(range(0, 2 * WORKDAY - 60), k + 1)]
        last = [clock(t) for t in sorted(rng.sample(range(2 * WORKDAY, WEEK), k + 1),
                                         reverse=True)]
        negs = [{"posted": p, "last_reply": t, "reply_count": rng.randint(1, 4)}
                for p, t in zip(posted[1:], last[1:], strict=True)]
        return ({"posted": posted[0], "last_reply": last[0], "reply_count": rng.randint(1, 4)},
                negs, {"reply": rng.choice(V.NEW_POSTS)})


class EditOwnMentioning(ReplyMentioning):
    """The user's own look-alike messages; the thread's keyword picks the one to edit."""

    name = "edit_own_message"
    description = "Open your look-alike threads, edit the one whose replies mention a keyword"
    commit_action, commit_with = "EditMessage", {"message_id": TARGET, "text": "reply"}
    marked, stored = ("edited", "edited"), ("edit.{}", "edit")
    own = True
    sentence = ("You posted '{title}' in #{channel} several times. Edit the one whose thread "
                "mentions {keyword} so that it reads '{reply}'.")


class DeleteOwnReactedBy(PinReactedBy):
    """The user's own look-alike messages; who reacted picks the one to delete."""

    name = "delete_own_reacted_by"
    description = "Open your look-alike threads, delete the one a member reacted to"
    commit_action, marked = "DeleteMessage", ("deleted", "deleted")
    own = True
    sentence = "Delete your '{title}' message in #{channel} that {member} reacted to."


# Templates that start from the search box or end in another surface: the look-alike
# messages span channels or authors, and the commit is a pin, a reaction, a direct message to
# the author or a post in the message's channel.
def _spread(rng: random.Random, pins: Pins) -> Pins:
    """Put the target and each hard negative in a channel of its own."""
    target, negs, params = pins
    where = rng.sample(V.TASK_CHANNELS, len(negs) + 1)
    return ({**target, "channel": where[0]},
            [{**n, "channel": c} for n, c in zip(negs, where[1:], strict=True)], params)


class DmAuthorRepliedBy(GroupTemplate):
    """Different people posted the same text; who replied picks the message, and the commit
    is a direct message to its author (member profile, then Message)."""

    name = "dm_author_replied_by"
    description = "Open look-alike threads, DM the author of the one a member replied to"
    commit_action = "SendDM"
    card = ("channel", "text")
    detail, wants = ("repliers",), {"repliers": "member"}
    sentence = ("Several people posted '{title}' in #{channel}. Send a direct message '{message}' "
                "to the author of the one {member} replied to.")

    def base(self, rng: random.Random) -> Entity:
        return {"channel": rng.choice(V.TASK_CHANNELS), "text": rng.choice(V.RECURRING)}

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        who = speaker(rng)
        authors = rng.sample([m for m in V.MEMBERS if m != who], k + 1)
        negs: list[Entity] = [{"author": a, "not_people": [who],
                               "reply_count": rng.randint(1, 4)} for a in authors[1:]]
        return ({"author": authors[0], "replier": who, "reply_count": rng.randint(1, 4)}, negs,
                {"member": who, "message": rng.choice(V.NEW_POSTS)})

    def commit(self, d: Draft, world: World) -> list[Action]:
        author = world.entities[d.target]["author"]
        return [Action("OpenMember", {"member": author}), Action("OpenDM", {"member": author}),
                Action("SendDM", {"text": d.params["message"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        author = world.entities[d.target]["author"]
        return [*commit_conditions(f"dm.{author}", {"text": d.params["message"]},
                                   f"DM to {author}"),
                *(Condition(fact="dm_to", op="not_contains", value=a,
                            description=f"no DM to {a} (author of a hard negative)")
                  for a in (world.entities[h]["author"] for h in d.hard_negatives))]


class SearchGroup(GroupTemplate):
    """One author's look-alike messages across channels, reached through the search box:
    search the message text, inspect look-alike results above the target, open it."""

    card, narrow = ("author", "text"), ("search",)
    opener = ("OpenResult", "CloseThread", "message_id")

    def base(self, rng: random.Random) -> Entity:
        return {"author": speaker(rng), "text": rng.choice(V.RECURRING)}


class SearchPinMentioning(Pin, SearchGroup):
    """Search, then inspect results' threads: the keyword is in a reply (detail only)."""

    name = "search_pin_mentioning"
    description = "Search a message text, pin the result whose thread mentions a keyword"
    detail = ("replies",)
    sentence = ("Search for '{title}' and pin the message from {author} whose thread mentions "
                "{keyword}.")

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        return _spread(rng, _keyword_pins(rng, k))

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return _mentions(e, p["keyword"])


class SearchNewestReact(Reacts, SearchGroup):
    """Superlative over a card field (time posted) restricted by a detail field (who
    reacted): sorting by Newest puts the hard negatives (newer, without the member's
    reaction) first; a decoy has the reaction but is older than the target."""

    name = "search_newest_react"
    description = "Search, sort by newest, react to the newest one a member reacted to"
    detail, order = ("reactors",), "newest"
    sentence = ("Search for '{title}' and react with :{emoji}: to the most recent one posted by "
                "{author} that {member} reacted to.")
    best_by, highest = "posted", True

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        who = speaker(rng, exclude=(base["author"],))
        times = [clock(t) for t in sorted(rng.sample(range(0, WEEK - 240), k + 2),
                                          reverse=True)]
        negs: list[Entity] = [{"posted": t, "channel": rng.choice(V.TASK_CHANNELS),
                               "not_people": [who]} for t in times[:k]]
        return ({"posted": times[k], "channel": rng.choice(V.TASK_CHANNELS), "reactor": who},
                negs, {"member": who, "emoji": rng.choice(V.EMOJI_NAMES),
                       "older": times[k + 1]})

    def decoys(self, rng: random.Random, pins: Pins) -> tuple[Entity, ...]:
        p = pins[2]
        return ({"posted": p.pop("older"), "channel": rng.choice(V.TASK_CHANNELS),
                 "reactor": p["member"]},)

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return any(p["member"] in names for _, names in e["reactors"])


class PostWhereFileShared(SearchGroup):
    """Search, find the thread that shared a file (detail only), then post in its channel."""

    name = "post_in_channel_of_thread"
    description = "Search a message text, find the thread with a file, post in its channel"
    commit_action = "SendMessage"
    detail, wants = ("thread_files",), {"thread_files": "file"}
    sentence = ("{author} posted '{title}' in several channels. Find the one whose thread has "
                "{file} attached and post '{message}' in that channel.")

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        target, negs, params = _file_pins(rng, k)
        return _spread(rng, (target, negs, {**params, "message": rng.choice(V.NEW_POSTS)}))

    def commit(self, d: Draft, world: World) -> list[Action]:
        channel = world.entities[d.target]["channel"]
        return [Action("OpenChannel", {"channel": channel}),
                Action("SendMessage", {"text": d.params["message"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        channel = world.entities[d.target]["channel"]
        return [*commit_conditions(f"post.{channel}", {"text": d.params["message"]},
                                   f"post in #{channel}"),
                *(Condition(fact="posted_in", op="not_contains", value=c,
                            description=f"nothing posted in #{c} (a hard negative's channel)")
                  for c in (world.entities[h]["channel"] for h in d.hard_negatives))]


TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
