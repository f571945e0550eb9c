"""Mail transitions: preconditions, list semantics, email management, compose, facts."""

from __future__ import annotations

import contextlib
import copy
import random

import pytest

from webmdp.core.model import World, WorldSpec
from webmdp.core.spec import Action
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.sites.mail import catalog as C
from webmdp.sites.mail.state import MailState
from webmdp.sites.mail.world import address, email_of

SITE = get_site("mail")
PIN = (
    {"role": "target", "from_name": "Priya Patel", "subject": "Q3 budget review", "age": 30,
     "folder": "inbox", "starred": False, "read": False, "labels": [], "n_earlier": 2,
     "attachments": ["budget_q3.xlsx"], "cc": [address("Maria Gomez")]},
    {"role": "companion", "from_name": "David Kim", "subject": "Launch checklist", "age": 60,
     "folder": "inbox", "starred": True, "read": True, "labels": ["Work"], "n_earlier": 0,
     "attachments": [], "cc": [], "reply_to": "launch@cobaltsys.com",
     "to": [f"{C.USER_NAME} <{C.USER_EMAIL}>", address("Emily Chen")]},
    {"role": "companion", "from_name": "Omar Haddad", "subject": "Invoice reminder", "age": 90,
     "folder": "trash", "attachments": []},
)


@pytest.fixture(scope="module")
def world() -> World:
    return SITE.generate_world(WorldSpec(PIN, 31), random.Random(3))


def _id(world: World, sender: str) -> str:
    return next(i for i, e in world.entities.items() if e["from_name"] == sender
                and e["role"] != "filler")


def run(world: World, *actions: tuple, state: MailState | None = None) -> MailState:
    s = state or SITE.initial_state(world)
    for name, *params in actions:
        s = SITE.step(s, Action(name, params[0] if params else {}), world)
    assert isinstance(s, MailState)
    return s


def test_initial_state_is_inbox(world: World) -> None:
    s = SITE.initial_state(world)
    obs = SITE.observe(s, world)
    assert obs.surface == "ThreadList" and s.folder == "inbox"
    assert all(e.fields["folder"] == "inbox" for e in obs.entities)
    ages = [world.entities[e.id]["age"] for e in obs.entities]
    assert ages == sorted(ages) and _id(world, "Priya Patel") == obs.entities[0].id
    assert SITE.browser_back(s) is None


