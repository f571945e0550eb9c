"""The concrete actions a Mail surface offers; views bind exactly these."""

from __future__ import annotations

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.sites.mail import catalog as C
from webmdp.sites.mail.listing import CATALOG, visible_ids
from webmdp.sites.mail.state import MailState as S


def _chrome(s: S) -> list[Action]:
    """Top bar and sidebar: search, compose, folders and labels."""
    out = [Action("SearchEmails"), Action("Compose")]
    if s.query:
        out.append(Action("ClearSearch"))
    out += [Action("SwitchFolder", {"folder": f}) for f in C.FOLDERS]
    out += [Action("OpenLabel", {"label": lb}) for lb in C.LABELS]
    return out


def _list(s: S, world: World) -> list[Action]:
    out = CATALOG.available(s, world)  # quick filters, then paging
    ids = visible_ids(world, s)
    if not set(ids) <= s.selected:
        out.append(Action("SelectAll"))
    if s.selected:
        out.append(Action("ClearSelection"))
        out += [Action(n) for n in ("BulkArchive", "BulkDelete", "BulkMarkRead",
                                    "BulkMarkUnread", "BulkStar")]
        out += [Action("BulkLabel", {"label": lb}) for lb in C.LABELS]
    for tid in ids:
        p = {"thread_id": tid}
        out.append(Action("OpenThread", p))
        out.append(Action("DeselectThread" if tid in s.selected else "SelectThread", p))
        out.append(Action("Unstar" if tid in s.starred else "Star", p))
        out.append(Action("MarkRead" if tid in s.unread else "MarkUnread", p))
        out += [Action(n, p) for n in ("Archive", "Delete") if s.folder_of(tid) != C.MOVES[n][0]]
    return out


def _thread(s: S, world: World) -> list[Action]:
    tid = s.focus or ""
    p = {"thread_id": tid}
    out = [Action("CloseThread"), Action("Unstar" if tid in s.starred else "Star", p)]
    out += [Action(name, p) for name, (folder, _) in C.MOVES.items() if s.folder_of(tid) != folder]
    out.append(Action("MarkRead" if tid in s.unread else "MarkUnread", p))
    have = s.labels_of(tid)
    out += [Action("RemoveLabel" if lb in have else "AddLabel", {**p, "label": lb})
            for lb in C.LABELS]
    n = len(world.entities[tid]["messages"])
    for i in range(n):
        out.append(Action("CollapseMessage" if i in s.expanded else "ExpandMessage",
                          {"index": i}))
    if len(s.expanded) < n:
        out.append(Action("ExpandAll"))
    if s.expanded:
        out.append(Action("CollapseAll"))
    out += [Action("Reply"), Action("ReplyAll"), Action("Forward")]
    return out


def _compose(s: S) -> list[Action]:
    out = [Action("AddRecipient"), Action("AddCc")]
    out += [Action("RemoveRecipient", {"address": a}) for a in s.to]
    out += [Action("RemoveCc", {"address": a}) for a in s.cc]
    out += [Action("SetSubject"), Action("SetBody"), Action("Send"), Action("DiscardDraft")]
    return out


def available_actions(s: S, world: World) -> tuple[Action, ...]:
    if s.surface == "ComposeModal":
        return tuple(_compose(s))
    if s.surface == "ThreadView" and s.focus:
        return tuple(_chrome(s) + _thread(s, world))
    return tuple(_chrome(s) + _list(s, world))
