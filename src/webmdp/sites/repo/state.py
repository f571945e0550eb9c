"""Code Repo semantic state: repository listing position, the open repository / issue / pull
request, the issue and pull-request list filters, and what the user changed (stars, watches,
state changes, comments, assignments, labels, created issues)."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.sites._common.catalog import BrowseState

Pairs = tuple[tuple[str, str], ...]
"""(entity id, value) in the order they happened: a later pair for the same id wins."""
NewIssue = tuple[str, str, str, str]
"""(repository id, title, label, assignee) of a created issue."""


@dataclass(frozen=True)
class RepoState(BrowseState):
    repo: str = ""
    issue_state: str = "open"
    issue_label: str = ""
    issue_author: str = ""
    issue_sort: str = "newest"
    pr_state: str = "open"
    pr_sort: str = "newest"
    composing: bool = False
    starred: tuple[str, ...] = ()
    watching: Pairs = ()
    states: Pairs = ()
    merges: Pairs = ()
    comments: Pairs = ()
    assigned: Pairs = ()
    labelled: Pairs = ()
    created: tuple[NewIssue, ...] = ()
