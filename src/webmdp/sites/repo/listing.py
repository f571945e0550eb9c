"""A repository's issue and pull-request lists: effective values after the user's changes,
the list filters (state, label, author) and sort orders."""

from __future__ import annotations

from functools import lru_cache

from webmdp.core.model import Entity, World
from webmdp.sites.repo.state import Pairs, RepoState


@lru_cache(maxsize=4096)
def children(world: World, rid: str, prefix: str) -> tuple[str, ...]:
    """Ids of a repository's issues (``ISS-``) or pull requests (``PR-``), newest first."""
    mine = [e for e in world.entities.values()
            if e["id"].startswith(prefix) and e.get("repo_id") == rid]
    mine.sort(key=lambda e: -e["number"])
    return tuple(e["id"] for e in mine)


def last(pairs: Pairs, eid: str) -> str | None:
    return next((v for k, v in reversed(pairs) if k == eid), None)


def toggled(base: list[str], pairs: Pairs, eid: str) -> list[str]:
    """A list field after the user's toggles (assignees, labels)."""
    out = list(base)
    for k, v in pairs:
        if k == eid:
            out = [x for x in out if x != v] if v in out else [*out, v]
    return out


def state_of(s: RepoState, e: Entity) -> str:
    return last(s.states, e["id"]) or str(e["state"])


def labels_of(s: RepoState, e: Entity) -> list[str]:
    return toggled(e["labels"], s.labelled, e["id"])


def assignees_of(s: RepoState, e: Entity) -> list[str]:
    return toggled(e["assignees"], s.assigned, e["id"])


def comments_on(s: RepoState, eid: str) -> list[str]:
    return [body for k, body in s.comments if k == eid]


def issue_list(s: RepoState, world: World) -> list[str]:
    """The issue list after the state / label / author filters, in the chosen order."""
    ents = [world.entities[i] for i in children(world, s.repo, "ISS-")]
    out = [e for e in ents if state_of(s, e) == s.issue_state
           and (not s.issue_label or s.issue_label in labels_of(s, e))
           and (not s.issue_author or e["author"] == s.issue_author)]
    if s.issue_sort == "oldest":
        out.sort(key=lambda e: e["number"])
    elif s.issue_sort == "most_commented":
        out.sort(key=lambda e: (-(e["comments"] + len(comments_on(s, e["id"]))), -e["number"]))
    return [e["id"] for e in out]


def pr_list(s: RepoState, world: World) -> list[str]:
    """The pull-request list: "Open", or "Closed" (closed and merged), in the chosen order."""
    ents = [world.entities[i] for i in children(world, s.repo, "PR-")]
    out = [e for e in ents if (state_of(s, e) == "open") == (s.pr_state == "open")]
    if s.pr_sort == "oldest":
        out.sort(key=lambda e: e["number"])
    return [e["id"] for e in out]


def counts(s: RepoState, world: World, prefix: str) -> dict[str, int]:
    """Open / closed totals of a repository's issues or pull requests (the list's tabs)."""
    states = [state_of(s, world.entities[i]) for i in children(world, s.repo, prefix)]
    n_open = states.count("open")
    return {"open": n_open, "closed": len(states) - n_open}
