"""Templates that start from the search box or end in another surface: the look-alike
messages span channels or authors, and the commit is a pin, a reaction, a direct message to
the author or a post in the message's channel."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.sites.chat import vocab as V
from webmdp.sites.chat.templates.common import GroupTemplate, Pin, Pins, Reacts, speaker
from webmdp.sites.chat.templates.threads import _file_pins, _keyword_pins, _mentions
from webmdp.sites.chat.world import WEEK, clock
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions


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
    detail = ("repliers",)

    def base(self, rng: random.Random) -> Entity:
        return {"channel": rng.choice(V.TASK_CHANNELS), "text": rng.choice(V.RECURRING)}

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        who = speaker(rng)
        authors = rng.sample([m for m in V.MEMBERS if m != who], k + 1)
        negs: list[Entity] = [{"author": a, "not_people": [who],
                               "reply_count": rng.randint(1, 4)} for a in authors[1:]]
        return ({"author": authors[0], "replier": who, "reply_count": rng.randint(1, 4)}, negs,
                {"member": who, "message": rng.choice(V.NEW_POSTS)})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Several people posted '{p['title']}' in #{p['channel']}. Send a direct "
                f"message '{p['message']}' to the author of the one {p['member']} replied to.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return p["member"] in e["repliers"]

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

    card = ("author", "text")
    opener = ("OpenResult", "CloseThread", "message_id")

    def base(self, rng: random.Random) -> Entity:
        return {"author": speaker(rng), "text": rng.choice(V.RECURRING)}

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("Search", {"query": p["title"]})]


class SearchPinMentioning(Pin, SearchGroup):
    """Search, then inspect results' threads: the keyword is in a reply (detail only)."""

    name = "search_pin_mentioning"
    description = "Search a message text, pin the result whose thread mentions a keyword"
    detail = ("replies",)

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        return _spread(rng, _keyword_pins(rng, k))

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Search for '{p['title']}' and pin the message from {p['author']} whose thread "
                f"mentions {p['keyword']}.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return _mentions(e, p["keyword"])


class SearchNewestReact(Reacts, SearchGroup):
    """Superlative over a card field (time posted) restricted by a detail field (who
    reacted): sorting by Newest puts the hard negatives (newer, without the member's
    reaction) first; a decoy has the reaction but is older than the target."""

    name = "search_newest_react"
    description = "Search, sort by newest, react to the newest one a member reacted to"
    detail = ("reactors",)

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

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Search for '{p['title']}' and react with :{p['emoji']}: to the most recent "
                f"one posted by {p['author']} that {p['member']} reacted to.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return any(p["member"] in names for _, names in e["reactors"])

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(self.candidates(d, world), "posted", highest=True)

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [*super().prefix(p, world), Action("SortBy", {"order": "newest"})]


class PostWhereFileShared(SearchGroup):
    """Search, find the thread that shared a file (detail only), then post in its channel."""

    name = "post_in_channel_of_thread"
    description = "Search a message text, find the thread with a file, post in its channel"
    commit_action = "SendMessage"
    detail = ("thread_files",)

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        target, negs, params = _file_pins(rng, k)
        return _spread(rng, (target, negs, {**params, "message": rng.choice(V.NEW_POSTS)}))

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"{p['author']} posted '{p['title']}' in several channels. Find the one whose "
                f"thread has {p['file']} attached and post '{p['message']}' in that channel.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return p["file"] in e["thread_files"]

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
