"""Coding Q&A semantic state: listing position, the open page and the back trail, and what
the signed-in user has done (votes, bookmarks, answers, comments, accepted answers)."""

from __future__ import annotations

from dataclasses import dataclass

from webmdp.sites._common.catalog import BrowseState

Page = tuple[str, str]
"""(surface, focus): a page the back button returns to."""
Pairs = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class QAState(BrowseState):
    trail: tuple[Page, ...] = ()
    answer_sort: str = "votes"
    commenting: str = ""
    """The post whose comment box is open ("Add a comment"), if any."""
    votes: Pairs = ()
    """(post id, "up" | "down"), in the order cast."""
    bookmarks: tuple[str, ...] = ()
    answers: Pairs = ()
    """(question id, body) of answers the user posted."""
    comments: Pairs = ()
    """(post id, body) of comments the user added."""
    accepted: Pairs = ()
    """(question id, answer id) the user accepted on their own questions."""
