"""Code Repo task templates (WebSTEP H.1 style), 12 families (Table 4).

Building blocks shared by the Code Repo templates: a repository group (target repository and
its hard negatives) or a host repository with an issue / pull-request group, the E.3 oracle
prefixes, and the repository-search helpers."""

from __future__ import annotations

import random
import sys
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import BrowseState, best
from webmdp.sites._common.templates import TARGET, Group, PinnedTemplate, collect, untouched
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.repo import vocab as V
from webmdp.sites.repo.catalog import CATALOG
from webmdp.sites.repo.world import N_REPOS, repo_name
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions, membership


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
    by = {"query": lambda p: Action("Search", {"query": p["query"]}),
          "repo": lambda p: Action("Search", {"query": p["repo"]}),
          "language": lambda p: Action("SetLanguage", {"language": p["language"]}),
          "topic": lambda p: Action("ToggleTopic", {"topic": p["topic"]}),
          "stars": lambda p: Action("SetMinStars", {"stars": p["stars"]}),
          "license": lambda p: Action("SetLicense", {"license": p["license"]})}

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
    fixed = {"state": "open"}
    by = {"label": lambda p: Action("FilterIssueLabel", {"label": p["label"]}),
          "author": lambda p: Action("FilterIssueAuthor", {"author": p["author"]}),
          "closed": lambda p: Action("FilterIssueState", {"state": "closed"}),
          "most_commented": lambda p: Action("SortIssues", {"order": "most_commented"}),
          "oldest": lambda p: Action("SortPRs", {"order": "oldest"})}

    def group(self, rng: random.Random, k: int) -> Group:
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

    def host(self, world: World, p: dict[str, Any]) -> str:
        return next(e["id"] for e in repos(world) if e["name"] == p["repo"])

    def candidates(self, d: Draft, world: World) -> list[Entity]:
        rid = self.host(world, d.params)
        return [e for e in super().candidates(d, world) if e["repo_id"] == rid]

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("Search", {"query": p["repo"]}),
                Action("OpenRepo", {"repo_id": self.host(world, p)}), Action(self.tab),
                *super().prefix(p, world)]


class PRTemplate(ChildTemplate):
    kind, ids, tab = "pr", "PR-", "OpenPullRequests"
    opener = ("OpenPR", "BackToPRs", "pr_id")


# Templates whose decision object is a repository: search and filter the repository page, open
# candidates (the detail-only About box tells them apart), then star, watch or open an issue.
class Star(PinnedTemplate):
    """Commit: star the target repository."""

    commit_action = "StarRepo"
    commit_with, marked = {"repo_id": TARGET}, ("starred", "starred")


class MostForksWatched(Star, RepoTemplate):
    """WebSTEP Figure 25: search, language filter, sort by forks, star the most-forked one;
    the watcher count (About box, detail only) rules out more-forked hard negatives."""

    name = "search_language_most_forks"
    description = "Search, filter by language, sort by forks, star the top one with enough watchers"
    card, detail = ("description", "language"), ("watchers",)
    narrow, order = ("query", "language"), "forks"
    sentence = ("Search for '{query}' and filter by {language} language. Sort by forks and star "
                "the one with the most forks that has at least {watchers} watchers.")

    def group(self, rng: random.Random, k: int) -> Group:
        topic, lang = rng.choice(V.TOPICS), rng.choice(V.LANGUAGES)
        forks, floor = rng.randint(300, 2000), rng.choice((100, 200, 300))
        negs = [{"forks": forks + rng.randint(50, 900), "watchers": rng.randint(10, floor - 5)}
                for _ in range(k)]
        decoys = tuple({"role": "filler", "topic": topic, "language": lang,
                        "forks": forks - rng.randint(20, 250), "stars": forks * 4,
                        "watchers": rng.randint(floor, floor + 400)} for _ in range(2))
        base = {"topic": topic, "language": lang, "stars": forks * 5}
        extra = {"forks": forks, "watchers": rng.randint(floor + 10, floor + 600)}
        return base, extra, negs, decoys, {"query": topic.replace("-", " "), "language": lang,
                                           "watchers": floor}

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ({"language": p["language"]},)

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        ents = [e for e in listed(world, p["query"], language=p["language"])
                if e["watchers"] >= p["watchers"]]
        return best(ents, "forks", highest=True)


