"""Building blocks shared by the Code Repo templates: a repository group (target repository and
its hard negatives) or a host repository with an issue / pull-request group, the E.3 oracle
prefixes, and the repository-search helpers."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import BrowseState
from webmdp.sites._common.templates import Group, PinnedTemplate
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.repo.catalog import CATALOG
from webmdp.sites.repo.world import N_REPOS, repo_name
from webmdp.tasks.template import Draft


def spec(pinned: tuple[Entity, ...], avoid: tuple[Entity, ...] = ()) -> WorldSpec:
    repos = sum(1 for p in pinned if p.get("kind") not in ("issue", "pr"))
    return WorldSpec(pinned, N_REPOS - repos, avoid)


def repos(world: World) -> list[Entity]:
    return [e for e in world.entities.values() if e["id"].startswith("REPO-")]


def listed(world: World, query: str = "", **filters: Any) -> list[Entity]:
    """Repositories the search page lists for ``query`` and facet values (all pages)."""
    order = tuple((f.name, filters[f.name]) for f in CATALOG.facets if f.name in filters)
    ids = CATALOG.results(world, BrowseState(surface="RepoList", query=query, filters=order))
    return [world.entities[i] for i in ids]


class RepoTemplate(PinnedTemplate):
    """The decision object is a repository: find it on the search page, open it, commit."""

    opener = ("OpenRepo", "BackToRepos", "repo_id")

    def group(self, rng: random.Random, k: int) -> Group:
        raise NotImplementedError

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ()

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        base, extra, negs, decoys, params = self.group(rng, hard_negatives)
        group = pin_group(rng, base, extra, negs)
        return self.compose(params, spec((*group, *decoys), self.avoid(params)))


class ChildTemplate(PinnedTemplate):
    """The decision object is an issue or pull request of a named host repository: search the
    repository, open its Issues / Pull requests tab, filter, open candidates, commit."""

    kind, ids, tab = "issue", "ISS-", "OpenIssues"
    opener = ("OpenIssue", "BackToIssues", "issue_id")

    def group(self, rng: random.Random, k: int) -> Group:
        raise NotImplementedError

    def filters(self, p: dict[str, Any]) -> list[Action]:
        return []

    def criteria(self, p: dict[str, Any]) -> dict[str, Any]:
        """What the instruction asks of the target: a value a field equals, a value a list
        field holds, or (``body``) a term the description mentions."""
        raise NotImplementedError

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        base, extra, negs, decoys, params = self.group(rng, hard_negatives)
        name = repo_name(rng)
        host = {"key": "host", "role": "companion", "name": name}
        tag = {"kind": self.kind, "repo_key": "host"}
        group = pin_group(rng, {**tag, **base}, extra, negs)
        params = {"repo": name, **params}
        decoys = tuple({**tag, "role": "filler", **dc} for dc in decoys)
        avoid = ({"name": name}, {**tag, **base, **extra})
        return self.compose(params, spec((host, *group, *decoys), avoid))

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return all(_holds(f, e[f], v) for f, v in self.criteria(p).items())

    def host(self, world: World, p: dict[str, Any]) -> str:
        return next(e["id"] for e in repos(world) if e["name"] == p["repo"])

    def candidates(self, d: Draft, world: World) -> list[Entity]:
        rid = self.host(world, d.params)
        return [e for e in super().candidates(d, world) if e["repo_id"] == rid]

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("Search", {"query": p["repo"]}),
                Action("OpenRepo", {"repo_id": self.host(world, p)}), Action(self.tab),
                *self.filters(p)]


class PRTemplate(ChildTemplate):
    kind, ids, tab = "pr", "PR-", "OpenPullRequests"
    opener = ("OpenPR", "BackToPRs", "pr_id")


def _holds(field: str, value: Any, want: Any) -> bool:
    if field == "body" or isinstance(value, list):
        return bool(want in value)
    return bool(value == want)
