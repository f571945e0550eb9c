"""Coding Q&A MDP: counts from WebSTEP Tables 4/5/8, the three-kind world, transitions, the
back trail, commits and their facts, invalid actions and the verifier's per-parameter checks."""

from __future__ import annotations

import collections

import pytest

from support import play, site_tasks
from webmdp.core import Action, SurfaceKind, World
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.sites.qa.mdp import answers_to, me
from webmdp.sites.qa.state import QAState
from webmdp.tasks import Task

SITE = get_site("qa")


def _world(task: Task) -> World:
    return World.from_dict(task.world)


def _run(world: World, *actions: Action) -> QAState:
    s = play(SITE, world, *actions)
    assert isinstance(s, QAState)
    return s


def _questions(w: World) -> list[str]:
    return [k for k in w.entities if k.startswith("QST-")]


def test_declared_counts_match_the_paper() -> None:
    kinds = {s.name: s.kind for s in SITE.surfaces}
    assert set(kinds) == {"QuestionList", "QuestionDetail", "UserProfile", "TagPage"}
    assert kinds["QuestionList"] == SurfaceKind.CARD
    assert kinds["QuestionDetail"] == SurfaceKind.DETAIL
    assert len(SITE.actions) >= 18
    assert len(SITE.templates) >= 12
    assert len(SITE.visibility.card_fields) == 7
    assert len(SITE.visibility.detail_fields) == 6
    skills = {a.skill for a in SITE.actions}
    for s in ("back_navigation", "pagination", "query_formulation", "tag_filtering",
              "acceptance_filtering", "date_filtering", "vote_filtering", "sort_usage",
              "answer_sort_usage", "filter_reset", "question_inspection", "user_inspection",
              "tag_inspection", "voting", "answer_posting", "commenting", "answer_acceptance",
              "bookmarking"):
        assert s in skills, s


def test_world_links_questions_answers_and_users() -> None:
    w = _world(site_tasks("qa")[0])
    kinds = collections.Counter(k[:3] for k in w.entities)
    assert set(kinds) == {"QST", "ANS", "USR"} and kinds["QST"] == 30
    for q in _questions(w):
        e = w.entities[q]
        ans = answers_to(w, q)
        assert e["answer_count"] == len(ans) and e["unanswered"] == (not ans)
        assert e["accepted"] == any(w.entities[a]["accepted"] for a in ans)
        assert sum(w.entities[a]["accepted"] for a in ans) <= 1
        assert w.entities[e["author_id"]]["name"] == e["author"]
        assert e["tag"] in e["tags"] and e["year"] == e["asked"][:4]
        assert e["modified"] >= e["asked"]
    assert sum(w.entities[u]["me"] for u in w.entities if u.startswith("USR")) == 1


def test_every_template_gets_fifteen_tasks_with_spread_hard_negatives() -> None:
    tasks = site_tasks("qa")
    assert len(tasks) == 180
    per = collections.defaultdict(collections.Counter)
    for t in tasks:
        per[t.template][len(t.hard_negatives)] += 1
    assert len(per) == 12
    for counts in per.values():
        assert sum(counts.values()) == 15 and set(counts) == {0, 1, 2, 3}
        assert max(counts.values()) - min(counts.values()) <= 1


def test_filters_sort_and_pages() -> None:
    w = _world(site_tasks("qa")[5])
    first = SITE.observe(_run(w), w)
    assert first.context["pages"] == 2
    dates = [e.fields["asked"] for e in first.entities if e.id.startswith("QST")]
    assert dates == sorted(dates, reverse=True)
    nxt = SITE.observe(_run(w, Action("NextPage")), w)
    assert {e.id for e in nxt.entities if e.id.startswith("QST")}.isdisjoint(
        {e.id for e in first.entities})
    s = _run(w, Action("FilterTag", {"tag": "python"}), Action("SortBy", {"order": "votes"}))
    qs = [e for e in SITE.observe(s, w).entities if e.id.startswith("QST")]
    assert all("python" in e.fields["tags"] for e in qs)
    assert [e.fields["votes"] for e in qs] == sorted((e.fields["votes"] for e in qs),
                                                     reverse=True)
    s = _run(w, Action("ToggleUnanswered"))
    assert all(e.fields["answer_count"] == 0 for e in SITE.observe(s, w).entities
               if e.id.startswith("QST"))
    s = _run(w, Action("ToggleAccepted"), Action("SetMinVotes", {"min_votes": "10"}),
             Action("SetAskedYear", {"year": "2024"}))
    for e in SITE.observe(s, w).entities:
        if e.id.startswith("QST"):
            assert e.fields["accepted"] and e.fields["votes"] >= 10
            assert e.fields["asked"].startswith("2024")
    s = SITE.step(s, Action("ClearFilters"), w)
    assert isinstance(s, QAState) and s.filters == ()