@pytest.mark.parametrize("actions, message", [
    ((("CloseThread",),), "no thread is open"),
    ((("Send",),), "no draft"),
    ((("Reply",),), "no thread is open"),
    ((("OpenThread", {"thread_id": "THR-999"}),), "not on this page"),
    ((("ApplyFilter", {"filter": "unread"}), ("ApplyFilter", {"filter": "unread"})), "already"),
    ((("ClearFilters",),), "no filter"),
    ((("ClearSearch",),), "no active search"),
    ((("PrevPage",),), "already on the first page"),
    ((("SearchEmails", {"query": "   "}),), "empty query"),
    ((("BulkArchive",),), "select threads first"),
    ((("ClearSelection",),), "nothing is selected"),
    ((("Compose",), ("SwitchFolder", {"folder": "sent"})), "discard the open draft"),
    ((("Compose",), ("Send",)), "at least one recipient"),
    ((("Compose",), ("AddRecipient", {"address": "not-an-address"})), "not a valid email"),
    ((("Compose",), ("RemoveCc", {"address": "x@y.com"})), "is not listed"),
    ((("Frobnicate",),), "unknown action"),
    ((("SwitchFolder", {"folder": "drafts"}),), "must be one of"),
    ((("Star", {"thread_id": 5}),), "must be entity"),
])
def test_invalid_actions_raise(world: World, actions: tuple, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        run(world, *actions)


def test_thread_view_preconditions(world: World) -> None:
    tid, other = _id(world, "Priya Patel"), _id(world, "David Kim")
    s = run(world, ("OpenThread", {"thread_id": tid}))
    assert s.surface == "ThreadView" and s.focus == tid and tid not in s.unread
    assert SITE.browser_back(s) == Action("CloseThread")
    for name, params in [("Star", {"thread_id": other}), ("ExpandMessage", {"index": 2}),
                         ("CollapseMessage", {"index": 0}), ("ApplyFilter", {"filter": "unread"}),
                         ("MoveToInbox", {"thread_id": tid}), ("MarkRead", {"thread_id": tid}),
                         ("RemoveLabel", {"thread_id": tid, "label": "Work"})]:
        with pytest.raises(InvalidAction):
            run(world, (name, params), state=s)
    s2 = run(world, ("ExpandMessage", {"index": 1}), ("ExpandAll",), state=s)
    assert s2.expanded == (0, 1)
    with pytest.raises(InvalidAction):
        run(world, ("ExpandAll",), state=s2)
    obs = SITE.observe(s2, world)
    msgs = obs.entities[0].fields["messages"]
    assert [m["expanded"] for m in msgs] == [True, True] and all(m["text"] for m in msgs)
    collapsed = SITE.observe(s, world).entities[0].fields["messages"]
    assert all(m["text"] == "" and m["preview"] for m in collapsed)
    back = run(world, ("CloseThread",), state=s2)
    assert back.surface == "ThreadList" and back.expanded == () and back.focus is None


def test_star_archive_label_delete_facts(world: World) -> None:
    tid, kim = _id(world, "Priya Patel"), _id(world, "David Kim")
    s = run(world, ("Star", {"thread_id": tid}))
    assert tid in SITE.facts(s)["starred"]
    with pytest.raises(InvalidAction, match="already starred"):
        run(world, ("Star", {"thread_id": tid}), state=s)
    s = run(world, ("OpenThread", {"thread_id": tid}), ("AddLabel", {"thread_id": tid,
                                                                     "label": "Finance"}),
            ("Archive", {"thread_id": tid}), state=s)
    f = SITE.facts(s)
    assert f[f"labels.{tid}"] == ["Finance"] and tid in f["labeled.Finance"]
    assert tid in f["archived"] and tid not in f["inbox"] and s.surface == "ThreadList"
    assert s.notice and tid not in [e.id for e in SITE.observe(s, world).entities]
    s = run(world, ("Unstar", {"thread_id": kim}), ("Delete", {"thread_id": kim}), state=s)
    f = SITE.facts(s)
    assert kim in f["deleted"] and kim not in f["starred"] and s.notice
    s = run(world, ("SwitchFolder", {"folder": "trash"}), ("OpenThread", {"thread_id": kim}),
            ("MoveToInbox", {"thread_id": kim}), state=s)
    assert kim in SITE.facts(s)["inbox"] and kim not in SITE.facts(s)["deleted"]


def test_search_scope_operators_and_filters(world: World) -> None:
    tid, trashed = _id(world, "Priya Patel"), _id(world, "Omar Haddad")

    def ids(*actions: tuple) -> list[str]:
        return [e.id for e in SITE.observe(run(world, *actions), world).entities]

    assert tid in ids(("SearchEmails", {"query": "priya patel budget"}))
    assert tid in ids(("SearchEmails", {"query": "budget_q3.xlsx"}))
    assert tid in ids(("SearchEmails", {"query": "from:priya has:attachment"}))
    assert trashed not in ids(("SearchEmails", {"query": "Omar Haddad invoice"}))
    assert trashed in ids(("SwitchFolder", {"folder": "trash"}))
    found = ids(("SearchEmails", {"query": "from:priya"}))
    assert all(world.entities[i]["from_name"] == "Priya Patel" for i in found)
    only_att = ids(("ApplyFilter", {"filter": "has_attachment"}))
    assert tid in only_att and all(world.entities[i]["attachments"] for i in only_att)
    starred = ids(("SwitchFolder", {"folder": "starred"}))
    assert _id(world, "David Kim") in starred
    labeled = ids(("OpenLabel", {"label": "Work"}))
    assert _id(world, "David Kim") in labeled
    s = run(world, ("SearchEmails", {"query": "zzz-nothing"}), ("ClearSearch",))
    assert s.query == "" and s.folder == "inbox"


def test_pagination(world: World) -> None:
    s = run(world, ("SearchEmails", {"query": "hi"}))
    obs = SITE.observe(s, world)
    total = obs.context["total"]
    assert total > C.PAGE_SIZE and len(obs.entities) == C.PAGE_SIZE
    assert (obs.context["first"], obs.context["last"]) == (1, C.PAGE_SIZE)
    s2 = run(world, ("NextPage",), state=s)
    obs2 = SITE.observe(s2, world)
    assert obs2.context["first"] == C.PAGE_SIZE + 1 and obs2.context["last"] == total
    assert not {e.id for e in obs.entities} & {e.id for e in obs2.entities}
    with pytest.raises(InvalidAction):
        run(world, ("NextPage",), state=s2)
    with pytest.raises(InvalidAction, match="not on this page"):
        run(world, ("OpenThread", {"thread_id": obs.entities[0].id}), state=s2)


def test_bulk_actions(world: World) -> None:
    s = SITE.initial_state(world)
    a, b = (e.id for e in SITE.observe(s, world).entities[:2])
    s = run(world, ("SelectThread", {"thread_id": a}), ("SelectThread", {"thread_id": b}),
            ("DeselectThread", {"thread_id": b}), ("SelectThread", {"thread_id": b}),
            ("BulkLabel", {"label": "Travel"}), state=s)
    f = SITE.facts(s)
    assert f["labeled.Travel"] == sorted({a, b} | set(f["labeled.Travel"]))
    assert {a, b} <= set(f["labeled.Travel"]) and s.selected == frozenset()
    s = run(world, ("SelectAll",), ("BulkStar",), state=s)
    assert {e.id for e in SITE.observe(s, world).entities} <= set(SITE.facts(s)["starred"])
    s = run(world, ("SelectThread", {"thread_id": a}), ("BulkArchive",), state=s)
    assert a in SITE.facts(s)["archived"] and not s.selected


def test_reply_all_forward_and_send_facts(world: World) -> None:
    kim = _id(world, "David Kim")
    s = run(world, ("OpenThread", {"thread_id": kim}), ("ReplyAll",))
    assert s.surface == "ComposeModal"
    assert s.to == ("launch@cobaltsys.com", email_of("Emily Chen"))
    assert C.USER_EMAIL not in s.to and s.subject == "Re: Launch checklist"
    s = run(world, ("RemoveRecipient", {"address": s.to[1]}),
            ("AddCc", {"address": "Zoe <z@x.io>"}), ("SetBody", {"body": "  Sounds good.  "}),
            ("Send",), state=s)
    f = SITE.facts(s)
    assert s.surface == "ThreadView" and s.focus == kim and f["sent.count"] == 1
    assert (f["sent.0.mode"], f["sent.0.thread"], f["sent.0.to"], f["sent.0.cc"],
            f["sent.0.body"]) == ("reply_all", kim, ["launch@cobaltsys.com"], ["z@x.io"],
                                  "Sounds good.")
    assert f["sent.last.body"] == "Sounds good." and f["sent.threads"] == [kim]
    s = run(world, ("Forward",), ("AddRecipient", {"address": "A@B.com"}), ("DiscardDraft",),
            state=s)
    assert SITE.facts(s)["sent.count"] == 1 and s.surface == "ThreadView"
    s = run(world, ("CloseThread",), ("Compose",), ("AddRecipient", {"address": "a@b.com"}),
            ("SetSubject", {"subject": "Hello"}), ("Send",), state=s)
    f = SITE.facts(s)
    assert (f["sent.1.mode"], f["sent.1.subject"], f["sent.1.thread"]) == ("new", "Hello", "")
    assert s.surface == "ThreadList"


def test_transitions_are_pure(world: World) -> None:
    """Replaying the same (state, action) pairs gives equal states and leaves the old ones
    untouched (throughput is benchmarks/bench_mdp.py's job, never a test's)."""
    s0 = SITE.initial_state(world)
    tid = _id(world, "Priya Patel")
    a = Action("Star", {"thread_id": tid})
    assert SITE.step(s0, a, world) == SITE.step(s0, a, world)
    assert tid not in s0.starred  # the old state is untouched
    rng = random.Random(0)
    pairs = []
    s = s0
    for _ in range(400):
        act = rng.choice(SITE.observe(s, world).available)
        if any(p.text for p in SITE.action_spec(act.name).params):
            continue
        pairs.append((s, act))
        with contextlib.suppress(InvalidAction):
            s = SITE.step(s, act, world)
    for st, act in pairs:
        before = copy.deepcopy(st)
        with contextlib.suppress(InvalidAction):
            assert SITE.step(st, act, world) == SITE.step(st, act, world)
        assert st == before


def test_page_clamps_when_the_list_shrinks(world: World) -> None:
    s = run(world, ("SearchEmails", {"query": "hi"}), ("NextPage",), ("SelectAll",))
    assert s.page == 2
    s = run(world, ("BulkDelete",), state=s)
    obs = SITE.observe(s, world)
    assert s.page == 1 and obs.context["pages"] == 1 and obs.entities
    a, b = (e.id for e in obs.entities[:2])
    s = run(world, ("SelectThread", {"thread_id": a}), ("SelectThread", {"thread_id": b}),
            ("Archive", {"thread_id": a}), state=s)
    assert s.selected == frozenset({b}) and a in SITE.facts(s)["archived"]
