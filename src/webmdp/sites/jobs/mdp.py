"""Job Network transition function (pure): tabs, job search, job detail with Easy Apply,
people search, profiles with the connect dialog, messaging and the feed."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.errors import require
from webmdp.sites._common import handlers as H
from webmdp.sites._common.catalog import words
from webmdp.sites._common.handlers import Handler, Params
from webmdp.sites.jobs.catalog import CATALOG
from webmdp.sites.jobs.state import JobsState

TABS = {"GoToFeed": "Feed", "GoToJobs": "JobList", "GoToNetwork": "ConnectionList",
        "GoToMessaging": "Messaging"}
SEED_THREADS = 4
MAX_TEXT = 300


def profiles(world: World) -> list[str]:
    return [i for i in world.entities if i.startswith("PRF-")]


def _by_rank(world: World, ids: list[str]) -> tuple[str, ...]:
    ents = world.entities
    return tuple(sorted(ids, key=lambda i: (-ents[i]["popularity"], i)))


@lru_cache(maxsize=4096)
def people(world: World, query: str) -> tuple[str, ...]:
    """Members matching the people search (name, headline, city), most relevant first."""
    want = words(query)
    ents = world.entities
    hits = [i for i in profiles(world)
            if all(w in words(f"{ents[i]['name']} {ents[i]['headline']} {ents[i]['city']}")
                   for w in want)]
    return _by_rank(world, hits)


@lru_cache(maxsize=1024)
def feed(world: World) -> tuple[str, ...]:
    """Authors of the feed's posts, in feed order."""
    return _by_rank(world, [i for i in profiles(world) if world.entities[i]["post"]])


def threads(s: JobsState, world: World) -> tuple[str, ...]:
    """Conversations in the messaging sidebar: the open one, those written to, then the
    member's older threads."""
    mine = [s.conversation] if s.conversation else []
    mine += [p for p, _ in reversed(s.messages)]
    mine += list(_by_rank(world, profiles(world))[:SEED_THREADS])
    return tuple(dict.fromkeys(mine))


def transition(s: JobsState, a: Action, world: World) -> JobsState:
    name = a.name
    if name in TABS:
        require(not s.dialog, f"{name}: close the dialog first")
        return s.replace(surface=TABS[name], focus=None, origin="", people_query="")
    if name == CATALOG.search:
        require(s.surface in ("JobList", "JobDetail") and not s.dialog,
                "SearchJobs: no job search box here")
    browsed = H.catalog_action(CATALOG, s, a, world, "the job list")
    return browsed or H.dispatch(_HANDLERS, s, a, world)


def _page(surface: str) -> Callable[[JobsState], bool]:
    """On ``surface`` with no dialog open."""
    return lambda s: s.surface == surface and not s.dialog


def _on(s: JobsState, surface: str, name: str) -> None:
    require(_page(surface)(s), f"{name}: not on {surface}")


def _text(p: Params, key: str, name: str, *, required: bool = True) -> str:
    text = str(p.get(key) or "").strip()
    require(bool(text) or not required, f"{name}: {key} is empty")
    require(len(text) <= MAX_TEXT, f"{name}: {key} longer than {MAX_TEXT} characters")
    return text


def _open_job(s: JobsState, p: Params, world: World) -> JobsState:
    _on(s, "JobList", "OpenJob")
    jid = p["job_id"]
    require(jid in CATALOG.visible(world, s), f"OpenJob: {jid} is not on this page")
    return s.replace(surface="JobDetail", focus=jid)


def _job(s: JobsState, p: Params, world: World, name: str) -> str:
    """The open job (what Save / Unsave act on)."""
    _on(s, "JobDetail", name)
    return s.focus or ""


def _open_apply(s: JobsState, p: Params, world: World) -> JobsState:
    _on(s, "JobDetail", "OpenEasyApply")
    require(all(ap[0] != s.focus for ap in s.applications), "OpenEasyApply: already applied")
    return s.replace(dialog="apply")


