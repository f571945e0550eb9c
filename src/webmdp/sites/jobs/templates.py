"""Job Network task templates (WebSTEP H.1 style), 12 families: six on job postings, six on
member profiles.

Building blocks shared by the Job Network templates: pinned job and profile groups, the E.3
oracle prefixes, and the commits (save, Easy Apply, connect with a note, message, like) with
their parameter-by-parameter verifiers."""

from __future__ import annotations

import random
import sys
from typing import Any

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.templates import TARGET, Group, PinnedTemplate, collect
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.sites.jobs import vocab as V
from webmdp.sites.jobs.world import COMPANY_SIZE, N_JOBS, N_PROFILES
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import membership


def spec(pinned: tuple[Entity, ...], avoid: tuple[Entity, ...]) -> WorldSpec:
    return WorldSpec(pinned, N_JOBS + N_PROFILES - len(pinned), avoid)


JOBS = Action("GoToJobs")


def decoy(kind: str, **fields: Any) -> Entity:
    """A pinned entity that is not a hard negative (it fails a card-visible or ranked
    constraint), there so superlatives compare against something."""
    return {"kind": kind, "role": "filler", **fields}


class GroupTemplate(PinnedTemplate):
    """A target and its hard negatives sharing ``base``; fillers avoid the base entirely, so
    the instruction's constraints single out the target among the pinned group."""

    kind, ids = "job", "JOB-"
    opener = ("OpenJob", "BackToJobs", "job_id")
    by = {"title": lambda p: Action("SearchJobs", {"query": p["title"]}),
          "company": lambda p: Action("SearchJobs", {"query": p["company"]}),
          "location": lambda p: Action("SetLocation", {"location": p["location"]}),
          "remote": lambda p: Action("ToggleWorkplace", {"workplace": "Remote"}),
          "workplace": lambda p: Action("ToggleWorkplace", {"workplace": p["workplace"]}),
          "experience": lambda p: Action("ToggleExperience", {"experience": p["experience"]})}

    def group(self, rng: random.Random, k: int) -> Group:
        raise NotImplementedError

    def extra_params(self, rng: random.Random) -> dict[str, Any]:
        return {}

    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        base, extra, negs, decoys, params = self.group(rng, hard_negatives)
        params = {**params, **self.extra_params(rng)}
        base = {"kind": self.kind, **base}
        group = pin_group(rng, base, extra, negs)
        avoid = ({k: v for k, v in base.items() if not isinstance(v, list)},)
        return self.compose(params, spec((*group, *decoys), avoid))

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        """The Jobs tab, then the search and filters ``narrow`` names and the sort."""
        return [JOBS, *super().prefix(p, world)]


# -- commits ------------------------------------------------------------------------------------
class Save(PinnedTemplate):
    """Commit: the Save button on the job page."""

    commit_action, marked = "SaveJob", ("saved", "saved")


class Apply(PinnedTemplate):
    """Commit: Easy Apply with phone, resume and years of experience, each verified."""

    commit_action, commit_after = "SubmitApplication", ("OpenEasyApply",)
    commit_with = {"phone": "phone", "resume": "resume", "years": "years"}
    marked, stored = ("applied", "applied to"), ("application.{}", "application")

    def extra_params(self, rng: random.Random) -> dict[str, Any]:
        return {"phone": rng.choice(V.PHONES), "resume": rng.choice(V.RESUMES),
                "years": rng.randint(1, 12)}

    def words(self, p: dict[str, Any]) -> dict[str, Any]:
        """``{form}``: the Easy Apply values, as the sentence's last part."""
        return {**p, "form": f"In Easy Apply, enter the phone number {p['phone']}, choose the "
                f"resume {p['resume']} and answer {p['years']} for years of experience."}


class Connect(PinnedTemplate):
    """Commit: Connect, then "Add a note" and send; the note is verified."""

    commit_action, commit_after = "SendInvitation", ("OpenConnect",)
    commit_with = {"note": "note"}
    marked, stored = ("invited", "sent an invitation"), ("invitation.{}", "invitation")

    def extra_params(self, rng: random.Random) -> dict[str, Any]:
        return {"note": rng.choice(V.NOTES)}


