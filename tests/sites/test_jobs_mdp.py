"""Job Network MDP: counts from WebSTEP Tables 4/5/8, the job + profile world, transitions,
facts, invalid actions and the parameter-by-parameter verifiers."""

from __future__ import annotations

import collections

import pytest

from support import play, site_tasks
from webmdp.core import Action, SurfaceKind, World
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.sites.jobs.state import JobsState
from webmdp.sites.jobs.world import COMPANY_SIZE
from webmdp.tasks import Task

SITE = get_site("jobs")


def _world(task: Task) -> World:
    return World.from_dict(task.world)


def _run(world: World, *actions: Action) -> JobsState:
    s = play(SITE, world, *actions)
    assert isinstance(s, JobsState)
    return s


def test_declared_counts_match_the_paper() -> None:
    kinds = {s.name: s.kind for s in SITE.surfaces}
    assert len(kinds) == 6
    assert kinds["JobList"] == kinds["ConnectionList"] == SurfaceKind.CARD
    assert kinds["JobDetail"] == kinds["ProfileView"] == SurfaceKind.DETAIL
    assert kinds["Messaging"] == SurfaceKind.COMMIT
    assert len(SITE.actions) >= 26
    assert len(SITE.templates) >= 12
    assert len(SITE.visibility.card_fields) == 7
    assert len(SITE.visibility.detail_fields) == 10  # paper: 9; a member's city is its own
    skills = {a.skill for a in SITE.actions}
    for s in ("tab_navigation", "pagination", "job_query_formulation",
              "people_query_formulation", "location_filtering", "job_type_filtering",
              "remote_filtering", "salary_filtering", "experience_filtering", "sort_usage",
              "filter_clearing", "job_inspection", "profile_inspection", "job_application",
              "connection_request", "messaging", "job_save_action", "conversation_management",
              "feed_interaction"):
        assert s in skills, s


def test_world_holds_jobs_and_profiles() -> None:
    w = _world(site_tasks("jobs")[0])
    jobs = [e for e in w.entities.values() if e["id"].startswith("JOB-")]
    people = [e for e in w.entities.values() if e["id"].startswith("PRF-")]
    assert jobs and people and len(jobs) + len(people) == len(w.entities)
    for j in jobs:
        assert j["company_size"] == COMPANY_SIZE[j["company"]]
        assert j["team"] in j["description"] and len(j["skills"]) == 4
    for p in people:
        assert p["headline"] == f"{p['position']} at {p['company']}"


def test_targets_cover_jobs_and_profiles_and_hard_negatives_are_even() -> None:
    tasks = site_tasks("jobs")
    assert len(tasks) == 180
    assert {t.target[:3] for t in tasks} == {"JOB", "PRF"}
    per = collections.Counter((t.template, len(t.hard_negatives)) for t in tasks)
    for name in SITE.templates:
        counts = [per[(name, k)] for k in range(4)]
        assert max(counts) - min(counts) <= 1, (name, counts)


RANKED: dict[str, set[str]] = {}
"""Superlatives rank by a card field: their hard negatives may beat the target on it."""


def test_hard_negatives_share_the_card_fields_the_instruction_names() -> None:
    for t in site_tasks("jobs"):
        w = _world(t)
        target = w.entities[t.target]
        card = {c.field for c in t.info_constraints if c.level == "card"}
        card -= RANKED.get(t.template, set())
        for h in t.hard_negatives:
            for f in card & set(target):
                assert w.entities[h][f] == target[f], (t.id, f)


def test_filters_sorts_and_pages() -> None:
    w = _world(site_tasks("jobs")[5])
    s = _run(w, Action("GoToJobs"))
    first = SITE.observe(s, w)
    assert first.context["pages"] == 3 and len(first.entities) == 10
    nxt = SITE.observe(SITE.step(s, Action("NextPage"), w), w)
    assert {e.id for e in nxt.entities}.isdisjoint({e.id for e in first.entities})
    s = _run(w, Action("GoToJobs"), Action("ToggleWorkplace", {"workplace": "Remote"}),
             Action("SortBy", {"order": "salary"}))
    pay = [e.fields["salary"] for e in SITE.observe(s, w).entities]
    assert pay == sorted(pay, reverse=True)
    assert all(e.fields["workplace"] == "Remote" for e in SITE.observe(s, w).entities)
    s = _run(w, Action("GoToJobs"), Action("SetMinSalary", {"salary": "140"}),
             Action("ToggleJobType", {"job_type": "Contract"}))
    for e in SITE.observe(s, w).entities:
        assert w.entities[e.id]["salary"] >= 140 and w.entities[e.id]["job_type"] == "Contract"
    s = SITE.step(s, Action("ClearFilters"), w)
    assert s.filters == () and SITE.observe(s, w).context["total_results"] == 30


def test_people_search_matches_name_headline_and_city() -> None:
    w = _world(site_tasks("jobs")[100])
    p = next(e for e in w.entities.values() if e["id"].startswith("PRF-"))
    for q in (p["name"], p["company"], p["city"].split(",")[0]):
        s = _run(w, Action("SearchPeople", {"query": q}))
        assert s.surface == "ConnectionList"
        assert p["id"] in [e.id for e in SITE.observe(s, w).entities]


