"""Code Repo transition function (pure): repository search, repository page, issue and
pull-request lists and pages, and the commits (stars, watches, issues, comments, state
changes, assignments, labels, merges)."""

from __future__ import annotations

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.errors import require
from webmdp.sites._common.handlers import (
    Handler,
    Params,
    catalog_action,
    dispatch,
    listed,
    step,
    switch,
)
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
    rid = listed("OpenRepo", p["repo_id"], CATALOG.visible(world, s))
    return s.replace(surface="RepoDetail", focus=rid, repo=rid)


def _open_issue(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "OpenIssue", "IssueList")
    iid = listed("OpenIssue", p["issue_id"], issue_list(s, world), "in the list")
    return s.replace(surface="IssueDetail", focus=iid, composing=False)


def _open_pr(s: RepoState, p: Params, world: World) -> RepoState:
    _on(s, "OpenPR", "PullRequestList")
    pid = listed("OpenPR", p["pr_id"], pr_list(s, world), "in the list")
    return s.replace(surface="PRDetail", focus=pid)


def _tab(name: str, surface: str, **changes: object) -> Handler[RepoState]:
    """A tab of the open repository (or Back to a list): from its other pages only."""
    return step(tuple(t for t in REPO_TABS if t != surface), f"{name}: not available here",
                **{"surface": surface, "focus": None, "composing": False, **changes})


# -- list filters -------------------------------------------------------------------------------
CONTROLS = {  # action: (the list it is on, the state field it sets, its parameter, choices)
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
    surface, field, param, choices = CONTROLS[name]

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
    "OpenRepo": _open_repo, "OpenIssue": _open_issue, "OpenPR": _open_pr,
    "BackToRepos": step(REPO_TABS, "BackToRepos: no repository open", surface="RepoList",
                        focus=None, repo="", composing=False),
    "OpenCodeTab": _tab("OpenCodeTab", "RepoDetail", focus=lambda s, p: s.repo),
    "OpenIssues": _tab("OpenIssues", "IssueList", issue_state="open", issue_label="",
                       issue_author="", issue_sort="newest"),
    "OpenPullRequests": _tab("OpenPullRequests", "PullRequestList", pr_state="open",
                             pr_sort="newest"),
    "BackToIssues": step("IssueDetail", "BackToIssues: no issue open", surface="IssueList",
                         focus=None),
    "BackToPRs": step("PRDetail", "BackToPRs: no pull request open", surface="PullRequestList",
                      focus=None),
    "NewIssue": step(lambda s: s.surface == "IssueList" and not s.composing,
                     "NewIssue: not on the issue list, or the form is already open",
                     composing=True),
    "CancelNewIssue": step(lambda s: s.surface == "IssueList" and s.composing,
                           "CancelNewIssue: no form open", composing=False),
    **{name: _control(name) for name in CONTROLS},
    **switch(("StarRepo", "UnstarRepo"), "starred", "starred", _star_target),
    "WatchRepo": _watch, "CreateIssue": _create_issue, "AddComment": _comment,
    "AssignIssue": _assign, "LabelIssue": _label, "MergePR": _merge_pr,
    **{name: _set_state(name) for name in ("CloseIssue", "ReopenIssue", "ClosePR")},
}
