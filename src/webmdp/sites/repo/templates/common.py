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
from webmdp.sites._common.worldgen import pin_group
from webmdp.sites.repo.catalog import CATALOG
from webmdp.sites.repo.world import N_REPOS, repo_name
from webmdp.tasks.model import Condition
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft, TaskTemplate

Group = tuple[Entity, Entity, list[Entity], tuple[Entity, ...], dict[str, Any]]
"""(shared base, the target's own values, each hard negative's values, decoys, params)."""


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


def top(ents: list[Entity], field: str) -> list[str]:
    best = max((e[field] for e in ents), default=None)
    return [e["id"] for e in ents if e[field] == best]


class RepoTemplate(TaskTemplate):
    """The decision object is a repository: find it on the search page, open it, commit."""

    card: tuple[str, ...] = ()
    detail: tuple[str, ...] = ()
    all_negatives = False

    def group(self, rng: random.Random, k: int) -> Group:
        raise NotImplementedError

    def sentence(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def prefix(self, p: dict[str, Any]) -> list[Action]:
        raise NotImplementedError

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ()

    def commit(self, d: Draft, world: World) -> list[Action]:
        raise NotImplementedError

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        base, extra, negs, decoys, params = self.group(rng, hard_negatives)
        group = pin_group(rng, base, extra, negs)
        return Draft(instruction=self.sentence(params), params=params,
                     spec=spec((*group, *decoys), self.avoid(params)),
                     card_fields=self.card, detail_fields=self.detail)

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        steps = reach_and_explore(site, world, d, self.prefix(d.params),
                                  open_action=Action("OpenRepo"), back=Action("BackToRepos"),
                                  entity_param="repo_id", all_negatives=self.all_negatives)
        return [*steps, *self.commit(d, world)]


class ChildTemplate(TaskTemplate):
    """The decision object is an issue or pull request of a named host repository: search the
    repository, open its Issues / Pull requests tab, filter, open candidates, commit."""

    kind = "issue"
    card: tuple[str, ...] = ()
    detail: tuple[str, ...] = ()

    def group(self, rng: random.Random, k: int) -> Group:
        raise NotImplementedError

    def sentence(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def filters(self, p: dict[str, Any]) -> list[Action]:
        raise NotImplementedError

    def commit(self, d: Draft, world: World) -> list[Action]:
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
        return Draft(instruction=self.sentence(params), params=params,
                     spec=spec((host, *group, *decoys), avoid),
                     card_fields=self.card, detail_fields=self.detail)

    def criteria(self, p: dict[str, Any]) -> dict[str, Any]:
        """What the instruction asks of the target: a value a field equals, a value a list
        field holds, or (``body``) a term the description mentions."""
        raise NotImplementedError

    def matches(self, d: Draft, world: World) -> list[str]:
        return self.satisfying(world, d, self.criteria(d.params))

    def satisfying(self, world: World, d: Draft, want: dict[str, Any]) -> list[str]:
        return [e["id"] for e in self.candidates(world, d)
                if all(_holds(f, e[f], v) for f, v in want.items())]

    def host(self, world: World, d: Draft) -> str:
        return next(e["id"] for e in repos(world) if e["name"] == d.params["repo"])

    def candidates(self, world: World, d: Draft) -> list[Entity]:
        rid, prefix = self.host(world, d), "ISS-" if self.kind == "issue" else "PR-"
        return [e for e in world.entities.values()
                if e["id"].startswith(prefix) and e["repo_id"] == rid]

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        tab, opener, back, param = (("OpenIssues", "OpenIssue", "BackToIssues", "issue_id")
                                    if self.kind == "issue" else
                                    ("OpenPullRequests", "OpenPR", "BackToPRs", "pr_id"))
        prefix = [Action("Search", {"query": d.params["repo"]}),
                  Action("OpenRepo", {"repo_id": self.host(world, d)}), Action(tab),
                  *self.filters(d.params)]
        steps = reach_and_explore(site, world, d, prefix, open_action=Action(opener),
                                  back=Action(back), entity_param=param)
        return [*steps, *self.commit(d, world)]


def _holds(field: str, value: Any, want: Any) -> bool:
    if field == "body" or isinstance(value, list):
        return bool(want in value)
    return bool(value == want)


def untouched(d: Draft, fact: str, what: str) -> list[Condition]:
    """No hard negative appears in the list fact (it was not starred, closed, ...)."""
    return [Condition(fact=fact, op="not_contains", value=h,
                      description=f"hard negative {h} is not {what}") for h in d.hard_negatives]
