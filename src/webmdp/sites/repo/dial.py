"""Code Repo's dial-only templates: a repository chore in the Platform Management/Ops domain
(D5, the site's own) that is a look-up (WebForge's Reasoning/Calc L1: one field names the
repository) committed on the repository's own page, so that in the dial's ``commits`` segment
(sparse worlds, small pages, a confirmation before each commit: :mod:`webmdp.tasks.dial`) it
measures at level 1. The built-in D5 templates act on an issue or pull request three pages
deep and match it on two fields, so none of them reaches level 1."""

from __future__ import annotations

import random
import sys
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.sites._common.templates import Group, collect
from webmdp.sites._common.worldgen import others
from webmdp.sites.repo import vocab as V
from webmdp.sites.repo.templates import RepoTemplate
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions


class WatchNamed(RepoTemplate):
    """Set the notification level of the repository the instruction names; the hard
    negatives share the first word of its name, so the search lists them beside it."""

    name = "watch_named_repo"
    description = "Search a repository by name and set its notification level"
    dial_segment = "commits"  # added after the site's stream was published
    commit_action, commit_with = "WatchRepo", {"level": "level"}
    ids, card, narrow = "REPO-", ("name", "description"), ("repo",)
    wants = {"name": "repo"}
    sentence = "Set your notifications for the {repo} repository to '{level}'."

    def group(self, rng: random.Random, k: int) -> Group:
        head, tail = rng.choice(V.NAME_HEADS), rng.choice(V.NAME_TAILS)
        negs = [{"name": f"{head}-{t}"} for t in others(rng, V.NAME_TAILS, tail, k)]
        return ({}, {"name": f"{head}-{tail}"}, negs, (),
                {"repo": f"{head}-{tail}", "level": rng.choice(V.WATCH_LEVELS)})

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ({"name": p["repo"]},)

    def words(self, p: dict[str, Any]) -> dict[str, Any]:
        return {**p, "level": V.WATCH_LABELS[p["level"]]}

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*commit_conditions("watch", {d.target: d.params["level"]}, "watch level of"),
                *(Condition(fact=f"watch.{h}", op="eq", value=None,
                            description=f"hard negative {h} is not watched")
                  for h in d.hard_negatives)]


DIAL_TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
