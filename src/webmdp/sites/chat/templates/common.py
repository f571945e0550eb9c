"""Building blocks of the Team Chat templates: a group of look-alike messages (same author,
channel and text on their cards), the E.3 oracle prefixes and the commit verifiers."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.chat import vocab as V
from webmdp.tasks.model import Condition
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions, membership

OPEN_T, CLOSE_T = Action("OpenThread"), Action("CloseThread")
OPEN_R = Action("OpenResult")
Pins = tuple[Entity, list[Entity], dict[str, Any]]
"""A template's target extras, its hard negatives' differing values, extra parameters."""


def group_spec(rng: random.Random, base: Entity, pins: Pins, avoid: tuple[Entity, ...],
               decoys: tuple[Entity, ...] = ()) -> WorldSpec:
    """The target and hard negatives on ``base``; ``decoys`` (look-alikes that satisfy the
    instruction's detail constraint but lose on its superlative) join as fillers."""
    target, negatives, _ = pins
    group = pin_group(rng, {**base, "pinned": False}, target, negatives)
    extra = tuple({**base, **d, "role": "filler"} for d in decoys)
    return WorldSpec((*group, *extra), 0, avoid)


def speaker(rng: random.Random, *, exclude: tuple[str, ...] = ()) -> str:
    return rng.choice([m for m in V.MEMBERS if m not in exclude])


class GroupTemplate(TaskTemplate):
    """A message posted again and again (one of ``vocab.RECURRING``): the target and its hard
    negatives share the card values the instruction names; the thread tells them apart."""

    card: tuple[str, ...] = ("author", "channel", "text")
    detail: tuple[str, ...] = ()
    compare = False
    """Comparisons open every look-alike; other templates stop at the target."""
    own = False
    """The group is the signed-in user's own messages (edits, deletions)."""

    def pins(self, rng: random.Random, k: int, base: Entity) -> Pins:
        raise NotImplementedError

    def sentence(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def decoys(self, rng: random.Random, pins: Pins) -> tuple[Entity, ...]:
        return ()

    def accept(self, d: Draft, e: Entity) -> bool:
        raise NotImplementedError

    def base(self, rng: random.Random) -> Entity:
        author = V.ME if self.own else speaker(rng)
        return {"author": author, "channel": rng.choice(V.TASK_CHANNELS),
                "text": rng.choice(V.RECURRING)}

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        base = self.base(rng)
        pins = self.pins(rng, hard_negatives, base)
        decoys = self.decoys(rng, pins)
        named: dict[str, Any] = {k: base[k] for k in ("author", "channel") if k in base}
        params = {"title": base["text"], **named, **pins[2]}
        avoid: tuple[Entity, ...] = ({k: base[k] for k in ("channel", "text") if k in base},)
        return Draft(instruction=self.sentence(params), params=params,
                     spec=group_spec(rng, base, pins, avoid, decoys),
                     card_fields=self.card, detail_fields=self.detail)

    def candidates(self, d: Draft, world: World) -> list[Entity]:
        p = d.params
        return [e for e in world.entities.values() if e["text"] == p["title"]
                and all(e[k] == p[k] for k in ("author", "channel") if k in p)]

    def matches(self, d: Draft, world: World) -> list[str]:
        return [e["id"] for e in self.candidates(d, world) if self.accept(d, e)]

    def reach(self, d: Draft, world: World, site: Site) -> list[Action]:
        """Open the channel, inspect the look-alike threads above the target (all of them
        for a comparison), then open the target's thread."""
        prefix = [Action("OpenChannel", {"channel": d.params["channel"]})]
        return reach_and_explore(site, world, d, prefix, open_action=OPEN_T, back=CLOSE_T,
                                 entity_param="message_id", all_negatives=self.compare)

    def commit(self, d: Draft, world: World) -> list[Action]:
        raise NotImplementedError

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*self.reach(d, world, site), *self.commit(d, world)]


def search_reach(site: Site, world: World, d: Draft, *, before: tuple[Action, ...] = (),
                 compare: bool = False) -> list[Action]:
    """Search the message text, inspect look-alike results above the target, open it."""
    prefix = [Action("Search", {"query": d.params["title"]}), *before]
    return reach_and_explore(site, world, d, prefix, open_action=OPEN_R, back=CLOSE_T,
                             entity_param="message_id", all_negatives=compare)


def ref(d: Draft, **params: Any) -> dict[str, Any]:
    return {"message_id": d.target, **params}


def reacted(d: Draft) -> list[Condition]:
    return [*membership(d, "reacted", "reacted to"),
            Condition(fact=f"reaction.{d.target}.emoji", op="contains",
                      value=d.params["emoji"], description=f"emoji is {d.params['emoji']!r}")]


def replied(d: Draft) -> list[Condition]:
    return [*membership(d, "replied", "replied to"),
            *commit_conditions(f"reply.{d.target}", {"text": d.params["reply"]}, "reply")]
