"""Job Network's admissible lower bound on the distance to a task's goal (see
:mod:`webmdp.tasks.distance`): it makes the exact A* search fast on jobs tasks."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping

from webmdp.core.model import State
from webmdp.sites.jobs.catalog import CATALOG
from webmdp.sites.jobs.mdp import feed, people, threads
from webmdp.sites.jobs.state import JobsState
from webmdp.tasks.distance import (
    Bound,
    Facts,
    InformedBound,
    Problem,
    Unseen,
    unmet,
    visits,
)
from webmdp.tasks.model import Condition

_JOB_SURFACES = ("JobList", "JobDetail")
_GROWING = frozenset({"applied", "invited", "messaged"})
"""List facts no action ever shrinks: a violated ``not_contains`` on one is final."""


def jobs_bound(p: Problem) -> Bound:
    """Job Network. Facts used: SaveJob / UnsaveJob (JobDetail, no dialog) flip the open job's
    saved flag; an application is OpenEasyApply then SubmitApplication on the open job, and a
    job applied to never opens Easy Apply again (its answers are final); an invitation is
    OpenConnect then SendInvitation on the open profile, once per profile; SendMessage adds
    one message to the open conversation (Messaging); LikePost (Feed) flips one like;
    ``applied``, ``invited`` and ``messaged`` never lose an item. While a dialog is open only
    its commit and CloseDialog are offered, and both just close it. A job opens only by
    OpenJob from a JobList page showing it; the job results change only by SearchJobs (job
    surfaces) and the listing actions (JobList), and the job surfaces are entered from
    elsewhere only by GoToJobs. A profile opens only by OpenProfile from the people list or
    the feed showing it. A conversation becomes the open one on Messaging only by
    MessageProfile (its profile open), OpenConversation (listed in the sidebar: the open
    conversation, those written to, a fixed few) or GoToMessaging (it is already the open
    one). The feed is entered by GoToFeed or BackToList."""
    world, conds = p.world, p.task.verifier
    dead = [c for c in conds if c.fact in _GROWING and c.op == "not_contains"]
    saves = {str(c.value): [c] for c in conds if c.fact == "saved"}
    likes = [c for c in conds if c.fact == "liked"]
    applies = _by_entity(conds, "applied", "application.")
    invites = _by_entity(conds, "invited", "invitation.")
    messages = _by_entity(conds, "messaged", "messages.")
    grouped = {id(c) for group in (*saves.values(), *applies.values(), *invites.values(),
                                   *messages.values(), likes, dead) for c in group}
    rest = [c for c in conds if id(c) not in grouped]

    def job_nav(s: JobsState, jid: str, look: bool) -> int:
        """Actions up to and including the OpenJob of ``jid`` (no dialog open)."""
        shows = not look or jid in CATALOG.visible(world, s)
        if s.surface == "JobList":
            return 1 if shows else 2  # OpenJob, after a listing action
        if s.surface == "JobDetail":
            return 2  # BackToJobs or SearchJobs, then OpenJob
        return 2 if shows else 3  # GoToJobs (then a listing action), OpenJob

    def lists(s: JobsState, pid: str, look: bool) -> bool:
        if s.surface == "ConnectionList":
            return not look or pid in people(world, s.people_query)
        return s.surface == "Feed" and (not look or pid in feed(world))

    def profile_nav(s: JobsState, pid: str, look: bool) -> int:
        """Actions up to and including the OpenProfile of ``pid``."""
        return 1 if lists(s, pid, look) else 2

    def convo_nav(s: JobsState, pid: str, look: bool) -> int:
        """Actions up to and including the one that makes ``pid`` the open conversation."""
        if s.surface == "Messaging":
            return 1 if not look or pid in threads(s, world) else 3
        if s.conversation == pid or (s.surface == "ProfileView" and s.focus == pid):
            return 1
        if not look or pid in threads(s, world) or lists(s, pid, look):
            return 2
        return 3

    def bound(state: State, facts: Facts, look: bool) -> float:
        assert isinstance(state, JobsState)
        s = state
        if unmet(dead, facts):
            return math.inf
        # a dialog's own commit, when needed, is counted below and closes it; else one
        # action (CloseDialog or an unneeded commit) must close it before any navigation
        if s.dialog:
            needed = (applies if s.dialog == "apply" else invites).get(s.focus or "")
            if needed is None or not unmet(needed, facts):
                return 1 + _inner(s.replace(dialog=""), facts, look)
        return _inner(s, facts, look)

    def _inner(s: JobsState, facts: Facts, look: bool) -> float:
        groups: list[tuple[float, float]] = []  # (the group's bound, its own commits)
        # jobs: saves and applications, each on its job's detail page
        work = _job_commits(saves, applies, s, facts)
        if work is None:
            return math.inf
        if work:
            here = s.focus if s.surface == "JobDetail" else None
            groups.append(_visits(work, here, lambda j: job_nav(s, j, look)))
        # invitations: OpenConnect + SendInvitation on the profile
        work = {}
        for pid, cs in invites.items():
            if unmet(cs, facts):
                if any(i[0] == pid for i in s.invitations):
                    return math.inf
                work[pid] = 1 if s.dialog == "connect" and s.focus == pid else 2
        if work:
            here = s.focus if s.surface == "ProfileView" else None
            groups.append(_visits(work, here, lambda q: profile_nav(s, q, look)))
        # messages: SendMessage in the conversation
        work = {pid: 1 for pid, cs in messages.items() if unmet(cs, facts)}
        if work:
            here = s.conversation if s.surface == "Messaging" else None
            groups.append(_visits(work, here, lambda q: convo_nav(s, q, look)))
        # likes: one LikePost each, on the feed
        flips = sum(not _holds(c, facts) for c in likes)
        if flips:
            groups.append((flips + (s.surface != "Feed"), flips))
        commits = sum(c for _, c in groups)
        h = max((b + commits - c for b, c in groups), default=0.0)
        return max(h, float(unmet(rest, facts)))

    return bound


def jobs_informed(p: Problem) -> InformedBound:
    """Job Network's bound on the informed distance (:mod:`webmdp.tasks.informed`), for its
    jobs (profiles and the rest add nothing here): a job's detail fields show on its
    JobDetail only, which OpenJob opens from a JobList page (:func:`jobs_bound`'s facts).
    Three kinds of action, counted apart: the commits on jobs still to make (SaveJob or
    UnsaveJob, OpenEasyApply and SubmitApplication: none leaves the job's page); one OpenJob
    per job still to open (its detail unseen, or a commit to make on it), but the open one;
    and a way to a JobList before each of those but a first taken on a JobList (BackToJobs,
    SearchJobs, GoToJobs, ...), and CloseDialog first when a dialog is open that no commit
    needs."""
    conds = p.task.verifier
    saves = {str(c.value): [c] for c in conds if c.fact == "saved"}
    applies = _by_entity(conds, "applied", "application.")

    def bound(state: State, facts: Facts, unseen: Unseen, look: bool) -> float:
        assert isinstance(state, JobsState)
        s = state
        work = _job_commits(saves, applies, s, facts)
        if work is None:
            return math.inf
        needed_dialog = s.dialog == "apply" and unmet(applies.get(s.focus or "", ()), facts)
        visit = set(work) | {j for _, jids, _ in unseen for j in jids if j.startswith("JOB")}
        visit.discard(s.focus if s.surface == "JobDetail" else "")  # type: ignore[arg-type]
        return sum(work.values()) + (bool(s.dialog) and not needed_dialog) + visits(
            len(visit), s.surface == "JobList")

    return bound


def _job_commits(saves: Mapping[str, list[Condition]], applies: Mapping[str, list[Condition]],
                 s: JobsState, facts: Facts) -> dict[str, float] | None:
    """The commits still to make per job: SaveJob or UnsaveJob, OpenEasyApply and
    SubmitApplication (Submit alone in the job's open Easy Apply dialog); None when a job
    still to apply to was applied to already (its answers are final)."""
    work: dict[str, float] = {}
    for jid, cs in saves.items():
        if unmet(cs, facts):
            work[jid] = work.get(jid, 0) + 1
    for jid, cs in applies.items():
        if unmet(cs, facts):
            if any(ap[0] == jid for ap in s.applications):
                return None
            in_dialog = s.dialog == "apply" and s.focus == jid
            work[jid] = work.get(jid, 0) + (1 if in_dialog else 2)
    return work


def _holds(c: Condition, facts: Facts) -> bool:
    return not unmet([c], facts)


def _by_entity(conds: Iterable[Condition], listed: str, prefix: str
               ) -> dict[str, list[Condition]]:
    """Conditions per entity: ``listed`` contains it, or a fact ``{prefix}{id}[.field]``."""
    out: dict[str, list[Condition]] = {}
    for c in conds:
        if c.fact == listed and c.op == "contains":
            out.setdefault(str(c.value), []).append(c)
        elif c.fact.startswith(prefix):
            out.setdefault(c.fact.removeprefix(prefix).split(".")[0], []).append(c)
    return out


def _visits(work: dict[str, float], here: str | None,
            nav: Callable[[str], int]) -> tuple[float, float]:
    """(bound, commits) for commits ``work[place]`` to make at each place: the commits, one
    arrival per place other than ``here`` (each arrival reaches one place), and the actions
    before the first arrival (``nav(place)`` counts them with the arrival; commits change no
    way there)."""
    commits = float(sum(work.values()))
    away = [x for x in work if x != here]
    if not away:
        return commits, commits
    return commits + len(away) + min(nav(x) for x in away) - 1, commits
