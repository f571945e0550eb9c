"""Templates whose commit lands on the target question itself: find it by a detail-only
attribute (error, environment, code, body) or a superlative, then vote, bookmark, comment or
answer."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.sites._common.worldgen import others
from webmdp.sites.qa import vocab as V
from webmdp.sites.qa.templates.common import (
    ANSWER_TEXTS,
    COMMENT_TEXTS,
    Group,
    QuestionTemplate,
    comment,
    commented,
    dates,
    on_topic,
    search,
    user_id,
)
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions, membership


class UpvoteByError(QuestionTemplate):
    """Detail-only target: the error message is only on the question page."""

    name = "upvote_by_error"
    description = "Search a topic, filter by tag, open questions, upvote the one with an error"
    detail = ("error",)

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        errs = rng.sample(V.ERRORS[tag], k + 1)
        return {}, {"error": errs[0]}, [{"error": x} for x in errs[1:]], (), \
            {"error": errs[0]}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Several [{p['tag']}] questions ask about '{p['topic']}'. Upvote the one that "
                f"reports the error \"{p['error']}\".")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return on_topic(e, p) and e["error"] == p["error"]

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [search(p), Action("FilterTag", {"tag": p["tag"]})]


class BookmarkByEnvironment(QuestionTemplate):
    """Tag and date filters on the list, the environment line on the question page."""

    name = "bookmark_by_environment"
    description = "Filter by tag and year asked, bookmark the question written for an environment"
    commit_action = "Bookmark"
    detail = ("environment",)

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        envs = rng.sample(V.ENVIRONMENTS[tag], k + 1)
        year = rng.choice(V.YEARS)
        # same topic and environment, asked in another year: ruled out on the card
        decoys = tuple({"environment": envs[0], "year": y, "role": "filler"}
                       for y in others(rng, V.YEARS, year, rng.randint(1, 2)))
        return {"year": year}, {"environment": envs[0]}, \
            [{"environment": x} for x in envs[1:]], decoys, \
            {"environment": envs[0], "year": year}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Bookmark the [{p['tag']}] question about '{p['topic']}' asked in {p['year']} "
                f"whose asker is using {p['environment']}.")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return on_topic(e, p) and e["year"] == p["year"] and \
            e["environment"] == p["environment"]

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("FilterTag", {"tag": p["tag"]}), Action("SetAskedYear",
                                                               {"year": p["year"]})]

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("Bookmark", {"question_id": d.target})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return membership(d, "bookmarks", "bookmarked")


class CommentByCode(QuestionTemplate):
    """Detail-only target: the code block; the commit is a typed comment."""

    name = "comment_by_code"
    description = "Search a topic, read code blocks, comment on the question using a call"
    commit_action = "PostComment"
    detail = ("code",)

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        toks = rng.sample([t for t, _ in V.CODE[tag]], k + 1)
        return {}, {"token": toks[0]}, [{"token": x} for x in toks[1:]], (), \
            {"token": toks[0], "text": rng.choice(COMMENT_TEXTS)}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Find the [{p['tag']}] question about '{p['topic']}' whose code uses "
                f"`{p['token']}` and comment \"{p['text']}\" on it.")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return on_topic(e, p) and e["token"] == p["token"]

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [search(p)]

    def commit(self, d: Draft, world: World) -> list[Action]:
        return comment(d.target, d.params["text"])

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return commented(d.target, d.params["text"], d.hard_negatives)


class AnswerUnanswered(QuestionTemplate):
    """The "No answers" filter and a phrase of the question body."""

    name = "answer_unanswered"
    description = "Filter unanswered questions of a tag, answer the one whose body says a phrase"
    commit_action = "PostAnswer"
    card = ("tags", "answer_count")
    detail = ("body",)

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        phrases = rng.sample(V.PHRASES, k + 1)
        # same topic and phrase but already answered: ruled out on the card (answer count)
        decoy = {"phrase": phrases[0], "role": "filler", "answers": [{}, {}][:rng.randint(1, 2)]}
        return {"answers": []}, {"phrase": phrases[0]}, [{"phrase": x} for x in phrases[1:]], \
            (decoy,), {"phrase": phrases[0], "answer": rng.choice(ANSWER_TEXTS)}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"An unanswered [{p['tag']}] question about '{p['topic']}' says the problem "
                f"happens {p['phrase']}. Answer it with: \"{p['answer']}\"")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return on_topic(e, p) and e["unanswered"] and e["phrase"] == p["phrase"]

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("FilterTag", {"tag": p["tag"]}), Action("ToggleUnanswered")]

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("PostAnswer", {"body": d.params["answer"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "answered", "answered"),
                *commit_conditions("answer", {d.target: d.params["answer"]})]


class DownvoteLatestEdited(QuestionTemplate):
    """Superlative over a detail field (last edit date) after a vote filter."""

    name = "downvote_latest_edited"
    description = "Search a topic with a minimum score, downvote the most recently edited"
    detail = ("modified",)
    compare = True
    direction = "down"

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        floor = rng.choice(V.VOTE_STEPS[:3])
        edits = dates(rng, "2025", k + 1)[::-1]

        def q(edit: str) -> Entity:
            return {"votes": int(floor) + rng.randint(0, 30), "modified": edit,
                    "asked": f"{rng.choice(V.YEARS[:3])}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"}

        return {}, q(edits[0]), [q(x) for x in edits[1:]], (), {"floor": floor}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Among the [{p['tag']}] questions about '{p['topic']}' with at least {p['floor']} "
                "votes, downvote the one that was edited most recently.")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return on_topic(e, p) and e["votes"] >= int(p["floor"])

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(self.candidates(d, world), "modified", highest=True)

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [search(p), Action("SetMinVotes", {"min_votes": p["floor"]})]


class MostCommented(QuestionTemplate):
    """Comparison over a detail field (the comment thread) after a sort."""

    name = "most_commented"
    description = "Search a topic, sort by views, upvote the question with the most comments"
    detail = ("comments",)
    compare = True

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        sizes = sorted(rng.sample(range(0, 6), k + 1), reverse=True)

        def thread(n: int) -> Entity:
            return {"comments": [[rng.choice(V.USERS), rng.choice(V.COMMENTS)]
                                 for _ in range(n)]}

        return {}, thread(sizes[0] + 1), [thread(n) for n in sizes[1:]], (), {}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Of the [{p['tag']}] questions about '{p['topic']}', upvote the one with the most "
                "comments.")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return on_topic(e, p)

    def matches(self, d: Draft, world: World) -> list[str]:
        cands = [{"id": e["id"], "n": len(e["comments"])} for e in self.candidates(d, world)]
        return best(cands, "n", highest=True)

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [search(p), Action("SortBy", {"order": "views"})]


class UserQuestionByError(QuestionTemplate):
    """Through a user's profile: their questions on a tag, told apart by the error."""

    name = "user_question_by_error"
    description = "Open a user's profile, bookmark their question that fails with an error"
    commit_action = "Bookmark"
    detail = ("error",)

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        user = rng.choice(V.USERS)
        errs = rng.sample(V.ERRORS[tag], k + 1)
        topics = rng.sample(V.TOPICS[tag], k + 1)
        return {"author": user}, {"error": errs[0], "topic": topics[0]}, \
            [{"error": x, "topic": t} for x, t in zip(errs[1:], topics[1:], strict=True)], \
            (), {"user": user, "error": errs[0]}

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ({"author": p["user"]},)

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"The user '{p['user']}' has asked several [{p['tag']}] questions. Go to their "
                f"profile and bookmark the one that fails with \"{p['error']}\".")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["author"] == p["user"] and e["tag"] == p["tag"]
                    and e["error"] == p["error"])

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        user = p["user"]
        return [Action("Search", {"query": user}),
                Action("OpenUser", {"user_id": user_id(world, user)})]

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("Bookmark", {"question_id": d.target})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return membership(d, "bookmarks", "bookmarked")


class TagPageNewest(QuestionTemplate):
    """The tag page lists questions newest first: the newest one whose body names a phrase
    (superlative over a card field restricted by a detail field)."""

    name = "tag_page_newest"
    description = "Open a tag's page, upvote the newest question whose body names a phrase"
    detail = ("body",)

    def group(self, rng: random.Random, tag: str, k: int) -> Group:
        phrase = rng.choice(V.PHRASES)
        days = dates(rng, "2025", k + 3)[::-1]
        negs = [{"phrase": x, "asked": d}
                for x, d in zip(others(rng, V.PHRASES, phrase, k), days[:k], strict=True)]
        decoys = tuple({"phrase": phrase, "asked": d, "role": "filler"} for d in days[k + 1:])
        return {}, {"phrase": phrase, "asked": days[k]}, negs, decoys, {"phrase": phrase}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"On the [{p['tag']}] tag page, find the newest question about '{p['topic']}' "
                f"that says the problem happens {p['phrase']}, and upvote it.")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return on_topic(e, p) and e["phrase"] == p["phrase"]

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(self.candidates(d, world), "asked", highest=True)

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        tag = p["tag"]
        return [Action("Search", {"query": tag}), Action("OpenTag", {"tag": tag})]
