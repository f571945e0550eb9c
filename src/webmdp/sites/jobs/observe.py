"""What each Job Network surface shows and offers, and the verifier's facts."""

from __future__ import annotations

from typing import Any

from webmdp.core.model import EntityView, Observation, World
from webmdp.core.spec import Action, SurfaceKind
from webmdp.sites._common.handlers import grouped, keyed, observation, record, surfaces, view
from webmdp.sites.jobs import vocab as V
from webmdp.sites.jobs.catalog import CATALOG
from webmdp.sites.jobs.mdp import TABS, feed, people, threads
from webmdp.sites.jobs.state import JobsState
from webmdp.sites.jobs.world import (
    JOB_CARD,
    JOB_DETAIL,
    POST_FIELDS,
    PROFILE_CARD,
    PROFILE_DETAIL,
)

SURFACES = surfaces(
    Feed=(SurfaceKind.OTHER, "home feed: posts of the member's network"),
    JobList=(SurfaceKind.CARD, "job search results, filters, sort"),
    JobDetail=(SurfaceKind.DETAIL, "a posting: about, skills, Easy Apply"),
    ConnectionList=(SurfaceKind.CARD, "My Network: people cards"),
    ProfileView=(SurfaceKind.DETAIL, "a member's profile, connect dialog"),
    Messaging=(SurfaceKind.COMMIT, "conversations and the message box"),
)
JOB_SURFACES = ("JobList", "JobDetail")


def _dialog_actions(s: JobsState) -> list[Action]:
    commit = "SubmitApplication" if s.dialog == "apply" else "SendInvitation"
    return [Action(commit), Action("CloseDialog")]


def available(s: JobsState, world: World) -> tuple[Action, ...]:
    if s.dialog:
        return tuple(_dialog_actions(s))
    surf = s.surface
    out = [Action(t) for t in TABS]
    out.append(Action("SearchJobs" if surf in JOB_SURFACES else "SearchPeople"))
    if surf == "JobList":
        out += CATALOG.available(s, world)
        out += [Action("OpenJob", {"job_id": j}) for j in CATALOG.visible(world, s)]
    elif surf == "JobDetail":
        out.append(Action("BackToJobs"))
        out.append(Action("UnsaveJob" if s.focus in s.saved else "SaveJob"))
        if all(ap[0] != s.focus for ap in s.applications):
            out.append(Action("OpenEasyApply"))
    elif surf == "ConnectionList":
        out += [Action("OpenProfile", {"profile_id": p}) for p in people(world, s.people_query)]
    elif surf == "ProfileView":
        out.append(Action("BackToList"))
        if all(i[0] != s.focus for i in s.invitations):
            out.append(Action("OpenConnect"))
        out.append(Action("MessageProfile"))
    elif surf == "Messaging":
        out += [Action("OpenConversation", {"profile_id": p}) for p in threads(s, world)]
        if s.conversation:
            out.append(Action("SendMessage"))
    elif surf == "Feed":
        for p in feed(world):
            out += [Action("OpenProfile", {"profile_id": p}), Action("LikePost",
                                                                     {"profile_id": p})]
    return tuple(out)


def observe(s: JobsState, world: World) -> Observation:
    surf = s.surface
    ents = world.entities
    ctx: dict[str, Any] = {"dialog": s.dialog, "saved_count": len(s.saved),
                           "unread": len(threads(s, world)) - len(set(p for p, _ in s.messages))}
    views: list[EntityView] = []
    if surf == "JobList":
        views = [view(world, j, JOB_CARD) for j in CATALOG.visible(world, s)]
        ctx.update(CATALOG.context(s, world))
        ctx["saved"] = [j for j in s.saved]
    elif surf == "JobDetail":
        jid = s.focus or ""
        views = [view(world, jid, JOB_CARD + JOB_DETAIL)]
        applied = [ap for ap in s.applications if ap[0] == jid]
        ctx.update(saved=jid in s.saved, applied=bool(applied), applicants=ents[jid]["applicants"],
                   resumes=list(V.RESUMES), query=s.query)
    elif surf == "ConnectionList":
        views = [view(world, p, PROFILE_CARD) for p in people(world, s.people_query)]
        ctx["people_query"] = s.people_query
        ctx["invited"] = [i[0] for i in s.invitations]
    elif surf == "ProfileView":
        pid = s.focus or ""
        views = [view(world, pid, PROFILE_CARD + PROFILE_DETAIL)]
        ctx.update(invited=any(i[0] == pid for i in s.invitations), origin=s.origin,
                   posted=bool(ents[pid]["post"]))
    elif surf == "Messaging":
        views = [view(world, p, PROFILE_CARD) for p in threads(s, world)]
        ctx.update(conversation=s.conversation,
                   sent=[t for p, t in s.messages if p == s.conversation],
                   written=sorted({p for p, _ in s.messages}))
    elif surf == "Feed":
        views = [view(world, p, POST_FIELDS) for p in feed(world)]
        ctx["liked"] = list(s.liked)
    return observation(s, SURFACES, views, available(s, world), ctx)


def facts(s: JobsState) -> dict[str, Any]:
    """Saved jobs, applications (each Easy Apply field), invitations with their notes,
    messages per conversation and liked posts."""
    out: dict[str, Any] = {
        "surface": s.surface, "saved": list(s.saved),
        "applied": [ap[0] for ap in s.applications],
        "invited": [i[0] for i in s.invitations],
        "messaged": list(dict.fromkeys(p for p, _ in s.messages)),
        "liked": list(s.liked),
    }
    for jid, *answers in s.applications:
        out.update(record(f"application.{jid}", ("phone", "resume", "years"), answers))
    return {**out, **keyed("invitation.{}.note", s.invitations),
            **grouped("messages.{}", s.messages)}
