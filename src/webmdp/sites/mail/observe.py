"""Mail observation (what each surface shows) and verifier facts (pure)."""

from __future__ import annotations

from typing import Any

from webmdp.core.model import EntityView, Observation, World
from webmdp.core.spec import SurfaceKind
from webmdp.sites._common.handlers import observation, surfaces
from webmdp.sites.mail import catalog as C
from webmdp.sites.mail.compose import behind
from webmdp.sites.mail.listing import CATALOG, folder_counts, pages, results, visible_ids
from webmdp.sites.mail.state import MailState as S
from webmdp.sites.mail.world import CARD_FIELDS, DETAIL_FIELDS

SURFACES = surfaces(
    ThreadList=(SurfaceKind.CARD, "folder / label / search listing with filters, bulk toolbar "
                "and paging; star from a row"),
    ThreadView=(SurfaceKind.DETAIL, "one conversation: headers, messages, attachments; star, "
                "archive, label, reply, forward"),
    ComposeModal=(SurfaceKind.COMMIT, "new message / reply / forward window"),
)
COMPOSE_FIELDS = ("from_name", "subject", "attachments")
_SENT_FIELDS = ("mode", "to", "cc", "subject", "body", "thread")


def _live(world: World, s: S, tid: str, field: str) -> Any:
    """A field's current value: flags a user can change come from the state."""
    if field == "starred":
        return tid in s.starred
    if field == "read":
        return tid not in s.unread
    if field == "labels":
        return list(s.labels_of(tid))
    if field == "folder":
        return s.folder_of(tid)
    return world.entities[tid][field]


def _messages(world: World, s: S, tid: str) -> list[dict[str, Any]]:
    out = []
    for i, m in enumerate(world.entities[tid]["messages"]):
        open_ = i in s.expanded
        out.append({"index": i, "from_name": m["from_name"], "from_email": m["from_email"],
                    "date": m["date"], "preview": m["preview"], "expanded": open_,
                    "text": m["text"] if open_ else ""})
    return out


def view(world: World, s: S, tid: str, fields: tuple[str, ...]) -> EntityView:
    vals = {f: (_messages(world, s, tid) if f == "messages" else _live(world, s, tid, f))
            for f in fields}
    return EntityView(tid, vals)


def _title(s: S) -> str:
    if s.query:
        return f"Search results for \u201c{s.query}\u201d"
    return s.label or C.FOLDER_TITLES[s.folder]


def _chrome(world: World, s: S) -> dict[str, Any]:
    """Context every surface needs for the top bar and sidebar."""
    return {"folder": s.folder, "label": s.label, "query": s.query, "title": _title(s),
            "counts": folder_counts(world, s), "notice": s.notice,
            "user_name": C.USER_NAME, "user_email": C.USER_EMAIL,
            "_folders": list(C.FOLDER_TITLES.items()), "_labels": C.LABEL_COLORS}


def _list_context(world: World, s: S) -> dict[str, Any]:
    total = len(results(world, s))
    first = (s.page - 1) * CATALOG.size(world) + 1 if total else 0
    ids = visible_ids(world, s)
    ctx = {"facets": CATALOG.context(s, world)["facets"], "filters_active": bool(s.filters),
           "page": s.page, "pages": pages(world, s),
           "total": total, "first": first, "last": first + len(ids) - 1 if total else 0,
           "selected": sorted(s.selected),
           "all_selected": bool(ids) and set(ids) <= s.selected}
    if s.folder == "sent" and not (s.query or s.label):
        ctx["sent_now"] = [{"to": ", ".join(m.to), "subject": m.subject or "(no subject)",
                            "body": m.body} for m in reversed(s.sent)]
    return ctx


def observe(s: S, world: World) -> Observation:
    """Project the state onto what the page shows."""
    from webmdp.sites.mail.available import available_actions

    ctx = _chrome(world, s)
    entities: tuple[EntityView, ...] = ()
    if s.surface == "ThreadList":
        ctx.update(_list_context(world, s))
        entities = tuple(view(world, s, tid, CARD_FIELDS) for tid in visible_ids(world, s))
    elif s.surface == "ThreadView" and s.focus:
        ctx["expanded"] = list(s.expanded)
        entities = (view(world, s, s.focus, CARD_FIELDS + DETAIL_FIELDS),)
    elif s.surface == "ComposeModal":
        ctx["compose"] = {"mode": s.compose, "to": list(s.to), "cc": list(s.cc),
                          "subject": s.subject, "body": s.body, "thread": s.reply_thread}
        ctx["behind"] = behind(s)
        if s.reply_thread:
            entities = (view(world, s, s.reply_thread, COMPOSE_FIELDS),)
    return observation(s, SURFACES, entities, available_actions(s, world), ctx)


def facts(s: S) -> dict[str, Any]:
    """Verifier facts: flags and folders per thread, labels, and every sent message."""
    moved = s.archived | s.trashed | s.spammed | s.sent_box
    out: dict[str, Any] = {
        "surface": s.surface, "open_thread": s.focus, "folder": s.folder, "query": s.query,
        "starred": sorted(s.starred), "unread": sorted(s.unread),
        "read": sorted(set(s.ids) - s.unread), "inbox": [t for t in s.ids if t not in moved],
        "archived": sorted(s.archived), "deleted": sorted(s.trashed),
        "spam": sorted(s.spammed), "sent_folder": sorted(s.sent_box),
        "sent.count": len(s.sent), "sent.threads": [m.thread for m in s.sent if m.thread],
        "draft.open": bool(s.compose),
    }
    by_label: dict[str, list[str]] = {lb: [] for lb in C.LABELS}
    for tid, labels in s.labels:
        out[f"labels.{tid}"] = list(labels)
        for lb in labels:
            by_label.setdefault(lb, []).append(tid)
    out.update({f"labeled.{lb}": ids for lb, ids in by_label.items()})
    for i, m in enumerate(s.sent):
        for key in ("last", str(i)) if i == len(s.sent) - 1 else (str(i),):
            out.update({f"sent.{key}.{f}": _plain(getattr(m, f)) for f in _SENT_FIELDS})
    return out


def _plain(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v
