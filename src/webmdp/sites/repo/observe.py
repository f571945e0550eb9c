"""What each Code Repo surface shows and offers, and the verifier's facts."""

from __future__ import annotations

from typing import Any

from webmdp.core.model import EntityView, Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.sites._common.handlers import grouped, keyed, observation, surfaces
from webmdp.sites.repo import vocab as V
from webmdp.sites.repo.catalog import CATALOG
from webmdp.sites.repo.listing import (
    assignees_of,
    comments_on,
    counts,
    issue_list,
    labels_of,
    last,
    pr_list,
    state_of,
    toggled,
)
from webmdp.sites.repo.mdp import CONTROLS
from webmdp.sites.repo.state import RepoState
from webmdp.sites.repo.world import ISSUE_CARD, ISSUE_DETAIL, PR_DETAIL, REPO_CARD, REPO_DETAIL

SURFACES = surfaces(
    RepoList=(SurfaceKind.CARD, "repository search: cards, filters, sort"),
    RepoDetail=(SurfaceKind.DETAIL, "Code tab: README, About, star, watch"),
    IssueList=(SurfaceKind.CARD, "issues with state / label / author filters and the new-issue "
               "form"),
    IssueDetail=(SurfaceKind.DETAIL, "issue thread, assignees, labels"),
    PullRequestList=(SurfaceKind.CARD, "pull requests, open / closed"),
    PRDetail=(SurfaceKind.DETAIL, "pull request: branch, checks, merge"),
)
TABS = {"RepoDetail": "OpenCodeTab", "IssueList": "OpenIssues",
        "PullRequestList": "OpenPullRequests"}
_TAB_OF = {"RepoDetail": "RepoDetail", "IssueList": "IssueList", "IssueDetail": "IssueList",
           "PullRequestList": "PullRequestList", "PRDetail": "PullRequestList"}


def _star_actions(s: RepoState, rid: str) -> list[Action]:
    name = "UnstarRepo" if rid in s.starred else "StarRepo"
    return [Action(name, {"repo_id": rid})]


def _controls(surface: str) -> list[Action]:
    """The filter and sort choices of an issue or pull-request list."""
    return [Action(name, {param: c}) for name, (on, _, param, choices) in CONTROLS.items()
            if on == surface for c in choices]


def available(s: RepoState, world: World) -> tuple[Action, ...]:
    surf = s.surface
    out: list[Action] = [Action("Search")]
    if surf == "RepoList":
        out += CATALOG.available(s, world)
        for r in CATALOG.visible(world, s):
            out += [Action("OpenRepo", {"repo_id": r}), *_star_actions(s, r)]
        return tuple(out)
    out.append(Action("BackToRepos"))
    out += [Action(a) for tab, a in TABS.items() if tab != surf]
    if surf == "RepoDetail":
        out += _star_actions(s, s.repo)
        out += [Action("WatchRepo", {"level": lv}) for lv in V.WATCH_LEVELS]
    elif surf == "IssueList":
        out += _controls(surf)
        out += [Action("OpenIssue", {"issue_id": i}) for i in issue_list(s, world)]
        out += [Action("CancelNewIssue"), Action("CreateIssue")] if s.composing \
            else [Action("NewIssue")]
    elif surf == "PullRequestList":
        out += _controls(surf)
        out += [Action("OpenPR", {"pr_id": p}) for p in pr_list(s, world)]
    elif surf == "IssueDetail":
        out += [Action("BackToIssues"), Action("AddComment")]
        out += [Action("AssignIssue", {"assignee": a}) for a in V.PEOPLE]
        out += [Action("LabelIssue", {"label": lb}) for lb in V.LABELS]
        is_open = state_of(s, world.entities[s.focus or ""]) == "open"
        out.append(Action("CloseIssue" if is_open else "ReopenIssue"))
    elif surf == "PRDetail":
        out += [Action("BackToPRs"), Action("AddComment")]
        if state_of(s, world.entities[s.focus or ""]) == "open":
            out += [Action("MergePR", {"method": m}) for m in V.MERGE_METHODS]
            out.append(Action("ClosePR"))
    return tuple(out)


