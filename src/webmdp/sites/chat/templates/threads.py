"""Templates inside one channel: the user opens the threads of look-alike messages and commits
on the one the instruction describes (reply, reaction, pin, reminder, edit, deletion)."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.sites.chat import vocab as V
from webmdp.sites.chat.templates.common import (
    GroupTemplate,
    Pin,
    Pins,
    Reacts,
    Replies,
    ref,
    speaker,
)
from webmdp.sites.chat.world import WEEK, WORKDAY, clock
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions, membership


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

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        target, negs, params = _keyword_pins(rng, k)
        return target, negs, {**params, "reply": rng.choice(V.NEW_POSTS)}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"In #{p['channel']}, {p['author']} posted several '{p['title']}' messages. "
                f"Reply '{p['reply']}' in the thread that mentions {p['keyword']}.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return _mentions(e, p["keyword"])


class ReactToFileThread(Reacts, GroupTemplate):
    """Detail-only target: the file shared in the thread."""

    name = "react_thread_with_file"
    description = "Open look-alike threads, react to the one where a file was shared"
    detail = ("thread_files",)

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        target, negs, params = _file_pins(rng, k)
        return target, negs, {**params, "emoji": rng.choice(V.EMOJI_NAMES)}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"{p['author']} posted '{p['title']}' in #{p['channel']} more than once. "
                f"React with :{p['emoji']}: to the one whose thread has {p['file']} attached.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return p["file"] in e["thread_files"]


class PinReactedBy(Pin, GroupTemplate):
    """Detail-only target: who reacted (the card shows only emoji counts)."""

    name = "pin_reacted_by"
    description = "Open look-alike threads, pin the one a given member reacted to"
    detail = ("reactors",)

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        return _reactor_pins(rng, k, base)

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Pin {p['author']}'s '{p['title']}' message in #{p['channel']} that "
                f"{p['member']} reacted to.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return any(p["member"] in names for _, names in e["reactors"])


class RemindRepliedBy(GroupTemplate):
    """Detail-only target: who replied in the thread; the reminder time is a second
    parameter (``commit_timing``)."""

    name = "remind_replied_by"
    description = "Open look-alike threads, set a reminder on the one a member replied to"
    commit_action = "RemindMe"
    detail = ("repliers",)

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        who = speaker(rng, exclude=(base["author"],))
        negs: list[Entity] = [{"not_people": [who], "reply_count": rng.randint(1, 4)}
                              for _ in range(k)]
        return ({"replier": who, "reply_count": rng.randint(1, 4)}, negs,
                {"member": who, "when": rng.choice(V.REMIND_TIMES)})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Set a reminder '{p['when']}' for {p['author']}'s '{p['title']}' message in "
                f"#{p['channel']} that {p['member']} replied to.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return p["member"] in e["repliers"]

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("RemindMe", ref(d, when=d.params["when"]))]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "reminded", "reminded about"),
                *commit_conditions(f"reminder.{d.target}", {"when": d.params["when"]},
                                   "reminder")]


class MostReplies(Reacts, GroupTemplate):
    """Superlative over a card field (reply count) restricted by a detail field (who
    replied): the hard negatives have more replies but not the member's; a decoy has the
    member's reply but fewer replies."""

    name = "react_most_replies"
    description = "Among threads a member replied to, react to the one with the most replies"
    detail = ("repliers",)

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        who = speaker(rng, exclude=(base["author"],))
        counts = sorted(rng.sample(range(1, 10), k + 2), reverse=True)
        negs: list[Entity] = [{"reply_count": c, "not_people": [who]} for c in counts[:k]]
        return ({"reply_count": counts[k], "replier": who}, negs,
                {"member": who, "emoji": rng.choice(V.EMOJI_NAMES), "fewer": counts[k + 1]})

    def decoys(self, rng: random.Random, pins: Pins) -> tuple[Entity, ...]:
        p = pins[2]
        return ({"reply_count": p.pop("fewer"), "replier": p["member"]},)

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Of {p['author']}'s '{p['title']}' messages in #{p['channel']} that "
                f"{p['member']} replied to, react with :{p['emoji']}: to the one with the most "
                "replies.")

    def accept(self, e: Entity, p: dict[str, Any]) -> bool:
        return p["member"] in e["repliers"]

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(self.candidates(d, world), "reply_count", highest=True)


class LatestReply(Replies, GroupTemplate):
    """Comparison over a detail field: the last reply's time is only in the thread pane."""

    name = "reply_latest_thread"
    description = "Compare look-alike threads' last replies, reply in the most recent one"
    detail = ("last_reply",)
    compare = True

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        posted = [clock(t) for t in rng.sample(range(0, 2 * WORKDAY - 60), k + 1)]
        last = [clock(t) for t in sorted(rng.sample(range(2 * WORKDAY, WEEK), k + 1),
                                         reverse=True)]
        negs = [{"posted": p, "last_reply": t, "reply_count": rng.randint(1, 4)}
                for p, t in zip(posted[1:], last[1:], strict=True)]
        return ({"posted": posted[0], "last_reply": last[0], "reply_count": rng.randint(1, 4)},
                negs, {"reply": rng.choice(V.NEW_POSTS)})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"{p['author']} started several '{p['title']}' threads in #{p['channel']}. "
                f"Reply '{p['reply']}' in the one with the most recent reply.")

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(self.candidates(d, world), "last_reply", highest=True)


class EditOwnMentioning(ReplyMentioning):
    """The user's own look-alike messages; the thread's keyword picks the one to edit."""

    name = "edit_own_message"
    description = "Open your look-alike threads, edit the one whose replies mention a keyword"
    commit_action = "EditMessage"
    own = True

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"You posted '{p['title']}' in #{p['channel']} several times. Edit the one whose "
                f"thread mentions {p['keyword']} so that it reads '{p['reply']}'.")

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("EditMessage", ref(d, text=d.params["reply"]))]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "edited", "edited"),
                *commit_conditions(f"edit.{d.target}", {"text": d.params["reply"]}, "edit")]


class DeleteOwnReactedBy(PinReactedBy):
    """The user's own look-alike messages; who reacted picks the one to delete."""

    name = "delete_own_reacted_by"
    description = "Open your look-alike threads, delete the one a member reacted to"
    commit_action = "DeleteMessage"
    own = True

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Delete your '{p['title']}' message in #{p['channel']} that {p['member']} "
                "reacted to.")

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("DeleteMessage", ref(d))]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return membership(d, "deleted", "deleted")

