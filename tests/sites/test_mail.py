"""Mail site: declared data, task generation, oracles, visibility and hard negatives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from webmdp.core.model import World, WorldSpec
from webmdp.core.spec import SkillCategory, SurfaceKind
from webmdp.sites import get_site
from webmdp.tasks import Task, generate_site_tasks, verify
from webmdp.tasks.replay import replay
from webmdp.tasks.template import Draft

SITE = get_site("mail")
TABLE7 = {
    SkillCategory.NAVIGATE: {"folder_navigation", "pagination", "backtrack_navigation"},
    SkillCategory.SEARCH: {"search_refinement"},
    SkillCategory.FILTER: {"filter_application"},
    SkillCategory.INSPECT: {"thread_inspection", "message_expansion"},
    SkillCategory.COMMIT: {"compose_setup", "compose_field_entry", "email_management",
                           "bulk_management", "send_commit"},
}
# per template: the parameter whose value decides between target and hard negatives
DECISIVE = {"find_email_extract": "keyword", "reply_after_expanding": "suggestion",
            "forward_attachment": "file", "label_by_cc": "cc", "delete_by_signature": "title",
            "email_reply_to_address": "list"}


def _world(task: Task) -> World:
    return World.from_dict(task.world)


def _fields(task: Task, level: str) -> set[str]:
    return {c.field for c in task.info_constraints if c.entity == task.target and c.level == level}


# -- declared data ------------------------------------------------------------------------------
def test_surfaces_and_kinds() -> None:
    kinds = {s.name: s.kind for s in SITE.surfaces}
    assert kinds == {"ThreadList": SurfaceKind.CARD, "ThreadView": SurfaceKind.DETAIL,
                     "ComposeModal": SurfaceKind.COMMIT}


def test_action_space_matches_table_7() -> None:
    names = [a.name for a in SITE.actions]
    assert len(names) >= 36 and len(set(names)) == len(names)
    assert {c: set(s) for c, s in SITE.skills().items()} == TABLE7
    required = {"SwitchFolder", "SearchEmails", "ClearSearch", "ApplyFilter", "ClearFilters",
                "NextPage", "PrevPage", "OpenThread", "CloseThread", "ExpandMessage", "Star",
                "Unstar", "Archive", "AddLabel", "RemoveLabel", "MarkRead", "MarkUnread",
                "Delete", "SelectThread", "DeselectThread", "SelectAll", "ClearSelection",
                "BulkArchive", "BulkDelete", "BulkMarkRead", "BulkStar", "BulkLabel", "Reply",
                "ReplyAll", "Forward", "Compose", "AddRecipient", "RemoveRecipient", "AddCc",
                "SetSubject", "SetBody", "Send", "DiscardDraft"}
    assert required <= set(names)
    spec = SITE.action_spec
    assert (spec("OpenThread").category, spec("OpenThread").skill) == (
        SkillCategory.INSPECT, "thread_inspection")
    assert (spec("CloseThread").category, spec("CloseThread").skill) == (
        SkillCategory.NAVIGATE, "backtrack_navigation")
    assert (spec("Star").category, spec("Star").skill) == (SkillCategory.COMMIT,
                                                           "email_management")
    assert spec("Send").skill == "send_commit"
    assert spec("SwitchFolder").param("folder").choices[:3] == ("inbox", "starred", "sent")
    assert spec("SearchEmails").param("query").text


def test_visibility_partition() -> None:
    vis = SITE.visibility
    assert len(vis.card_fields) == 10 and len(vis.detail_fields) == 9
    assert not set(vis.card_fields) & set(vis.detail_fields)
    assert "snippet" in vis.card_fields and "body" in vis.detail_fields
    assert vis.fields_on("ThreadList") == frozenset(vis.card_fields)
    assert vis.fields_on("ThreadView") == frozenset(vis.card_fields + vis.detail_fields)
    assert vis.fields_on("ComposeModal") < vis.fields_on("ThreadView")


def test_world_ids_and_size() -> None:
    tpl = SITE.templates["find_email_extract"]
    import random

    draft = tpl.draft(SITE, random.Random(7), 2)
    world = SITE.generate_world(draft.spec, random.Random(7))
    ids = list(world.entities)
    assert 30 <= len(ids) <= 40
    assert ids == [f"THR-{i:03d}" for i in range(1, len(ids) + 1)]
    roles = Counter(e["role"] for e in world.entities.values())
    assert roles["target"] == 1 and roles["hard_negative"] == 2


# -- generation ---------------------------------------------------------------------------------
def test_generates_180_tasks_evenly(mail_tasks: list[Task]) -> None:
    assert len(mail_tasks) == 180
    assert len({t.id for t in mail_tasks}) == 180
    per_tpl = Counter(t.template for t in mail_tasks)
    assert set(per_tpl) == set(SITE.templates) and len(per_tpl) >= 6
    assert set(per_tpl.values()) == {30}
    hn = Counter(t.complexity.hard_negative_count for t in mail_tasks)
    assert set(hn) == {0, 1, 2, 3} and max(hn.values()) - min(hn.values()) <= 1
    for t in mail_tasks:
        assert len(t.hard_negatives) == t.complexity.hard_negative_count


def test_table18_instruction_pattern(mail_tasks: list[Task]) -> None:
    for t in (t for t in mail_tasks if t.template == "find_email_extract"):
        p = t.params
        assert t.instruction.startswith(f"{p['sender']} has sent you several similar emails. "
                                        f"Find the one that mentions '{p['keyword']}' in its body")
        oracle = [a.name for a in t.oracle]
        assert oracle[0] == "SearchEmails" and t.oracle[0].params["query"] == p["sender"]
        assert oracle[-1] in ("Star", "Archive", "AddLabel")
        assert oracle[-2:-1] == ["OpenThread"] and t.oracle[-2].params["thread_id"] == t.target
        assert oracle.count("OpenThread") == oracle.count("CloseThread") + 1


@pytest.mark.parametrize("name", sorted(SITE.templates))
def test_matches_is_unique_target(name: str, mail_tasks: list[Task]) -> None:
    tpl = SITE.templates[name]
    tasks = [t for t in mail_tasks if t.template == name]
    assert tasks
    for t in tasks:
        draft = Draft(t.instruction, t.params, WorldSpec((), 0), (), ())
        assert tpl.matches(draft, _world(t)) == [t.target]


def test_oracles_replay_and_satisfy_verifier(mail_tasks: list[Task]) -> None:
    for t in mail_tasks:
        world = _world(t)
        result = replay(SITE, world, t.oracle_actions())
        assert result.error is None, (t.id, result.error)
        assert all(verify(t.verifier, SITE.facts(result.final)).values()), t.id
        # the task is not already solved at the start
        start = verify(t.verifier, SITE.facts(SITE.initial_state(world)))
        assert not all(start.values()), t.id
        assert t.oracle[-1].name == SITE.templates[t.template].commit_action or \
            t.template == "find_email_extract"


def test_generation_is_deterministic(mail_tasks: list[Task]) -> None:
    """(Speed is measured by benchmarks/bench_mdp.py, never asserted in a test.)"""
    again = generate_site_tasks(SITE)
    dump = [json.dumps(t.model_dump(mode="json"), sort_keys=True) for t in mail_tasks]
    assert dump == [json.dumps(t.model_dump(mode="json"), sort_keys=True) for t in again]


# -- hard negatives and information gap ---------------------------------------------------------
def test_hard_negatives_share_card_fields_differ_on_detail(mail_tasks: list[Task]) -> None:
    card_all = SITE.visibility.card_fields
    for t in mail_tasks:
        ents = {e["id"]: e for e in t.world["entities"]}
        target = ents[t.target]
        card, detail = _fields(t, "card"), _fields(t, "detail")
        assert card and detail and card <= set(card_all)
        assert detail <= set(SITE.visibility.detail_fields)
        for h in t.hard_negatives:
            neg = ents[h]
            for f in card_all:  # identical on every card field but the date (list order)
                if f != "date":
                    assert neg[f] == target[f], (t.id, h, f)
            assert any(neg[f] != target[f] for f in detail), (t.id, h)


def test_decisive_value_only_on_detail_fields(mail_tasks: list[Task]) -> None:
    card_all = SITE.visibility.card_fields
    for t in mail_tasks:
        value = str(t.params[DECISIVE[t.template]])
        group = {t.target, *t.hard_negatives}
        for e in (e for e in t.world["entities"] if e["id"] in group):
            for f in card_all:
                assert value not in str(e[f]), (t.id, e["id"], f)
        target = next(e for e in t.world["entities"] if e["id"] == t.target)
        assert any(value in json.dumps(target[f]) for f in _fields(t, "detail")), t.id


def test_snippet_never_leaks_keyword(mail_tasks: list[Task]) -> None:
    for t in (t for t in mail_tasks if t.template == "find_email_extract"):
        kw = t.params["keyword"]
        holders = [e["id"] for e in t.world["entities"] if kw in e["body"]]
        assert holders == [t.target]
        assert all(kw not in e["snippet"] and kw not in e["subject"] for e in t.world["entities"])


def test_fillers_do_not_match(mail_tasks: list[Task]) -> None:
    for t in mail_tasks:
        sender, subject = t.params["sender"], t.params.get("subject")
        for e in t.world["entities"]:
            if e["id"] in t.fillers and subject is not None:
                assert (e["from_name"], e["subject"]) != (sender, subject), (t.id, e["id"])
        assert t.target not in t.fillers and not set(t.hard_negatives) & set(t.fillers)


def test_visibility_respected_along_oracles(mail_tasks: list[Task]) -> None:
    vis = SITE.visibility
    for t in mail_tasks[::3]:
        world = _world(t)
        for state in replay(SITE, world, t.oracle_actions()).states:
            obs = SITE.observe(state, world)
            allowed = vis.fields_on(obs.surface)
            assert obs.kind == SITE.surface_kind(obs.surface)
            for ev in obs.entities:
                assert set(ev.fields) <= allowed, (t.id, obs.surface, set(ev.fields) - allowed)
            if obs.surface == "ThreadList":
                assert all(set(ev.fields) == set(vis.card_fields) for ev in obs.entities)
                assert all("body" not in json.dumps(ev.fields) for ev in obs.entities)


def test_access_levels(mail_tasks: list[Task]) -> None:
    for t in mail_tasks:
        expected = "detail" if t.hard_negatives else "filter"
        assert t.complexity.access_level == expected, t.id
        assert t.complexity.oracle_length == len(t.oracle)


def test_generation_ignores_hash_seed() -> None:
    code = ("import hashlib; from webmdp.sites import get_site; "
            "from webmdp.tasks import generate_site_tasks; "
            "ts = generate_site_tasks(get_site('mail'), n=24); "
            "print(hashlib.sha256(''.join(t.model_dump_json() for t in ts).encode()).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}, check=True).stdout
               for seed in ("1", "2")}
    assert len(digests) == 1