class TopicBranch(Star, RepoTemplate):
    """Three facets (topic, stars, license) then the default branch, shown on the Code tab."""

    name = "topic_stars_license_branch"
    description = "Filter topic, stars and license; star the one on a given default branch"
    card, detail = ("topics", "stars"), ("license", "default_branch")
    narrow = ("topic", "stars", "license")
    sentence = ("Find a repository tagged '{topic}' with at least {stars:,} stars under the "
                "{license} license whose default branch is '{branch}', and star it.")

    def group(self, rng: random.Random, k: int) -> Group:
        topic, lic = rng.choice(V.TOPICS), rng.choice(V.LICENSES)
        step = rng.choice(V.STAR_STEPS[:3])
        branch = rng.choice(V.BRANCHES)
        negs = [{"default_branch": b} for b in others(rng, V.BRANCHES, branch, k)]
        base = {"topic": topic, "topics": [topic], "license": lic,
                "stars": int(step) * rng.randint(2, 5)}
        return base, {"default_branch": branch}, negs, (), {
            "topic": topic, "stars": step, "license": lic, "branch": branch}

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ({"topic": p["topic"], "license": p["license"]},)

    def words(self, p: dict[str, Any]) -> dict[str, Any]:
        return {**p, "stars": int(p["stars"])}

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [e["id"] for e in listed(world, topics=(p["topic"],), stars=p["stars"],
                                        license=p["license"])
                if e["default_branch"] == p["branch"]]


class WatchMostWatched(RepoTemplate):
    """A comparison over a detail-only field: every candidate's watcher count is read."""

    name = "watch_most_watched"
    description = "Filter language and topic, compare watchers on each page, watch the top one"
    commit_action, commit_with = "WatchRepo", {"level": "level"}
    card, detail = ("language", "topics"), ("watchers",)
    compare, narrow = True, ("language", "topic")
    sentence = ("Among {language} repositories tagged '{topic}', find the one with the most "
                "watchers and watch it with '{level}'.")

    def group(self, rng: random.Random, k: int) -> Group:
        topic, lang = rng.choice(V.TOPICS), rng.choice(V.LANGUAGES)
        watchers = rng.randint(500, 900)
        negs = [{"watchers": w} for w in rng.sample(range(310, watchers), k)]
        level = rng.choice(V.WATCH_LEVELS[:2])
        return ({"topic": topic, "topics": [topic], "language": lang}, {"watchers": watchers},
                negs, (),
                {"topic": topic, "language": lang, "level": level})

    def words(self, p: dict[str, Any]) -> dict[str, Any]:
        return {**p, "level": V.WATCH_LABELS[p["level"]]}

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return best(listed(world, language=p["language"], topics=(p["topic"],)), "watchers",
                    highest=True)

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*commit_conditions("watch", {d.target: d.params["level"]}, "watch level of"),
                *(Condition(fact=f"watch.{h}", op="eq", value=None,
                            description=f"hard negative {h} is not watched")
                  for h in d.hard_negatives)]


class CopyTemplate(RepoTemplate):
    """Copies of one repository under several owners: search its name, a detail field tells
    them apart."""

    ids, card, narrow = "REPO-", ("name",), ("repo",)

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ({"name": p["repo"]},)


class ForkOnBranch(Star, CopyTemplate):
    """The default branch tells the copies apart."""

    name = "fork_default_branch"
    description = "Search a repository name shared by forks; star the one on a given branch"
    detail = ("default_branch",)
    wants = {"name": "repo", "default_branch": "branch"}
    sentence = ("Several owners host a copy of '{repo}'. Star the copy whose default branch is "
                "'{branch}'.")

    def group(self, rng: random.Random, k: int) -> Group:
        name, branch = repo_name(rng), rng.choice(V.BRANCHES)
        owners = rng.sample(V.OWNERS, k + 1)
        negs = [{"default_branch": b, "owner": o}
                for b, o in zip(others(rng, V.BRANCHES, branch, k), owners[1:], strict=True)]
        return ({"name": name}, {"default_branch": branch, "owner": owners[0]}, negs, (),
                {"repo": name, "branch": branch})


