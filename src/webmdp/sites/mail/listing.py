"""Which threads a ThreadList shows, declared on the toolkit's :class:`Catalog`: the folder,
label or search decides the scope, three quick filters narrow it (two of them flags the state
holds), the newest come first, 20 a page.

Mail's listing depends on the episode, not only on the world: threads move between folders,
get starred, read and labelled, and the search box understands ``from:``, ``has:``, ``is:`` and
``label:``. The catalog caches results on :func:`result_key`, the part of the state they read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from webmdp.core.model import World
from webmdp.sites._common.catalog import Catalog, Facet, Sort
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


def _in_scope(world: World, s: S) -> Iterator[str]:
    """A search covers every folder but Trash and Spam; a label, its threads outside them;
    Starred, the starred threads outside them; a folder, the threads filed there."""
    for tid in s.ids:
        folder = s.folder_of(tid)
        if s.query:
            keep = folder not in _HIDDEN
        elif s.label:
            keep = folder not in _HIDDEN and s.label in s.labels_of(tid)
        elif s.folder == "starred":
            keep = tid in s.starred and folder not in _HIDDEN
        else:
            keep = folder == s.folder
        if keep:
            yield tid


def result_key(s: S) -> S:
    """The part of a state the thread list depends on; flags it ignores are blanked so that
    starring or reading a thread does not invalidate the cache when the view cannot change."""
    q = s.query.lower()
    need_star = s.folder == "starred" or s.filter("starred") or "is:starred" in q
    need_read = s.filter("unread") or "is:unread" in q or "is:read" in q
    need_labels = (bool(s.label) and not s.query) or "label:" in q
    return S(surface="ThreadList", folder="" if s.query or s.label else s.folder,
             label="" if s.query else s.label, query=s.query,
             filters=s.filters, ids=s.ids, starred=s.starred if need_star else frozenset(),
             unread=s.unread if need_read else frozenset(), archived=s.archived,
             trashed=s.trashed, spammed=s.spammed, sent_box=s.sent_box,
             labels=s.labels if need_labels else ())


def _flag(name: str, field: str = "", held: str = "") -> Facet:
    return Facet(name, C.FILTER_TITLES[name], "flag", "ApplyFilter", "filter_application",
                 field=field, held=held)


CATALOG = Catalog(
    surface="ThreadList", search_fields=(),
    facets=(_flag("unread", held="unread"), _flag("starred", held="starred"),
            _flag("has_attachment", field="attachments")),
    sorts=(Sort("newest", "Newest", lambda e: e["age"]),), page_size=C.PAGE_SIZE, rank="",
    search="", clear_search="", clear_skill="filter_application", sort_action="", goto="",
    switch=("ApplyFilter", "RemoveFilter", "filter"),
    scope=_in_scope, match=_query_ok, key=result_key,
)


def results(world: World, s: S) -> tuple[str, ...]:
    """Thread ids the current list view holds, newest first (all pages)."""
    return CATALOG.results(world, s)


def visible_ids(world: World, s: S) -> tuple[str, ...]:
    return CATALOG.visible(world, s)


def pages(world: World, s: S) -> int:
    return CATALOG.pages(world, s)


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
