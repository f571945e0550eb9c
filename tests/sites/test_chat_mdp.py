"""Team Chat MDP: counts from WebSTEP Tables 4/5/8, the world's threads, transitions between
channel, search, thread pane, profile and DMs, facts of every commit and invalid actions."""

from __future__ import annotations

import collections

import pytest

from support import play, site_tasks
from webmdp.core import Action, SurfaceKind, World
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.sites.chat import vocab as V
from webmdp.sites.chat.mdp import CHANNEL_PAGE, channel_ids
from webmdp.sites.chat.state import ChatState
from webmdp.tasks import Task
from webmdp.tasks.generate import MAX_HARD_NEGATIVES

SITE = get_site("chat")


def _world(task: Task) -> World:
    return World.from_dict(task.world)


def _run(world: World, *actions: Action) -> ChatState:
    s = play(SITE, world, *actions)
    assert isinstance(s, ChatState)
    return s


def _thread(world: World, *, mine: bool = False) -> tuple[ChatState, str]:
    """Open the first thread of a task channel (one of your own messages when ``mine``)."""
    for c in V.TASK_CHANNELS:
        for mid in channel_ids(world, c):
            if not mine or world.entities[mid]["author"] == V.ME:
                return _run(world, Action("OpenChannel", {"channel": c}),
                            Action("OpenThread", {"message_id": mid})), mid
    raise AssertionError("no message found")


def test_declared_counts_match_the_paper() -> None:
    kinds = {s.name: s.kind for s in SITE.surfaces}
    assert kinds["ChannelView"] == kinds["SearchResults"] == SurfaceKind.CARD
    assert kinds["ThreadView"] == SurfaceKind.DETAIL
    assert kinds["DirectMessageView"] == SurfaceKind.COMMIT
    assert len(SITE.actions) >= 24
    assert len(SITE.templates) >= 12
    assert len(SITE.visibility.card_fields) == 6
    assert len(SITE.visibility.detail_fields) == 5
    skills = {a.skill for a in SITE.actions}
    for s in ("channel_navigation", "dm_navigation", "scroll_navigation",
              "search_result_navigation", "search_query", "search_clear", "thread_inspection",
              "member_inspection", "thread_close", "member_close", "send_channel_message",
              "send_thread_reply", "send_dm", "message_reaction", "message_pin",
              "message_edit", "message_delete", "channel_mute", "commit_timing"):
        assert s in skills, s


def test_site_makes_180_tasks_with_hard_negatives_spread() -> None:
    tasks = site_tasks("chat")
    assert len(tasks) == 180
    per = collections.defaultdict(collections.Counter)
    for t in tasks:
        per[t.template][len(t.hard_negatives)] += 1
        assert all(h.startswith("MSG-") for h in t.hard_negatives)
    assert len(per) == len(SITE.templates)
    for counts in per.values():
        assert set(counts) == set(range(MAX_HARD_NEGATIVES + 1))
        assert max(counts.values()) - min(counts.values()) <= 1


def test_hard_negatives_share_the_card_and_differ_in_the_thread() -> None:
    for t in site_tasks("chat"):
        w = _world(t)
        target = w.entities[t.target]
        for h in t.hard_negatives:
            neg = w.entities[h]
            assert neg["text"] == target["text"]
            if t.template == "reply_thread_mentions":
                kw = t.params["keyword"]
                assert any(kw in r[1] for r in target["replies"])
                assert not any(kw in r[1] for r in neg["replies"])
            if t.template == "pin_reacted_by":
                assert not any(t.params["member"] in n for _, n in neg["reactors"])


def test_threads_are_consistent() -> None:
    w = _world(site_tasks("chat")[0])
    for e in w.entities.values():
        assert e["reply_count"] == len(e["replies"])
        assert e["repliers"] == list(dict.fromkeys(r[0] for r in e["replies"]))
        assert e["reactions"] == [[emoji, len(names)] for emoji, names in e["reactors"]]
        assert all(r[2] > e["posted"] for r in e["replies"])
        assert e["last_reply"] == max((r[2] for r in e["replies"]), default=0)
        for f in e["thread_files"]:
            assert any(f in r[1] for r in e["replies"])
    assert len(channel_ids(w, V.BUSY_CHANNEL)) > CHANNEL_PAGE


