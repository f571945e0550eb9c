"""The library's transition, observation and facts (pure functions of state and world)."""

from __future__ import annotations

from typing import Any

from webmdp.sites.toolkit import Action, Observation, SurfaceKind, World, require
from webmdp.sites.toolkit import handlers as H
from webmdp_library import vocab as V
from webmdp_library.state import LibraryState as S
from webmdp_library.world import CARD_FIELDS, DETAIL_FIELDS

SURFACES = H.surfaces(
    SearchResults=(SurfaceKind.CARD, "catalogue search results with filters"),
    BookDetail=(SurfaceKind.DETAIL, "a book's record: branch, call number, language, rating"),
    MyAccount=(SurfaceKind.COMMIT, "the patron's loans, holds and reading list"))
_ANYWHERE = ("Search",)
"""The header's search box leads back to the results from any page."""


def transition(s: S, a: Action, world: World) -> S:
    if V.CATALOG.handles(a.name):
        require(s.surface == "SearchResults" or a.name in _ANYWHERE,
                f"{a.name}: only on the search results")
        return V.CATALOG.transition(s, a, world).replace(surface="SearchResults", focus=None)
    return H.dispatch(_HANDLERS, s, a, world)


def _cards(s: S, world: World) -> tuple[str, ...]:
    """The books a list surface shows."""
    if s.surface == "MyAccount":
        return tuple(dict.fromkeys((*s.borrowed, *s.holds, *s.reading_list)))
    return V.CATALOG.visible(world, s) if s.surface == "SearchResults" else ()


def _open(s: S, p: H.Params, world: World) -> S:
    bid = H.listed("OpenBook", p["book_id"], _cards(s, world))
    return s.replace(surface="BookDetail", focus=bid, origin=s.surface)


def _open_book(s: S, name: str) -> str:
    require(s.surface == "BookDetail" and s.focus is not None, f"{name}: no book open")
    return s.focus or ""


def _borrow(s: S, p: H.Params, world: World) -> S:
    bid = _open_book(s, "BorrowBook")
    require(H.listed("BorrowBook", p["book_id"], (bid,)) not in s.borrowed,
            f"BorrowBook: {bid} is already on loan to you")
    require(bool(world.entities[bid]["available"]), f"BorrowBook: no copy of {bid} is on the "
            "shelf; place a hold instead")
    return s.replace(borrowed=(*s.borrowed, bid))


def _hold(s: S, p: H.Params, world: World) -> S:
    bid = _open_book(s, "PlaceHold")
    require(H.listed("PlaceHold", p["book_id"], (bid,)) not in s.holds,
            f"PlaceHold: you already hold {bid}")
    return s.replace(holds=(*s.holds, bid))


def _save(s: S, p: H.Params, world: World) -> S:
    bid = _open_book(s, "SaveToList")
    require(H.listed("SaveToList", p["book_id"], (bid,)) not in s.reading_list,
            f"SaveToList: {bid} is already on your reading list")
    return s.replace(reading_list=(*s.reading_list, bid))


_HANDLERS: dict[str, H.Handler[S]] = {
    "OpenBook": _open, "BorrowBook": _borrow, "PlaceHold": _hold, "SaveToList": _save,
    "BackToResults": H.step(lambda s: s.surface == "MyAccount" or (
        s.surface == "BookDetail" and s.origin == "SearchResults"),
        "BackToResults: nothing to go back from", surface="SearchResults", focus=None),
    "OpenMyAccount": H.step(lambda s: s.surface != "MyAccount", "OpenMyAccount: already open",
                            surface="MyAccount", focus=None),
}


def observe(s: S, world: World) -> Observation:
    """Project the state onto what the page shows."""
    ctx: dict[str, Any] = {"query": s.query, "borrowed": list(s.borrowed),
                           "holds": list(s.holds), "reading_list": list(s.reading_list)}
    entities = H.views(world, _cards(s, world), CARD_FIELDS)
    if s.surface == "SearchResults":
        ctx.update(V.CATALOG.context(s, world))
    elif s.surface == "BookDetail" and s.focus:
        entities = (H.view(world, s.focus, CARD_FIELDS + DETAIL_FIELDS),)
        ctx.update(origin=s.origin, available=bool(world.entities[s.focus]["available"]))
    return H.observation(s, SURFACES, entities, available_actions(s, world), ctx)


def available_actions(s: S, world: World) -> tuple[Action, ...]:
    out = [Action("Search")]
    if s.surface != "MyAccount":
        out.append(Action("OpenMyAccount"))
    if s.surface == "SearchResults":
        out += V.CATALOG.available(s, world)
    elif s.surface == "BookDetail" and s.focus:
        bid = s.focus
        if s.origin == "SearchResults":
            out.append(Action("BackToResults"))
        if bid not in s.borrowed and world.entities[bid]["available"]:
            out.append(Action("BorrowBook", {"book_id": bid}))
        if bid not in s.holds:
            out.append(Action("PlaceHold", {"book_id": bid}))
        if bid not in s.reading_list:
            out.append(Action("SaveToList", {"book_id": bid}))
    elif s.surface == "MyAccount":
        out.append(Action("BackToResults"))
    out += [Action("OpenBook", {"book_id": b}) for b in _cards(s, world)]
    return tuple(out)


def facts(s: S) -> dict[str, Any]:
    """Verifier facts: the books borrowed, held and saved to the reading list."""
    return {"surface": s.surface, "borrowed": list(s.borrowed), "holds": list(s.holds),
            "reading_list": list(s.reading_list)}