def _submit(s: JobsState, p: Params, world: World) -> JobsState:
    require(s.surface == "JobDetail" and s.dialog == "apply",
            "SubmitApplication: Easy Apply is not open")
    phone = _text(p, "phone", "SubmitApplication")
    years = int(p["years"])
    require(0 <= years <= 50, "SubmitApplication: years of experience 0-50")
    return s.replace(dialog="", applications=(*s.applications,
                                              (s.focus or "", phone, str(p["resume"]), years)))


def _search_people(s: JobsState, p: Params, world: World) -> JobsState:
    require(not s.dialog, "SearchPeople: close the dialog first")
    q = _text(p, "query", "SearchPeople")
    return s.replace(surface="ConnectionList", focus=None, origin="", people_query=q)


def _open_profile(s: JobsState, p: Params, world: World) -> JobsState:
    pid = p["profile_id"]
    require(not s.dialog, "OpenProfile: close the dialog first")
    shown = {"ConnectionList": lambda: people(world, s.people_query),
             "Feed": lambda: feed(world)}.get(s.surface)
    require(shown is not None and pid in shown(), f"OpenProfile: {pid} is not listed here")
    return s.replace(surface="ProfileView", focus=pid, origin=s.surface)


def _open_connect(s: JobsState, p: Params, world: World) -> JobsState:
    _on(s, "ProfileView", "OpenConnect")
    require(all(i[0] != s.focus for i in s.invitations), "OpenConnect: invitation pending")
    return s.replace(dialog="connect")


def _send_invitation(s: JobsState, p: Params, world: World) -> JobsState:
    require(s.surface == "ProfileView" and s.dialog == "connect",
            "SendInvitation: the connect dialog is not open")
    note = _text(p, "note", "SendInvitation", required=False)
    return s.replace(dialog="", invitations=(*s.invitations, (s.focus or "", note)))


def _open_conversation(s: JobsState, p: Params, world: World) -> JobsState:
    _on(s, "Messaging", "OpenConversation")
    pid = p["profile_id"]
    require(pid in threads(s, world), f"OpenConversation: no conversation with {pid}")
    return s.replace(conversation=pid)


def _send_message(s: JobsState, p: Params, world: World) -> JobsState:
    _on(s, "Messaging", "SendMessage")
    require(bool(s.conversation), "SendMessage: no conversation is open")
    text = _text(p, "text", "SendMessage")
    return s.replace(messages=(*s.messages, (s.conversation, text)))


def _like(s: JobsState, p: Params, world: World) -> JobsState:
    _on(s, "Feed", "LikePost")
    pid = p["profile_id"]
    require(pid in feed(world), f"LikePost: no post by {pid} in the feed")
    return s.replace(liked=H.toggle(s.liked, pid))


_HANDLERS: dict[str, Handler[JobsState]] = {
    "OpenJob": _open_job,
    "BackToJobs": H.step(_page("JobDetail"), "BackToJobs: not on JobDetail", surface="JobList",
                       focus=None),
    **H.switch(("SaveJob", "UnsaveJob"), "saved", "saved", _job),
    "OpenEasyApply": _open_apply, "SubmitApplication": _submit,
    "CloseDialog": H.step(lambda s: bool(s.dialog), "CloseDialog: no dialog is open", dialog=""),
    "SearchPeople": _search_people, "OpenProfile": _open_profile,
    "BackToList": H.step(_page("ProfileView"), "BackToList: not on ProfileView", focus=None,
                       surface=lambda s, p: s.origin or "ConnectionList", origin=""),
    "OpenConnect": _open_connect, "SendInvitation": _send_invitation,
    "MessageProfile": H.step(_page("ProfileView"), "MessageProfile: not on ProfileView",
                           surface="Messaging", conversation=lambda s, p: s.focus or "",
                           focus=None, origin=""),
    "OpenConversation": _open_conversation, "SendMessage": _send_message, "LikePost": _like,
}
