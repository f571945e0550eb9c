"""Mail transition function (pure): list navigation, thread inspection, email management."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.errors import require
from webmdp.sites._common.handlers import Handler, Params, dispatch, listed, step
from webmdp.sites.mail import catalog as C
from webmdp.sites.mail.compose import COMPOSE_HANDLERS, MODAL_ACTIONS
from webmdp.sites.mail.listing import CATALOG, pages, visible_ids
from webmdp.sites.mail.state import MailState as S

LIST, VIEW, COMPOSE = "ThreadList", "ThreadView", "ComposeModal"


def move(s: S, ids: Iterable[str], folder: str) -> S:
    """Put threads in exactly one folder (sent threads leave Sent when moved)."""
    ids = frozenset(ids)
    sets = {"archived": s.archived - ids, "trashed": s.trashed - ids, "spammed": s.spammed - ids,
            "sent_box": s.sent_box - ids, "selected": s.selected - ids}
    key = {"archive": "archived", "trash": "trashed", "spam": "spammed", "sent": "sent_box"}
    if folder in key:
        sets[key[folder]] = sets[key[folder]] | ids
    return s.replace(**sets)


def set_labels(s: S, tid: str, labels: Iterable[str]) -> S:
    rest = tuple(p for p in s.labels if p[0] != tid)
    new = tuple(sorted(set(labels)))
    return s.replace(labels=tuple(sorted((*rest, (tid, new)) if new else rest)))


_LISTED: dict[str, Any] = {"surface": LIST, "focus": None, "expanded": ()}
"""Back on the list."""
_NEW_VIEW: dict[str, Any] = {**_LISTED, "page": 1, "selected": frozenset()}
"""A fresh list: first page, nothing selected."""


def _target(s: S, tid: str, world: World, action: str) -> str:
    """A thread-id action applies to a visible row (list) or the open thread (view)."""
    if s.surface == VIEW:
        require(tid == s.focus, f"{action}: {tid} is not the open thread")
        return tid
    return listed(action, tid, visible_ids(world, s))


# -- navigation, search, filters --------------------------------------------------------------
def _switch_folder(s: S, p: Params, w: World) -> S:
    require(p["folder"] in C.FOLDERS, f"SwitchFolder: unknown folder {p['folder']!r}")
    return s.replace(**_NEW_VIEW, folder=p["folder"], label="", query="", filters=())


def _open_label(s: S, p: Params, w: World) -> S:
    require(p["label"] in C.LABELS, f"OpenLabel: unknown label {p['label']!r}")
    return s.replace(**_NEW_VIEW, label=p["label"], query="", filters=())


def _search(s: S, p: Params, w: World) -> S:
    q = " ".join(str(p["query"]).split())
    require(bool(q), "SearchEmails: empty query")
    return s.replace(**_NEW_VIEW, query=q, label="")


# -- thread inspection ------------------------------------------------------------------------
def _open(s: S, p: Params, w: World) -> S:
    require(s.surface == LIST, "OpenThread: not on the thread list")
    tid = listed("OpenThread", p["thread_id"], visible_ids(w, s))
    return s.replace(surface=VIEW, focus=tid, expanded=(), unread=s.unread - {tid})


def _earlier(s: S, w: World) -> int:
    require(s.surface == VIEW and s.focus is not None, "no thread is open")
    return len(w.entities[s.focus or ""]["messages"])


def _expand(s: S, p: Params, w: World) -> S:
    i = p["index"]
    require(0 <= i < _earlier(s, w) and i not in s.expanded, f"ExpandMessage: no collapsed #{i}")
    return s.replace(expanded=tuple(sorted((*s.expanded, i))))


def _collapse(s: S, p: Params, w: World) -> S:
    i = p["index"]
    require(_earlier(s, w) > 0 and i in s.expanded, f"CollapseMessage: #{i} is not expanded")
    return s.replace(expanded=tuple(x for x in s.expanded if x != i))


def _expand_all(s: S, p: Params, w: World) -> S:
    n = _earlier(s, w)
    require(len(s.expanded) < n, "ExpandAll: every message is expanded")
    return s.replace(expanded=tuple(range(n)))


def _collapse_all(s: S, p: Params, w: World) -> S:
    require(_earlier(s, w) > 0 and bool(s.expanded), "CollapseAll: nothing is expanded")
    return s.replace(expanded=())


# -- email management -------------------------------------------------------------------------
def _mark(field: str, on: bool, action: str, listed_only: bool = False) -> Handler[S]:
    """Star or select a thread (``on``), or undo it: ``field`` is the state's set of them."""

    def go(s: S, p: Params, w: World) -> S:
        require(not listed_only or s.surface == LIST, "selection: only on the thread list")
        tid, have = _target(s, p["thread_id"], w, action), getattr(s, field)
        require((tid in have) != on, f"{tid} is {'already' if on else 'not'} {field}")
        return s.replace(**{field: have | {tid} if on else have - {tid}})
    return go


