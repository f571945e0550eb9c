"""Code Repo transition function (pure): repository search, repository page, issue and
pull-request lists and pages, and the commits (stars, watches, issues, comments, state
changes, assignments, labels, merges)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.errors import InvalidAction, require
from webmdp.sites.repo import vocab as V
from webmdp.sites.repo.catalog import CATALOG
from webmdp.sites.repo.listing import issue_list, pr_list, state_of
from webmdp.sites.repo.state import RepoState

REPO_TABS = ("RepoDetail", "IssueList", "IssueDetail", "PullRequestList", "PRDetail")
Handler = Callable[[RepoState, dict[str, Any], World], RepoState]


def transition(s: RepoState, a: Action, world: World) -> RepoState:
    name, p = a.name, a.params
    if name == CATALOG.search:
        s = s.replace(surface="RepoList", focus=None, repo="", composing=False)
        return _listing(s, a, world)
    if CATALOG.handles(name):
        require(s.surface == "RepoList", f"{name}: only on the repository search page")
        return _listing(s, a, world)
    if name in _HANDLERS:
        return _HANDLERS[name](s, p, world)
    raise InvalidAction(f"unknown action {name!r}")


def _listing(s: RepoState, a: Action, world: World) -> RepoState:
    out = CATALOG.transition(s, a, world)
    assert isinstance(out, RepoState)
    return out


def _on(s: RepoState, name: str, *surfaces: str) -> None:
    require(s.surface in surfaces, f"{name}: not available on {s.surface}")


# -- navigation ---------------------------------------------------------------------------------
def _open_repo(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "OpenRepo", "RepoList")
    rid = p["repo_id"]
    require(rid in CATALOG.visible(world, s), f"OpenRepo: {rid} is not on this page")
    return s.replace(surface="RepoDetail", focus=rid, repo=rid)


def _back_to_repos(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "BackToRepos", *REPO_TABS)
    return s.replace(surface="RepoList", focus=None, repo="", composing=False)


def _code_tab(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "OpenCodeTab", "IssueList", "IssueDetail", "PullRequestList", "PRDetail")
    return s.replace(surface="RepoDetail", focus=s.repo, composing=False)


def _issues_tab(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "OpenIssues", "RepoDetail", "IssueDetail", "PullRequestList", "PRDetail")
    return s.replace(surface="IssueList", focus=None, composing=False, issue_state="open",
                     issue_label="", issue_author="", issue_sort="newest")


def _prs_tab(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "OpenPullRequests", "RepoDetail", "IssueList", "IssueDetail", "PRDetail")
    return s.replace(surface="PullRequestList", focus=None, composing=False, pr_state="open",
                     pr_sort="newest")


def _open_issue(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "OpenIssue", "IssueList")
    iid = p["issue_id"]
    require(iid in issue_list(s, world), f"OpenIssue: {iid} is not in the list")
    return s.replace(surface="IssueDetail", focus=iid, composing=False)


def _back_to_issues(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "BackToIssues", "IssueDetail")
    return s.replace(surface="IssueList", focus=None)


def _open_pr(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "OpenPR", "PullRequestList")
    pid = p["pr_id"]
    require(pid in pr_list(s, world), f"OpenPR: {pid} is not in the list")
    return s.replace(surface="PRDetail", focus=pid)


def _back_to_prs(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "BackToPRs", "PRDetail")
    return s.replace(surface="PullRequestList", focus=None)


# -- list filters -------------------------------------------------------------------------------
def _issue_state(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "FilterIssueState", "IssueList")
    require(p["state"] in V.ISSUE_STATES, f"FilterIssueState: {p['state']!r}")
    return s.replace(issue_state=p["state"])


def _issue_label(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "FilterIssueLabel", "IssueList")
    require(p["label"] in V.LABELS, f"FilterIssueLabel: {p['label']!r}")
    return s.replace(issue_label="" if s.issue_label == p["label"] else p["label"])


def _issue_author(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "FilterIssueAuthor", "IssueList")
    require(p["author"] in V.PEOPLE, f"FilterIssueAuthor: {p['author']!r}")
    return s.replace(issue_author="" if s.issue_author == p["author"] else p["author"])


def _sort_issues(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "SortIssues", "IssueList")
    require(p["order"] in V.ISSUE_SORTS, f"SortIssues: {p['order']!r}")
    return s.replace(issue_sort=p["order"])


def _pr_state(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "FilterPRState", "PullRequestList")
    require(p["state"] in V.PR_STATES, f"FilterPRState: {p['state']!r}")
    return s.replace(pr_state=p["state"])


def _sort_prs(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "SortPRs", "PullRequestList")
    require(p["order"] in V.PR_SORTS, f"SortPRs: {p['order']!r}")
    return s.replace(pr_sort=p["order"])


# -- commits ------------------------------------------------------------------------------------
def _star_target(s: RepoState, p: dict[str, Any], world: World, name: str) -> str:
    rid = str(p["repo_id"])
    if s.surface == "RepoList":
        require(rid in CATALOG.visible(world, s), f"{name}: {rid} is not on this page")
    else:
        _on(s, name, "RepoDetail")
        require(rid == s.repo, f"{name}: {rid} is not the open repository")
    return rid


def _star(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    rid = _star_target(s, p, world, "StarRepo")
    require(rid not in s.starred, "StarRepo: already starred")
    return s.replace(starred=(*s.starred, rid))


def _unstar(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    rid = _star_target(s, p, world, "UnstarRepo")
    require(rid in s.starred, "UnstarRepo: not starred")
    return s.replace(starred=tuple(r for r in s.starred if r != rid))


def _watch(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "WatchRepo", "RepoDetail")
    require(p["level"] in V.WATCH_LEVELS, f"WatchRepo: {p['level']!r}")
    return s.replace(watching=(*s.watching, (s.repo, p["level"])))


def _new_issue(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "NewIssue", "IssueList")
    require(not s.composing, "NewIssue: the form is already open")
    return s.replace(composing=True)


def _cancel_issue(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "CancelNewIssue", "IssueList")
    require(s.composing, "CancelNewIssue: no form open")
    return s.replace(composing=False)


def _create_issue(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "CreateIssue", "IssueList")
    require(s.composing, "CreateIssue: open the new-issue form first")
    title = str(p["title"]).strip()
    require(bool(title), "CreateIssue: the title is empty")
    require(p["label"] in V.LABELS, f"CreateIssue: no label {p['label']!r}")
    require(p["assignee"] in V.PEOPLE, f"CreateIssue: no user {p['assignee']!r}")
    return s.replace(composing=False,
                     created=(*s.created, (s.repo, title, p["label"], p["assignee"])))


def _focus_item(s: RepoState, name: str, world: World) -> str:
    _on(s, name, "IssueDetail", "PRDetail")
    return s.focus or ""


def _comment(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    eid = _focus_item(s, "AddComment", world)
    body = str(p["body"]).strip()
    require(bool(body), "AddComment: the comment is empty")
    return s.replace(comments=(*s.comments, (eid, body)))


def _assign(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "AssignIssue", "IssueDetail")
    require(p["assignee"] in V.PEOPLE, f"AssignIssue: no user {p['assignee']!r}")
    return s.replace(assigned=(*s.assigned, (s.focus or "", p["assignee"])))


def _label(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    _on(s, "LabelIssue", "IssueDetail")
    require(p["label"] in V.LABELS, f"LabelIssue: no label {p['label']!r}")
    return s.replace(labelled=(*s.labelled, (s.focus or "", p["label"])))


def _set_state(s: RepoState, name: str, world: World, surface: str, before: str,
               after: str) -> RepoState:
    _on(s, name, surface)
    eid = s.focus or ""
    require(state_of(s, world.entities[eid]) == before, f"{name}: it is not {before}")
    return s.replace(states=(*s.states, (eid, after)))


def _close_issue(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    return _set_state(s, "CloseIssue", world, "IssueDetail", "open", "closed")


def _reopen_issue(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    return _set_state(s, "ReopenIssue", world, "IssueDetail", "closed", "open")


def _close_pr(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    return _set_state(s, "ClosePR", world, "PRDetail", "open", "closed")


def _merge_pr(s: RepoState, p: dict[str, Any], world: World) -> RepoState:
    require(p["method"] in V.MERGE_METHODS, f"MergePR: {p['method']!r}")
    out = _set_state(s, "MergePR", world, "PRDetail", "open", "merged")
    return out.replace(merges=(*s.merges, (s.focus or "", p["method"])))


_HANDLERS: dict[str, Handler] = {
    "OpenRepo": _open_repo, "BackToRepos": _back_to_repos, "OpenCodeTab": _code_tab,
    "OpenIssues": _issues_tab, "OpenPullRequests": _prs_tab, "OpenIssue": _open_issue,
    "BackToIssues": _back_to_issues, "OpenPR": _open_pr, "BackToPRs": _back_to_prs,
    "FilterIssueState": _issue_state, "FilterIssueLabel": _issue_label,
    "FilterIssueAuthor": _issue_author, "SortIssues": _sort_issues,
    "FilterPRState": _pr_state, "SortPRs": _sort_prs,
    "StarRepo": _star, "UnstarRepo": _unstar, "WatchRepo": _watch,
    "NewIssue": _new_issue, "CancelNewIssue": _cancel_issue, "CreateIssue": _create_issue,
    "AddComment": _comment, "AssignIssue": _assign, "LabelIssue": _label,
    "CloseIssue": _close_issue, "ReopenIssue": _reopen_issue, "ClosePR": _close_pr,
    "MergePR": _merge_pr,
}
