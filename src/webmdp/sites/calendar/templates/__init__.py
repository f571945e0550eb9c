"""Calendar task templates (WebSTEP H.1 style), 6 families as in Table 4."""

from __future__ import annotations

from webmdp.sites.calendar.templates.changes import (
    FollowUpSameGuests,
    PrepBeforeEvent,
    RescheduleByGuest,
)
from webmdp.sites.calendar.templates.replies import (
    AcceptWithoutConflict,
    DeclineNextWeek,
    ReplyByOrganizer,
)
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = {t.name: t for t in (
    ReplyByOrganizer(), AcceptWithoutConflict(), DeclineNextWeek(), RescheduleByGuest(),
    FollowUpSameGuests(), PrepBeforeEvent(),
)}
