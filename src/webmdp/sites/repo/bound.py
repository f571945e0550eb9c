"""Code Repo's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on repo tasks."""

from __future__ import annotations

import math
from collections.abc import Callable

from webmdp.core.model import State, World
from webmdp.sites._common.catalog import offscreen as catalog_offscreen
from webmdp.sites.repo.catalog import CATALOG
from webmdp.sites.repo.listing import issue_list, pr_list, state_of
from webmdp.sites.repo.mdp import REPO_TABS
from webmdp.sites.repo.state import RepoState
from webmdp.tasks.distance import Bound, Facts, InformedBound, Problem, Unseen, unmet
from webmdp.tasks.model import Condition

_FINAL = frozenset({"commented", "closed", "reopened", "merged"})
"""List facts that only grow: a hard negative in one is there for good."""
_CREATED = frozenset({"created.repo", "created.title", "created.label", "created.assignee"})

Place = tuple[str, str]
"""Where a commit is made: ("star", repo) its list row or page, ("code", repo) its Code tab,
("new", repo) its issue list with the new-issue form open, ("item", issue or PR) its page."""


def repo_bound(p: Problem) -> Bound:
    """Code Repo. Facts used (``mdp.transition``): the commits (StarRepo / UnstarRepo on a
    repository's visible row or its Code tab, WatchRepo on its Code tab, CreateIssue on its
    issue list with the form open, AddComment / AssignIssue / LabelIssue / CloseIssue /
    ReopenIssue / MergePR / ClosePR on the open issue or pull request) change no surface, open
    repository, open item, query, filter or page, and no list's membership but that of the
    item they act on; each acts on one item with one value, so distinct unmet conditions need
    distinct commits. ``states``, ``merges``, ``comments`` and ``watching`` only grow, so an
    item in ``commented`` / ``closed`` / ``reopened`` / ``merged``, a watch, a merge method
    are final; a pull request never reopens (no merge or close once it is not open); an issue
    is closed or reopened from the other state only. Reaching a place takes navigation only:
    the repository search lists a repository only when the query and every filter accept it
    and the page shows it (Search / ClearSearch set the query, each filter action one facet,
    ClearFilters all, OpenRepo needs the row on screen); an item opens only from its
    repository's list, which shows it when the list filters accept it; the repository's tabs
    open from its other pages, the search from every page.

    The bound: commits still needed, each at its place, plus the navigation to the nearest
    place (commits and navigation are distinct actions), or the farthest place's navigation
    and commits, whichever is larger."""
    return _Repo(p).bound


def repo_informed(p: Problem) -> InformedBound:
    """Code Repo's bound on the informed distance (:mod:`webmdp.tasks.informed`): the commits
    still needed plus the navigation the path needs, which is at least the way to the
    nearest commit place and at least the way to the nearest unseen detail screen and on
    through the others (a kind of gap 2 or more: two actions from one such screen to the
    next). The two counts add up because they are distinct actions: a commit changes no
    surface, open repository or item, query, filter or page (see :func:`repo_bound`), so it
    never enters a detail screen, and a navigation action changes no fact the verifier reads.
    A repository's detail fields show on its Code tab only, an issue's or pull request's on
    its own page."""
    repo = _Repo(p)

    def bound(state: State, facts: Facts, unseen: Unseen, look: bool) -> float:
        assert isinstance(state, RepoState)
        need = repo.need(state, facts)
        if need is None:
            return math.inf
        commits = sum(need.values())
        nav = min((repo.nav(state, place, look) for place in need), default=0)
        for gap, entities, _ in unseen:
            first = min(repo.nav(state, _detail(e), look) for e in entities)
            nav = max(nav, first + (len(entities) - 1) * (1 if gap == 1 else 2))
        return float(commits + nav)

    return bound


def _detail(eid: str) -> Place:
    return ("code", eid) if eid.startswith("REPO-") else ("item", eid)


