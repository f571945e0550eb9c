"""Code Repo transition function (pure): repository search, repository page, issue and
pull-request lists and pages, and the commits (stars, watches, issues, comments, state
changes, assignments, labels, merges)."""

from __future__ import annotations

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.errors import require
from webmdp.sites._common.handlers import Handler, Params, catalog_action, dispatch, switch
from webmdp.sites.repo import vocab as V
from webmdp.sites.repo.catalog import CATALOG
from webmdp.sites.repo.listing import issue_list, pr_list, state_of
from webmdp.sites.repo.state import RepoState

REPO_TABS = ("RepoDetail", "IssueList", "IssueDetail", "PullRequestList", "PRDetail")


def transition(s: RepoState, a: Action, world: World) -> RepoState:
    browsed = catalog_action(CATALOG, s, a, world, "the repository search page", repo="",
                     composing=False)
    return browsed or dispatch(_HANDLERS, s, a, world)


def _on(s: RepoState, name: str, *surfaces: str) -> None:
    require(s.surface in surfaces, f"{name}: not available on {s.surface}")


# -- navigation ---------------------------------------------------------------------------------
def _open_repo(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "OpenRepo", "RepoList")
    rid = p["repo_id"]
    require(rid in CATALOG.visible(world, s), f"OpenRepo: {rid} is not on this page")
    return s.replace(surface="RepoDetail", focus=rid, repo=rid)


def _back_to_repos(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "BackToRepos", *REPO_TABS)
    return s.replace(surface="RepoList", focus=None, repo="", composing=False)


def _code_tab(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "OpenCodeTab", "IssueList", "IssueDetail", "PullRequestList", "PRDetail")
    return s.replace(surface="RepoDetail", focus=s.repo, composing=False)


def _issues_tab(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "OpenIssues", "RepoDetail", "IssueDetail", "PullRequestList", "PRDetail")
    return s.replace(surface="IssueList", focus=None, composing=False, issue_state="open",
                     issue_label="", issue_author="", issue_sort="newest")


def _prs_tab(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "OpenPullRequests", "RepoDetail", "IssueList", "IssueDetail", "PRDetail")
    return s.replace(surface="PullRequestList", focus=None, composing=False, pr_state="open",
                     pr_sort="newest")


def _open_issue(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "OpenIssue", "IssueList")
    iid = p["issue_id"]
    require(iid in issue_list(s, world), f"OpenIssue: {iid} is not in the list")
    return s.replace(surface="IssueDetail", focus=iid, composing=False)


def _back_to_issues(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "BackToIssues", "IssueDetail")
    return s.replace(surface="IssueList", focus=None)


def _open_pr(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "OpenPR", "PullRequestList")
    pid = p["pr_id"]
    require(pid in pr_list(s, world), f"OpenPR: {pid} is not in the list")
    return s.replace(surface="PRDetail", focus=pid)


def _back_to_prs(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "BackToPRs", "PRDetail")
    return s.replace(surface="PullRequestList", focus=None)


# -- list filters -------------------------------------------------------------------------------
_CONTROLS = {  # action: (the list it is on, the state field it sets, its parameter, choices)
    "FilterIssueState": ("IssueList", "issue_state", "state", V.ISSUE_STATES),
    "FilterIssueLabel": ("IssueList", "issue_label", "label", V.LABELS),
    "FilterIssueAuthor": ("IssueList", "issue_author", "author", V.PEOPLE),
    "SortIssues": ("IssueList", "issue_sort", "order", V.ISSUE_SORTS),
    "FilterPRState": ("PullRequestList", "pr_state", "state", V.PR_STATES),
    "SortPRs": ("PullRequestList", "pr_sort", "order", V.PR_SORTS),
}
_CLEARED_BY_REPEAT = ("FilterIssueLabel", "FilterIssueAuthor")
"""Picking the active label or author again clears the filter."""


