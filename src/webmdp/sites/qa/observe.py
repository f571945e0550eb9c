"""What each Coding Q&A surface shows and offers, and the verifier's facts."""

from __future__ import annotations

from typing import Any

from webmdp.core.model import EntityView, Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.sites._common.handlers import keyed, observation, surfaces, view
from webmdp.sites.qa import vocab as V
from webmdp.sites.qa.catalog import CATALOG
from webmdp.sites.qa.mdp import (
    DETAIL,
    LIST,
    TAG,
    USER,
    accepted_answer,
    answer_order,
    can_accept,
    linked_tags,
    linked_users,
    listed,
    posts_on_page,
)
from webmdp.sites.qa.state import QAState
from webmdp.sites.qa.world import (
    ANSWER_FIELDS,
    QUESTION_CARD,
    QUESTION_DETAIL,
    USER_BRIEF,
    USER_PROFILE,
)

SURFACES = surfaces(
    QuestionList=(SurfaceKind.CARD, "question summaries, filters, sort tabs"),
    QuestionDetail=(SurfaceKind.DETAIL, "question body, code, error, comments, answers, "
                    "vote / accept / bookmark"),
    UserProfile=(SurfaceKind.OTHER, "reputation, badges, the user's questions"),
    TagPage=(SurfaceKind.CARD, "tag wiki excerpt and its newest questions"),
)


def available(s: QAState, world: World) -> tuple[Action, ...]:
    surf = s.surface
    out: list[Action] = [Action("Search")]
    if surf != LIST:
        out += [Action("GoBack"), Action("ShowQuestions")]
    if surf == LIST:
        out += CATALOG.available(s, world)
    out += [Action("OpenQuestion", {"question_id": q}) for q in listed(world, s)]
    out += [Action("OpenUser", {"user_id": u}) for u in linked_users(world, s)
            if not (surf == USER and s.focus == u)]
    out += [Action("OpenTag", {"tag": t}) for t in linked_tags(world, s)]
    if surf == DETAIL:
        qid = s.focus or ""
        out += [Action("SortAnswers", {"order": o}) for o in V.ANSWER_ORDERS]
        out.append(Action("Bookmark", {"question_id": qid}))
        for post in posts_on_page(world, s):
            out += [Action("Vote", {"post_id": post, "direction": d}) for d in ("up", "down")]
            out.append(Action("PostComment", {"post_id": post}) if post == s.commenting
                       else Action("OpenCommentBox", {"post_id": post}))
        if can_accept(world, qid):
            out += [Action("AcceptAnswer", {"answer_id": a})
                    for a in answer_order(world, qid, s.answer_sort)]
        out.append(Action("PostAnswer"))
    return tuple(out)


def _cards(world: World, qids: tuple[str, ...]) -> list[EntityView]:
    """Question summaries, each followed by its asker's name and reputation once."""
    out: list[EntityView] = []
    seen: set[str] = set()
    for q in qids:
        out.append(view(world, q, QUESTION_CARD))
        uid = world.entities[q]["author_id"]
        if uid not in seen:
            seen.add(uid)
            out.append(view(world, uid, USER_BRIEF))
    return out


def _mine(s: QAState, world: World) -> dict[str, Any]:
    uid = linked_users(world, s)[0]
    user = world.entities[uid]
    return {"me": uid, "me_name": user["name"], "me_rep": user["reputation"],
            "my_votes": dict(s.votes), "bookmarks": list(s.bookmarks)}


def observe(s: QAState, world: World) -> Observation:
    ctx: dict[str, Any] = {"query": s.query, "tags": list(V.TAGS), **_mine(s, world)}
    views: list[EntityView] = []
    surf = s.surface
    if surf == LIST:
        ctx.update(CATALOG.context(s, world))
    if surf in (LIST, TAG):
        qids = listed(world, s)
        views = _cards(world, qids)
        ctx["authors"] = {q: world.entities[q]["author_id"] for q in qids}
    if surf == TAG:
        tag = s.focus or ""
        ctx.update(tag=tag, tag_info=V.TAG_INFO[tag], tag_count=len(qids),
                   related=list(V.RELATED[tag]))
    elif surf == USER:
        uid = s.focus or ""
        views = [view(world, uid, USER_PROFILE),
                 *(view(world, q, QUESTION_CARD) for q in listed(world, s))]
        ctx.update(user=uid, is_me=uid == ctx["me"])
    elif surf == DETAIL:
        qid = s.focus or ""
        order = answer_order(world, qid, s.answer_sort)
        views = [view(world, qid, QUESTION_CARD + QUESTION_DETAIL),
                 *(view(world, a, ANSWER_FIELDS) for a in order)]
        users = [world.entities[p]["author_id"] for p in (qid, *order)]
        views += [view(world, u, USER_BRIEF) for u in dict.fromkeys(users)]
        ctx.update(question=qid, answers=list(order), answer_sort=s.answer_sort,
                   orders=list(V.ANSWER_ORDERS), accepted=accepted_answer(s, world, qid),
                   can_accept=can_accept(world, qid), bookmarked=qid in s.bookmarks,
                   authors={p: world.entities[p]["author_id"] for p in (qid, *order)},
                   commenting=s.commenting, my_answers=[b for q, b in s.answers if q == qid],
                   my_comments={p: [b for c, b in s.comments if c == p]
                                for p in posts_on_page(world, s)})
    return observation(s, SURFACES, views, available(s, world), ctx)


def facts(s: QAState) -> dict[str, Any]:
    """Votes (per post and as up / down lists), bookmarks, posted answers and comments (body
    per post), and accepted answers per question."""
    return {
        "surface": s.surface, "bookmarks": list(s.bookmarks),
        "votes.up": [p for p, d in s.votes if d == "up"],
        "votes.down": [p for p, d in s.votes if d == "down"],
        "answered": list(dict.fromkeys(q for q, _ in s.answers)),
        "commented": list(dict.fromkeys(p for p, _ in s.comments)),
        "accepted": [q for q, a in s.accepted if a], **keyed("vote.{}", s.votes),
        **keyed("answer.{}", s.answers), **keyed("comment.{}", s.comments),
        **keyed("accepted.{}", s.accepted),
    }
