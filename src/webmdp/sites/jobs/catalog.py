"""The job search listing: search box, facets, sort orders, paging (sites/_common/catalog.py)."""

from __future__ import annotations

from webmdp.sites._common.catalog import Catalog, Facet, Sort
from webmdp.sites.jobs import vocab as V

CATALOG = Catalog(
    surface="JobList",
    search_fields=("title", "company"),
    facets=(
        Facet("location", "Location", "one", "SetLocation", "location_filtering",
              options=V.LOCATIONS),
        Facet("workplace", "Remote", "any", "ToggleWorkplace", "remote_filtering",
              options=V.WORKPLACES),
        Facet("job_type", "Job type", "any", "ToggleJobType", "job_type_filtering",
              options=V.JOB_TYPES),
        Facet("experience", "Experience level", "any", "ToggleExperience",
              "experience_filtering", options=V.EXPERIENCE),
        Facet("salary", "Salary", "min", "SetMinSalary", "salary_filtering",
              options=V.SALARY_STEPS, option_labels=V.SALARY_LABELS),
    ),
    sorts=(
        Sort("relevance", "Most relevant", key=lambda e: 0),
        Sort("recent", "Most recent", key=lambda e: e["posted"]),
        Sort("salary", "Highest salary", key=lambda e: -e["salary"]),
    ),
    page_size=10,
    search="SearchJobs",
    search_skill="job_query_formulation",
    prefix="JOB-",
)