def _view(world: World, eid: str, fields: tuple[str, ...], s: RepoState | None = None
          ) -> EntityView:
    e = world.entities[eid]
    values = {f: e[f] for f in fields}
    if s is not None:
        for f, fn in (("state", state_of), ("labels", labels_of), ("assignees", assignees_of)):
            if f in values:
                values[f] = fn(s, e)
        if "comments" in values:
            values["comments"] = e["comments"] + len(comments_on(s, eid))
    return EntityView(eid, values)


def _repo_context(s: RepoState, world: World) -> dict[str, Any]:
    r = world.entities[s.repo]
    return {"repo": s.repo, "tab": _TAB_OF[s.surface],
            "issue_counts": counts(s, world, "ISS-"), "pr_counts": counts(s, world, "PR-"),
            "watching": last(s.watching, s.repo) or "", "watch_levels": list(V.WATCH_LEVELS),
            "star_count": r["stars"] + (1 if s.repo in s.starred else 0),
            "starred_repo": s.repo in s.starred}


def observe(s: RepoState, world: World) -> Observation:
    ctx: dict[str, Any] = {"query": s.query, "starred": list(s.starred)}
    views: list[EntityView] = []
    surf = s.surface
    if surf == "RepoList":
        views = [_view(world, r, REPO_CARD) for r in CATALOG.visible(world, s)]
        ctx.update(CATALOG.context(s, world))
        return observation(s, SURFACES, views, available(s, world), ctx)
    ctx.update(_repo_context(s, world))
    detail = REPO_CARD + REPO_DETAIL if surf == "RepoDetail" else ("name", "owner")
    views.append(_view(world, s.repo, detail))
    if surf == "IssueList":
        views += [_view(world, i, ISSUE_CARD, s) for i in issue_list(s, world)]
        ctx.update(issue_state=s.issue_state, issue_label=s.issue_label,
                   issue_author=s.issue_author, issue_sort=s.issue_sort, composing=s.composing,
                   labels=list(V.LABELS), people=list(V.PEOPLE), sorts=list(V.ISSUE_SORTS),
                   created=[list(c[1:]) for c in s.created if c[0] == s.repo])
    elif surf == "PullRequestList":
        views += [_view(world, p, ISSUE_CARD, s) for p in pr_list(s, world)]
        ctx.update(pr_state=s.pr_state, pr_sort=s.pr_sort, sorts=list(V.PR_SORTS))
    elif surf in ("IssueDetail", "PRDetail"):
        eid = s.focus or ""
        views.append(_view(world, eid, ISSUE_CARD + (ISSUE_DETAIL if surf == "IssueDetail"
                                                     else PR_DETAIL), s))
        ctx.update(item=eid, new_comments=comments_on(s, eid), labels=list(V.LABELS),
                   people=list(V.PEOPLE), merge_methods=list(V.MERGE_METHODS),
                   merged_by=last(s.merges, eid) or "")
    return observation(s, SURFACES, views, available(s, world), ctx)


def facts(s: RepoState) -> dict[str, Any]:
    """Stars, watches, state changes (with the merge method), comments, assignments, labels
    and created issues, one fact per parameter so a verdict names what is wrong."""
    out: dict[str, Any] = {"surface": s.surface, "starred": list(s.starred),
                           "closed": [k for k, v in s.states if v == "closed"],
                           "reopened": [k for k, v in s.states if v == "open"],
                           "merged": [k for k, v in s.states if v == "merged"],
                           "commented": list(dict.fromkeys(k for k, _ in s.comments)),
                           "created.count": len(s.created), **keyed("watch.{}", s.watching),
                           **keyed("merge_method.{}", s.merges),
                           **grouped("comments.{}", s.comments)}
    for key, pairs in (("assigned", s.assigned), ("labelled", s.labelled)):
        # values toggled on an odd number of times, per entity (assignees or labels added)
        net = {eid: toggled([], pairs, eid) for eid in dict.fromkeys(k for k, _ in pairs)}
        out[key] = [eid for eid, vals in net.items() if vals]
        out.update({f"{key}.{eid}": vals for eid, vals in net.items()})
    if s.created:
        rid, title, label, assignee = s.created[-1]
        out.update({"created.repo": rid, "created.title": title, "created.label": label,
                    "created.assignee": assignee})
    return out
