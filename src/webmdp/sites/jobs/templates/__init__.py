"""Job Network task templates (WebSTEP H.1 style), 12 families: six on job postings, six on
member profiles."""

from __future__ import annotations

from webmdp.sites.jobs.templates.jobs import (
    CompanyJobType,
    ExperienceCompanySize,
    HighestPaidWithBenefit,
    NewestOnTeam,
    RemoteWithSkill,
    SaveAndApply,
)
from webmdp.sites.jobs.templates.people import (
    AlumWithNote,
    LikePostByAlum,
    MessageBySkill,
    MessagePoster,
    MostExperienced,
    Namesake,
)
from webmdp.tasks.template import TaskTemplate

TEMPLATES: dict[str, TaskTemplate] = {t.name: t for t in (
    RemoteWithSkill(), HighestPaidWithBenefit(), NewestOnTeam(), CompanyJobType(),
    ExperienceCompanySize(), SaveAndApply(),
    AlumWithNote(), MessageBySkill(), MostExperienced(), Namesake(), LikePostByAlum(),
    MessagePoster(),
)}