def _read(read: bool) -> Handler[S]:
    def go(s: S, p: Params, w: World) -> S:
        tid = _target(s, p["thread_id"], w, "MarkRead" if read else "MarkUnread")
        require((tid in s.unread) == read, f"{tid} is already {'read' if read else 'unread'}")
        s = s.replace(unread=s.unread - {tid} if read else s.unread | {tid})
        return s.replace(**_LISTED) if s.surface == VIEW else s
    return go


def _mover(name: str) -> Handler[S]:
    folder, notice = C.MOVES[name]

    def go(s: S, p: Params, w: World) -> S:
        tid = _target(s, p["thread_id"], w, name)
        require(s.folder_of(tid) != folder, f"{name}: {tid} is already in {folder}")
        return move(s, (tid,), folder).replace(**_LISTED, notice=notice)
    return go


def _label(add: bool) -> Handler[S]:
    def go(s: S, p: Params, w: World) -> S:
        require(s.surface == VIEW, "labels are edited on the open thread")
        tid, label = _target(s, p["thread_id"], w, "label"), p["label"]
        require(label in C.LABELS, f"unknown label {label!r}")
        have = s.labels_of(tid)
        require((label in have) != add, f"{tid} {'already has' if add else 'lacks'} {label!r}")
        return set_labels(s, tid, (*have, label) if add else [x for x in have if x != label])
    return go


# -- selection and bulk actions ---------------------------------------------------------------
def _select_all(s: S, p: Params, w: World) -> S:
    require(s.surface == LIST, "SelectAll: only on the thread list")
    ids = frozenset(visible_ids(w, s))
    require(not ids <= s.selected, "SelectAll: every thread is selected")
    return s.replace(selected=s.selected | ids)


def _bulk(name: str) -> Handler[S]:
    def go(s: S, p: Params, w: World) -> S:
        require(s.surface == LIST and bool(s.selected), f"{name}: select threads first")
        ids, n = s.selected, len(s.selected)
        s = s.replace(selected=frozenset())
        if name in ("BulkArchive", "BulkDelete"):
            folder = "archive" if name == "BulkArchive" else "trash"
            return move(s, ids, folder).replace(**_LISTED, notice=f"{n} conversation(s) moved.")
        if name == "BulkMarkRead":
            return s.replace(unread=s.unread - ids)
        if name == "BulkMarkUnread":
            return s.replace(unread=s.unread | ids)
        if name == "BulkStar":
            return s.replace(starred=s.starred | ids)
        label = p["label"]
        require(label in C.LABELS, f"unknown label {label!r}")
        for tid in sorted(ids):
            s = set_labels(s, tid, (*s.labels_of(tid), label))
        return s.replace(**_LISTED, notice=f"Label '{label}' applied to {n} conversation(s).")
    return go


HANDLERS: dict[str, Handler[S]] = {
    **COMPOSE_HANDLERS,
    "SwitchFolder": _switch_folder, "OpenLabel": _open_label, "SearchEmails": _search,
    "ClearSearch": step(lambda s: bool(s.query), "ClearSearch: no active search", **_NEW_VIEW,
                        query=""),
    "OpenThread": _open,
    "CloseThread": step(VIEW, "CloseThread: no thread is open", **_LISTED),
    "ExpandMessage": _expand, "CollapseMessage": _collapse, "ExpandAll": _expand_all,
    "CollapseAll": _collapse_all, "MarkRead": _read(True), "MarkUnread": _read(False),
    "Star": _mark("starred", True, "Star"), "Unstar": _mark("starred", False, "Unstar"),
    "AddLabel": _label(True), "RemoveLabel": _label(False),
    "SelectThread": _mark("selected", True, "select", listed_only=True),
    "DeselectThread": _mark("selected", False, "select", listed_only=True),
    "SelectAll": _select_all,
    "ClearSelection": step(lambda s: s.surface == LIST and bool(s.selected),
                           "ClearSelection: nothing is selected", selected=frozenset()),
    **{name: _mover(name) for name in C.MOVES},
    **{name: _bulk(name) for name in ("BulkArchive", "BulkDelete", "BulkMarkRead",
                                      "BulkMarkUnread", "BulkStar", "BulkLabel")},
}


def transition(s: S, a: Action, world: World) -> S:
    """``T(s, a)``: dispatch on the action name; the compose window blocks everything else."""
    if s.surface == COMPOSE:
        require(a.name in MODAL_ACTIONS, f"{a.name}: finish or discard the open draft first")
    if CATALOG.handles(a.name):  # quick filters (a fresh list) and paging (a fresh selection)
        require(s.surface == LIST, f"{a.name}: only on the thread list")
        new = CATALOG.transition(s, a, world)
        paged = a.name in ("NextPage", "PrevPage")
        new = new.replace(selected=frozenset()) if paged else new.replace(**_NEW_VIEW)
    else:
        new = dispatch(HANDLERS, s, a, world)
    if s.notice and new.notice == s.notice:
        new = new.replace(notice="")
    if new.surface == LIST and new.page > 1:  # the list may have shrunk under the page
        last = pages(world, new)
        if new.page > last:
            new = new.replace(page=last)
    return new
