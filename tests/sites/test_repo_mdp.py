"""Code Repo MDP: counts from WebSTEP Tables 4/5/8, the repository / issue / pull-request
world, listing filters, transitions, facts, verifiers and invalid actions."""

from __future__ import annotations

import collections

import pytest

from support import play, site_tasks
from webmdp.core import Action, SurfaceKind, World
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.sites.repo.state import RepoState
from webmdp.tasks import Task
from webmdp.tasks.verifier import verify

SITE = get_site("repo")


def _world(task: Task) -> World:
    return World.from_dict(task.world)


def _run(world: World, *actions: Action) -> RepoState:
    s = play(SITE, world, *actions)
    assert isinstance(s, RepoState)
    return s


def _repo_with(world: World, prefix: str, state: str) -> str:
    """A repository holding at least one issue / pull request in ``state``."""
    return next(e["repo_id"] for e in world.entities.values()
                if e["id"].startswith(prefix) and e["state"] == state)


def _open_repo(world: World, rid: str) -> RepoState:
    name = world.entities[rid]["name"]
    return _run(world, Action("Search", {"query": name}), Action("OpenRepo", {"repo_id": rid}))


def test_declared_counts_match_the_paper() -> None:
    kinds = {s.name: s.kind for s in SITE.surfaces}
    assert len(kinds) == 6
    assert kinds["RepoList"] == kinds["IssueList"] == kinds["PullRequestList"] == SurfaceKind.CARD
    assert kinds["RepoDetail"] == kinds["IssueDetail"] == kinds["PRDetail"] == SurfaceKind.DETAIL
    assert len(SITE.actions) >= 32
    assert len(SITE.templates) >= 12
    assert len(SITE.visibility.detail_fields) == 8
    skills = {a.skill for a in SITE.actions}
    for s in ("navigate_to_issues", "navigate_to_prs", "back_navigation", "pagination",
              "repo_search", "language_filtering", "stars_filtering", "license_filtering",
              "topic_filtering", "repo_attribute_filtering", "repo_sort_usage",
              "issue_state_filtering", "issue_label_filtering", "issue_author_filtering",
              "issue_sort_usage", "pr_filtering", "pr_sort_usage", "repo_inspection",
              "issue_inspection", "pr_inspection", "issue_creation", "issue_commenting",
              "issue_assignment", "issue_labeling", "issue_state_change", "star_management"):
        assert s in skills


def test_task_set_spreads_templates_and_hard_negatives() -> None:
    tasks = site_tasks("repo")
    assert len(tasks) == 180
    per_template = collections.Counter(t.template for t in tasks)
    assert set(per_template.values()) == {15}
    for name in per_template:
        counts = collections.Counter(len(t.hard_negatives) for t in tasks if t.template == name)
        assert set(counts) == {0, 1, 2, 3} and max(counts.values()) - min(counts.values()) <= 1
    assert {t.target.split("-")[0] for t in tasks} == {"REPO", "ISS", "PR"}


def test_world_links_issues_and_prs_to_repositories() -> None:
    w = _world(site_tasks("repo")[0])
    repos = {k for k in w.entities if k.startswith("REPO-")}
    children = [e for e in w.entities.values() if not e["id"].startswith("REPO-")]
    assert len(repos) == 24 and children
    for c in children:
        assert c["repo_id"] in repos
        assert c["state"] in (("open", "closed", "merged") if c["id"].startswith("PR-")
                              else ("open", "closed"))
    for rid in repos:
        numbers = [c["number"] for c in children if c["repo_id"] == rid]
        assert len(numbers) == len(set(numbers))
    titles = collections.Counter((c["repo_id"], c["id"][:3], c["title"]) for c in children)
    assert max(titles.values()) == 1
    pairs = collections.Counter((w.entities[r]["owner"], w.entities[r]["name"]) for r in repos)
    assert max(pairs.values()) == 1