class Message(PinnedTemplate):
    """Commit: Message from the profile, then send the text; the text is verified."""

    commit_action, commit_after = "SendMessage", ("MessageProfile",)
    commit_with = {"text": "text"}

    def extra_params(self, rng: random.Random) -> dict[str, Any]:
        return {"text": rng.choice(V.MESSAGES)}

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "messaged", "messaged"),
                Condition(fact=f"messages.{d.target}", op="contains", value=d.params["text"],
                          description=f"the message to {d.target} reads {d.params['text']!r}")]


# Templates whose target is a job posting: reach the results with search, filters and a sort,
# open the postings that might match (hard negatives differ only on detail-page fields), then
# save the posting or apply with Easy Apply.
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
    narrow, fixed = ("title", "remote"), {"workplace": "Remote"}
    wants = {"title": "title", "skills": "skill"}
    sentence = "Apply to the remote {title} job that lists {skill} among its skills. {form}"

    def group(self, rng: random.Random, k: int) -> Group:
        title = rng.choice(V.TITLES)
        skill = rng.choice(V.TITLE_SKILLS[title])
        negs = [{"skills": skills_without(rng, title, skill)} for _ in range(k)]
        return ({"title": title, "workplace": "Remote"}, {"skills": skills_with(rng, title, skill)},
                negs, (), {"title": title, "skill": skill})


class HighestPaidWithBenefit(Save, GroupTemplate):
    """Superlative (sort by salary) where the top results lack a detail-only benefit."""

    name = "save_highest_paid_with_benefit"
    description = "Filter title and location, sort by salary, save the best-paid with a benefit"
    card, detail = ("title", "location", "salary"), ("benefits",)
    narrow, order = ("title", "location"), "salary"
    wants = {"title": "title", "location": "location", "benefits": "benefit"}
    sentence = "Save the highest-paying {title} job in {location} that offers {benefit}."
    best_by, highest = "salary", True

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


class NewestOnTeam(Save, GroupTemplate):
    """Sort by most recent; the team is named only in the description."""

    name = "save_newest_on_team"
    description = "Search a title, sort by most recent, save the newest posting for a team"
    card, detail = ("title",), ("description", "posted")
    narrow, order, wants = ("title",), "recent", {"title": "title", "team": "team"}
    sentence = ("Several {title} jobs are open. Save the most recently posted one whose "
                "description says you would join the {team} team.")
    best_by = "posted"

    def group(self, rng: random.Random, k: int) -> Group:
        title, team = rng.choice(V.TITLES), rng.choice(V.TEAMS)
        day = rng.randint(1, 12)
        negs = [{"team": t, "posted": rng.randint(1, 20)} for t in others(rng, V.TEAMS, team, k)]
        decoys = tuple(decoy("job", title=title, team=team, posted=day + rng.randint(2, 15))
                       for _ in range(1 + (k < 2)))
        return {"title": title}, {"team": team, "posted": day}, negs, decoys, {
            "title": title, "team": team}


class CompanyJobType(Save, GroupTemplate):
    """One company, one title, several postings: the job type (detail-only) decides."""

    name = "save_company_job_type"
    description = "Search a company, save its posting of a title with a given job type"
    card, detail, narrow = ("title", "company"), ("job_type",), ("company",)
    wants = {"title": "title", "company": "company", "job_type": "job_type"}
    sentence = "{company} has posted several {title} openings. Save the one listed as {job_type}."

    def group(self, rng: random.Random, k: int) -> Group:
        title, company = rng.choice(V.TITLES), rng.choice(V.COMPANIES)
        kind = rng.choice(V.JOB_TYPES)
        negs = [{"job_type": t} for t in others(rng, V.JOB_TYPES, kind, k)]
        return {"title": title, "company": company}, {"job_type": kind}, negs, (), {
            "title": title, "company": company, "job_type": kind}