def _control(name: str) -> Handler[RepoState]:
    surface, field, param, choices = _CONTROLS[name]

    def go(s: RepoState, p: Params, world: World) -> RepoState:
        _on(s, name, surface)
        value = p[param]
        require(value in choices, f"{name}: {value!r}")
        again = name in _CLEARED_BY_REPEAT and getattr(s, field) == value
        return s.replace(**{field: "" if again else value})
    return go


# -- commits ------------------------------------------------------------------------------------
def _star_target(s: RepoState, p: Params, world: World, name: str) -> str:
    rid = str(p["repo_id"])
    if s.surface == "RepoList":
        require(rid in CATALOG.visible(world, s), f"{name}: {rid} is not on this page")
    else:
        _on(s, name, "RepoDetail")
        require(rid == s.repo, f"{name}: {rid} is not the open repository")
    return rid


def _watch(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "WatchRepo", "RepoDetail")
    require(p["level"] in V.WATCH_LEVELS, f"WatchRepo: {p['level']!r}")
    return s.replace(watching=(*s.watching, (s.repo, p["level"])))


def _new_issue(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "NewIssue", "IssueList")
    require(not s.composing, "NewIssue: the form is already open")
    return s.replace(composing=True)


def _cancel_issue(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "CancelNewIssue", "IssueList")
    require(s.composing, "CancelNewIssue: no form open")
    return s.replace(composing=False)


def _create_issue(s: RepoState, p: Params, world: World) -> RepoState:
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


def _comment(s: RepoState, p: Params, world: World) -> RepoState:
    eid = _focus_item(s, "AddComment", world)
    body = str(p["body"]).strip()
    require(bool(body), "AddComment: the comment is empty")
    return s.replace(comments=(*s.comments, (eid, body)))


def _assign(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "AssignIssue", "IssueDetail")
    require(p["assignee"] in V.PEOPLE, f"AssignIssue: no user {p['assignee']!r}")
    return s.replace(assigned=(*s.assigned, (s.focus or "", p["assignee"])))


def _label(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "LabelIssue", "IssueDetail")
    require(p["label"] in V.LABELS, f"LabelIssue: no label {p['label']!r}")
    return s.replace(labelled=(*s.labelled, (s.focus or "", p["label"])))


_STATE_CHANGES = {  # action: (the page it is on, the state it needs, the state it leaves)
    "CloseIssue": ("IssueDetail", "open", "closed"),
    "ReopenIssue": ("IssueDetail", "closed", "open"),
    "ClosePR": ("PRDetail", "open", "closed"),
    "MergePR": ("PRDetail", "open", "merged"),
}


def _set_state(name: str) -> Handler[RepoState]:
    surface, before, after = _STATE_CHANGES[name]

    def go(s: RepoState, p: Params, world: World) -> RepoState:
        _on(s, name, surface)
        eid = s.focus or ""
        require(state_of(s, world.entities[eid]) == before, f"{name}: it is not {before}")
        return s.replace(states=(*s.states, (eid, after)))
    return go


def _merge_pr(s: RepoState, p: Params, world: World) -> RepoState:
    require(p["method"] in V.MERGE_METHODS, f"MergePR: {p['method']!r}")
    out = _set_state("MergePR")(s, p, world)
    return out.replace(merges=(*s.merges, (s.focus or "", p["method"])))


_HANDLERS: dict[str, Handler[RepoState]] = {
    "OpenRepo": _open_repo, "BackToRepos": _back_to_repos, "OpenCodeTab": _code_tab,
    "OpenIssues": _issues_tab, "OpenPullRequests": _prs_tab, "OpenIssue": _open_issue,
    "BackToIssues": _back_to_issues, "OpenPR": _open_pr, "BackToPRs": _back_to_prs,
    **{name: _control(name) for name in _CONTROLS},
    **switch(("StarRepo", "UnstarRepo"), "starred", "starred", _star_target),
    "WatchRepo": _watch, "NewIssue": _new_issue, "CancelNewIssue": _cancel_issue,
    "CreateIssue": _create_issue, "AddComment": _comment, "AssignIssue": _assign,
    "LabelIssue": _label, "MergePR": _merge_pr,
    **{name: _set_state(name) for name in ("CloseIssue", "ReopenIssue", "ClosePR")},
}
