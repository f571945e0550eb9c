"""Coding Q&A task templates (WebSTEP H.1 style), 12 families (Table 4).

Building blocks shared by the Coding Q&A templates: a pinned question group (target and
hard negatives on one topic), the E.3 oracle and the vote / comment / answer verifiers."""

from __future__ import annotations

import random
import sys
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.sites._common.templates import TARGET, Group, PinnedTemplate, collect, split
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.qa import vocab as V
from webmdp.sites.qa.mdp import answer_order, answers_to, me
from webmdp.sites.qa.world import N_QUESTIONS
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
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

    card: tuple[str, ...] = ("tags",)
    """Card fields the instruction names; the whole group shares them."""
    ids = "QST"
    opener = ("OpenQuestion", "GoBack", "question_id")
    distinct_titles = True
    by = {"topic": lambda p: Action("Search", {"query": p["topic"]}),
          "tag": lambda p: Action("FilterTag", {"tag": p["tag"]}),
          "year": lambda p: Action("SetAskedYear", {"year": p["year"]}),
          "votes": lambda p: Action("SetMinVotes", {"min_votes": p["floor"]}),
          "unanswered": lambda p: Action("ToggleUnanswered"),
          "accepted": lambda p: Action("ToggleAccepted")}

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
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
        return self.compose(params, WorldSpec(pinned, N_QUESTIONS - len(pinned),
                                              self.avoid(params)))


ON_TOPIC = {"tag": "tag", "topic": "topic"}
"""``wants`` of a question on the task's tag and topic."""


class Votes(PinnedTemplate):
    """Commit: a vote on the target question, this ``direction``."""

    commit_action, direction = "Vote", "up"

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("Vote", {"post_id": d.target, "direction": self.direction})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, f"votes.{self.direction}", f"{self.direction}voted"),
                *commit_conditions("vote", {d.target: self.direction})]


class Bookmarks(PinnedTemplate):
    """Commit: bookmark the target question."""

    commit_action = "Bookmark"
    commit_with, marked = {"question_id": TARGET}, ("bookmarks", "bookmarked")


def newest_answer(world: World, qid: str) -> str:
    return answer_order(world, qid, "newest")[0]


def answer_by(world: World, qid: str, author: str) -> str:
    return next(a for a in answers_to(world, qid) if world.entities[a]["author"] == author)


def accepted_of(world: World, qid: str) -> str:
    return next(a for a in answers_to(world, qid) if world.entities[a]["accepted"])


def comment(post: str, text: str) -> list[Action]:
    """Open the post's comment box, then type and submit the comment."""
    return [Action("OpenCommentBox", {"post_id": post}),
            Action("PostComment", {"post_id": post, "body": text})]


def commented(post: str, text: str, others: list[str]) -> list[Condition]:
    return [*commit_conditions("comment", {post: text}),
            *(Condition(fact="commented", op="not_contains", value=o,
                        description=f"no comment on {o}") for o in others)]


# Templates whose commit lands on the target question itself: find it by a detail-only
# attribute (error, environment, code, body) or a superlative, then vote, bookmark, comment or
# answer.
class UpvoteByError(Votes, QuestionTemplate):
    """Detail-only target: the error message is only on the question page."""

    name = "upvote_by_error"
    description = "Search a topic, filter by tag, open questions, upvote the one with an error"
    detail, narrow = ("error",), ("topic", "tag")
    wants = {**ON_TOPIC, "error": "error"}
    sentence = ("Several [{tag}] questions ask about '{topic}'. Upvote the one that reports the "
                "error \"{error}\".")

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        errs = rng.sample(V.ERRORS[tag], k + 1)
        return {}, *split("error", errs), (), {"error": errs[0]}


class BookmarkByEnvironment(Bookmarks, QuestionTemplate):
    """Tag and date filters on the list, the environment line on the question page."""

    name = "bookmark_by_environment"
    description = "Filter by tag and year asked, bookmark the question written for an environment"
    detail, narrow = ("environment",), ("tag", "year")
    wants = {**ON_TOPIC, "year": "year", "environment": "environment"}
    sentence = ("Bookmark the [{tag}] question about '{topic}' asked in {year} whose asker is "
                "using {environment}.")

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        envs = rng.sample(V.ENVIRONMENTS[tag], k + 1)
        year = rng.choice(V.YEARS)
        # same topic and environment, asked in another year: ruled out on the card
        decoys = tuple({"environment": envs[0], "year": y, "role": "filler"}
                       for y in others(rng, V.YEARS, year, rng.randint(1, 2)))
        return ({"year": year}, *split("environment", envs), decoys,
                {"environment": envs[0], "year": year})


