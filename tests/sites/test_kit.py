"""The site toolkit on its own: the declared listing engine, the world-spec helpers, the
multi-field commit verifier and the shared widgets (every offered action bound, text escaped)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest

from webmdp.conformance import bound_pairs
from webmdp.core.model import World
from webmdp.core.spec import Action, SkillCategory
from webmdp.errors import InvalidAction
from webmdp.sites._common.catalog import BrowseState, Catalog, Facet, Sort, best, entities_where
from webmdp.sites._common.views import environment
from webmdp.sites._common.worldgen import others, pin_group
from webmdp.tasks.verifier import check_condition, commit_conditions


@dataclass(frozen=True)
class St(BrowseState):
    note: str = ""


CAT = Catalog(
    "Results", ("title", "city"),
    (Facet("ptype", "Type", "one", "SetType", "type_filtering", options=("Condo", "Cabin")),
     Facet("amen", "Amenities", "all", "ToggleAmenity", "amenity_filtering", field="amenities",
           options=("Pool", "Wifi", "Gym"), param="amenity"),
     Facet("city", "City", "any", "ToggleCity", "location_filtering",
           options=("Seattle", "Chicago", "Denver")),
     Facet("beds", "Beds", "min", "SetMinBeds", "beds_filtering", options=("1", "2", "3")),
     Facet("price", "Price", "range", "SetPriceRange", "price_filtering", unit="$"),
     Facet("instant", "Instant book", "flag", "ToggleInstant", "attribute_filtering")),
    (Sort("recommended", "Recommended", lambda e: 0),
     Sort("price_asc", "Price: low to high", lambda e: e["price"])),
    page_size=3,
)
CITIES = ("Seattle", "Chicago", "Denver")


def _world() -> World:
    ents = {}
    for i in range(10):
        eid = f"L-{i:02d}"
        ents[eid] = {"id": eid, "title": f"Loft {i}", "city": CITIES[i % 3],
                     "ptype": "Condo" if i % 2 else "Cabin",
                     "amenities": ["Pool", "Wifi"] if i % 4 == 0 else ["Pool"],
                     "beds": i % 4, "price": 100 + (i * 37) % 200, "instant": i % 3 == 0,
                     "popularity": 100 - i}
    return World("kit", ents)


W = _world()
S0 = St(surface="Results")


def _do(s: St, name: str, **params: object) -> St:
    out = CAT.transition(s, Action(name, dict(params)), W)
    assert isinstance(out, St)
    return out


def _brute(s: St) -> list[str]:
    """The results by definition, without the engine."""
    f = dict(s.filters)
    out = []
    for e in W.entities.values():
        if s.query and s.query.lower() not in f"{e['title']} {e['city']}".lower():
            continue
        if "ptype" in f and e["ptype"] != f["ptype"]:
            continue
        if "amen" in f and not set(f["amen"]) <= set(e["amenities"]):
            continue
        if "city" in f and e["city"] not in f["city"]:
            continue
        if "beds" in f and e["beds"] < int(f["beds"]):
            continue
        if "price" in f:
            lo, hi = f["price"]
            if (lo is not None and e["price"] < lo) or (hi is not None and e["price"] > hi):
                continue
        if "instant" in f and not e["instant"]:
            continue
        out.append(e)
    key = (lambda e: (e["price"], -e["popularity"])) if s.sort == "price_asc" else \
        (lambda e: -e["popularity"])
    return [e["id"] for e in sorted(out, key=key)]


def test_every_facet_kind_filters_as_its_definition() -> None:
    s = _do(S0, "Search", query="seattle")
    assert list(CAT.results(W, s)) == _brute(s) and len(_brute(s)) == 4
    s = _do(_do(S0, "ToggleAmenity", amenity="Wifi"), "ToggleAmenity", amenity="Pool")
    assert s.filter("amen") == ("Pool", "Wifi")  # declaration order, whatever the click order
    assert list(CAT.results(W, s)) == _brute(s) == ["L-00", "L-04", "L-08"]
    s = _do(_do(S0, "ToggleCity", city="Denver"), "ToggleCity", city="Seattle")
    assert list(CAT.results(W, s)) == _brute(s)
    s = _do(_do(s, "SetMinBeds", beds="2"), "SetPriceRange", min=150.0)
    assert list(CAT.results(W, s)) == _brute(s)
    s = _do(_do(S0, "ToggleInstant"), "SortBy", order="price_asc")
    assert list(CAT.results(W, s)) == _brute(s) and len(_brute(s)) == 4


def test_toggles_clear_and_filters_are_canonical() -> None:
    a = _do(_do(S0, "SetType", ptype="Condo"), "SetMinBeds", beds="1")
    b = _do(_do(S0, "SetMinBeds", beds="1"), "SetType", ptype="Condo")
    assert a == b  # same filters reached in another order: the same state
    assert _do(a, "SetType", ptype="Condo").filter("ptype") is None  # picking again clears
    assert _do(a, "SetType", ptype="Cabin").filter("ptype") == "Cabin"
    assert _do(_do(S0, "ToggleInstant"), "ToggleInstant").filters == ()
    assert _do(_do(S0, "SetPriceRange", max=120.0), "SetPriceRange").filters == ()
    assert _do(a, "ClearFilters").filters == ()
    with pytest.raises(InvalidAction, match="no filter"):
        _do(S0, "ClearFilters")
    with pytest.raises(InvalidAction, match="min above max"):
        _do(S0, "SetPriceRange", min=200.0, max=100.0)
    with pytest.raises(InvalidAction, match="not an option"):
        _do(S0, "SetType", ptype="Castle")
    with pytest.raises(InvalidAction, match="empty query"):
        _do(S0, "Search", query="  ")
    with pytest.raises(InvalidAction, match="no active search"):
        _do(S0, "ClearSearch")


def test_search_keeps_filters_and_every_change_returns_to_page_one() -> None:
    s = _do(_do(S0, "NextPage"), "SetType", ptype="Condo")
    assert s.page == 1
    s = _do(s, "Search", query="loft")
    assert s.filter("ptype") == "Condo" and s.query == "loft"
    assert _do(s, "ClearSearch").filters == s.filters


def test_paging_and_offered_actions() -> None:
    assert CAT.pages(W, S0) == 4 and CAT.visible(W, S0) == ("L-00", "L-01", "L-02")
    last = _do(S0, "GoToPage", page=4)
    assert CAT.visible(W, last) == ("L-09",)
    with pytest.raises(InvalidAction, match="last page"):
        _do(last, "NextPage")
    with pytest.raises(InvalidAction, match="first page"):
        _do(S0, "PrevPage")
    with pytest.raises(InvalidAction, match="page 5 of 4"):
        _do(S0, "GoToPage", page=5)
    names = [a.name for a in CAT.available(S0, W)]
    assert "PrevPage" not in names and "NextPage" in names and "ClearFilters" not in names
    assert names.count("ToggleAmenity") == 3 and names.count("SortBy") == 2
    specs = {a.name: a for a in CAT.action_specs()}
    assert specs["SetPriceRange"].category is SkillCategory.FILTER
    assert [p.name for p in specs["ToggleAmenity"].params] == ["amenity"]
    assert specs["Search"].params[0].text and specs["NextPage"].skill == "pagination"


def _render(s: St) -> str:
    ctx = CAT.context(s, W)
    names = [a.name for a in CAT.available(s, W)] + ["Search"]
    tpl = environment("shopping").from_string(
        '{% import "kit.html" as kit %}{{ kit.search_box(ctx, names) }}'
        "{{ kit.facet_panel(ctx, names) }}{{ kit.active_chips(ctx, names) }}"
        "{{ kit.sort_menu(ctx, names) }}{{ kit.pager(ctx, names) }}")
    return tpl.render(ctx=ctx, names=names)


@pytest.mark.parametrize("steps", [
    (), (("Search", {"query": "loft"}), ("SetType", {"ptype": "Condo"})),
    (("SetPriceRange", {"max": 300.0}), ("ToggleAmenity", {"amenity": "Pool"}), ("NextPage", {})),
    (("ToggleInstant", {}), ("SetMinBeds", {"beds": "1"})),
])
def test_kit_widgets_bind_every_offered_listing_action(steps: tuple) -> None:
    s = S0
    for name, params in steps:
        s = _do(s, name, **params)
    bound = bound_pairs(_render(s))
    missing = [a for a in CAT.available(s, W)
               if (a.name, json.dumps(a.params, sort_keys=True)) not in bound]
    assert not missing
    assert ("Search", "{}") in bound


def test_kit_widgets_escape_what_the_agent_typed() -> None:
    html = _render(_do(S0, "Search", query='<script>alert("x")</script>'))
    assert "<script>alert" not in html and "&lt;script&gt;alert" in html


def test_range_widget_shows_the_active_bounds() -> None:
    html = _render(_do(S0, "SetPriceRange", min=120.0))
    assert 'name="min" data-type="float"' in html and 'value="120"' in html


def test_pin_group_shares_the_base_and_shuffles_ranks() -> None:
    places = set()
    for seed in range(30):
        rng = random.Random(seed)
        group = pin_group(rng, {"city": "Seattle"}, {"pool": True},
                          [{"pool": False}, {"pool": False}])
        assert [g["role"] for g in group] == ["target", "hard_negative", "hard_negative"]
        assert all(g["city"] == "Seattle" for g in group) and group[0]["pool"]
        ranks = [g["popularity"] for g in group]
        assert len(set(ranks)) == 3
        places.add(sorted(ranks, reverse=True).index(ranks[0]))
    assert places == {0, 1, 2}  # the target is not always first in the default order
    picked = others(random.Random(1), ("a", "b", "c", "d"), "b", 3)
    assert sorted(picked) == ["a", "c", "d"]


def test_commit_conditions_name_each_parameter() -> None:
    conds = commit_conditions("booking", {"listing": "L-01", "guests": 3}, "the booking's")
    facts = {"booking.listing": "L-01", "booking.guests": 2}
    assert [check_condition(c, facts) for c in conds] == [True, False]
    assert conds[1].description == "the booking's guests is 3"


def test_matching_helpers() -> None:
    cabins = entities_where(W, ptype="Cabin", city="Seattle")
    assert [e["id"] for e in cabins] == ["L-00", "L-06"]
    assert best(cabins, "price", highest=False) == ["L-00"]
    assert best([], "price", highest=True) == []
