"""Code Repo task templates (WebSTEP H.1 style), 12 families (Table 4)."""

from __future__ import annotations

from webmdp.sites.repo.templates.issues import (
    AssignMostCommented,
    CloseInMilestone,
    ClosePRByKeyword,
    CommentAssigned,
    LabelByKeyword,
    MergeFromBranch,
    ReopenByKeyword,
)
from webmdp.sites.repo.templates.repos import (
    ForkOnBranch,
    IssueInLicensedCopy,
    MostForksWatched,
    TopicBranch,
    WatchMostWatched,
)
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = {t.name: t for t in (
    MostForksWatched(), TopicBranch(), WatchMostWatched(), ForkOnBranch(),
    IssueInLicensedCopy(), CommentAssigned(), CloseInMilestone(), ReopenByKeyword(),
    AssignMostCommented(), LabelByKeyword(), MergeFromBranch(), ClosePRByKeyword(),
)}