class _Repo:
    """One task's commits, each at its place, and the navigation to a place."""

    def __init__(self, p: Problem) -> None:
        self.world = world = p.world
        conds = p.task.verifier
        self.rest: list[Condition] = []
        self.final: list[Condition] = []
        self.rules: list[tuple[Condition, Place, Callable[[RepoState, Facts], float]]] = []
        created = [c for c in conds if c.fact in _CREATED and c.op == "eq"]
        self.new_repo = next((str(c.value) for c in created if c.fact == "created.repo"), None)
        self.created = created if self.new_repo is not None else []
        for c in conds:
            if c in self.created:
                continue
            kind, _, eid = c.fact.partition(".")
            if (c.op == "not_contains" and c.fact in _FINAL) or \
                    (kind == "watch" and c.value is None and c.op == "eq"):
                self.final.append(c)
            elif c.fact == "starred" and c.op in ("contains", "not_contains"):
                self.rules.append((c, ("star", str(c.value)), _one))
            elif kind == "watch" and c.op == "eq" and eid:
                self.rules.append((c, ("code", eid), _one))  # WatchRepo sets the level
            elif kind in ("comments", "assigned", "labelled") and c.op == "contains" and eid:
                self.rules.append((c, ("item", eid), _one))
            elif c.fact == "labelled" and c.op == "not_contains":
                self.rules.append((c, ("item", str(c.value)), _labels_off(str(c.value))))
            elif c.fact in ("closed", "reopened") and c.op == "contains":
                self.rules.append((c, ("item", str(c.value)), _state_change(world, c)))
            elif (c.fact == "merged" and c.op == "contains") or \
                    (kind == "merge_method" and c.op == "eq" and eid):
                self.rules.append((c, ("item", eid or str(c.value)), _merge(world, c)))
            else:
                self.rest.append(c)
        self.offscreen = catalog_offscreen(CATALOG, world)

    def code(self, s: RepoState, rid: str, look: bool, extra: int) -> int:
        """To a page ``extra`` tab clicks past the Code tab of ``rid``."""
        if s.surface == "RepoList":
            return self.offscreen(s, rid, look) + 1 + extra
        if s.repo == rid:
            return 1 if s.surface in REPO_TABS else 0  # callers handle their own page
        return self.offscreen(s, rid, look, query=False) + 2 + extra

    def nav(self, s: RepoState, place: Place, look: bool) -> int:
        """Navigation actions from ``s`` to ``place``, at least."""
        kind, eid = place
        if kind == "star":
            if s.surface == "RepoList":
                return self.offscreen(s, eid, look)
            if s.repo == eid:
                return int(s.surface != "RepoDetail")
            return self.offscreen(s, eid, look, query=False) + 1
        if kind == "code":
            return 0 if s.surface == "RepoDetail" and s.repo == eid else \
                self.code(s, eid, look, 0)
        if kind == "new":
            if s.repo == eid and s.surface == "IssueList":
                return 0 if s.composing else 1
            return self.code(s, eid, look, 1) + 1
        item = self.world.entities[eid]
        rid, issue = item["repo_id"], eid.startswith("ISS-")
        detail, lister = ("IssueDetail", "IssueList") if issue else ("PRDetail", "PullRequestList")
        if s.surface == detail and s.focus == eid:
            return 0
        if s.surface == lister and s.repo == rid:
            shown = issue_list(s, self.world) if issue else pr_list(s, self.world)
            return 1 + int(look and eid not in shown)
        return self.code(s, rid, look, 1) + 1

    def need(self, state: RepoState, facts: Facts) -> dict[Place, float] | None:
        """The commits still needed at each place; None when a goal is out of reach."""
        for c in self.final:
            if not _holds(c, facts):
                return None
        need: dict[Place, float] = {}
        for c, place, cost in self.rules:
            if not _holds(c, facts):
                k = cost(state, facts)
                if k == math.inf:
                    return None
                if c.fact in ("closed", "reopened", "merged") or \
                        c.fact.startswith("merge_method."):
                    # the state changes of one item: one MergePR both merges and sets the
                    # method, a close may first need a reopen (count the most, not the sum)
                    key = (place[0] + "!", place[1])
                    need[key] = max(need.get(key, 0), k)
                else:
                    need[place] = need.get(place, 0) + k
        if self.created and unmet(self.created, facts):
            assert self.new_repo is not None
            need[("new", self.new_repo)] = need.get(("new", self.new_repo), 0) + 1
        per: dict[Place, float] = {}
        for (kind, eid), k in need.items():
            place = (kind.rstrip("!"), eid)
            per[place] = per.get(place, 0) + k
        return per

    def bound(self, state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, RepoState)
        per = self.need(state, facts)
        if per is None:
            return math.inf
        h = float(unmet(self.rest, facts))
        if not per:
            return h
        navs = {place: self.nav(state, place, look) for place in per}
        far = max(navs[pl] + k for pl, k in per.items())
        return float(max(h, far, sum(per.values()) + min(navs.values())))


def _holds(c: Condition, facts: Facts) -> bool:
    return not unmet([c], facts)


def _one(s: RepoState, facts: Facts) -> float:
    return 1.0


def _labels_off(eid: str) -> Callable[[RepoState, Facts], float]:
    """One LabelIssue per label the user added to ``eid`` (each toggles one off)."""
    def cost(s: RepoState, facts: Facts) -> float:
        return float(max(1, len(facts.get(f"labelled.{eid}", ()))))
    return cost


def _state_change(world: World, c: Condition) -> Callable[[RepoState, Facts], float]:
    """Close (or reopen) an item: one action from the other state; an issue in the same
    state first goes the other way (two); a pull request that is not open never changes."""
    eid, want = str(c.value), "closed" if c.fact == "closed" else "open"

    def cost(s: RepoState, facts: Facts) -> float:
        now = state_of(s, world.entities[eid])
        if eid.startswith("PR-"):
            return 1.0 if want == "closed" and now == "open" else math.inf
        return 2.0 if now == want or now not in ("open", "closed") else 1.0
    return cost


def _merge(world: World, c: Condition) -> Callable[[RepoState, Facts], float]:
    """One MergePR of an open pull request merges it with its method; once merged (or
    closed) it never merges again."""
    eid = c.fact.partition(".")[2] or str(c.value)

    def cost(s: RepoState, facts: Facts) -> float:
        if f"merge_method.{eid}" in facts:
            return math.inf  # merged already, with another method (this condition is unmet)
        return 1.0 if state_of(s, world.entities[eid]) == "open" else math.inf
    return cost
