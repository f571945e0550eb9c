"""Templates whose decision object is a question but whose commit lands on one of its answers:
accept the newest answer on your own question, upvote an answer by a named user, comment on the
accepted answer."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.spec import Action
from webmdp.sites.qa import vocab as V
from webmdp.sites.qa.mdp import answers_to, me
from webmdp.sites.qa.templates.common import (
    ANSWER_TEXTS,
    COMMENT_TEXTS,
    Group,
    QuestionTemplate,
    accepted_of,
    answer_by,
    comment,
    commented,
    dates,
    newest_answer,
    on_topic,
    search,
)
from webmdp.sites.qa.templates.questions import AnswerUnanswered
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions, membership


class AcceptNewestAnswer(QuestionTemplate):
    """Your own questions (header avatar, profile), told apart by the error; the answer sort
    puts the newest answer first."""

    name = "accept_newest_answer"
    description = "From your profile, open your question with an error, accept its newest answer"
    commit_action = "AcceptAnswer"
    detail = ("error",)

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        errs = rng.sample(V.ERRORS[tag], k + 1)

        def q(err: str) -> Entity:
            return {"error": err, "answers": [
                {"posted": d, "votes": rng.randint(0, 40)}
                for d in dates(rng, "2025", rng.randint(2, 3))]}

        return {"author": V.ME}, q(errs[0]), [q(x) for x in errs[1:]], (), \
            {"error": errs[0]}

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ({"author": V.ME},)

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"One of your own [{p['tag']}] questions about '{p['topic']}' fails with "
                f"\"{p['error']}\". Accept its most recent answer.")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["author"] == V.ME and e["error"] == p["error"])

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("OpenUser", {"user_id": me(world)})]

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("SortAnswers", {"order": "newest"}),
                Action("AcceptAnswer", {"answer_id": newest_answer(world, d.target)})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "accepted", "given an accepted answer"),
                *commit_conditions("accepted", {d.target: newest_answer(world, d.target)})]


class UpvoteAnswerByUser(QuestionTemplate):
    """Detail-only question (its code), then an answer picked by its author."""

    name = "upvote_answer_by_user"
    description = "Filter a tag, sort by score, find the question by its code, upvote an answer"
    detail = ("code",)

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        toks = rng.sample([t for t, _ in V.CODE[tag]], k + 1)
        user, *rest = rng.sample(V.USERS, 4)

        def q(token: str) -> Entity:
            return {"token": token, "answers": [{"author": user}, *(
                {"author": r} for r in rest[:rng.randint(1, 3)])]}

        return {}, q(toks[0]), [q(x) for x in toks[1:]], (), {"token": toks[0], "user": user}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"On the [{p['tag']}] question about '{p['topic']}' whose code uses "
                f"`{p['token']}`, upvote the answer written by {p['user']}.")

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return (*super().avoid(p), {"author": p["user"]})

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return on_topic(e, p) and e["token"] == p["token"]

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("FilterTag", {"tag": p["tag"]}),
                Action("SortBy", {"order": "votes"})]

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("Vote", {"post_id": answer_by(world, d.target, d.params["user"]),
                                "direction": "up"})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        user = d.params["user"]
        aid = answer_by(world, d.target, user)
        return [*commit_conditions("vote", {aid: "up"}), *(
            Condition(fact="votes.up", op="not_contains", value=answer_by(world, h, user),
                      description=f"{user}'s answer on hard negative {h} is not upvoted")
            for h in d.hard_negatives)]


class CommentOnAcceptedAnswer(QuestionTemplate):
    """The "Has accepted answer" filter, the environment line, a comment on the accepted
    answer."""

    name = "comment_on_accepted_answer"
    description = "Filter accepted questions of a topic, comment on one's accepted answer"
    commit_action = "PostComment"
    card = ("tags", "accepted")
    detail = ("environment",)

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        envs = rng.sample(V.ENVIRONMENTS[tag], k + 1)

        def q(env: str) -> Entity:
            n = rng.randint(2, 3)
            pick = rng.randrange(n)
            return {"environment": env,
                    "answers": [{"accepted": i == pick} for i in range(n)]}

        # same topic and environment, but no accepted answer: ruled out on the card
        decoy = {"environment": envs[0], "role": "filler", "answers": [{}, {}]}
        return {}, q(envs[0]), [q(x) for x in envs[1:]], (decoy,), \
            {"environment": envs[0], "text": rng.choice(COMMENT_TEXTS)}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Find the answered [{p['tag']}] question about '{p['topic']}' whose asker uses "
                f"{p['environment']}, and comment \"{p['text']}\" on its accepted answer.")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return on_topic(e, p) and e["accepted"] and e["environment"] == p["environment"]

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [search(p), Action("ToggleAccepted")]

    def commit(self, d: Draft, world: World) -> list[Action]:
        return comment(accepted_of(world, d.target), d.params["text"])

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        others = [a for h in d.hard_negatives for a in answers_to(world, h)]
        return commented(accepted_of(world, d.target), d.params["text"],
                         [d.target, *d.hard_negatives, *others])


class AnswerAndBookmark(AnswerUnanswered):
    """Two commits on one question: an answer, then a bookmark (error on the detail page)."""

    name = "answer_and_bookmark"
    description = "Search unanswered questions, answer and bookmark the one with an error"
    detail = ("error",)

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        errs = rng.sample(V.ERRORS[tag], k + 1)
        decoy = {"error": errs[0], "role": "filler", "answers": [{}]}
        return {"answers": []}, {"error": errs[0]}, [{"error": x} for x in errs[1:]], \
            (decoy,), {"error": errs[0], "answer": rng.choice(ANSWER_TEXTS)}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Find the unanswered question about '{p['topic']}' that fails with "
                f"\"{p['error']}\", answer it with \"{p['answer']}\" and bookmark it.")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return on_topic(e, p) and e["unanswered"] and e["error"] == p["error"]

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [search(p), Action("ToggleUnanswered")]

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [*super().commit(d, world), Action("Bookmark", {"question_id": d.target})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*super().verifier(d, world), *membership(d, "bookmarks", "bookmarked")]