class ExperienceCompanySize(Apply, GroupTemplate):
    """Experience filter, then the company size on the posting decides."""

    name = "apply_by_company_size"
    description = "Filter an experience level, apply where the company has a given size"
    card, detail = ("title",), ("experience", "company_size")
    narrow, wants = ("title", "experience"), {"title": "title", "experience": "experience"}
    sentence = "Apply to the {experience} {title} job at a company with {size}. {form}"

    def group(self, rng: random.Random, k: int) -> Group:
        title, level = rng.choice(V.TITLES), rng.choice(V.EXPERIENCE)
        company = rng.choice(V.COMPANIES)
        size = COMPANY_SIZE[company]
        other = [c for c in V.COMPANIES if COMPANY_SIZE[c] != size]
        negs = [{"company": rng.choice(other)} for _ in range(k)]
        return {"title": title, "experience": level}, {"company": company}, negs, (), {
            "title": title, "experience": level, "size": size}

    def words(self, p: dict[str, Any]) -> dict[str, Any]:
        return {**super().words(p), "experience": p["experience"].lower()}

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return super().fits(e, p) and COMPANY_SIZE[e["company"]] == p["size"]


class SaveAndApply(Apply, GroupTemplate):
    """Two commits on one posting: save it, then apply (each parameter verified)."""

    name = "save_and_apply"
    description = "Filter location and workplace, save and apply to the posting with a benefit"
    card, detail = ("title", "location", "workplace"), ("benefits",)
    narrow = ("title", "location", "workplace")
    wants = {"title": "title", "location": "location", "workplace": "workplace",
             "benefits": "benefit"}
    sentence = ("Find the {workplace} {title} job in {location} that offers {benefit}. Save it, "
                "then apply. {form}")

    def group(self, rng: random.Random, k: int) -> Group:
        title, loc = rng.choice(V.TITLES), rng.choice(V.LOCATIONS)
        place, benefit = rng.choice(V.WORKPLACES[:2]), rng.choice(V.BENEFITS)
        negs = [{"benefits": benefits(rng, benefit, has=False)} for _ in range(k)]
        return ({"title": title, "location": loc, "workplace": place},
                {"benefits": benefits(rng, benefit, has=True)}, negs, (),
                {"title": title, "location": loc, "workplace": place, "benefit": benefit})

    def words(self, p: dict[str, Any]) -> dict[str, Any]:
        return {**super().words(p), "workplace": p["workplace"].lower()}

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("SaveJob"), *super().commit(d, world)]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return [*membership(d, "saved", "saved"), *super().verifier(d, world)]


# Templates whose target is a member profile: search people (or scan the feed), open the
# profiles that might match (hard negatives differ only on profile-page fields), then connect
# with a note, message, or like the member's post.
def person(rng: random.Random) -> tuple[str, str]:
    return rng.choice(V.ROLES), rng.choice(V.COMPANIES)


class ProfileTemplate(GroupTemplate):
    kind, ids = "profile", "PRF-"
    opener = ("OpenProfile", "BackToList", "profile_id")
    searched = ""
    """The param the people search looks for (none: the profiles are reached from the feed)."""

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return [Action("SearchPeople", {"query": p[self.searched]})] if self.searched else []


class AlumWithNote(Connect, ProfileTemplate):
    """People search by company; the school on the profile decides."""

    name = "connect_alum_with_note"
    description = "Search a company, connect with the alum of a school, with a note"
    card, detail, searched = ("headline",), ("school",), "company"
    wants = {"position": "role", "company": "company", "school": "school"}
    sentence = ("Send a connection request to the {role} at {company} who studied at {school}, "
                "with the note: \"{note}\"")

    def group(self, rng: random.Random, k: int) -> Group:
        role, company = person(rng)
        school = rng.choice(V.SCHOOLS)
        negs = [{"school": s} for s in others(rng, V.SCHOOLS, school, k)]
        return {"position": role, "company": company}, {"school": school}, negs, (), {
            "role": role, "company": company, "school": school}


class MessageBySkill(Message, ProfileTemplate):
    """People search by role; the skills on the profile decide."""

    name = "message_by_skill"
    description = "Search a role, message the member at a company who lists a skill"
    card, detail, searched = ("headline",), ("skills",), "role"
    wants = {"position": "role", "company": "company", "skills": "skill"}
    sentence = "Message the {role} at {company} who lists {skill} as a skill: \"{text}\""

    def group(self, rng: random.Random, k: int) -> Group:
        role, company = person(rng)
        skill = rng.choice(V.ROLE_SKILLS[role])
        pool = [s for s in V.ROLE_SKILLS[role] if s != skill]
        negs = [{"skills": rng.sample(pool, 4)} for _ in range(k)]
        return ({"position": role, "company": company},
                {"skills": rng.sample([skill, *rng.sample(pool, 3)], 4)}, negs, (),
                {"role": role, "company": company, "skill": skill})


