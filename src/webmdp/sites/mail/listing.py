"""Which threads a ThreadList shows: folder / label / search scope, filters, order, paging."""

from __future__ import annotations

import re
from functools import lru_cache

from webmdp.core.model import World
from webmdp.sites._common.listing import page_count, page_slice
from webmdp.sites.mail import catalog as C
from webmdp.sites.mail.state import MailState as S

_WORD = re.compile(r"[a-z0-9]+")
_HIDDEN = frozenset({"trash", "spam"})


def _tokens(text: str) -> set[str]:
    """Lower-case alphanumeric runs: 'priya.patel@northwind.io' -> priya, patel, northwind, io."""
    return set(_WORD.findall(text.lower()))


@lru_cache(maxsize=16384)
def haystack(world: World, tid: str) -> frozenset[str]:
    """Every searchable word of a thread: people, subject, all message text, file names."""
    t = world.entities[tid]
    parts = [t["from_name"], t["from_email"], t["subject"], t["body"], *t["to"], *t["cc"],
             *t["attachments"], *(m["text"] + " " + m["from_name"] for m in t["messages"])]
    return frozenset(_tokens(" ".join(parts)))


@lru_cache(maxsize=16384)
def _sender_words(world: World, tid: str) -> frozenset[str]:
    t = world.entities[tid]
    return frozenset(_tokens(f"{t['from_name']} {t['from_email']}"))


def _query_ok(world: World, s: S, tid: str, terms: tuple[str, ...]) -> bool:
    for term in terms:
        key, _, val = term.partition(":")
        if val and key == "from":
            if not _tokens(val) <= _sender_words(world, tid):
                return False
        elif val and key == "has" and val == "attachment":
            if not world.entities[tid]["attachments"]:
                return False
        elif val and key == "is" and val in ("starred", "unread", "read"):
            flag = tid in s.starred if val == "starred" else tid in s.unread
            if flag != (val != "read"):
                return False
        elif val and key == "label":
            if val not in {lb.lower() for lb in s.labels_of(tid)}:
                return False
        elif not _tokens(term) <= haystack(world, tid):
            return False
    return True


def _in_scope(s: S, tid: str) -> bool:
    folder = s.folder_of(tid)
    if s.query:
        return folder not in _HIDDEN
    if s.label:
        return folder not in _HIDDEN and s.label in s.labels_of(tid)
    if s.folder == "starred":
        return tid in s.starred and folder not in _HIDDEN
    return folder == s.folder


@lru_cache(maxsize=8192)
def _results(world: World, key: S) -> tuple[str, ...]:
    terms = tuple(key.query.lower().split())
    out = []
    for tid in key.ids:
        if not _in_scope(key, tid):
            continue
        if "unread" in key.filters and tid not in key.unread:
            continue
        if "starred" in key.filters and tid not in key.starred:
            continue
        if "has_attachment" in key.filters and not world.entities[tid]["attachments"]:
            continue
        if terms and not _query_ok(world, key, tid, terms):
            continue
        out.append(tid)
    ages = {tid: world.entities[tid]["age"] for tid in out}
    return tuple(sorted(out, key=lambda i: (ages[i], i)))


def result_key(s: S) -> S:
    """The part of a state the thread list depends on; flags it ignores are blanked so that
    starring or reading a thread does not invalidate the cache when the view cannot change."""
    q = s.query.lower()
    need_star = s.folder == "starred" or "starred" in s.filters or "is:starred" in q
    need_read = "unread" in s.filters or "is:unread" in q or "is:read" in q
    need_labels = (bool(s.label) and not s.query) or "label:" in q
    return S(surface="ThreadList", folder="" if s.query or s.label else s.folder,
             label="" if s.query else s.label, query=s.query,
             filters=s.filters, ids=s.ids, starred=s.starred if need_star else frozenset(),
             unread=s.unread if need_read else frozenset(), archived=s.archived,
             trashed=s.trashed, spammed=s.spammed, sent_box=s.sent_box,
             labels=s.labels if need_labels else ())


def results(world: World, s: S) -> tuple[str, ...]:
    """Thread ids the current list view holds, newest first (all pages)."""
    return _results(world, result_key(s))


def visible_ids(world: World, s: S) -> tuple[str, ...]:
    return tuple(page_slice(results(world, s), s.page, C.PAGE_SIZE))


def pages(world: World, s: S) -> int:
    return page_count(len(results(world, s)), C.PAGE_SIZE)


@lru_cache(maxsize=4096)
def _counts(world: World, key: S) -> dict[str, int]:
    out = {"inbox": 0, "spam": 0}
    for tid in key.ids:
        folder = key.folder_of(tid)
        if folder == "spam" or (folder == "inbox" and tid in key.unread):
            out[folder] += 1
    return out


def folder_counts(world: World, s: S) -> dict[str, int]:
    """Sidebar badges: unread threads in Inbox, all threads in Spam."""
    key = S(surface="", ids=s.ids, unread=s.unread, archived=s.archived, trashed=s.trashed,
            spammed=s.spammed, sent_box=s.sent_box)
    return _counts(world, key)
