"""Team Chat task templates (WebSTEP H.1 style), 12 families of 15 tasks."""

from __future__ import annotations

from webmdp.sites._common.templates import collect
from webmdp.sites.chat.templates import search, threads
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = collect(threads, search)