def test_cards_hide_detail_fields_and_detail_shows_them() -> None:
    w = _world(site_tasks("qa")[0])
    obs = SITE.observe(_run(w), w)
    q = next(e for e in obs.entities if e.id.startswith("QST"))
    assert not set(q.fields) & set(SITE.visibility.detail_fields)
    s = _run(w, Action("OpenQuestion", {"question_id": q.id}))
    full = SITE.observe(s, w).entities[0]
    assert full.id == q.id and set(SITE.visibility.detail_fields) <= set(full.fields)


def test_back_trail_returns_through_tag_and_user_pages() -> None:
    w = _world(site_tasks("qa")[0])
    q = next(e.id for e in SITE.observe(_run(w), w).entities if e.id.startswith("QST"))
    tag = w.entities[q]["tag"]
    s = _run(w, Action("OpenQuestion", {"question_id": q}), Action("OpenTag", {"tag": tag}))
    assert s.surface == "TagPage" and q in [e.id for e in SITE.observe(s, w).entities]
    uid = w.entities[q]["author_id"]
    s = SITE.step(s, Action("OpenQuestion", {"question_id": q}), w)
    s = SITE.step(s, Action("OpenUser", {"user_id": uid}), w)
    assert s.surface == "UserProfile"
    back = [SITE.step(s, Action("GoBack"), w)]
    for _ in range(3):
        back.append(SITE.step(back[-1], Action("GoBack"), w))
    assert [b.surface for b in back] == ["QuestionDetail", "TagPage", "QuestionDetail",
                                         "QuestionList"]
    assert SITE.step(s, Action("ShowQuestions"), w).surface == "QuestionList"


def _open_own_question(w: World) -> tuple[QAState, str]:
    mine = next(q for q in _questions(w) if w.entities[q]["author_id"] == me(w)
                and answers_to(w, q))
    s = _run(w, Action("OpenUser", {"user_id": me(w)}),
             Action("OpenQuestion", {"question_id": mine}))
    return s, mine


def test_commits_and_their_facts() -> None:
    task = next(t for t in site_tasks("qa") if t.template == "accept_newest_answer")
    w = _world(task)
    s, q = _open_own_question(w)
    a1, *rest = answers_to(w, q)
    steps = [Action("Vote", {"post_id": q, "direction": "up"}),
             Action("Vote", {"post_id": a1, "direction": "down"}),
             Action("Bookmark", {"question_id": q}),
             Action("OpenCommentBox", {"post_id": a1}),
             Action("PostComment", {"post_id": a1, "body": "Nice one"}),
             Action("PostAnswer", {"body": "Restart the kernel."}),
             Action("AcceptAnswer", {"answer_id": a1})]
    for a in steps:
        s = SITE.step(s, a, w)
    f = SITE.facts(s)
    assert f["vote." + q] == "up" and f["vote." + a1] == "down"
    assert f["votes.up"] == [q] and f["votes.down"] == [a1] and f["bookmarks"] == [q]
    assert f["comment." + a1] == "Nice one" and f["commented"] == [a1]
    assert f["answer." + q] == "Restart the kernel." and f["answered"] == [q]
    assert f["accepted." + q] == a1 and f["accepted"] == [q]
    assert SITE.observe(s, w).context["accepted"] == a1
    # toggles: the same vote, bookmark and acceptance again undo them
    for a in (steps[0], steps[2], steps[6]):
        s = SITE.step(s, a, w)
    f = SITE.facts(s)
    assert "vote." + q not in f and f["bookmarks"] == [] and f["accepted"] == []
    if rest:
        s = SITE.step(s, Action("AcceptAnswer", {"answer_id": rest[0]}), w)
        assert SITE.facts(s)["accepted." + q] == rest[0]


