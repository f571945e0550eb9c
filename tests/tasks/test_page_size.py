"""The dial's page-size knob: a world with shorter result pages (world meta ``page_size``),
whose oracle turns pages to reach what it opens; breadth falls, and the oracle still replays
in the MDP and in Chromium."""

from __future__ import annotations

import pytest

from webmdp.core import World
from webmdp.core.model import PAGE_META
from webmdp.runner.validate import validate_site
from webmdp.sites import get_site
from webmdp.tasks import Task
from webmdp.tasks.generate import make_task
from webmdp.tasks.replay import replay
from webmdp.tasks.verifier import verify

TURNS = ("GoToPage", "NextPage", "PrevPage")


def _paged(site: str, template: str, want_turn: bool = True) -> tuple[Task, Task]:
    """(the task with 2 results a page, the same index with the site's own pages): the first
    index from 60,000 whose paged oracle turns a page."""
    s = get_site(site)
    for i in range(60_000, 60_040):
        small = make_task(s, i, template, 3, page_size=2)
        if any(a.name in TURNS for a in small.oracle_actions()) == want_turn:
            return small, make_task(s, i, template, 3)
    raise AssertionError(f"{site}/{template}: no paged oracle turns a page")


@pytest.mark.parametrize(("site", "template", "turn"), [
    ("shopping", "cheapest_filter_sort", "GoToPage"),
    ("housing", next(iter(get_site("housing").templates)), "GoToPage"),
    ("mail", next(iter(get_site("mail").templates)), "NextPage")])
def test_the_oracle_turns_pages_and_still_solves_the_task(site: str, template: str,
                                                          turn: str) -> None:
    s = get_site(site)
    small, full = _paged(site, template)
    world = World.from_dict(small.world)
    assert world.meta[PAGE_META] == 2 and PAGE_META not in full.world.get("meta", {})
    names = [a.name for a in small.oracle_actions()]
    assert turn in names
    # the same steps as the unpaged oracle, page turns added before what they reach
    assert [n for n in names if n not in TURNS] == [
        a.name for a in full.oracle_actions() if a.name not in TURNS]
    states = replay(s, world, small.oracle_actions())
    assert states.error is None
    assert all(verify(small.verifier, s.facts(states.final)).values())
    # the world is the unpaged one: only the page size differs
    assert small.world["entities"] == full.world["entities"]
    # every list page the oracle sees shows at most 2 results, and breadth falls
    assert small.difficulty is not None and full.difficulty is not None
    assert small.difficulty.measures["breadth"] <= full.difficulty.measures["breadth"]


def test_without_the_knob_the_task_is_unchanged() -> None:
    s = get_site("shopping")
    a = make_task(s, 60_001, "cheapest_filter_sort", 2)
    b = make_task(s, 60_001, "cheapest_filter_sort", 2, page_size=None)
    assert a.model_dump_json() == b.model_dump_json()


def test_a_catalogue_pages_by_the_worlds_page_size() -> None:
    from webmdp.sites.shopping.listing import CATALOG
    from webmdp.sites.shopping.state import ShoppingState

    small, full = _paged("shopping", "cheapest_filter_sort")
    for task, size in ((small, 2), (full, CATALOG.page_size)):
        world = World.from_dict(task.world)
        state = ShoppingState(surface="SearchResults")
        assert CATALOG.size(world) == size
        n = len(CATALOG.results(world, state))
        assert len(CATALOG.visible(world, state)) == min(n, size)
        assert CATALOG.pages(world, state) == max(1, -(-n // size))


@pytest.mark.browser
def test_paged_oracles_replay_in_chromium(server, host) -> None:  # type: ignore[no-untyped-def]
    """Levels 2-3 of `webmdp validate` on paged tasks: every page-turn button the oracle
    presses is on screen and unoccluded (a long pager wraps), and the GUI trace equals the
    MDP's."""
    for site, template in (("shopping", "cheapest_filter_sort"),
                           ("mail", next(iter(get_site("mail").templates)))):
        small, _ = _paged(site, template)
        rep = validate_site(site, [small], conformance=False, server=server, host=host)
        assert rep.ok, (rep.level2[:3], rep.level3[:3])
