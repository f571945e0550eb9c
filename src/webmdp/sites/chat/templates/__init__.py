"""Team Chat task templates (WebSTEP H.1 style), 12 families of 15 tasks."""

from __future__ import annotations

from webmdp.sites.chat.templates.search import (
    DmAuthorRepliedBy,
    PostWhereFileShared,
    SearchNewestReact,
    SearchPinMentioning,
)
from webmdp.sites.chat.templates.threads import (
    DeleteOwnReactedBy,
    EditOwnMentioning,
    LatestReply,
    MostReplies,
    PinReactedBy,
    ReactToFileThread,
    RemindRepliedBy,
    ReplyMentioning,
)
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = {t.name: t for t in (
    ReplyMentioning(), ReactToFileThread(), PinReactedBy(), RemindRepliedBy(), MostReplies(),
    LatestReply(), EditOwnMentioning(), DeleteOwnReactedBy(), DmAuthorRepliedBy(),
    SearchPinMentioning(), SearchNewestReact(), PostWhereFileShared(),
)}
