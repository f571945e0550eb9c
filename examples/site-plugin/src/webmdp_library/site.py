"""The Library site: a public library's catalogue and the patron's account (loans, holds, a
reading list), built on webmdp's site toolkit."""

from __future__ import annotations

from webmdp.sites.toolkit import (
    CO,
    INS,
    NAV,
    Action,
    ActionSpec,
    ModularSite,
    ParamSpec,
    SiteLogic,
    State,
    declare_action,
    shown,
)
from webmdp_library import mdp
from webmdp_library.state import LibraryState
from webmdp_library.vocab import CATALOG
from webmdp_library.world import CARD_FIELDS, DETAIL_FIELDS, generate_world

BID = ParamSpec("book_id", "entity")
_a = declare_action

ACTIONS: tuple[ActionSpec, ...] = (
    *CATALOG.action_specs(),
    _a("OpenBook", "item_inspection", INS, BID, doc="open a book's catalogue record"),
    _a("BackToResults", "backtrack_navigation", NAV),
    _a("OpenMyAccount", "account_review", CO, changes_state=False,
       doc="the patron's loans, holds and reading list"),
    _a("BorrowBook", "loan_management", CO, BID, doc="check a book out (a copy on the shelf)"),
    _a("PlaceHold", "hold_management", CO, BID, doc="reserve a book for pickup"),
    _a("SaveToList", "list_management", CO, BID, doc="add a book to the reading list"),
)


class LibrarySite(ModularSite[LibraryState]):
    name = "library"
    title = "Riverside Public Library"
    entity_prefix = "BK"
    task_count = 30
    domain = "D1"  # WebForge: a consumer service (borrowing, holds)
    example_params = {"query": "garden"}
    surfaces = mdp.SURFACES
    actions = ACTIONS
    entity_fields = {  # kind (id prefix) -> field -> type: checked when a task file is read
        "BK": {"author": "str", "available": "bool", "branch": "str", "call_number": "str",
               "copies": "int", "format": "str", "genre": "str", "id": "str",
               "language": "str", "loan_days": "int", "pages": "int", "popularity": "int",
               "rating": "number", "title": "str", "year": "int"},
    }
    visibility = shown(CARD_FIELDS, DETAIL_FIELDS, SearchResults=CARD_FIELDS,
                       BookDetail=CARD_FIELDS + DETAIL_FIELDS, MyAccount=CARD_FIELDS)

    state_class = LibraryState
    start_surface = "SearchResults"
    logic = SiteLogic(generate_world, mdp.transition, mdp.observe, mdp.facts,
                      mdp.available_actions)

    def browser_back(self, state: State) -> Action | None:
        assert isinstance(state, LibraryState)
        if state.surface == "BookDetail":
            return Action("BackToResults" if state.origin == "SearchResults"
                          else "OpenMyAccount")
        return Action("BackToResults") if state.surface == "MyAccount" else None
