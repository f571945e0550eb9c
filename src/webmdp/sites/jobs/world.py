"""Job Network world generation (WebSTEP E.2): job postings ``JOB-###`` and member profiles
``PRF-###`` in one world.

A template pins entities with ``kind: job`` or ``kind: profile``; its avoid mappings carry a
kind too and constrain only the fillers of that kind. A company's size is a property of the
company, so every posting of one company agrees.
"""

from __future__ import annotations

import random

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.sites._common.worldgen import assemble
from webmdp.sites.jobs import vocab as V

JOB_CARD: tuple[str, ...] = ("title", "company", "location", "workplace", "salary")
PROFILE_CARD: tuple[str, ...] = ("name", "headline")
CARD_FIELDS: tuple[str, ...] = JOB_CARD + PROFILE_CARD
"""Job cards: title, company, location, workplace, salary; people cards: name, headline."""
JOB_DETAIL: tuple[str, ...] = ("posted", "job_type", "experience", "skills", "description",
                               "benefits", "company_size")
PROFILE_DETAIL: tuple[str, ...] = ("city", "school", "years", "skills")
DETAIL_FIELDS: tuple[str, ...] = ("posted", "job_type", "experience", "skills", "description",
                                  "benefits", "company_size", "school", "years", "city")
POST_FIELDS: tuple[str, ...] = ("name", "headline", "post")
N_JOBS = 30
N_PROFILES = 18
COMPANY_SIZE = {c: V.COMPANY_SIZES[i % len(V.COMPANY_SIZES)]
                for i, c in enumerate(V.COMPANIES)}


def generate_world(spec: WorldSpec, rng: random.Random) -> World:
    """Jobs then profiles, each pinned + fillers, shuffled, with their own id prefix."""
    entities: dict[str, Entity] = {}
    used: set[str] = set()

    def person(p: Entity, r: random.Random) -> Entity:
        return complete_profile(p, r, used)

    for kind, prefix, total, complete in (("job", "JOB", N_JOBS, complete_job),
                                          ("profile", "PRF", N_PROFILES, person)):
        pinned = tuple(p for p in spec.pinned if p.get("kind") == kind)
        avoid = tuple({**a, "kind": kind} for a in spec.avoid if a.get("kind") == kind)
        extra = 0 if spec.sparse else total - len(pinned)  # sparse: the dial's look-ups
        part = assemble("jobs", WorldSpec(pinned, extra, avoid), rng,
                        prefix=prefix, complete=complete)
        entities.update(part.entities)
    return World(site="jobs", entities=entities)


def complete_job(p: Entity, rng: random.Random) -> Entity:
    """Fill a posting's missing attributes; skills are drawn from the title's pool."""
    title = p.get("title") or rng.choice(V.TITLES)
    company = p.get("company") or rng.choice(V.COMPANIES)
    pool = V.TITLE_SKILLS[title]
    skills = list(p["skills"]) if "skills" in p else rng.sample(pool, 4)
    team = p.get("team") or rng.choice(V.TEAMS)
    benefits = list(p["benefits"]) if "benefits" in p else sorted(
        rng.sample(V.BENEFITS, 3), key=V.BENEFITS.index)
    out = {
        "kind": "job", "title": title, "company": company,
        "location": p.get("location") or rng.choice(V.LOCATIONS),
        "workplace": p.get("workplace") or rng.choice(V.WORKPLACES),
        "salary": p.get("salary") or rng.randrange(70, 230, 5),
        "posted": p.get("posted") or rng.randint(1, 30),
        "job_type": p.get("job_type") or rng.choice(V.JOB_TYPES[:3]),
        "experience": p.get("experience") or rng.choice(V.EXPERIENCE),
        "skills": skills, "team": team, "benefits": benefits,
        "description": (f"{company} is looking for a {title} to join the {team} team. You "
                        f"will work with {skills[0]} and {skills[1]} every day, partner with "
                        f"engineering, design and business stakeholders, and own projects "
                        f"from idea to launch."),
        "company_size": COMPANY_SIZE[company],
        "applicants": p.get("applicants") or rng.randint(3, 400),
        "popularity": p.get("popularity") or rng.randint(10, 990),
    }
    return {**p, **out}


def complete_profile(p: Entity, rng: random.Random, used: set[str]) -> Entity:
    """Fill a member's missing attributes; names are unique unless pinned."""
    name = p.get("name")
    while not name or (name in used and "name" not in p):
        name = f"{rng.choice(V.FIRST_NAMES)} {rng.choice(V.LAST_NAMES)}"
    used.add(name)
    position = p.get("position") or rng.choice(V.ROLES)
    company = p.get("company") or rng.choice(V.COMPANIES)
    topic = p["topic"] if "topic" in p else (rng.choice(V.TOPICS) if rng.random() < 0.4
                                             else "")
    out = {
        "kind": "profile", "name": name, "position": position, "company": company,
        "headline": f"{position} at {company}",
        "city": p.get("city") or rng.choice(V.LOCATIONS),
        "school": p.get("school") or rng.choice(V.SCHOOLS),
        "years": p.get("years") or rng.randint(2, 24),
        "skills": list(p["skills"]) if "skills" in p else rng.sample(V.ROLE_SKILLS[position], 4),
        "topic": topic, "post": V.POSTS[topic] if topic else "",
        "popularity": p.get("popularity") or rng.randint(10, 990),
    }
    return {**p, **out}