class CommentByCode(QuestionTemplate):
    """Detail-only target: the code block; the commit is a typed comment."""

    name = "comment_by_code"
    description = "Search a topic, read code blocks, comment on the question using a call"
    commit_action = "PostComment"
    detail, narrow, wants = ("code",), ("topic",), {**ON_TOPIC, "token": "token"}
    sentence = ("Find the [{tag}] question about '{topic}' whose code uses `{token}` and comment "
                "\"{text}\" on it.")

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        toks = rng.sample([t for t, _ in V.CODE[tag]], k + 1)
        return {}, *split("token", toks), (), {"token": toks[0], "text": rng.choice(COMMENT_TEXTS)}

    def commit(self, d: Draft, world: World) -> list[Action]:
        return comment(d.target, d.params["text"])

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return commented(d.target, d.params["text"], d.hard_negatives)


class AnswerUnanswered(QuestionTemplate):
    """The "No answers" filter and a phrase of the question body."""

    name = "answer_unanswered"
    description = "Filter unanswered questions of a tag, answer the one whose body says a phrase"
    commit_action, commit_with = "PostAnswer", {"body": "answer"}
    card, detail, narrow = ("tags", "answer_count"), ("body",), ("tag", "unanswered")
    fixed, wants = {"unanswered": True}, {**ON_TOPIC, "phrase": "phrase"}
    sentence = ("An unanswered [{tag}] question about '{topic}' says the problem happens {phrase}. "
                "Answer it with: \"{answer}\"")

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        phrases = rng.sample(V.PHRASES, k + 1)
        # same topic and phrase but already answered: ruled out on the card (answer count)
        decoy = {"phrase": phrases[0], "role": "filler", "answers": [{}, {}][:rng.randint(1, 2)]}
        return ({"answers": []}, *split("phrase", phrases), (decoy,),
                {"phrase": phrases[0], "answer": rng.choice(ANSWER_TEXTS)})

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "answered", "answered"),
                *commit_conditions("answer", {d.target: d.params["answer"]})]


class DownvoteLatestEdited(Votes, QuestionTemplate):
    """Superlative over a detail field (last edit date) after a vote filter."""

    name = "downvote_latest_edited"
    description = "Search a topic with a minimum score, downvote the most recently edited"
    detail, narrow, wants = ("modified",), ("topic", "votes"), ON_TOPIC
    compare = True
    direction = "down"
    sentence = ("Among the [{tag}] questions about '{topic}' with at least {floor} votes, downvote "
                "the one that was edited most recently.")
    best_by, highest = "modified", True

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        floor = rng.choice(V.VOTE_STEPS[:3])
        edits = dates(rng, "2025", k + 1)[::-1]

        def q(edit: str) -> Entity:
            return {"votes": int(floor) + rng.randint(0, 30), "modified": edit,
                    "asked": f"{rng.choice(V.YEARS[:3])}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"}

        return {}, q(edits[0]), [q(x) for x in edits[1:]], (), {"floor": floor}

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return super().fits(e, p) and e["votes"] >= int(p["floor"])


class MostCommented(Votes, QuestionTemplate):
    """Comparison over a detail field (the comment thread) after a sort."""

    name = "most_commented"
    description = "Search a topic, sort by views, upvote the question with the most comments"
    detail, narrow, order, wants = ("comments",), ("topic",), "views", ON_TOPIC
    compare = True
    sentence = "Of the [{tag}] questions about '{topic}', upvote the one with the most comments."

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        sizes = sorted(rng.sample(range(0, 6), k + 1), reverse=True)

        def thread(n: int) -> Entity:
            return {"comments": [[rng.choice(V.USERS), rng.choice(V.COMMENTS)]
                                 for _ in range(n)]}

        return {}, thread(sizes[0] + 1), [thread(n) for n in sizes[1:]], (), {}

    def matches(self, d: Draft, world: World) -> list[str]:
        cands = [{"id": e["id"], "n": len(e["comments"])} for e in self.candidates(d, world)]
        return best(cands, "n", highest=True)