def test_repository_facets_and_sorts() -> None:
    w = _world(site_tasks("repo")[5])
    s = _run(w, Action("SetLanguage", {"language": "Go"}), Action("SortBy", {"order": "forks"}))
    cards = SITE.observe(s, w).entities
    assert all(e.fields["language"] == "Go" for e in cards)
    forks = [e.fields["forks"] for e in cards]
    assert forks == sorted(forks, reverse=True)
    s = _run(w, Action("SetMinStars", {"stars": "1000"}), Action("ToggleTopic", {"topic": "api"}))
    for e in SITE.observe(s, w).entities:
        assert e.fields["stars"] >= 1000 and "api" in e.fields["topics"]
    s = _run(w, Action("SetLicense", {"license": "MIT"}))
    assert all(w.entities[e.id]["license"] == "MIT" for e in SITE.observe(s, w).entities)
    first = SITE.observe(_run(w), w)
    assert first.context["pages"] == 3
    assert "license" not in first.entities[0].fields


def test_issue_list_filters_and_sort() -> None:
    w = _world(site_tasks("repo")[90])
    rid = _repo_with(w, "ISS-", "closed")
    s = SITE.step(_open_repo(w, rid), Action("OpenIssues"), w)
    mine = [e for e in w.entities.values() if e["id"].startswith("ISS-") and e["repo_id"] == rid]
    shown = [e.id for e in SITE.observe(s, w).entities[1:]]
    assert set(shown) == {e["id"] for e in mine if e["state"] == "open"}
    s = SITE.step(s, Action("FilterIssueState", {"state": "closed"}), w)
    assert {e.id for e in SITE.observe(s, w).entities[1:]} == {
        e["id"] for e in mine if e["state"] == "closed"}
    s = SITE.step(s, Action("SortIssues", {"order": "most_commented"}), w)
    comments = [e.fields["comments"] for e in SITE.observe(s, w).entities[1:]]
    assert comments == sorted(comments, reverse=True)
    author = mine[0]["author"]
    s = _run(w, *[Action("Search", {"query": w.entities[rid]["name"]}),
                  Action("OpenRepo", {"repo_id": rid}), Action("OpenIssues"),
                  Action("FilterIssueAuthor", {"author": author})])
    assert all(e.fields["author"] == author for e in SITE.observe(s, w).entities[1:])


def test_star_watch_and_issue_creation_facts() -> None:
    w = _world(site_tasks("repo")[0])
    rid = SITE.observe(SITE.initial_state(w), w).entities[0].id
    s = _run(w, Action("StarRepo", {"repo_id": rid}))
    assert SITE.facts(s)["starred"] == [rid]
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("StarRepo", {"repo_id": rid}), w)
    s = SITE.step(s, Action("OpenRepo", {"repo_id": rid}), w)
    assert SITE.observe(s, w).context["star_count"] == w.entities[rid]["stars"] + 1
    s = SITE.step(s, Action("WatchRepo", {"level": "all"}), w)
    s = SITE.step(s, Action("OpenIssues"), w)
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("CreateIssue", {"title": "x", "label": "bug",
                                            "assignee": "bkumar"}), w)
    s = SITE.step(s, Action("NewIssue"), w)
    s = SITE.step(s, Action("CreateIssue", {"title": "Docs are stale", "label": "documentation",
                                            "assignee": "bkumar"}), w)
    f = SITE.facts(s)
    assert f["watch." + rid] == "all" and f["created.count"] == 1
    assert (f["created.repo"], f["created.title"], f["created.label"],
            f["created.assignee"]) == (rid, "Docs are stale", "documentation", "bkumar")
    s = SITE.step(s, Action("BackToRepos"), w)
    s = SITE.step(s, Action("UnstarRepo", {"repo_id": rid}), w)
    assert SITE.facts(s)["starred"] == []


def test_issue_state_comment_assign_and_label() -> None:
    w = _world(site_tasks("repo")[100])
    rid = _repo_with(w, "ISS-", "open")
    s = SITE.step(_open_repo(w, rid), Action("OpenIssues"), w)
    iid = SITE.observe(s, w).entities[1].id
    s = SITE.step(s, Action("OpenIssue", {"issue_id": iid}), w)
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("ReopenIssue"), w)
    s = SITE.step(s, Action("AddComment", {"body": "Looking into it."}), w)
    user = next(u for u in ("alice-chen", "bkumar", "carlos-m")
                if u not in w.entities[iid]["assignees"])
    s = SITE.step(s, Action("AssignIssue", {"assignee": user}), w)
    s = SITE.step(s, Action("LabelIssue", {"label": "question"}), w)
    s = SITE.step(s, Action("CloseIssue"), w)
    obs = SITE.observe(s, w)
    shown = obs.entities[1].fields
    assert shown["state"] == "closed" and user in shown["assignees"]
    assert shown["comments"] == w.entities[iid]["comments"] + 1
    f = SITE.facts(s)
    assert f["closed"] == [iid] and f["comments." + iid] == ["Looking into it."]
    assert f["assigned." + iid] == [user]
    s = SITE.step(s, Action("AssignIssue", {"assignee": user}), w)  # toggles back off
    assert SITE.facts(s)["assigned"] == []
    s = SITE.step(s, Action("BackToIssues"), w)
    assert iid not in [e.id for e in SITE.observe(s, w).entities]  # closed leaves "open"


