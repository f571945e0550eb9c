"""Building blocks of the Team Chat templates: a group of look-alike messages (same author,
channel and text on their cards), the E.3 oracle prefixes and the commit verifiers."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.templates import PinnedTemplate
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.chat import vocab as V
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
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

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return (e["text"] == p["title"] and all(e[k] == p[k] for k in ("author", "channel")
                                                if k in p) and self.accept(e, p))

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("OpenChannel", {"channel": p["channel"]})]


def ref(d: Draft, **params: Any) -> dict[str, Any]:
    return {"message_id": d.target, **params}


class Reacts:
    """Commit: a reaction with the instruction's emoji on the target."""

    commit_action: ClassVar[str] = "AddReaction"

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("AddReaction", ref(d, emoji=d.params["emoji"]))]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "reacted", "reacted to"),
                Condition(fact=f"reaction.{d.target}.emoji", op="contains",
                          value=d.params["emoji"], description=f"emoji is {d.params['emoji']!r}")]


class Replies:
    """Commit: the instruction's reply in the target's thread."""

    commit_action: ClassVar[str] = "ReplyInThread"

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("ReplyInThread", {"text": d.params["reply"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "replied", "replied to"),
                *commit_conditions(f"reply.{d.target}", {"text": d.params["reply"]}, "reply")]


class Pin:
    """Commit: pin the target."""

    commit_action: ClassVar[str] = "PinMessage"

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("PinMessage", ref(d))]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return membership(d, "pinned", "pinned")
