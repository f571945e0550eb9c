"""Job Network task templates (WebSTEP H.1 style), 12 families: six on job postings, six on
member profiles."""

from __future__ import annotations

from webmdp.sites._common.templates import collect
from webmdp.sites.jobs.templates import jobs, people
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = collect(jobs, people)
