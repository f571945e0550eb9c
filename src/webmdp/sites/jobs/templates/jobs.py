"""Templates whose target is a job posting: reach the results with search, filters and a sort,
open the postings that might match (hard negatives differ only on detail-page fields), then
save the posting or apply with Easy Apply."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.sites._common.templates import Group
from webmdp.sites._common.worldgen import others
from webmdp.sites.jobs import vocab as V
from webmdp.sites.jobs.templates.common import Apply, GroupTemplate, Save, decoy
from webmdp.sites.jobs.world import COMPANY_SIZE
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft

JOBS = Action("GoToJobs")


def skills_with(rng: random.Random, title: str, skill: str) -> list[str]:
    pool = [s for s in V.TITLE_SKILLS[title] if s != skill]
    return rng.sample([skill, *rng.sample(pool, 3)], 4)


def skills_without(rng: random.Random, title: str, skill: str) -> list[str]:
    return rng.sample([s for s in V.TITLE_SKILLS[title] if s != skill], 4)


def benefits(rng: random.Random, benefit: str, *, has: bool) -> list[str]:
    pool = rng.sample([b for b in V.BENEFITS if b != benefit], 3 - has)
    picked = {*pool, benefit} if has else set(pool)
    return [b for b in V.BENEFITS if b in picked]


def article(word: str) -> str:
    return "an" if word[0].lower() in "aeiou" else "a"


class RemoteWithSkill(Apply, GroupTemplate):
    """Remote filter, then the skills list (detail-only) decides."""

    name = "apply_remote_with_skill"
    description = "Search a title, filter Remote, apply to the posting that lists a skill"
    card, detail = ("title", "workplace"), ("skills",)

    def group(self, rng: random.Random, k: int) -> Group:
        title = rng.choice(V.TITLES)
        skill = rng.choice(V.TITLE_SKILLS[title])
        negs = [{"skills": skills_without(rng, title, skill)} for _ in range(k)]
        return ({"title": title, "workplace": "Remote"}, {"skills": skills_with(rng, title, skill)},
                negs, (), {"title": title, "skill": skill})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Apply to the remote {p['title']} job that lists {p['skill']} among its "
                f"skills. {self.form(p)}")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [JOBS, Action("SearchJobs", {"query": p["title"]}),
                Action("ToggleWorkplace", {"workplace": "Remote"})]

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["title"] == p["title"] and e["workplace"] == "Remote"
                    and p["skill"] in e["skills"])


class HighestPaidWithBenefit(Save, GroupTemplate):
    """Superlative (sort by salary) where the top results lack a detail-only benefit."""

    name = "save_highest_paid_with_benefit"
    description = "Filter title and location, sort by salary, save the best-paid with a benefit"
    card, detail = ("title", "location", "salary"), ("benefits",)

    def group(self, rng: random.Random, k: int) -> Group:
        title, loc = rng.choice(V.TITLES), rng.choice(V.LOCATIONS)
        benefit = rng.choice(V.BENEFITS)
        pay = rng.randrange(120, 200, 5)
        negs = [{"salary": pay,
                 "benefits": benefits(rng, benefit, has=False)} for _ in range(k)]
        decoys = tuple(decoy("job", title=title, location=loc, salary=pay - rng.randrange(5, 50, 5),
                             benefits=benefits(rng, benefit, has=True)) for _ in range(2))
        return ({"title": title, "location": loc},
                {"salary": pay, "benefits": benefits(rng, benefit, has=True)}, negs, decoys,
                {"title": title, "location": loc, "benefit": benefit})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Save the highest-paying {p['title']} job in {p['location']} that offers "
                f"{p['benefit']}.")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [JOBS, Action("SearchJobs", {"query": p["title"]}),
                Action("SetLocation", {"location": p["location"]}),
                Action("SortBy", {"order": "salary"})]

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["title"] == p["title"] and e["location"] == p["location"]
                    and p["benefit"] in e["benefits"])

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(self.candidates(d, world), "salary", highest=True)


class NewestOnTeam(Save, GroupTemplate):
    """Sort by most recent; the team is named only in the description."""

    name = "save_newest_on_team"
    description = "Search a title, sort by most recent, save the newest posting for a team"
    card, detail = ("title",), ("description", "posted")

    def group(self, rng: random.Random, k: int) -> Group:
        title, team = rng.choice(V.TITLES), rng.choice(V.TEAMS)
        day = rng.randint(1, 12)
        negs = [{"team": t, "posted": rng.randint(1, 20)} for t in others(rng, V.TEAMS, team, k)]
        decoys = tuple(decoy("job", title=title, team=team, posted=day + rng.randint(2, 15))
                       for _ in range(1 + (k < 2)))
        return {"title": title}, {"team": team, "posted": day}, negs, decoys, {
            "title": title, "team": team}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Several {p['title']} jobs are open. Save the most recently posted one whose "
                f"description says you would join the {p['team']} team.")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [JOBS, Action("SearchJobs", {"query": p["title"]}),
                Action("SortBy", {"order": "recent"})]

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["title"] == p["title"] and e["team"] == p["team"])

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(self.candidates(d, world), "posted", highest=False)


class CompanyJobType(Save, GroupTemplate):
    """One company, one title, several postings: the job type (detail-only) decides."""

    name = "save_company_job_type"
    description = "Search a company, save its posting of a title with a given job type"
    card, detail = ("title", "company"), ("job_type",)

    def group(self, rng: random.Random, k: int) -> Group:
        title, company = rng.choice(V.TITLES), rng.choice(V.COMPANIES)
        kind = rng.choice(V.JOB_TYPES)
        negs = [{"job_type": t} for t in others(rng, V.JOB_TYPES, kind, k)]
        return {"title": title, "company": company}, {"job_type": kind}, negs, (), {
            "title": title, "company": company, "job_type": kind}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"{p['company']} has posted several {p['title']} openings. Save the one "
                f"listed as {p['job_type']}.")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [JOBS, Action("SearchJobs", {"query": p["company"]})]

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["title"] == p["title"] and e["company"] == p["company"]
                    and e["job_type"] == p["job_type"])


class ExperienceCompanySize(Apply, GroupTemplate):
    """Experience filter, then the company size on the posting decides."""

    name = "apply_by_company_size"
    description = "Filter an experience level, apply where the company has a given size"
    card, detail = ("title",), ("experience", "company_size")

    def group(self, rng: random.Random, k: int) -> Group:
        title, level = rng.choice(V.TITLES), rng.choice(V.EXPERIENCE)
        company = rng.choice(V.COMPANIES)
        size = COMPANY_SIZE[company]
        other = [c for c in V.COMPANIES if COMPANY_SIZE[c] != size]
        negs = [{"company": rng.choice(other)} for _ in range(k)]
        return {"title": title, "experience": level}, {"company": company}, negs, (), {
            "title": title, "experience": level, "size": size}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Apply to the {p['experience'].lower()} {p['title']} job at a company with "
                f"{p['size']}. {self.form(p)}")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [JOBS, Action("SearchJobs", {"query": p["title"]}),
                Action("ToggleExperience", {"experience": p["experience"]})]

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["title"] == p["title"] and e["experience"] == p["experience"]
                    and COMPANY_SIZE[e["company"]] == p["size"])


class SaveAndApply(Apply, GroupTemplate):
    """Two commits on one posting: save it, then apply (each parameter verified)."""

    name = "save_and_apply"
    description = "Filter location and workplace, save and apply to the posting with a benefit"
    card, detail = ("title", "location", "workplace"), ("benefits",)

    def group(self, rng: random.Random, k: int) -> Group:
        title, loc = rng.choice(V.TITLES), rng.choice(V.LOCATIONS)
        place, benefit = rng.choice(V.WORKPLACES[:2]), rng.choice(V.BENEFITS)
        negs = [{"benefits": benefits(rng, benefit, has=False)} for _ in range(k)]
        return ({"title": title, "location": loc, "workplace": place},
                {"benefits": benefits(rng, benefit, has=True)}, negs, (),
                {"title": title, "location": loc, "workplace": place, "benefit": benefit})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Find the {p['workplace'].lower()} {p['title']} job in {p['location']} that "
                f"offers {p['benefit']}. Save it, then apply. {self.form(p)}")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [JOBS, Action("SearchJobs", {"query": p["title"]}),
                Action("SetLocation", {"location": p["location"]}),
                Action("ToggleWorkplace", {"workplace": p["workplace"]})]

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["title"] == p["title"] and e["location"] == p["location"]
                    and e["workplace"] == p["workplace"] and p["benefit"] in e["benefits"])

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("SaveJob"), *super().commit(d, world)]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*Save().verifier(d, world), *super().verifier(d, world)]
