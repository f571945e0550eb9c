"""Templates whose decision object is a repository: search and filter the repository page, open
candidates (the detail-only About box tells them apart), then star, watch or open an issue."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.sites._common.templates import Group
from webmdp.sites._common.worldgen import others
from webmdp.sites.repo import vocab as V
from webmdp.sites.repo.templates.common import RepoTemplate, listed, repos
from webmdp.sites.repo.world import repo_name
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions, membership


class StarTemplate(RepoTemplate):
    commit_action = "StarRepo"

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("StarRepo", {"repo_id": d.target})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return membership(d, "starred", "starred")


class MostForksWatched(StarTemplate):
    """WebSTEP Figure 25: search, language filter, sort by forks, star the most-forked one;
    the watcher count (About box, detail only) rules out more-forked hard negatives."""

    name = "search_language_most_forks"
    description = "Search, filter by language, sort by forks, star the top one with enough watchers"
    card, detail = ("description", "language"), ("watchers",)

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

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Search for '{p['query']}' and filter by {p['language']} language. Sort by "
                f"forks and star the one with the most forks that has at least {p['watchers']} "
                f"watchers.")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("Search", {"query": p["query"]}),
                Action("SetLanguage", {"language": p["language"]}),
                Action("SortBy", {"order": "forks"})]

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        ents = [e for e in listed(world, p["query"], language=p["language"])
                if e["watchers"] >= p["watchers"]]
        return best(ents, "forks", highest=True)


class TopicBranch(StarTemplate):
    """Three facets (topic, stars, license) then the default branch, shown on the Code tab."""

    name = "topic_stars_license_branch"
    description = "Filter topic, stars and license; star the one on a given default branch"
    card, detail = ("topics", "stars"), ("license", "default_branch")

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

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Find a repository tagged '{p['topic']}' with at least {int(p['stars']):,} "
                f"stars under the {p['license']} license whose default branch is "
                f"'{p['branch']}', and star it.")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("ToggleTopic", {"topic": p["topic"]}),
                Action("SetMinStars", {"stars": p["stars"]}),
                Action("SetLicense", {"license": p["license"]})]

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [e["id"] for e in listed(world, topics=(p["topic"],), stars=p["stars"],
                                        license=p["license"])
                if e["default_branch"] == p["branch"]]


class WatchMostWatched(RepoTemplate):
    """A comparison over a detail-only field: every candidate's watcher count is read."""

    name = "watch_most_watched"
    description = "Filter language and topic, compare watchers on each page, watch the top one"
    commit_action = "WatchRepo"
    card, detail = ("language", "topics"), ("watchers",)
    compare = True

    def group(self, rng: random.Random, k: int) -> Group:
        topic, lang = rng.choice(V.TOPICS), rng.choice(V.LANGUAGES)
        watchers = rng.randint(500, 900)
        negs = [{"watchers": w} for w in rng.sample(range(310, watchers), k)]
        level = rng.choice(V.WATCH_LEVELS[:2])
        return ({"topic": topic, "topics": [topic], "language": lang}, {"watchers": watchers},
                negs, (),
                {"topic": topic, "language": lang, "level": level})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Among {p['language']} repositories tagged '{p['topic']}', find the one with "
                f"the most watchers and watch it with '{V.WATCH_LABELS[p['level']]}'.")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("SetLanguage", {"language": p["language"]}),
                Action("ToggleTopic", {"topic": p["topic"]})]

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return best(listed(world, language=p["language"], topics=(p["topic"],)), "watchers",
                    highest=True)

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("WatchRepo", {"level": d.params["level"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*commit_conditions("watch", {d.target: d.params["level"]}, "watch level of"),
                *(Condition(fact=f"watch.{h}", op="eq", value=None,
                            description=f"hard negative {h} is not watched")
                  for h in d.hard_negatives)]


class ForkOnBranch(StarTemplate):
    """Copies of one repository under several owners: the default branch tells them apart."""

    name = "fork_default_branch"
    description = "Search a repository name shared by forks; star the one on a given branch"
    card, detail = ("name",), ("default_branch",)

    def group(self, rng: random.Random, k: int) -> Group:
        name, branch = repo_name(rng), rng.choice(V.BRANCHES)
        owners = rng.sample(V.OWNERS, k + 1)
        negs = [{"default_branch": b, "owner": o}
                for b, o in zip(others(rng, V.BRANCHES, branch, k), owners[1:], strict=True)]
        return ({"name": name}, {"default_branch": branch, "owner": owners[0]}, negs, (),
                {"repo": name, "branch": branch})

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ({"name": p["repo"]},)

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Several owners host a copy of '{p['repo']}'. Star the copy whose default "
                f"branch is '{p['branch']}'.")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("Search", {"query": p["repo"]})]

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [e["id"] for e in repos(world)
                if e["name"] == p["repo"] and e["default_branch"] == p["branch"]]


class IssueInLicensedCopy(RepoTemplate):
    """Issue creation (title, label, assignee, each checked) in the copy under a license."""

    name = "create_issue_licensed_copy"
    description = "Find the copy of a repository under a license and open a labelled issue"
    commit_action = "CreateIssue"
    card, detail = ("name",), ("license",)

    def group(self, rng: random.Random, k: int) -> Group:
        name, lic = repo_name(rng), rng.choice(V.LICENSES)
        owners = rng.sample(V.OWNERS, k + 1)
        negs = [{"license": x, "owner": o}
                for x, o in zip(others(rng, V.LICENSES, lic, k), owners[1:], strict=True)]
        subject = rng.choice(V.ISSUE_TOPICS)
        return ({"name": name}, {"license": lic, "owner": owners[0]}, negs, (), {
            "repo": name, "license": lic, "title": f"{subject[0].upper()}{subject[1:]}",
            "label": rng.choice(V.LABELS), "assignee": rng.choice(V.PEOPLE)})

    def avoid(self, p: dict[str, Any]) -> tuple[Entity, ...]:
        return ({"name": p["repo"]},)

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"In the copy of '{p['repo']}' released under the {p['license']} license, open "
                f"a new issue titled '{p['title']}' with the label '{p['label']}', assigned to "
                f"{p['assignee']}.")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("Search", {"query": p["repo"]})]

    def matches(self, d: Draft, world: World) -> list[str]:
        p = d.params
        return [e["id"] for e in repos(world)
                if e["name"] == p["repo"] and e["license"] == p["license"]]

    def commit(self, d: Draft, world: World) -> list[Action]:
        p = d.params
        return [Action("OpenIssues"), Action("NewIssue"),
                Action("CreateIssue", {"title": p["title"], "label": p["label"],
                                       "assignee": p["assignee"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        p = d.params
        return commit_conditions("created", {"repo": d.target, "title": p["title"],
                                             "label": p["label"], "assignee": p["assignee"]},
                                 "new issue's")


