"""Coding Q&A transition function (pure): question list, question page, user profile, tag
page, and the commits of the question page (votes, answers, comments, acceptance, bookmarks)."""

from __future__ import annotations

from functools import lru_cache

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.errors import require
from webmdp.sites._common.handlers import Handler, catalog_action, dispatch, step, toggle
from webmdp.sites.qa import vocab as V
from webmdp.sites.qa.catalog import CATALOG
from webmdp.sites.qa.state import Pairs, QAState

LIST, DETAIL, USER, TAG = "QuestionList", "QuestionDetail", "UserProfile", "TagPage"
SURFACES = (LIST, DETAIL, USER, TAG)
MAX_TRAIL = 8


def _newest(world: World, ids: list[str]) -> tuple[str, ...]:
    ents = world.entities
    return tuple(sorted(ids, key=lambda i: (ents[i]["asked"], i), reverse=True))


@lru_cache(maxsize=4096)
def tagged(world: World, tag: str) -> tuple[str, ...]:
    """Questions carrying ``tag``, newest first (the tag page's list)."""
    return _newest(world, [k for k, e in world.entities.items()
                           if k.startswith("QST") and tag in e["tags"]])


@lru_cache(maxsize=4096)
def asked_by(world: World, uid: str) -> tuple[str, ...]:
    """A user's questions, newest first (the profile's list)."""
    return _newest(world, [k for k, e in world.entities.items()
                           if k.startswith("QST") and e["author_id"] == uid])


@lru_cache(maxsize=4096)
def answers_to(world: World, qid: str) -> tuple[str, ...]:
    return tuple(k for k, e in world.entities.items() if e.get("question_id") == qid)


@lru_cache(maxsize=64)
def me(world: World) -> str:
    return next(k for k, e in world.entities.items() if k.startswith("USR") and e["me"])


def answer_order(world: World, qid: str, order: str) -> tuple[str, ...]:
    ents = world.entities
    ids = answers_to(world, qid)
    if order == "votes":
        return tuple(sorted(ids, key=lambda a: (-ents[a]["votes"], a)))
    return tuple(sorted(ids, key=lambda a: (ents[a]["posted"], a), reverse=order == "newest"))


def accepted_answer(s: QAState, world: World, qid: str) -> str:
    """The accepted answer on screen: the user's own choice, else the world's."""
    mine = dict(s.accepted)
    if qid in mine:
        return mine[qid]
    return next((a for a in answers_to(world, qid) if world.entities[a]["accepted"]), "")


def can_accept(world: World, qid: str) -> bool:
    return world.entities[qid]["author_id"] == me(world) and bool(answers_to(world, qid))


def linked_users(world: World, s: QAState) -> tuple[str, ...]:
    """Users whose names link to their profile on the current page (header avatar first)."""
    ents = world.entities
    out = [me(world)]
    if s.surface == LIST:
        out += [ents[q]["author_id"] for q in CATALOG.visible(world, s)]
    elif s.surface == DETAIL:
        q = s.focus or ""
        out += [ents[q]["author_id"], *(ents[a]["author_id"] for a in answers_to(world, q))]
    return tuple(dict.fromkeys(out))


def linked_tags(world: World, s: QAState) -> tuple[str, ...]:
    """Tags whose chips open a tag page on the current page (only the site's main tags)."""
    ents = world.entities
    if s.surface == LIST:
        qs: tuple[str, ...] = CATALOG.visible(world, s)
    elif s.surface == DETAIL:
        qs = (s.focus or "",)
    elif s.surface == USER:
        qs = asked_by(world, s.focus or "")
    else:
        qs = ()
    return tuple(t for t in V.TAGS if any(t in ents[q]["tags"] for q in qs))


def listed(world: World, s: QAState) -> tuple[str, ...]:
    """Questions the current page links to."""
    if s.surface == LIST:
        return CATALOG.visible(world, s)
    if s.surface == TAG:
        return tagged(world, s.focus or "")
    if s.surface == USER:
        return asked_by(world, s.focus or "")
    return ()


def posts_on_page(world: World, s: QAState) -> tuple[str, ...]:
    q = s.focus or ""
    return (q, *answers_to(world, q))


def _push(s: QAState) -> tuple[tuple[str, str], ...]:
    return (*s.trail, (s.surface, s.focus or ""))[-MAX_TRAIL:]


def transition(s: QAState, a: Action, world: World) -> QAState:
    browsed = catalog_action(CATALOG, s, a, world, "the question list", trail=())
    return browsed or dispatch(_HANDLERS, s, a, world)


