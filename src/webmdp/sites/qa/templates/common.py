"""Building blocks shared by the Coding Q&A templates: a pinned question group (target and
hard negatives on one topic), the E.3 oracle and the vote / comment / answer verifiers."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.qa import vocab as V
from webmdp.sites.qa.mdp import answer_order, answers_to
from webmdp.sites.qa.world import N_QUESTIONS
from webmdp.tasks.model import Condition
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions, membership

Group = tuple[Entity, Entity, list[Entity], tuple[Entity, ...], dict[str, Any]]
"""(shared base, target extra, one extra per hard negative, decoy fillers, params)."""

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


def questions(world: World, **eq: Any) -> list[Entity]:
    return [e for k, e in world.entities.items() if k.startswith("QST")
            and all(e[f] == v for f, v in eq.items())]


def user_id(world: World, name: str) -> str:
    return next(k for k, e in world.entities.items() if k.startswith("USR") and e["name"] == name)


class QuestionTemplate(TaskTemplate):
    """A group of questions on one tag and topic: the target and its hard negatives differ in
    the attribute the instruction names; no filler shares the group's tag and topic."""

    commit_action = "Vote"
    card: tuple[str, ...] = ("tags",)
    """Card fields the instruction names; the whole group shares them."""
    detail: tuple[str, ...] = ()
    all_negatives = False
    distinct_titles = True

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        raise NotImplementedError

    def sentence(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def prefix(self, d: Draft, world: World) -> list[Action]:
        raise NotImplementedError

    def commit(self, d: Draft, world: World) -> list[Action]:
        raise NotImplementedError

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        """The instruction's constraints on one question (before any superlative)."""
        raise NotImplementedError

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ({"tag": p["tag"], "topic": p["topic"]},)

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
        return Draft(instruction=self.sentence(params), params=params,
                     spec=WorldSpec(pinned, N_QUESTIONS - len(pinned), self.avoid(params)),
                     card_fields=self.card, detail_fields=self.detail)

    def candidates(self, d: Draft, world: World) -> list[Entity]:
        return [e for e in questions(world) if self.fits(e, d.params)]

    def matches(self, d: Draft, world: World) -> list[str]:
        return [e["id"] for e in self.candidates(d, world)]

    def reach(self, d: Draft, world: World, site: Site) -> list[Action]:
        return reach_and_explore(site, world, d, self.prefix(d, world),
                                 open_action=Action("OpenQuestion"), back=Action("GoBack"),
                                 entity_param="question_id", all_negatives=self.all_negatives)

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*self.reach(d, world, site), *self.commit(d, world)]


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