def test_answer_sort_orders() -> None:
    task = next(t for t in site_tasks("qa") if t.template == "accept_newest_answer")
    w = _world(task)
    s, _ = _open_own_question(w)
    for order, key, rev in (("votes", "votes", True), ("newest", "posted", True),
                            ("oldest", "posted", False)):
        s = SITE.step(s, Action("SortAnswers", {"order": order}), w)
        ids = SITE.observe(s, w).context["answers"]
        vals = [w.entities[a][key] for a in ids]
        assert vals == sorted(vals, reverse=rev), order


def test_only_the_asker_accepts() -> None:
    w = _world(site_tasks("qa")[0])
    q = next(q for q in _questions(w) if w.entities[q]["author_id"] != me(w)
             and answers_to(w, q) and q in [e.id for e in SITE.observe(_run(w), w).entities])
    s = _run(w, Action("OpenQuestion", {"question_id": q}))
    assert not any(a.name == "AcceptAnswer" for a in SITE.observe(s, w).available)
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("AcceptAnswer", {"answer_id": answers_to(w, q)[0]}), w)


@pytest.mark.parametrize("action", [
    Action("Vote", {"post_id": "QST-001", "direction": "up"}),
    Action("Bookmark", {"question_id": "QST-001"}),
    Action("PostAnswer", {"body": "hello there"}),
    Action("SortAnswers", {"order": "votes"}),
    Action("GoBack"),
    Action("OpenTag", {"tag": "no-such-tag"}),
    Action("OpenQuestion", {"question_id": "ANS-001"}),
])
def test_invalid_actions_on_the_list_raise(action: Action) -> None:
    w = _world(site_tasks("qa")[0])
    with pytest.raises(InvalidAction):
        SITE.step(SITE.initial_state(w), action, w)


def test_commit_checks_on_the_question_page() -> None:
    w = _world(site_tasks("qa")[0])
    q = next(e.id for e in SITE.observe(_run(w), w).entities if e.id.startswith("QST"))
    s = _run(w, Action("OpenQuestion", {"question_id": q}))
    other = next(x for x in _questions(w) if x != q)
    for bad in (Action("Vote", {"post_id": other, "direction": "up"}),
                Action("PostComment", {"post_id": q, "body": "closed box"}),
                Action("PostAnswer", {"body": "no"}),
                Action("Bookmark", {"question_id": other})):
        with pytest.raises(InvalidAction):
            SITE.step(s, bad, w)


def test_comment_box_opens_for_one_post_at_a_time() -> None:
    task = next(t for t in site_tasks("qa") if t.template == "accept_newest_answer")
    w = _world(task)
    s, q = _open_own_question(w)
    a1 = answers_to(w, q)[0]
    s = SITE.step(s, Action("OpenCommentBox", {"post_id": q}), w)
    s = SITE.step(s, Action("OpenCommentBox", {"post_id": a1}), w)
    posts = [a.params["post_id"] for a in SITE.observe(s, w).available
             if a.name == "PostComment"]
    assert posts == [a1]
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("PostComment", {"post_id": a1, "body": " "}), w)
    s = SITE.step(s, Action("PostComment", {"post_id": a1, "body": "ok then"}), w)
    assert isinstance(s, QAState) and s.commenting == ""


def test_verifiers_check_every_parameter() -> None:
    by_tpl = {t.template: t for t in site_tasks("qa") if len(t.hard_negatives) == 2}
    t = by_tpl["comment_on_accepted_answer"]
    facts = {c.fact: c for c in t.verifier}
    ans = next(f for f in facts if f.startswith("comment."))[len("comment."):]
    w = _world(t)
    assert w.entities[ans]["question_id"] == t.target and w.entities[ans]["accepted"]
    assert facts["comment." + ans].value == t.params["text"]
    t = by_tpl["answer_and_bookmark"]
    kinds = {(c.fact, c.op) for c in t.verifier}
    assert {(f"answer.{t.target}", "eq"), ("bookmarks", "contains"),
            ("answered", "not_contains"), ("bookmarks", "not_contains")} <= kinds
    t = by_tpl["accept_newest_answer"]
    acc = {c.fact: c.value for c in t.verifier if c.op == "eq"}
    w = _world(t)
    newest = max(answers_to(w, t.target), key=lambda a: w.entities[a]["posted"])
    assert acc == {f"accepted.{t.target}": newest}


def test_detail_only_targets_need_the_question_page() -> None:
    detail = set(SITE.visibility.detail_fields)
    for t in site_tasks("qa"):
        if t.hard_negatives:
            assert {c.field for c in t.info_constraints if c.level == "detail"} & detail, \
                t.template
