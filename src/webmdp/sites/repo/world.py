"""Code Repo world generation (WebSTEP E.2): repositories ``REPO-###`` and, per repository, its
issues ``ISS-###`` and pull requests ``PR-###`` (each with a ``repo_id`` and a ``number``).

A template pins repositories (with a ``key``) and issues / pull requests (``kind: issue`` or
``kind: pr`` with the ``repo_key`` of their host); avoid mappings with a ``kind`` constrain the
host's filler issues / pull requests, the others constrain filler repositories.
"""

from __future__ import annotations

import random

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.sites._common.worldgen import assemble, fillers
from webmdp.sites.repo import vocab as V

REPO_CARD = ("name", "owner", "description", "language", "stars", "forks", "topics")
REPO_DETAIL = ("license", "watchers", "default_branch")
ISSUE_CARD = ("number", "title", "state", "labels", "author", "comments")
ISSUE_DETAIL = ("body", "assignees", "milestone")
PR_CARD = ISSUE_CARD
PR_DETAIL = ("body", "assignees", "branch", "checks")
CARD_FIELDS: tuple[str, ...] = REPO_CARD + ISSUE_CARD
DETAIL_FIELDS: tuple[str, ...] = (*REPO_DETAIL, "body", "assignees", "milestone", "branch",
                                  "checks")
N_REPOS = 24
N_ISSUES = 6
N_PRS = 4
KINDS = ("issue", "pr")


def generate_world(spec: WorldSpec, rng: random.Random) -> World:
    """Repositories (pinned + fillers, shuffled, ids), then each one's issues and PRs."""
    used: set[str] = set()
    r_pinned = tuple(p for p in spec.pinned if p.get("kind") not in KINDS)
    c_pinned = [p for p in spec.pinned if p.get("kind") in KINDS]
    r_avoid = tuple(a for a in spec.avoid if a.get("kind") not in KINDS)
    c_avoid = [a for a in spec.avoid if a.get("kind") in KINDS]

    def complete(p: Entity, r: random.Random) -> Entity:
        return complete_repo(p, r, used)

    repos = assemble("repo", WorldSpec(r_pinned, spec.n_fillers, r_avoid), rng,
                     prefix="REPO", complete=complete)
    entities: dict[str, Entity] = {}
    children: dict[str, list[Entity]] = {"issue": [], "pr": []}
    for rid, r in repos.entities.items():
        key = r.pop("key", None)
        number = rng.randint(3, 40)
        for kind, n in (("issue", N_ISSUES), ("pr", N_PRS)):
            taken: set[str] = set()

            def child(p: Entity, r: random.Random, _taken: set[str] = taken) -> Entity:
                return complete_child(p, r, _taken)

            mine = [child(p, rng) for p in c_pinned
                    if key is not None and p["kind"] == kind and p["repo_key"] == key]
            avoid = [a for a in c_avoid if a["kind"] == kind and a["repo_key"] == key]
            base = {"kind": kind, "repo_key": key or ""}
            extra = 0 if spec.sparse else max(0, n - len(mine))  # sparse: the dial's look-ups
            group = mine + fillers(rng, extra, child, avoid, base)
            rng.shuffle(group)
            for c in group:
                number += rng.randint(1, 9)
                children[kind].append({**c, "repo_id": rid, "number": number})
        entities[rid] = r
    for kind, prefix in (("issue", "ISS"), ("pr", "PR")):
        for n, c in enumerate(children[kind], start=1):
            cid = f"{prefix}-{n:03d}"
            entities[cid] = {"id": cid, **{k: v for k, v in c.items()
                                           if k not in ("kind", "repo_key")}}
    return World(site="repo", entities=entities)


def repo_name(rng: random.Random) -> str:
    return f"{rng.choice(V.NAME_HEADS)}-{rng.choice(V.NAME_TAILS)}"


def complete_repo(p: Entity, rng: random.Random, used: set[str]) -> Entity:
    """Fill a repository's attributes; its ``owner/name`` is unique unless pinned."""
    topic = p.get("topic") or rng.choice(V.TOPICS)
    name = p.get("name") or repo_name(rng)
    owner = p.get("owner") or rng.choice(V.OWNERS)
    while f"{owner}/{name}" in used and not ("name" in p and "owner" in p):
        name, owner = p.get("name") or repo_name(rng), rng.choice(V.OWNERS)
    used.add(f"{owner}/{name}")
    language = p.get("language") or rng.choice(V.LANGUAGES)
    extra = rng.sample([t for t in V.TOPICS if t != topic], rng.randint(0, 2))
    stars = p["stars"] if "stars" in p else rng.choice((rng.randint(20, 900),
                                                        rng.randint(900, 30000)))
    out = {
        "name": name, "owner": owner, "topic": topic,
        "topics": list(p.get("topics") or [topic, *extra]),
        "description": p.get("description") or f"{V.BLURBS[topic]} for {language} projects",
        "language": language,
        "stars": stars,
        "forks": p["forks"] if "forks" in p else max(1, stars // rng.randint(4, 12)),
        "license": p.get("license") or rng.choice(V.LICENSES),
        "watchers": p["watchers"] if "watchers" in p else rng.randint(5, 300),
        "default_branch": p.get("default_branch") or rng.choice(V.BRANCHES[:2]),
        "updated": p.get("updated") or rng.randint(1, 60),
        "popularity": p.get("popularity") or rng.randint(10, 990),
        "good_first": p["good_first"] if "good_first" in p else rng.random() < 0.4,
    }
    return {**p, **out}


def complete_child(p: Entity, rng: random.Random, taken: set[str] | None = None) -> Entity:
    """Fill an issue or pull request (``kind`` says which); its subject (and so its title) is
    one not ``taken`` yet in its repository."""
    kind = p.get("kind", "issue")
    free = [t for t in V.ISSUE_TOPICS if taken is None or t not in taken]
    subject = p.get("subject") or rng.choice(free or list(V.ISSUE_TOPICS))
    if taken is not None:
        taken.add(subject)
    keyword = p.get("keyword") or rng.choice(V.KEYWORDS)
    labels = list(p["labels"]) if "labels" in p else rng.sample(V.LABELS, rng.randint(0, 2))
    title = p.get("title") or (f"Fix: {subject}" if kind == "pr"
                               else f"{subject[0].upper()}{subject[1:]}")
    out: Entity = {
        "kind": kind, "title": title, "subject": subject, "keyword": keyword,
        "state": p.get("state") or rng.choice(("open", "open", "closed")),
        "labels": labels,
        "author": p.get("author") or rng.choice(V.PEOPLE),
        "comments": p["comments"] if "comments" in p else rng.randint(0, 14),
        "body": (f"Seen while working on the {keyword} code path: {subject}. "
                 f"Steps to reproduce are below; logs attached."),
        "assignees": list(p["assignees"]) if "assignees" in p
        else rng.sample(V.PEOPLE, rng.randint(0, 1)),
        "created": p.get("created") or rng.randint(1, 90),
    }
    if kind == "issue":
        out["milestone"] = p.get("milestone") or rng.choice(V.MILESTONES)
    else:
        out["branch"] = p.get("branch") or rng.choice(V.PR_BRANCHES)
        out["checks"] = p.get("checks") or rng.choice(V.CHECKS)
        out["state"] = p.get("state") or rng.choice(("open", "open", "closed", "merged"))
    return {**p, **out}
