"""Templates whose decision object is an issue or pull request of a named repository: filter
its list, open candidates (assignees, milestone, description and branch are detail only), then
comment, close, reopen, assign, label or merge."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.sites._common.templates import Group, untouched
from webmdp.sites._common.worldgen import others
from webmdp.sites.repo import vocab as V
from webmdp.sites.repo.templates.common import ChildTemplate, PRTemplate
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import commit_conditions, membership


class CommentAssigned(ChildTemplate):
    name = "comment_on_assigned_issue"
    description = "Filter issues by label, find the one assigned to a person, comment on it"
    commit_action = "AddComment"
    card, detail = ("labels", "state"), ("assignees",)

    def group(self, rng: random.Random, k: int) -> Group:
        label, user = rng.choice(V.LABELS), rng.choice(V.PEOPLE)
        negs = [{"assignees": [u]} for u in others(rng, V.PEOPLE, user, k)]
        text = rng.choice(("I can reproduce this on the latest release.",
                           "Taking a look at this today.", "Is there a workaround for now?",
                           "This also happens on macOS."))
        return ({"state": "open", "labels": [label]}, {"assignees": [user]}, negs, (),
                {"label": label, "user": user, "text": text})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"In the {p['repo']} repository, find the open issue labelled '{p['label']}' "
                f"that is assigned to {p['user']} and comment: \"{p['text']}\"")

    def filters(self, p: dict[str, Any]) -> list[Action]:
        return [Action("FilterIssueLabel", {"label": p["label"]})]

    def criteria(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"state": "open", "labels": p["label"], "assignees": p["user"]}

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("AddComment", {"body": d.params["text"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [Condition(fact=f"comments.{d.target}", op="contains", value=d.params["text"],
                          description=f"{d.target} has the comment"),
                *untouched(d, "commented", "commented on")]


class CloseInMilestone(ChildTemplate):
    name = "close_issue_in_milestone"
    description = "Filter issues by author, close the one planned for a milestone"
    commit_action = "CloseIssue"
    card, detail = ("author", "state"), ("milestone",)

    def group(self, rng: random.Random, k: int) -> Group:
        author, ms = rng.choice(V.PEOPLE), rng.choice(V.MILESTONES)
        negs = [{"milestone": m} for m in others(rng, V.MILESTONES, ms, k)]
        return ({"state": "open", "author": author}, {"milestone": ms}, negs, (),
                {"author": author, "milestone": ms})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"In the {p['repo']} repository, close the open issue opened by {p['author']} "
                f"that is planned for the '{p['milestone']}' milestone.")

    def filters(self, p: dict[str, Any]) -> list[Action]:
        return [Action("FilterIssueAuthor", {"author": p["author"]})]

    def criteria(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"state": "open", "author": p["author"], "milestone": p["milestone"]}

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("CloseIssue")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return membership(d, "closed", "closed")


class ReopenByKeyword(ChildTemplate):
    name = "reopen_closed_issue"
    description = "Show closed issues with a label, reopen the one whose description names a term"
    commit_action = "ReopenIssue"
    card, detail = ("labels", "state"), ("body",)

    def group(self, rng: random.Random, k: int) -> Group:
        label, word = rng.choice(V.LABELS), rng.choice(V.KEYWORDS)
        negs = [{"keyword": w} for w in others(rng, V.KEYWORDS, word, k)]
        return ({"state": "closed", "labels": [label]}, {"keyword": word}, negs, (),
                {"label": label, "keyword": word})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"In the {p['repo']} repository, reopen the closed '{p['label']}' issue whose "
                f"description mentions '{p['keyword']}'.")

    def filters(self, p: dict[str, Any]) -> list[Action]:
        return [Action("FilterIssueState", {"state": "closed"}),
                Action("FilterIssueLabel", {"label": p["label"]})]

    def criteria(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"state": "closed", "labels": p["label"], "body": p["keyword"]}

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("ReopenIssue")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return membership(d, "reopened", "reopened")


class AssignMostCommented(ChildTemplate):
    """A superlative over a card field (comments) restricted by a detail field (milestone)."""

    name = "assign_most_commented"
    description = "Sort labelled issues by comments, assign the top one in a milestone"
    commit_action = "AssignIssue"
    card, detail = ("labels", "state"), ("milestone",)

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

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"In the {p['repo']} repository, among open '{p['label']}' issues in the "
                f"'{p['milestone']}' milestone, assign the most-commented one to {p['user']}.")

    def filters(self, p: dict[str, Any]) -> list[Action]:
        return [Action("FilterIssueLabel", {"label": p["label"]}),
                Action("SortIssues", {"order": "most_commented"})]

    def criteria(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"state": "open", "labels": p["label"], "milestone": p["milestone"]}

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(self.candidates(d, world), "comments", highest=True)

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("AssignIssue", {"assignee": d.params["user"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [Condition(fact=f"assigned.{d.target}", op="contains", value=d.params["user"],
                          description=f"{d.params['user']} is assigned to {d.target}"),
                *untouched(d, "assigned", "reassigned")]


class LabelByKeyword(ChildTemplate):
    name = "label_issue_by_keyword"
    description = "Filter issues by author, label the one whose description names a term"
    commit_action = "LabelIssue"
    card, detail = ("author", "state"), ("body",)

    def group(self, rng: random.Random, k: int) -> Group:
        author, word = rng.choice(V.PEOPLE), rng.choice(V.KEYWORDS)
        label = rng.choice(V.LABELS)
        negs = [{"keyword": w} for w in others(rng, V.KEYWORDS, word, k)]
        return ({"state": "open", "author": author, "labels": []}, {"keyword": word}, negs, (),
                {"author": author, "keyword": word, "label": label})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"In the {p['repo']} repository, {p['author']} opened an issue whose "
                f"description mentions '{p['keyword']}'. Add the '{p['label']}' label to it.")

    def filters(self, p: dict[str, Any]) -> list[Action]:
        return [Action("FilterIssueAuthor", {"author": p["author"]})]

    def criteria(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"state": "open", "author": p["author"], "body": p["keyword"]}

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("LabelIssue", {"label": d.params["label"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [Condition(fact=f"labelled.{d.target}", op="contains", value=d.params["label"],
                          description=f"{d.target} has the label {d.params['label']!r}"),
                *untouched(d, "labelled", "relabelled")]


class MergeFromBranch(PRTemplate):
    """Merge with a chosen method: the verifier checks the PR and the method separately."""

    name = "merge_pr_from_branch"
    description = "Find an author's open pull request from a branch and merge it with a method"
    commit_action = "MergePR"
    card, detail = ("author", "state"), ("branch",)

    def group(self, rng: random.Random, k: int) -> Group:
        author, branch = rng.choice(V.PEOPLE), rng.choice(V.PR_BRANCHES)
        negs = [{"branch": b} for b in others(rng, V.PR_BRANCHES, branch, k)]
        method = rng.choice(V.MERGE_METHODS)
        return ({"state": "open", "author": author}, {"branch": branch}, negs, (),
                {"author": author, "branch": branch, "method": method})

    def sentence(self, p: dict[str, Any]) -> str:
        how = {"merge": "merge (with a merge commit)", "squash": "squash and merge",
               "rebase": "rebase and merge"}[p["method"]]
        return (f"In the {p['repo']} repository, {how} the open pull request by {p['author']} "
                f"that comes from the branch '{p['branch']}'.")

    def criteria(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"state": "open", "author": p["author"], "branch": p["branch"]}

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("MergePR", {"method": d.params["method"]})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "merged", "merged"),
                *commit_conditions("merge_method", {d.target: d.params["method"]},
                                   "merge method of")]


class ClosePRByKeyword(PRTemplate):
    name = "close_pr_by_keyword"
    description = "Show pull requests oldest first, close an author's one that names a term"
    commit_action = "ClosePR"
    card, detail = ("author", "state"), ("body",)

    def group(self, rng: random.Random, k: int) -> Group:
        author, word = rng.choice(V.PEOPLE), rng.choice(V.KEYWORDS)
        negs = [{"keyword": w} for w in others(rng, V.KEYWORDS, word, k)]
        return ({"state": "open", "author": author}, {"keyword": word}, negs, (),
                {"author": author, "keyword": word})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"In the {p['repo']} repository, close (without merging) the open pull request "
                f"by {p['author']} whose description mentions '{p['keyword']}'.")

    def filters(self, p: dict[str, Any]) -> list[Action]:
        return [Action("SortPRs", {"order": "oldest"})]

    def criteria(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"state": "open", "author": p["author"], "body": p["keyword"]}

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("ClosePR")]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "closed", "closed"), *untouched(d, "merged", "merged")]
