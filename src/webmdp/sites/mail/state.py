"""Mail semantic state: interface position s^p plus the mailbox's mutable application data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from webmdp.sites._common.catalog import BrowseState


class SentMail(NamedTuple):
    """A message the agent sent: ``mode`` is new / reply / reply_all / forward."""

    mode: str
    to: tuple[str, ...]
    cc: tuple[str, ...]
    subject: str
    body: str
    thread: str


@dataclass(frozen=True)
class MailState(BrowseState):
    """Surface ThreadList / ThreadView / ComposeModal; ``focus`` is the open thread. The search,
    quick filters and page are the listing's (``listing.CATALOG``).

    Per-thread data lives in frozensets and sorted tuples so states stay hashable and cheap to
    copy: a thread's folder is the first of trash / spam / archive / sent holding it, else inbox.
    """

    folder: str = "inbox"
    label: str = ""
    expanded: tuple[int, ...] = ()
    selected: frozenset[str] = frozenset()
    ids: tuple[str, ...] = ()
    starred: frozenset[str] = frozenset()
    unread: frozenset[str] = frozenset()
    archived: frozenset[str] = frozenset()
    trashed: frozenset[str] = frozenset()
    spammed: frozenset[str] = frozenset()
    sent_box: frozenset[str] = frozenset()
    labels: tuple[tuple[str, tuple[str, ...]], ...] = ()
    compose: str = ""
    to: tuple[str, ...] = ()
    cc: tuple[str, ...] = ()
    subject: str = ""
    body: str = ""
    reply_thread: str = ""
    sent: tuple[SentMail, ...] = ()
    notice: str = ""

    def folder_of(self, tid: str) -> str:
        if tid in self.trashed:
            return "trash"
        if tid in self.spammed:
            return "spam"
        if tid in self.archived:
            return "archive"
        if tid in self.sent_box:
            return "sent"
        return "inbox"

    def labels_of(self, tid: str) -> tuple[str, ...]:
        for key, labels in self.labels:
            if key == tid:
                return labels
        return ()