def test_merge_records_method_and_leaves_the_open_list() -> None:
    w = _world(site_tasks("repo")[160])
    rid = _repo_with(w, "PR-", "open")
    s = SITE.step(_open_repo(w, rid), Action("OpenPullRequests"), w)
    pid = SITE.observe(s, w).entities[1].id
    s = SITE.step(s, Action("OpenPR", {"pr_id": pid}), w)
    s = SITE.step(s, Action("MergePR", {"method": "squash"}), w)
    f = SITE.facts(s)
    assert f["merged"] == [pid] and f["merge_method." + pid] == "squash"
    assert not any(a.name in ("MergePR", "ClosePR") for a in SITE.observe(s, w).available)
    s = SITE.step(s, Action("BackToPRs"), w)
    assert pid not in [e.id for e in SITE.observe(s, w).entities]


@pytest.mark.parametrize("action", [
    Action("OpenIssue", {"issue_id": "ISS-001"}),
    Action("CloseIssue"),
    Action("MergePR", {"method": "merge"}),
    Action("WatchRepo", {"level": "all"}),
    Action("AddComment", {"body": "hi"}),
    Action("OpenIssues"),
    Action("OpenRepo", {"repo_id": "ISS-001"}),
])
def test_invalid_actions_on_the_search_page_raise(action: Action) -> None:
    w = _world(site_tasks("repo")[0])
    with pytest.raises(InvalidAction):
        SITE.step(SITE.initial_state(w), action, w)


def test_issue_of_another_repository_cannot_be_opened() -> None:
    w = _world(site_tasks("repo")[0])
    rid = SITE.observe(SITE.initial_state(w), w).entities[0].id
    s = SITE.step(_open_repo(w, rid), Action("OpenIssues"), w)
    foreign = next(e["id"] for e in w.entities.values()
                   if e["id"].startswith("ISS-") and e["repo_id"] != rid)
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("OpenIssue", {"issue_id": foreign}), w)


def test_verifiers_check_every_parameter_and_reject_hard_negatives() -> None:
    tasks = site_tasks("repo")
    create = next(t for t in tasks if t.template == "create_issue_licensed_copy"
                  and t.hard_negatives)
    facts = {c.fact for c in create.verifier}
    assert facts == {"created.repo", "created.title", "created.label", "created.assignee"}
    merge = next(t for t in tasks if t.template == "merge_pr_from_branch" and t.hard_negatives)
    assert f"merge_method.{merge.target}" in {c.fact for c in merge.verifier}
    w = _world(merge)
    final = _run(w, *merge.oracle_actions())
    assert all(verify(merge.verifier, SITE.facts(final)).values())
    wrong = [a if a.name != "MergePR" else Action("MergePR", {"method": next(
        m for m in ("merge", "squash", "rebase") if m != a.params["method"])})
        for a in merge.oracle_actions()]
    verdict = verify(merge.verifier, SITE.facts(_run(w, *wrong)))
    assert not verdict[f"merge method of {merge.target} is {merge.params['method']!r}"]


def test_hard_negatives_differ_only_on_detail_fields() -> None:
    detail = set(SITE.visibility.detail_fields)
    for t in site_tasks("repo"):
        if not t.hard_negatives:
            continue
        w = _world(t)
        target = w.entities[t.target]
        for h in t.hard_negatives:
            differing = {k for k, v in w.entities[h].items()
                         if k not in ("id", "popularity", "number") and target.get(k) != v}
            assert differing & (detail | {"keyword", "forks", "owner", "comments"}), t.id