class MostExperienced(Connect, ProfileTemplate):
    """Comparison: city and years of experience are on the profile only, so every
    candidate is opened before connecting."""

    name = "connect_most_experienced"
    description = "Search a role, connect with the most experienced member in a city"
    card, detail, searched = ("headline",), ("years", "city"), "role"
    wants = {"position": "role", "city": "location"}
    compare = True
    sentence = ("Connect with the most experienced {role} based in {location} (most years of "
                "experience), adding the note: \"{note}\"")
    best_by, highest = "years", True

    def group(self, rng: random.Random, k: int) -> Group:
        role, loc = rng.choice(V.ROLES), rng.choice(V.LOCATIONS)
        top = rng.randint(12, 24)
        company = rng.choice(V.COMPANIES)
        negs = [{"years": y, "company": company} for y in rng.sample(range(2, top), k)]
        decoys = tuple(decoy("profile", position=role, years=top + rng.randint(1, 6),
                             city=rng.choice([c for c in V.LOCATIONS if c != loc]))
                       for _ in range(1))
        return {"position": role, "city": loc}, {"years": top, "company": company}, negs, decoys, {
            "role": role, "location": loc}


class Namesake(Message, ProfileTemplate):
    """Several members share a name; the school tells them apart."""

    name = "message_namesake"
    description = "Search a name shared by several members, message the one from a school"
    card, detail, searched = ("name",), ("school",), "name"
    wants = {"name": "name", "school": "school"}
    sentence = "Send a message to {name} (the one who studied at {school}): \"{text}\""

    def group(self, rng: random.Random, k: int) -> Group:
        name = f"{rng.choice(V.FIRST_NAMES)} {rng.choice(V.LAST_NAMES)}"
        school = rng.choice(V.SCHOOLS)
        negs = [{"school": s} for s in others(rng, V.SCHOOLS, school, k)]
        return {"name": name}, {"school": school}, negs, (), {"name": name, "school": school}


class FeedTemplate(ProfileTemplate):
    """The group posted about one topic; the feed is the list surface (the start page)."""

    def reach(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*super().reach(d, world, site), Action("BackToList")]


class LikePostByAlum(FeedTemplate):
    """Feed posts on one topic; the author's school (profile only) decides."""

    name = "like_post_by_alum"
    description = "In the feed, like the post on a topic whose author studied at a school"
    commit_action, commit_with, marked = "LikePost", {"profile_id": TARGET}, ("liked", "liked")
    card, detail, wants = ("post",), ("school",), {"topic": "topic", "school": "school"}
    sentence = ("In your feed, like the post about {topic} written by the member who studied at "
                "{school}.")

    def group(self, rng: random.Random, k: int) -> Group:
        topic, school = rng.choice(V.TOPICS), rng.choice(V.SCHOOLS)
        negs = [{"school": s} for s in others(rng, V.SCHOOLS, school, k)]
        return {"topic": topic}, {"school": school}, negs, (), {"topic": topic,
                                                                 "school": school}


class MessagePoster(Message, FeedTemplate):
    """From the feed to a profile to messaging: the author's city decides."""

    name = "message_post_author"
    description = "In the feed, message the author of a post on a topic who lives in a city"
    card, detail = ("headline", "post"), ("city",)
    wants = {"topic": "topic", "position": "role", "city": "location"}
    sentence = ("A {role} in your feed posted about {topic}; message the one based in {location}: "
                "\"{text}\"")

    def group(self, rng: random.Random, k: int) -> Group:
        topic, loc = rng.choice(V.TOPICS), rng.choice(V.LOCATIONS)
        role, company = person(rng)
        negs = [{"city": c} for c in others(rng, V.LOCATIONS, loc, k)]
        return {"topic": topic, "position": role, "company": company}, {"city": loc}, negs, (), {
            "topic": topic, "role": role, "location": loc}

    def reach(self, d: Draft, world: World, site: Site) -> list[Action]:
        return GroupTemplate.reach(self, d, world, site)


TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