def test_channel_pages_load_older_messages() -> None:
    w = _world(site_tasks("chat")[3])
    first = SITE.observe(_run(w), w)
    assert first.surface == "ChannelView" and len(first.entities) == CHANNEL_PAGE
    s = _run(w, Action("ShowOlderMessages"))
    older = SITE.observe(s, w)
    assert {e.id for e in older.entities}.isdisjoint({e.id for e in first.entities})
    assert max(e.fields["posted"] for e in older.entities) <= min(
        e.fields["posted"] for e in first.entities)
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("ShowOlderMessages"), w)
    assert _run(w, Action("ShowOlderMessages"), Action("ShowNewerMessages")).cpage == 1


def test_thread_pane_alone_shows_detail_fields() -> None:
    w = _world(site_tasks("chat")[5])
    s, mid = _thread(w)
    obs = SITE.observe(s, w)
    detail = set(SITE.visibility.detail_fields)
    for e in obs.entities:
        assert (detail <= set(e.fields)) == (e.id == mid)
    back = SITE.step(s, Action("CloseThread"), w)
    assert back.surface == "ChannelView"
    assert all(not detail & set(e.fields) for e in SITE.observe(back, w).entities)


def test_search_filters_sort_and_result_returns_to_results() -> None:
    t = next(t for t in site_tasks("chat") if t.template == "search_newest_react")
    w = _world(t)
    s = _run(w, Action("Search", {"query": t.params["title"]}))
    obs = SITE.observe(s, w)
    assert obs.surface == "SearchResults"
    assert all(e.fields["text"] == t.params["title"] for e in obs.entities)
    s = SITE.step(s, Action("SortBy", {"order": "newest"}), w)
    posted = [e.fields["posted"] for e in SITE.observe(s, w).entities]
    assert posted == sorted(posted, reverse=True)
    channel = w.entities[t.target]["channel"]
    s = SITE.step(s, Action("SetSearchChannel", {"channel": channel}), w)
    assert all(e.fields["channel"] == channel for e in SITE.observe(s, w).entities)
    s = SITE.step(s, Action("OpenResult", {"message_id": t.target}), w)
    assert s.surface == "ThreadView" and s.channel == channel and s.focus == t.target
    s = SITE.step(s, Action("CloseThread"), w)
    assert s.surface == "SearchResults" and s.query == t.params["title"]
    s = SITE.step(s, Action("OpenChannel", {"channel": "random"}), w)
    assert (s.query, s.filters) == ("", ())


def test_thread_commits_become_facts() -> None:
    w = _world(site_tasks("chat")[7])
    s, mid = _thread(w)
    s = SITE.step(s, Action("ReplyInThread", {"text": "On it"}), w)
    s = SITE.step(s, Action("AddReaction", {"message_id": mid, "emoji": "eyes"}), w)
    s = SITE.step(s, Action("RemindMe", {"message_id": mid, "when": "Tomorrow"}), w)
    pin = "UnpinMessage" if w.entities[mid]["pinned"] else "PinMessage"
    s = SITE.step(s, Action(pin, {"message_id": mid}), w)
    f = SITE.facts(s)
    assert f["replied"] == [mid] and f[f"reply.{mid}.text"] == "On it"
    assert f["reacted"] == [mid] and f[f"reaction.{mid}.emoji"] == ["eyes"]
    assert f[f"reminder.{mid}.when"] == "Tomorrow"
    assert (mid in f["pinned"]) != bool(w.entities[mid]["pinned"])
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("AddReaction", {"message_id": mid, "emoji": "eyes"}), w)
    s = SITE.step(s, Action("RemoveReaction", {"message_id": mid, "emoji": "eyes"}), w)
    assert SITE.facts(s)["reacted"] == []


