"""Building blocks shared by the Coding Q&A templates: a pinned question group (target and
hard negatives on one topic), the E.3 oracle and the vote / comment / answer verifiers."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.templates import Group, PinnedTemplate
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.qa import vocab as V
from webmdp.sites.qa.mdp import answer_order, answers_to
from webmdp.sites.qa.world import N_QUESTIONS
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions, membership

ANSWER_TEXTS: tuple[str, ...] = (
    "Pin the dependency to the previous minor version until the fix is released.",
    "Move the call out of the loop and cache its result in a local variable.",
    "Check that the path is absolute; relative paths resolve from the working directory.",
    "Wrap the call in a try block and log the full traceback to see the real cause.",
    "Clear the build cache and rebuild; the stale artefact still has the old signature.",
)
COMMENT_TEXTS: tuple[str, ...] = (
    "Could you add the full stack trace?", "Which version did you test this on?",
    "This fixed it for me, thanks!", "Please include a minimal reproducible example.",
    "Does this still happen with the latest release?",
)


def dates(rng: random.Random, year: str, n: int) -> list[str]:
    """``n`` distinct ISO dates of ``year``, ascending."""
    days = sorted(rng.sample(range(1, 337), n))
    return [f"{year}-{(d - 1) // 28 + 1:02d}-{(d - 1) % 28 + 1:02d}" for d in days]


def user_id(world: World, name: str) -> str:
    return next(k for k, e in world.entities.items() if k.startswith("USR") and e["name"] == name)


class QuestionTemplate(PinnedTemplate):
    """A group of questions on one tag and topic: the target and its hard negatives differ in
    the attribute the instruction names; no filler shares the group's tag and topic."""

    commit_action = "Vote"
    card: tuple[str, ...] = ("tags",)
    """Card fields the instruction names; the whole group shares them."""
    ids = "QST"
    opener = ("OpenQuestion", "GoBack", "question_id")
    distinct_titles = True

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        raise NotImplementedError

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ({"tag": p["tag"], "topic": p["topic"]},)

    direction = "up"
    """The default commit: a vote on the target question, this way."""

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("Vote", {"post_id": d.target, "direction": self.direction})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return voted(d, self.direction)

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        tag = rng.choice(V.TAGS)
        topic = rng.choice(V.TOPICS[tag])
        base, extra, negs, decoys, params = self.group(rng, tag, hard_negatives)
        related = [t for t in V.RELATED[tag] if t != tag]
        tags = [tag, *rng.sample(related, rng.randint(1, 2))]
        pins = pin_group(rng, {"tag": tag, "topic": topic, "tags": tags, **base}, extra, negs)
        if self.distinct_titles:
            patterns = rng.sample(V.TITLE_PATTERNS, len(pins) + len(decoys))
            pins = tuple({**e, "pattern": t} for e, t in zip(pins, patterns, strict=False))
            decoys = tuple({"tag": tag, "topic": topic, **e, "pattern": t}
                           for e, t in zip(decoys, patterns[len(pins):], strict=True))
        params = {"tag": tag, "topic": topic, **params}
        pinned = (*pins, *decoys)
        return self.compose(params, WorldSpec(pinned, N_QUESTIONS - len(pinned),
                                              self.avoid(params)))


def on_topic(e: Entity, p: dict[str, Any]) -> bool:
    return bool(e["tag"] == p["tag"] and e["topic"] == p["topic"])


def search(p: dict[str, Any]) -> Action:
    return Action("Search", {"query": p["topic"]})


def newest_answer(world: World, qid: str) -> str:
    return answer_order(world, qid, "newest")[0]


def answer_by(world: World, qid: str, author: str) -> str:
    return next(a for a in answers_to(world, qid) if world.entities[a]["author"] == author)


def accepted_of(world: World, qid: str) -> str:
    return next(a for a in answers_to(world, qid) if world.entities[a]["accepted"])


def voted(d: Draft, direction: str) -> list[Condition]:
    return [*membership(d, f"votes.{direction}", f"{direction}voted"),
            *commit_conditions("vote", {d.target: direction})]


def comment(post: str, text: str) -> list[Action]:
    """Open the post's comment box, then type and submit the comment."""
    return [Action("OpenCommentBox", {"post_id": post}),
            Action("PostComment", {"post_id": post, "body": text})]


def commented(post: str, text: str, others: list[str]) -> list[Condition]:
    return [*commit_conditions("comment", {post: text}),
            *(Condition(fact="commented", op="not_contains", value=o,
                        description=f"no comment on {o}") for o in others)]
