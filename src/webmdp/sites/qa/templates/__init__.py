"""Coding Q&A task templates (WebSTEP H.1 style), 12 families (Table 4)."""

from __future__ import annotations

from webmdp.sites.qa.templates.answers import (
    AcceptNewestAnswer,
    CommentOnAcceptedAnswer,
    UpvoteAnswerByUser,
)
from webmdp.sites.qa.templates.questions import (
    AnswerAndBookmark,
    AnswerUnanswered,
    BookmarkByEnvironment,
    CommentByCode,
    DownvoteLatestEdited,
    MostCommented,
    TagPageNewest,
    UpvoteByError,
    UserQuestionByError,
)
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = {t.name: t for t in (
    UpvoteByError(), BookmarkByEnvironment(), CommentByCode(), AnswerUnanswered(),
    DownvoteLatestEdited(), MostCommented(), UserQuestionByError(), TagPageNewest(),
    AcceptNewestAnswer(), UpvoteAnswerByUser(), CommentOnAcceptedAnswer(), AnswerAndBookmark(),
)}
