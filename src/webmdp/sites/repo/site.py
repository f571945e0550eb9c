"""The Code Repo site: a GitHub-like code hosting app (WebSTEP Tables 4, 5, 8; Figure 18)."""

from __future__ import annotations

from webmdp.core.spec import ActionSpec, ParamSpec, declare_action
from webmdp.sites._common.site import CO, FI, INS, NAV, ModularSite, SiteLogic
from webmdp.sites._common.tasklib import shown
from webmdp.sites.repo import mdp, observe
from webmdp.sites.repo import vocab as V
from webmdp.sites.repo.bound import repo_bound, repo_informed
from webmdp.sites.repo.catalog import CATALOG
from webmdp.sites.repo.state import RepoState
from webmdp.sites.repo.world import (
    CARD_FIELDS,
    DETAIL_FIELDS,
    ISSUE_CARD,
    ISSUE_DETAIL,
    PR_DETAIL,
    REPO_CARD,
    REPO_DETAIL,
    generate_world,
)

REPO = ParamSpec("repo_id", "entity")
_a = declare_action

ACTIONS: tuple[ActionSpec, ...] = (
    *CATALOG.action_specs(),
    _a("OpenRepo", "repo_inspection", INS, REPO),
    _a("BackToRepos", "back_navigation", NAV, doc="back to the repository search"),
    _a("OpenCodeTab", "back_navigation", NAV, doc="the repository's Code tab"),
    _a("OpenIssues", "navigate_to_issues", NAV, doc="the Issues tab"),
    _a("OpenPullRequests", "navigate_to_prs", NAV, doc="the Pull requests tab"),
    _a("StarRepo", "star_management", CO, REPO),
    _a("UnstarRepo", "star_management", CO, REPO),
    _a("WatchRepo", "star_management", CO, ParamSpec("level", "choice", V.WATCH_LEVELS)),
    _a("FilterIssueState", "issue_state_filtering", FI,
       ParamSpec("state", "choice", V.ISSUE_STATES)),
    _a("FilterIssueLabel", "issue_label_filtering", FI, ParamSpec("label", "choice", V.LABELS)),
    _a("FilterIssueAuthor", "issue_author_filtering", FI,
       ParamSpec("author", "choice", V.PEOPLE)),
    _a("SortIssues", "issue_sort_usage", FI, ParamSpec("order", "choice", V.ISSUE_SORTS)),
    _a("OpenIssue", "issue_inspection", INS, ParamSpec("issue_id", "entity")),
    _a("BackToIssues", "back_navigation", NAV),
    _a("NewIssue", "issue_creation", CO, changes_state=False, doc="open the new-issue form"),
    _a("CancelNewIssue", "issue_creation", CO, changes_state=False),
    _a("CreateIssue", "issue_creation", CO, ParamSpec("title", "str", text=True),
       ParamSpec("label", "choice", V.LABELS, text=True),
       ParamSpec("assignee", "choice", V.PEOPLE, text=True)),
    _a("AddComment", "issue_commenting", CO, ParamSpec("body", "str", text=True)),
    _a("AssignIssue", "issue_assignment", CO, ParamSpec("assignee", "choice", V.PEOPLE)),
    _a("LabelIssue", "issue_labeling", CO, ParamSpec("label", "choice", V.LABELS)),
    _a("CloseIssue", "issue_state_change", CO),
    _a("ReopenIssue", "issue_state_change", CO),
    _a("FilterPRState", "pr_filtering", FI, ParamSpec("state", "choice", V.PR_STATES)),
    _a("SortPRs", "pr_sort_usage", FI, ParamSpec("order", "choice", V.PR_SORTS)),
    _a("OpenPR", "pr_inspection", INS, ParamSpec("pr_id", "entity")),
    _a("BackToPRs", "back_navigation", NAV),
    _a("MergePR", "issue_state_change", CO, ParamSpec("method", "choice", V.MERGE_METHODS)),
    _a("ClosePR", "issue_state_change", CO),
)

_ITEM = ("name", "owner", *ISSUE_CARD)
"""A list row or page of an issue or pull request, under its repository's name."""


class RepoSite(ModularSite[RepoState]):
    name = "repo"
    title = "CodeHub"
    entity_prefix = "REPO"
    example_params = {"query": "api", "title": "Crash when the config file is missing",
                      "label": "bug", "assignee": "alice-chen",
                      "body": "I can reproduce this on the latest release."}
    surfaces = observe.SURFACES
    actions = ACTIONS
    entity_fields = {  # kind (id prefix) -> field -> type: webmdp.core.entities
        "ISS": {"assignees": "list", "author": "str", "body": "str", "comments": "int",
            "created": "int", "id": "str", "keyword": "str", "labels": "list", "milestone": "str",
            "number": "int", "repo_id": "str", "state": "str", "subject": "str", "title": "str"},
        "PR": {"assignees": "list", "author": "str", "body": "str", "branch": "str",
            "checks": "str", "comments": "int", "created": "int", "id": "str", "keyword": "str",
            "labels": "list", "number": "int", "repo_id": "str", "state": "str", "subject": "str",
            "title": "str"},
        "REPO": {"default_branch": "str", "description": "str", "forks": "int",
            "good_first": "bool", "id": "str", "language": "str", "license": "str", "name": "str",
            "owner": "str", "popularity": "int", "stars": "int", "topic": "str", "topics": "list",
            "updated": "int", "watchers": "int"},
    }
    # evidence_gap (tasks.informed): a repository, pull request or issue page shows one entity's
    # detail fields of its kind; the next is opened from a list.
    # (3: only a screen showing or naming an entity leads to its unread detail fields.)
    evidence_gap = {"REPO": 3, "PR": 3, "ISS": 3}
    visibility = shown(CARD_FIELDS, DETAIL_FIELDS, RepoList=REPO_CARD,
                       RepoDetail=REPO_CARD + REPO_DETAIL, IssueList=_ITEM, PullRequestList=_ITEM,
                       IssueDetail=_ITEM + ISSUE_DETAIL, PRDetail=_ITEM + PR_DETAIL)

    state_class = RepoState
    start_surface = "RepoList"
    back_actions = {"RepoDetail": "BackToRepos", "IssueList": "OpenCodeTab",
                    "IssueDetail": "BackToIssues", "PullRequestList": "OpenCodeTab",
                    "PRDetail": "BackToPRs"}
    logic = SiteLogic(generate_world, mdp.transition, observe.observe, observe.facts,
                      observe.available)
    distance_bound = staticmethod(repo_bound)
    informed_bound = staticmethod(repo_informed)
