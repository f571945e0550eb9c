"""Calendar task templates (WebSTEP H.1 style), 6 families as in Table 4."""

from __future__ import annotations

from webmdp.sites._common.templates import collect
from webmdp.sites.calendar.templates import changes, replies
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = collect(replies, changes)