def test_edit_and_delete_only_your_own_messages() -> None:
    w = _world(site_tasks("chat")[100])
    s, other = _thread(w)
    if w.entities[other]["author"] != V.ME:
        with pytest.raises(InvalidAction):
            SITE.step(s, Action("EditMessage", {"message_id": other, "text": "x"}), w)
        with pytest.raises(InvalidAction):
            SITE.step(s, Action("DeleteMessage", {"message_id": other}), w)
    s, mid = _thread(w, mine=True)
    s = SITE.step(s, Action("EditMessage", {"message_id": mid, "text": "Fixed"}), w)
    assert SITE.facts(s)[f"edit.{mid}.text"] == "Fixed"
    s = SITE.step(s, Action("DeleteMessage", {"message_id": mid}), w)
    assert s.surface == "ChannelView" and SITE.facts(s)["deleted"] == [mid]
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("OpenThread", {"message_id": mid}), w)


def test_profile_dm_post_and_mute() -> None:
    w = _world(site_tasks("chat")[9])
    s, mid = _thread(w)
    author = w.entities[mid]["author"]
    s = SITE.step(s, Action("OpenMember", {"member": author}), w)
    assert s.surface == "MemberProfile" and s.member == author
    assert SITE.step(s, Action("CloseMember"), w).surface == "ThreadView"
    s = _run(w, Action("OpenDM", {"member": "Grace Kim"}), Action("SendDM", {"text": "Hi"}))
    assert SITE.facts(s)["dm.Grace Kim.text"] == "Hi" and SITE.facts(s)["dm_to"] == ["Grace Kim"]
    s = _run(w, Action("OpenChannel", {"channel": "design"}),
             Action("SendMessage", {"text": "Ship it"}),
             Action("MuteChannel", {"channel": "design"}))
    f = SITE.facts(s)
    assert f["post.design.text"] == "Ship it" and f["muted"] == ["design"]
    s = SITE.step(s, Action("MuteChannel", {"channel": "design"}), w)
    assert SITE.facts(s)["muted"] == []


def test_multi_parameter_commits_are_verified_one_by_one() -> None:
    by_tpl = {t.template: t for t in site_tasks("chat")}
    remind = {c.fact: c.value for c in by_tpl["remind_replied_by"].verifier}
    t = by_tpl["remind_replied_by"].target
    assert remind[f"reminder.{t}.when"] == by_tpl["remind_replied_by"].params["when"]
    react = by_tpl["react_thread_with_file"]
    assert {c.fact for c in react.verifier} >= {"reacted", f"reaction.{react.target}.emoji"}
    dm = by_tpl["dm_author_replied_by"]
    facts = [c.fact for c in dm.verifier]
    assert facts.count("dm_to") == len(dm.hard_negatives)
    assert any(f.startswith("dm.") and f.endswith(".text") for f in facts)


@pytest.mark.parametrize("action", [
    Action("CloseThread"),
    Action("ReplyInThread", {"text": "hi"}),
    Action("SendDM", {"text": "hi"}),
    Action("OpenResult", {"message_id": "MSG-001"}),
    Action("NextPage"),
    Action("SendMessage", {"text": "   "}),
    Action("PinMessage", {"message_id": "MSG-001"}),
    Action("CloseMember"),
])
def test_invalid_actions_in_the_channel_raise(action: Action) -> None:
    w = _world(site_tasks("chat")[0])
    with pytest.raises(InvalidAction):
        SITE.step(SITE.initial_state(w), action, w)


def test_thread_of_another_channel_cannot_be_opened() -> None:
    w = _world(site_tasks("chat")[0])
    foreign = channel_ids(w, "random")[0]
    with pytest.raises(InvalidAction):
        SITE.step(SITE.initial_state(w), Action("OpenThread", {"message_id": foreign}), w)
