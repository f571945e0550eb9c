"""Templates whose target is a member profile: search people (or scan the feed), open the
profiles that might match (hard negatives differ only on profile-page fields), then connect
with a note, message, or like the member's post."""

from __future__ import annotations

import random
from typing import Any

from webmdp.core.model import Entity, World
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.sites._common.templates import Group
from webmdp.sites._common.worldgen import others
from webmdp.sites.jobs import vocab as V
from webmdp.sites.jobs.templates.common import Connect, GroupTemplate, Message, decoy
from webmdp.tasks.model import Condition
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import membership


def person(rng: random.Random) -> tuple[str, str]:
    return rng.choice(V.ROLES), rng.choice(V.COMPANIES)


def search(query: str) -> list[Action]:
    return [Action("SearchPeople", {"query": query})]


class ProfileTemplate(GroupTemplate):
    kind, ids = "profile", "PRF-"
    opener = ("OpenProfile", "BackToList", "profile_id")


class AlumWithNote(Connect, ProfileTemplate):
    """People search by company; the school on the profile decides."""

    name = "connect_alum_with_note"
    description = "Search a company, connect with the alum of a school, with a note"
    card, detail = ("headline",), ("school",)

    def group(self, rng: random.Random, k: int) -> Group:
        role, company = person(rng)
        school = rng.choice(V.SCHOOLS)
        negs = [{"school": s} for s in others(rng, V.SCHOOLS, school, k)]
        return {"position": role, "company": company}, {"school": school}, negs, (), {
            "role": role, "company": company, "school": school}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Send a connection request to the {p['role']} at {p['company']} who studied "
                f"at {p['school']}, with the note: \"{p['note']}\"")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return search(p["company"])

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["position"] == p["role"] and e["company"] == p["company"]
                    and e["school"] == p["school"])


class MessageBySkill(Message, ProfileTemplate):
    """People search by role; the skills on the profile decide."""

    name = "message_by_skill"
    description = "Search a role, message the member at a company who lists a skill"
    card, detail = ("headline",), ("skills",)

    def group(self, rng: random.Random, k: int) -> Group:
        role, company = person(rng)
        skill = rng.choice(V.ROLE_SKILLS[role])
        pool = [s for s in V.ROLE_SKILLS[role] if s != skill]
        negs = [{"skills": rng.sample(pool, 4)} for _ in range(k)]
        return ({"position": role, "company": company},
                {"skills": rng.sample([skill, *rng.sample(pool, 3)], 4)}, negs, (),
                {"role": role, "company": company, "skill": skill})

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Message the {p['role']} at {p['company']} who lists {p['skill']} as a "
                f"skill: \"{p['text']}\"")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return search(p["role"])

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["position"] == p["role"] and e["company"] == p["company"]
                    and p["skill"] in e["skills"])


class MostExperienced(Connect, ProfileTemplate):
    """Comparison: city and years of experience are on the profile only, so every
    candidate is opened before connecting."""

    name = "connect_most_experienced"
    description = "Search a role, connect with the most experienced member in a city"
    card, detail = ("headline",), ("years", "city")
    compare = True

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

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Connect with the most experienced {p['role']} based in {p['location']} "
                f"(most years of experience), adding the note: \"{p['note']}\"")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return search(p["role"])

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["position"] == p["role"] and e["city"] == p["location"])

    def matches(self, d: Draft, world: World) -> list[str]:
        return best(self.candidates(d, world), "years", highest=True)


class Namesake(Message, ProfileTemplate):
    """Several members share a name; the school tells them apart."""

    name = "message_namesake"
    description = "Search a name shared by several members, message the one from a school"
    card, detail = ("name",), ("school",)

    def group(self, rng: random.Random, k: int) -> Group:
        name = f"{rng.choice(V.FIRST_NAMES)} {rng.choice(V.LAST_NAMES)}"
        school = rng.choice(V.SCHOOLS)
        negs = [{"school": s} for s in others(rng, V.SCHOOLS, school, k)]
        return {"name": name}, {"school": school}, negs, (), {"name": name, "school": school}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"Send a message to {p['name']} (the one who studied at {p['school']}): "
                f"\"{p['text']}\"")

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return search(p["name"])

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["name"] == p["name"] and e["school"] == p["school"])


class FeedTemplate(ProfileTemplate):
    """The group posted about one topic; the feed is the list surface (the start page)."""

    def reach(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*super().reach(d, world, site), Action("BackToList")]


class LikePostByAlum(FeedTemplate):
    """Feed posts on one topic; the author's school (profile only) decides."""

    name = "like_post_by_alum"
    description = "In the feed, like the post on a topic whose author studied at a school"
    commit_action = "LikePost"
    card, detail = ("post",), ("school",)

    def group(self, rng: random.Random, k: int) -> Group:
        topic, school = rng.choice(V.TOPICS), rng.choice(V.SCHOOLS)
        negs = [{"school": s} for s in others(rng, V.SCHOOLS, school, k)]
        return {"topic": topic}, {"school": school}, negs, (), {"topic": topic,
                                                                 "school": school}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"In your feed, like the post about {p['topic']} written by the member who "
                f"studied at {p['school']}.")

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["topic"] == p["topic"] and e["school"] == p["school"])

    def commit(self, d: Draft, world: World) -> list[Action]:
        return [Action("LikePost", {"profile_id": d.target})]

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        return membership(d, "liked", "liked")


class MessagePoster(Message, FeedTemplate):
    """From the feed to a profile to messaging: the author's city decides."""

    name = "message_post_author"
    description = "In the feed, message the author of a post on a topic who lives in a city"
    card, detail = ("headline", "post"), ("city",)

    def group(self, rng: random.Random, k: int) -> Group:
        topic, loc = rng.choice(V.TOPICS), rng.choice(V.LOCATIONS)
        role, company = person(rng)
        negs = [{"city": c} for c in others(rng, V.LOCATIONS, loc, k)]
        return {"topic": topic, "position": role, "company": company}, {"city": loc}, negs, (), {
            "topic": topic, "role": role, "location": loc}

    def sentence(self, p: dict[str, Any]) -> str:
        return (f"A {p['role']} in your feed posted about {p['topic']}; message the one based "
                f"in {p['location']}: \"{p['text']}\"")

    def reach(self, d: Draft, world: World, site: Site) -> list[Action]:
        return GroupTemplate.reach(self, d, world, site)

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        return bool(e["topic"] == p["topic"] and e["position"] == p["role"]
                    and e["city"] == p["location"])
