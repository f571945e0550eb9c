"""Building blocks shared by the Mail task templates: card-identical groups, oracles, verifiers."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites.mail import catalog as C
from webmdp.sites.mail.world import MAX_AGE
from webmdp.tasks.model import Condition
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import membership

N_THREADS = 34
OPEN = Action("OpenThread")
BACK = Action("CloseThread")


def group(rng: random.Random, base: dict, extras: list[dict]) -> tuple[dict, ...]:
    """Target (``extras[0]``) and hard negatives: identical on every card field (``base`` plus
    shared flags), distinct ages shuffled so the target's place among them varies."""
    files = rng.sample(C.ATTACHMENTS, 1) if rng.random() < 0.3 else []
    shared = {"starred": False, "labels": [], "read": rng.random() < 0.5,
              "n_earlier": rng.choice((0, 1, 2)), "attachments": files}
    ages = rng.sample(range(30, MAX_AGE // 2), len(extras))
    roles = ["target"] + ["hard_negative"] * (len(extras) - 1)
    return tuple({**shared, **base, **extra, "role": role, "age": age}
                 for extra, role, age in zip(extras, roles, ages, strict=True))


def spec(pinned: tuple[dict, ...], sender: str, subject: str) -> WorldSpec:
    """Fillers never share the group's sender and subject, so they cannot match."""
    return WorldSpec(pinned, N_THREADS - len(pinned),
                     avoid=({"from_name": sender, "subject": subject},))


def subject_sender(rng: random.Random) -> tuple[str, str]:
    """A subject and a sender for a group of similar threads."""
    return rng.choice(list(C.SUBJECTS)), rng.choice(C.PEOPLE)


def explore(d: Draft, world: World, site: Site, prefix: list[Action],
            inspect: tuple[Action, ...] = ()) -> list[Action]:
    """E.3 stages 1-2 on the thread list (see :func:`reach_and_explore`)."""
    return reach_and_explore(site, world, d, prefix, open_action=OPEN, back=BACK,
                             entity_param="thread_id", inspect=inspect)


def in_list(d: Draft, fact: str, what: str) -> list[Condition]:
    """The list fact holds the target and none of the hard negatives."""
    return membership(d, fact, what)


def labeled(d: Draft, label: str) -> list[Condition]:
    """The target carries ``label``; no hard negative does."""
    return [Condition(fact=f"labels.{d.target}", op="contains", value=label,
                      description=f"{d.target} is labelled {label!r}")] + [
        Condition(fact=f"labels.{h}", op="not_contains", value=label,
                  description=f"hard negative {h} is not labelled {label!r}")
        for h in d.hard_negatives]


def sent(d: Draft, mode: str, **fields: Any) -> list[Condition]:
    """Exactly one message was sent, of ``mode``, answering the target, with these fields."""
    out = [Condition(fact="sent.count", value=1, description="exactly one message sent"),
           Condition(fact="sent.0.mode", value=mode, description=f"it is a {mode}")]
    if mode != "new":
        out.append(Condition(fact="sent.0.thread", value=d.target,
                             description=f"it responds to {d.target}"))
    out += [Condition(fact=f"sent.0.{k}", value=v, description=f"{k} is {v!r}")
            for k, v in fields.items()]
    return out