class IssueInLicensedCopy(CopyTemplate):
    """Issue creation (title, label, assignee, each checked) in the copy under a license."""

    name = "create_issue_licensed_copy"
    description = "Find the copy of a repository under a license and open a labelled issue"
    commit_action, commit_after = "CreateIssue", ("OpenIssues", "NewIssue")
    commit_with = {"title": "title", "label": "label", "assignee": "assignee"}
    detail, wants = ("license",), {"name": "repo", "license": "license"}
    sentence = ("In the copy of '{repo}' released under the {license} license, open a new issue "
                "titled '{title}' with the label '{label}', assigned to {assignee}.")

    def group(self, rng: random.Random, k: int) -> Group:
        name, lic = repo_name(rng), rng.choice(V.LICENSES)
        owners = rng.sample(V.OWNERS, k + 1)
        negs = [{"license": x, "owner": o}
                for x, o in zip(others(rng, V.LICENSES, lic, k), owners[1:], strict=True)]
        subject = rng.choice(V.ISSUE_TOPICS)
        return ({"name": name}, {"license": lic, "owner": owners[0]}, negs, (), {
            "repo": name, "license": lic, "title": f"{subject[0].upper()}{subject[1:]}",
            "label": rng.choice(V.LABELS), "assignee": rng.choice(V.PEOPLE)})

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        p = d.params
        return commit_conditions("created", {"repo": d.target, "title": p["title"],
                                             "label": p["label"], "assignee": p["assignee"]},
                                 "new issue's")


# Templates whose decision object is an issue or pull request of a named repository: filter
# its list, open candidates (assignees, milestone, description and branch are detail only), then
# comment, close, reopen, assign, label or merge.
class CommentAssigned(ChildTemplate):
    name = "comment_on_assigned_issue"
    description = "Filter issues by label, find the one assigned to a person, comment on it"
    commit_action, commit_with = "AddComment", {"body": "text"}
    card, detail = ("labels", "state"), ("assignees",)
    narrow, wants = ("label",), {"labels": "label", "assignees": "user"}
    sentence = ("In the {repo} repository, find the open issue labelled '{label}' that is assigned "
                "to {user} and comment: \"{text}\"")

    def group(self, rng: random.Random, k: int) -> Group:
        label, user = rng.choice(V.LABELS), rng.choice(V.PEOPLE)
        negs = [{"assignees": [u]} for u in others(rng, V.PEOPLE, user, k)]
        text = rng.choice(("I can reproduce this on the latest release.",
                           "Taking a look at this today.", "Is there a workaround for now?",
                           "This also happens on macOS."))
        return ({"state": "open", "labels": [label]}, {"assignees": [user]}, negs, (),
                {"label": label, "user": user, "text": text})

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [Condition(fact=f"comments.{d.target}", op="contains", value=d.params["text"],
                          description=f"{d.target} has the comment"),
                *untouched(d, "commented", "commented on")]


class CloseInMilestone(ChildTemplate):
    name = "close_issue_in_milestone"
    description = "Filter issues by author, close the one planned for a milestone"
    commit_action, marked = "CloseIssue", ("closed", "closed")
    card, detail = ("author", "state"), ("milestone",)
    narrow, wants = ("author",), {"author": "author", "milestone": "milestone"}
    sentence = ("In the {repo} repository, close the open issue opened by {author} that is planned "
                "for the '{milestone}' milestone.")

    def group(self, rng: random.Random, k: int) -> Group:
        author, ms = rng.choice(V.PEOPLE), rng.choice(V.MILESTONES)
        negs = [{"milestone": m} for m in others(rng, V.MILESTONES, ms, k)]
        return ({"state": "open", "author": author}, {"milestone": ms}, negs, (),
                {"author": author, "milestone": ms})


class ReopenByKeyword(ChildTemplate):
    name = "reopen_closed_issue"
    description = "Show closed issues with a label, reopen the one whose description names a term"
    commit_action, marked = "ReopenIssue", ("reopened", "reopened")
    card, detail = ("labels", "state"), ("body",)
    narrow, fixed = ("closed", "label"), {"state": "closed"}
    wants = {"labels": "label", "body": "keyword"}
    sentence = ("In the {repo} repository, reopen the closed '{label}' issue whose description "
                "mentions '{keyword}'.")

    def group(self, rng: random.Random, k: int) -> Group:
        label, word = rng.choice(V.LABELS), rng.choice(V.KEYWORDS)
        negs = [{"keyword": w} for w in others(rng, V.KEYWORDS, word, k)]
        return ({"state": "closed", "labels": [label]}, {"keyword": word}, negs, (),
                {"label": label, "keyword": word})