def _open_first_job(w: World) -> JobsState:
    s = _run(w, Action("GoToJobs"))
    jid = SITE.observe(s, w).entities[0].id
    s = SITE.step(s, Action("OpenJob", {"job_id": jid}), w)
    assert isinstance(s, JobsState)
    return s


def test_save_and_easy_apply_record_every_field() -> None:
    w = _world(site_tasks("jobs")[0])
    s = _open_first_job(w)
    jid = s.focus or ""
    obs = SITE.observe(s, w)
    assert {"skills", "benefits", "description", "company_size"} <= set(obs.entities[0].fields)
    s = SITE.step(s, Action("SaveJob"), w)
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("SaveJob"), w)
    s = SITE.step(s, Action("OpenEasyApply"), w)
    with pytest.raises(InvalidAction):  # the page behind the dialog is inert
        SITE.step(s, Action("BackToJobs"), w)
    s = SITE.step(s, Action("SubmitApplication", {"phone": "415-555-0132",
                                                  "resume": "CV_Short.pdf", "years": 6}), w)
    f = SITE.facts(s)
    assert f["saved"] == [jid] and f["applied"] == [jid]
    assert (f[f"application.{jid}.phone"], f[f"application.{jid}.resume"],
            f[f"application.{jid}.years"]) == ("415-555-0132", "CV_Short.pdf", 6)
    assert Action("OpenEasyApply") not in SITE.observe(s, w).available
    s = SITE.step(s, Action("UnsaveJob"), w)
    assert SITE.facts(s)["saved"] == []


def test_connect_message_and_like() -> None:
    w = _world(site_tasks("jobs")[150])
    author = SITE.observe(SITE.initial_state(w), w).entities[0].id
    s = _run(w, Action("LikePost", {"profile_id": author}))
    assert SITE.facts(s)["liked"] == [author]
    assert SITE.facts(SITE.step(s, Action("LikePost", {"profile_id": author}), w))["liked"] == []
    s = SITE.step(s, Action("OpenProfile", {"profile_id": author}), w)
    assert s.surface == "ProfileView" and s.origin == "Feed"
    s = SITE.step(s, Action("OpenConnect"), w)
    s = SITE.step(s, Action("SendInvitation", {"note": "Hi there"}), w)
    assert SITE.facts(s)["invited"] == [author]
    assert SITE.facts(s)[f"invitation.{author}.note"] == "Hi there"
    s = SITE.step(s, Action("MessageProfile"), w)
    assert s.surface == "Messaging" and s.conversation == author
    s = SITE.step(s, Action("SendMessage", {"text": "Hello!"}), w)
    assert SITE.facts(s)[f"messages.{author}"] == ["Hello!"]
    assert SITE.step(s, Action("GoToFeed"), w).surface == "Feed"
    back = SITE.step(_run(w, Action("OpenProfile", {"profile_id": author})),
                     Action("BackToList"), w)
    assert back.surface == "Feed"


@pytest.mark.parametrize("action", [
    Action("OpenJob", {"job_id": "JOB-001"}),
    Action("SaveJob"),
    Action("SubmitApplication", {"phone": "1", "resume": "CV_Short.pdf", "years": 1}),
    Action("SendInvitation", {"note": "hi"}),
    Action("SendMessage", {"text": "hi"}),
    Action("SearchJobs", {"query": "engineer"}),
    Action("OpenProfile", {"profile_id": "JOB-001"}),
    Action("CloseDialog"),
    Action("SearchPeople", {"query": "  "}),
])
def test_invalid_actions_on_the_feed_raise(action: Action) -> None:
    w = _world(site_tasks("jobs")[0])
    with pytest.raises(InvalidAction):
        SITE.step(SITE.initial_state(w), action, w)


def test_commits_are_verified_parameter_by_parameter() -> None:
    by_tpl = {t.template: t for t in site_tasks("jobs")}
    apply = by_tpl["save_and_apply"]
    facts = {c.fact for c in apply.verifier}
    t = apply.target
    assert {"saved", "applied", f"application.{t}.phone", f"application.{t}.resume",
            f"application.{t}.years"} <= facts
    invite = {c.fact: c.value for c in by_tpl["connect_alum_with_note"].verifier}
    assert invite[f"invitation.{by_tpl['connect_alum_with_note'].target}.note"]
    msg = by_tpl["message_namesake"]
    assert any(c.fact == f"messages.{msg.target}" and c.op == "contains" for c in msg.verifier)


def test_wrong_application_field_fails_the_verifier() -> None:
    from webmdp.tasks.replay import replay
    from webmdp.tasks.verifier import verify

    task = next(t for t in site_tasks("jobs") if t.template == "apply_remote_with_skill")
    w = _world(task)
    oracle = task.oracle_actions()
    bad = Action("SubmitApplication", {**oracle[-1].params, "years": 99 % 50 + 1})
    assert bad.params["years"] != oracle[-1].params["years"]
    final = replay(SITE, w, [*oracle[:-1], bad]).final
    verdict = verify(task.verifier, SITE.facts(final))
    assert not all(verdict.values())
    assert [k for k, ok in verdict.items() if not ok] == [
        f"application years is {oracle[-1].params['years']!r}"]