class UserQuestionByError(Bookmarks, QuestionTemplate):
    """Through a user's profile: their questions on a tag, told apart by the error."""

    name = "user_question_by_error"
    description = "Open a user's profile, bookmark their question that fails with an error"
    detail, wants = ("error",), {"author": "user", "tag": "tag", "error": "error"}
    sentence = ("The user '{user}' has asked several [{tag}] questions. Go to their profile and "
                "bookmark the one that fails with \"{error}\".")

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        user = rng.choice(V.USERS)
        errs = rng.sample(V.ERRORS[tag], k + 1)
        topics = rng.sample(V.TOPICS[tag], k + 1)
        return {"author": user}, {"error": errs[0], "topic": topics[0]}, \
            [{"error": x, "topic": t} for x, t in zip(errs[1:], topics[1:], strict=True)], \
            (), {"user": user, "error": errs[0]}

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ({"author": p["user"]},)

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        user = p["user"]
        return [Action("Search", {"query": user}),
                Action("OpenUser", {"user_id": user_id(world, user)})]


class TagPageNewest(Votes, QuestionTemplate):
    """The tag page lists questions newest first: the newest one whose body names a phrase
    (superlative over a card field restricted by a detail field)."""

    name = "tag_page_newest"
    description = "Open a tag's page, upvote the newest question whose body names a phrase"
    detail, wants = ("body",), {**ON_TOPIC, "phrase": "phrase"}
    sentence = ("On the [{tag}] tag page, find the newest question about '{topic}' that says the "
                "problem happens {phrase}, and upvote it.")
    best_by, highest = "asked", True

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        phrase = rng.choice(V.PHRASES)
        days = dates(rng, "2025", k + 3)[::-1]
        negs = [{"phrase": x, "asked": d}
                for x, d in zip(others(rng, V.PHRASES, phrase, k), days[:k], strict=True)]
        decoys = tuple({"phrase": phrase, "asked": d, "role": "filler"} for d in days[k + 1:])
        return {}, {"phrase": phrase, "asked": days[k]}, negs, decoys, {"phrase": phrase}

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        tag = p["tag"]
        return [Action("Search", {"query": tag}), Action("OpenTag", {"tag": tag})]


# Templates whose decision object is a question but whose commit lands on one of its answers:
# accept the newest answer on your own question, upvote an answer by a named user, comment on the
# accepted answer.
class AcceptNewestAnswer(QuestionTemplate):
    """Your own questions (header avatar, profile), told apart by the error; the answer sort
    puts the newest answer first."""

    name = "accept_newest_answer"
    description = "From your profile, open your question with an error, accept its newest answer"
    commit_action = "AcceptAnswer"
    detail, fixed, wants = ("error",), {"author": V.ME}, {"error": "error"}
    sentence = ("One of your own [{tag}] questions about '{topic}' fails with \"{error}\". Accept "
                "its most recent answer.")

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
    commit_action = "Vote"
    detail, narrow, order = ("code",), ("tag",), "votes"
    wants = {**ON_TOPIC, "token": "token"}
    sentence = ("On the [{tag}] question about '{topic}' whose code uses `{token}`, upvote the "
                "answer written by {user}.")

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        toks = rng.sample([t for t, _ in V.CODE[tag]], k + 1)
        user, *rest = rng.sample(V.USERS, 4)

        def q(token: str) -> Entity:
            return {"token": token, "answers": [{"author": user}, *(
                {"author": r} for r in rest[:rng.randint(1, 3)])]}

        return {}, q(toks[0]), [q(x) for x in toks[1:]], (), {"token": toks[0], "user": user}

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return (*super().avoid(p), {"author": p["user"]})

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
    card, detail, narrow = ("tags", "accepted"), ("environment",), ("topic", "accepted")
    fixed, wants = {"accepted": True}, {**ON_TOPIC, "environment": "environment"}
    sentence = ("Find the answered [{tag}] question about '{topic}' whose asker uses "
                "{environment}, and comment \"{text}\" on its accepted answer.")

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
    detail, narrow, wants = ("error",), ("topic", "unanswered"), {**ON_TOPIC, "error": "error"}
    sentence = ("Find the unanswered question about '{topic}' that fails with \"{error}\", answer "
                "it with \"{answer}\" and bookmark it.")

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        errs = rng.sample(V.ERRORS[tag], k + 1)
        decoy = {"error": errs[0], "role": "filler", "answers": [{}]}
        return ({"answers": []}, *split("error", errs), (decoy,),
                {"error": errs[0], "answer": rng.choice(ANSWER_TEXTS)})

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [*super().commit(d, world), Action("Bookmark", {"question_id": d.target})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*super().verifier(d, world), *membership(d, "bookmarks", "bookmarked")]


TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