class AssignMostCommented(ChildTemplate):
    """A superlative over a card field (comments) restricted by a detail field (milestone)."""

    name = "assign_most_commented"
    description = "Sort labelled issues by comments, assign the top one in a milestone"
    commit_action, commit_with = "AssignIssue", {"assignee": "user"}
    card, detail = ("labels", "state"), ("milestone",)
    narrow, wants = ("label", "most_commented"), {"labels": "label", "milestone": "milestone"}
    sentence = ("In the {repo} repository, among open '{label}' issues in the '{milestone}' "
                "milestone, assign the most-commented one to {user}.")
    best_by, highest = "comments", True

    def group(self, rng: random.Random, k: int) -> Group:
        label, ms, user = rng.choice(V.LABELS), rng.choice(V.MILESTONES), rng.choice(V.PEOPLE)
        comments = rng.randint(8, 20)
        negs = [{"milestone": m, "comments": comments + rng.randint(1, 15)}
                for m in others(rng, V.MILESTONES, ms, k)]
        decoys = tuple({"state": "open", "labels": [label], "milestone": ms, "assignees": [],
                        "comments": rng.randint(0, comments - 1)} for _ in range(2))
        return ({"state": "open", "labels": [label], "assignees": []},
                {"milestone": ms, "comments": comments}, negs, decoys,
                {"label": label, "milestone": ms, "user": user})

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [Condition(fact=f"assigned.{d.target}", op="contains", value=d.params["user"],
                          description=f"{d.params['user']} is assigned to {d.target}"),
                *untouched(d, "assigned", "reassigned")]


class LabelByKeyword(ChildTemplate):
    name = "label_issue_by_keyword"
    description = "Filter issues by author, label the one whose description names a term"
    commit_action, commit_with = "LabelIssue", {"label": "label"}
    card, detail = ("author", "state"), ("body",)
    narrow, wants = ("author",), {"author": "author", "body": "keyword"}
    sentence = ("In the {repo} repository, {author} opened an issue whose description mentions "
                "'{keyword}'. Add the '{label}' label to it.")

    def group(self, rng: random.Random, k: int) -> Group:
        author, word = rng.choice(V.PEOPLE), rng.choice(V.KEYWORDS)
        label = rng.choice(V.LABELS)
        negs = [{"keyword": w} for w in others(rng, V.KEYWORDS, word, k)]
        return ({"state": "open", "author": author, "labels": []}, {"keyword": word}, negs, (),
                {"author": author, "keyword": word, "label": label})

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [Condition(fact=f"labelled.{d.target}", op="contains", value=d.params["label"],
                          description=f"{d.target} has the label {d.params['label']!r}"),
                *untouched(d, "labelled", "relabelled")]


class MergeFromBranch(PRTemplate):
    """Merge with a chosen method: the verifier checks the PR and the method separately."""

    name = "merge_pr_from_branch"
    description = "Find an author's open pull request from a branch and merge it with a method"
    commit_action, commit_with = "MergePR", {"method": "method"}
    card, detail = ("author", "state"), ("branch",)
    wants = {"author": "author", "branch": "branch"}
    sentence = ("In the {repo} repository, {how} the open pull request by {author} that comes "
                "from the branch '{branch}'.")

    def group(self, rng: random.Random, k: int) -> Group:
        author, branch = rng.choice(V.PEOPLE), rng.choice(V.PR_BRANCHES)
        negs = [{"branch": b} for b in others(rng, V.PR_BRANCHES, branch, k)]
        method = rng.choice(V.MERGE_METHODS)
        return ({"state": "open", "author": author}, {"branch": branch}, negs, (),
                {"author": author, "branch": branch, "method": method})

    def words(self, p: dict[str, Any]) -> dict[str, Any]:
        return {**p, "how": {"merge": "merge (with a merge commit)", "squash": "squash and merge",
                             "rebase": "rebase and merge"}[p["method"]]}

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "merged", "merged"),
                *commit_conditions("merge_method", {d.target: d.params["method"]},
                                   "merge method of")]


class ClosePRByKeyword(PRTemplate):
    name = "close_pr_by_keyword"
    description = "Show pull requests oldest first, close an author's one that names a term"
    commit_action = "ClosePR"
    card, detail = ("author", "state"), ("body",)
    narrow, wants = ("oldest",), {"author": "author", "body": "keyword"}
    sentence = ("In the {repo} repository, close (without merging) the open pull request by "
                "{author} whose description mentions '{keyword}'.")

    def group(self, rng: random.Random, k: int) -> Group:
        author, word = rng.choice(V.PEOPLE), rng.choice(V.KEYWORDS)
        negs = [{"keyword": w} for w in others(rng, V.KEYWORDS, word, k)]
        return ({"state": "open", "author": author}, {"keyword": word}, negs, (),
                {"author": author, "keyword": word})

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "closed", "closed"), *untouched(d, "merged", "merged")]


TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
