"""The library's task templates (WebSTEP H.1 style; 3 templates, 30 tasks).

Every instruction names a group of books by card fields ("mystery audiobooks") and picks one by
what only a book's own page shows (its branch, its language, its reader rating), so the agent
must open candidates to tell them apart; the hard negatives share the group and differ only
there. Each ends in a commit on the one book: borrow it, place a hold, or save it to the
reading list."""

from __future__ import annotations

import sys
from random import Random
from typing import ClassVar

from webmdp.sites.toolkit import (
    TARGET,
    Action,
    Entity,
    FindTemplate,
    Params,
    Pins,
    TaskTemplate,
    collect,
    distinct,
    filler,
    others,
    pin_group,
    pin_split,
)
from webmdp_library import vocab as V

GROUP_FIELDS = ("genre", "format")
"""The card fields every instruction names: "mystery audiobook"."""


def pick_group(rng: Random) -> Entity:
    return {"genre": rng.choice(V.GENRES), "format": rng.choice(V.FORMATS)}


def describe(p: Params, *, plural: bool = False) -> str:
    """ "science fiction audiobook" (or "... audiobooks")."""
    kind = p["format"].lower() + ("s" if plural else "")
    return f"{p['genre'].lower()} {kind}"


class BookTemplate(FindTemplate):
    """A group of books on the search results; fillers never fall into the group."""

    keys, total = GROUP_FIELDS, V.N_BOOKS
    ids = "BK"
    opener = ("OpenBook", "BackToResults", "book_id")
    narrow: ClassVar[tuple[str, ...]] = ("genre", "format")
    by = {"genre": lambda p: Action("SetGenre", {"genre": p["genre"]}),
          "format": lambda p: Action("ToggleFormat", {"format": p["format"]})}

    def words(self, p: Params) -> Params:
        return {**p, "group": describe(p), "groups": describe(p, plural=True)}

    def params(self, group: Entity, **extra: object) -> Params:
        return {**{k: group[k] for k in GROUP_FIELDS}, **extra}


class ShortestAtBranch(BookTemplate):
    """A superlative on a card field (pages) under a detail-only condition (the branch)."""

    name = "borrow_shortest_at_branch"
    description = "Borrow the shortest book of a kind shelved at a given branch"
    commit_action, commit_with = "BorrowBook", {"book_id": TARGET}
    marked = ("borrowed", "borrowed")
    card, detail, best_by, order = ("pages",), ("branch",), "pages", "pages_asc"
    wants = {"branch": "branch"}
    fixed = {"available": True}
    sentence = "Borrow the shortest {group} held at the {branch} branch."

    def pins(self, rng: Random, k: int) -> Pins:
        group = {**pick_group(rng), "pages": rng.randint(12, 30) * 10, "available": True}
        branch = rng.choice(V.BRANCHES)
        negs = [{"branch": b} for b in others(rng, V.BRANCHES, branch, k)]
        pinned = pin_group(rng, group, {"branch": branch}, negs)
        longer = (filler(group, pages=group["pages"] + rng.randint(4, 40) * 10)
                  for _ in range(2))
        return (*pinned, *longer), self.params(group, branch=branch)


class HoldByLanguage(BookTemplate):
    """Detail-only identification (the language), then a hold."""

    name = "hold_by_language"
    description = "Place a hold on the book of a kind written in a given language"
    commit_action, commit_with = "PlaceHold", {"book_id": TARGET}
    marked = ("holds", "held")
    detail = ("language",)
    wants = {"language": "language"}
    sentence = "Place a hold on the {group} written in {language}."

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng)
        values = rng.sample(V.LANGUAGES, k + 1)
        return pin_split(rng, group, "language", values), self.params(group,
                                                                       language=values[0])


class BestRatedToList(BookTemplate):
    """A comparison across book pages: the highest reader rating within a group."""

    name = "save_best_rated"
    description = "Compare reader ratings of a kind of book, save the best to the reading list"
    commit_action, commit_with = "SaveToList", {"book_id": TARGET}
    marked = ("reading_list", "on the reading list")
    detail, best_by, highest, compare = ("rating",), "rating", True, True
    sentence = ("Among the {groups}, add the one with the highest reader rating to your "
                "reading list.")

    def pins(self, rng: Random, k: int) -> Pins:
        group = pick_group(rng)
        ratings = [r / 10 for r in distinct(rng, range(20, 50), k + 1, highest=True)]
        return pin_split(rng, group, "rating", ratings), self.params(group)


TEMPLATES: dict[str, TaskTemplate] = collect(sys.modules[__name__])
