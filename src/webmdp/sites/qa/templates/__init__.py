"""Coding Q&A task templates (WebSTEP H.1 style), 12 families (Table 4)."""

from __future__ import annotations

from webmdp.sites._common.templates import collect
from webmdp.sites.qa.templates import answers, questions
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = collect(questions, answers)