def _open_question(s: QAState, p: dict, world: World) -> QAState:
    qid = p["question_id"]
    require(qid in listed(world, s), f"OpenQuestion: {qid} is not on this page")
    return s.replace(surface=DETAIL, focus=qid, trail=_push(s), answer_sort="votes",
                     commenting="")


def _open_user(s: QAState, p: dict, world: World) -> QAState:
    uid = p["user_id"]
    require(uid in linked_users(world, s), f"OpenUser: {uid} is not linked here")
    require(not (s.surface == USER and s.focus == uid), "OpenUser: already on this profile")
    return s.replace(surface=USER, focus=uid, trail=_push(s))


def _open_tag(s: QAState, p: dict, world: World) -> QAState:
    tag = p["tag"]
    require(tag in linked_tags(world, s), f"OpenTag: no [{tag}] link here")
    return s.replace(surface=TAG, focus=tag, trail=_push(s))


def _go_back(s: QAState, p: dict, world: World) -> QAState:
    require(s.surface != LIST, "GoBack: already on the question list")
    if not s.trail:
        return s.replace(surface=LIST, focus=None)
    surface, focus = s.trail[-1]
    return s.replace(surface=surface, focus=focus or None, trail=s.trail[:-1], commenting="")


def _on_question(s: QAState, name: str) -> str:
    require(s.surface == DETAIL, f"{name}: no question open")
    return s.focus or ""


def _sort_answers(s: QAState, p: dict, world: World) -> QAState:
    _on_question(s, "SortAnswers")
    require(p["order"] in V.ANSWER_ORDERS, f"SortAnswers: unknown order {p['order']!r}")
    return s.replace(answer_sort=p["order"])


def _set(pairs: Pairs, key: str, value: str | None) -> Pairs:
    out = tuple(kv for kv in pairs if kv[0] != key)
    return out if value is None else (*out, (key, value))


def _vote(s: QAState, p: dict, world: World) -> QAState:
    _on_question(s, "Vote")
    post, direction = p["post_id"], p["direction"]
    require(post in posts_on_page(world, s), f"Vote: {post} is not on this page")
    require(direction in ("up", "down"), "Vote: direction is up or down")
    same = dict(s.votes).get(post) == direction
    return s.replace(votes=_set(s.votes, post, None if same else direction))


def _post_answer(s: QAState, p: dict, world: World) -> QAState:
    qid = _on_question(s, "PostAnswer")
    body = str(p.get("body") or "").strip()
    require(len(body) >= 5, "PostAnswer: the answer body is too short")
    return s.replace(answers=(*s.answers, (qid, body)))


def _open_comment_box(s: QAState, p: dict, world: World) -> QAState:
    _on_question(s, "OpenCommentBox")
    post = p["post_id"]
    require(post in posts_on_page(world, s), f"OpenCommentBox: {post} is not on this page")
    return s.replace(commenting=post)


def _post_comment(s: QAState, p: dict, world: World) -> QAState:
    _on_question(s, "PostComment")
    post = p["post_id"]
    require(post == s.commenting, f"PostComment: the comment box of {post} is not open")
    body = str(p.get("body") or "").strip()
    require(len(body) >= 2, "PostComment: the comment is empty")
    return s.replace(comments=(*s.comments, (post, body)), commenting="")


def _accept(s: QAState, p: dict, world: World) -> QAState:
    qid = _on_question(s, "AcceptAnswer")
    aid = p["answer_id"]
    require(can_accept(world, qid), "AcceptAnswer: only the asker can accept an answer")
    require(aid in answers_to(world, qid), f"AcceptAnswer: {aid} does not answer {qid}")
    if accepted_answer(s, world, qid) == aid:
        return s.replace(accepted=_set(s.accepted, qid, ""))
    return s.replace(accepted=_set(s.accepted, qid, aid))


def _bookmark(s: QAState, p: dict, world: World) -> QAState:
    qid = _on_question(s, "Bookmark")
    require(p["question_id"] == qid, "Bookmark: that question is not open")
    return s.replace(bookmarks=toggle(s.bookmarks, qid))


_HANDLERS: dict[str, Handler[QAState]] = {
    "OpenQuestion": _open_question, "OpenUser": _open_user, "OpenTag": _open_tag,
    "GoBack": _go_back, "SortAnswers": _sort_answers,
    "ShowQuestions": step(lambda s: s.surface != LIST, "ShowQuestions: already on the question "
                          "list", surface=LIST, focus=None, trail=()),
    "Vote": _vote, "PostAnswer": _post_answer, "PostComment": _post_comment,
    "OpenCommentBox": _open_comment_box,
    "AcceptAnswer": _accept, "Bookmark": _bookmark,
}
