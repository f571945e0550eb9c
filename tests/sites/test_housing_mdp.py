"""Housing MDP: counts from WebSTEP Tables 4/5/8, listing, saved homes, tour and contact commits,
visibility and invalid actions."""

from __future__ import annotations

import collections

import pytest

from support import play, site_tasks
from webmdp.core import Action, SurfaceKind, World
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.sites.housing.state import HousingState
from webmdp.sites.housing.world import AGENT_FIELDS
from webmdp.tasks import Task, verify
from webmdp.tasks.replay import replay

SITE = get_site("housing")
TOUR = {"date": "2025-06-14", "time": "10:00 AM", "name": "Dana Whitfield",
        "phone": "512-555-0147"}


def _world(task: Task) -> World:
    return World.from_dict(task.world)


def _run(world: World, *actions: Action) -> HousingState:
    s = play(SITE, world, *actions)
    assert isinstance(s, HousingState)
    return s


def _open(world: World, s: HousingState, pid: str) -> HousingState:
    out = SITE.step(s, Action("OpenProperty", {"property_id": pid}), world)
    assert isinstance(out, HousingState)
    return out


def test_declared_counts_match_the_paper() -> None:
    kinds = {s.name: s.kind for s in SITE.surfaces}
    assert kinds == {"SearchResults": SurfaceKind.CARD, "PropertyDetail": SurfaceKind.DETAIL,
                     "SavedHomes": SurfaceKind.COMMIT, "TourRequest": SurfaceKind.COMMIT}
    assert len(SITE.actions) >= 16
    assert len(SITE.templates) >= 12
    assert len(SITE.visibility.card_fields) == 8
    assert len(SITE.visibility.detail_fields) == 10
    skills = {a.skill for a in SITE.actions}
    for s in ("pagination", "query_formulation", "price_filtering", "beds_filtering",
              "baths_filtering", "sqft_filtering", "type_filtering", "attribute_filtering",
              "sort_usage", "property_inspection", "agent_inspection", "comparison",
              "save_management", "tour_scheduling", "agent_contact", "saved_homes_review"):
        assert s in skills, s


def test_search_filters_sort_and_pages() -> None:
    t = site_tasks("housing")[0]
    w = _world(t)
    city = t.params["city"]
    s = _run(w, Action("Search", {"query": city}))
    obs = SITE.observe(s, w)
    assert obs.entities and all(e.fields["city"] == city for e in obs.entities)
    s = SITE.step(s, Action("SetListingType", {"listing_type": "for_sale"}), w)
    s = SITE.step(s, Action("SetMinBeds", {"beds": "2"}), w)
    s = SITE.step(s, Action("SortBy", {"order": "price_asc"}), w)
    shown = SITE.observe(s, w).entities
    assert all(e.fields["listing_type"] == "for_sale" and e.fields["beds"] >= 2 for e in shown)
    prices = [e.fields["price"] for e in shown]
    assert prices == sorted(prices)
    s = SITE.step(s, Action("SetPriceRange", {"max": float(prices[0])}), w)
    assert all(e.fields["price"] <= prices[0] for e in SITE.observe(s, w).entities)
    all_homes = _run(w)
    assert SITE.observe(all_homes, w).context["pages"] > 1
    nxt = SITE.step(all_homes, Action("NextPage"), w)
    assert {e.id for e in SITE.observe(nxt, w).entities}.isdisjoint(
        e.id for e in SITE.observe(all_homes, w).entities)
    garage = SITE.step(all_homes, Action("ToggleGarage"), w)
    assert all(w.entities[e.id]["has_garage"] for e in SITE.observe(garage, w).entities)


def test_filters_are_order_independent() -> None:
    w = _world(site_tasks("housing")[5])
    a = _run(w, Action("ToggleHomeType", {"home_type": "Condo"}),
             Action("SetMinBaths", {"baths": "2"}))
    b = _run(w, Action("SetMinBaths", {"baths": "2"}),
             Action("ToggleHomeType", {"home_type": "Condo"}))
    assert a == b


def test_detail_fields_only_on_the_property_page_and_agent_on_demand() -> None:
    t = next(t for t in site_tasks("housing") if t.template == "contact_by_brokerage")
    w = _world(t)
    s = _run(w, Action("Search", {"query": t.params["city"]}))
    detail = set(SITE.visibility.detail_fields)
    assert all(not detail & set(e.fields) for e in SITE.observe(s, w).entities)
    s = _open(w, s, t.target)
    fields = SITE.observe(s, w).entities[0].fields
    assert "hoa_fee" in fields and not set(AGENT_FIELDS) & set(fields)
    s = SITE.step(s, Action("ShowListingAgent"), w)
    assert SITE.observe(s, w).entities[0].fields["brokerage"] == t.params["brokerage"]
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("ShowListingAgent"), w)


def test_saved_homes_are_seeded_saved_and_unsaved() -> None:
    t = next(t for t in site_tasks("housing") if t.template == "unsave_by_hoa")
    w = _world(t)
    s = _run(w)
    assert set(t.hard_negatives) | {t.target} | set(t.companions) <= set(s.saved)
    s = SITE.step(s, Action("OpenSavedHomes"), w)
    obs = SITE.observe(s, w)
    assert [e.id for e in obs.entities] == list(s.saved)
    s = SITE.step(s, Action("CompareHomes"), w)
    assert SITE.observe(s, w).context["comparing"]
    s = SITE.step(s, Action("UnsaveHome", {"property_id": t.target}), w)
    assert t.target not in s.saved
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("UnsaveHome", {"property_id": t.target}), w)
    s = SITE.step(s, Action("BackToResults"), w)
    first = SITE.observe(s, w).entities[0].id
    if first not in s.saved:
        s = SITE.step(s, Action("SaveHome", {"property_id": first}), w)
        assert s.saved[-1] == first


def test_tour_request_records_every_field_and_validates_them() -> None:
    t = site_tasks("housing")[0]
    w = _world(t)
    s = _open(w, _run(w), SITE.observe(_run(w), w).entities[0].id)
    s = SITE.step(s, Action("RequestTour"), w)
    assert s.surface == "TourRequest"
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("OpenSavedHomes"), w)
    for bad in ({"date": "2025-07-40"}, {"date": "June 14"}, {"time": "3:30 AM"},
                {"phone": "call me"}, {"name": "  "}):
        with pytest.raises(InvalidAction):
            SITE.step(s, Action("SubmitTourRequest", {**TOUR, **bad}), w)
    done = SITE.step(s, Action("SubmitTourRequest", TOUR), w)
    facts = SITE.facts(done)
    assert done.surface == "PropertyDetail"
    assert facts["tour.property"] == s.focus
    assert {k: facts[f"tour.{k}"] for k in TOUR} == TOUR
    assert SITE.observe(done, w).context["tour"][1:] == list(TOUR.values())
    back = SITE.step(s, Action("CancelTour"), w)
    assert back.surface == "PropertyDetail" and "tour.date" not in SITE.facts(back)


def test_contact_agent_records_the_message() -> None:
    t = site_tasks("housing")[0]
    w = _world(t)
    s = _open(w, _run(w), SITE.observe(_run(w), w).entities[0].id)
    msg = {"name": "Alex Morgan", "phone": "(303) 555-0111", "message": "Is it available?"}
    s = SITE.step(s, Action("ContactAgent", msg), w)
    facts = SITE.facts(s)
    assert facts["contact.property"] == s.focus
    assert all(facts[f"contact.{k}"] == v for k, v in msg.items())
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("ContactAgent", {**msg, "phone": "12"}), w)


def test_open_property_only_from_the_visible_list() -> None:
    w = _world(site_tasks("housing")[0])
    s = _run(w)
    hidden = next(i for i in w.entities if i not in
                  {e.id for e in SITE.observe(s, w).entities})
    with pytest.raises(InvalidAction):
        _open(w, s, hidden)
    saved = SITE.step(s, Action("OpenSavedHomes"), w)
    unsaved = next(i for i in w.entities if i not in s.saved)
    with pytest.raises(InvalidAction):
        _open(w, saved, unsaved)


def test_verifier_rejects_a_hard_negative_commit() -> None:
    """Committing to a hard negative instead of the target fails a verifier condition."""
    checked = collections.Counter()
    for t in site_tasks("housing"):
        if not t.hard_negatives:
            continue
        w = _world(t)
        oracle = t.oracle_actions()
        wrong = [Action(a.name, {k: (t.hard_negatives[0] if v == t.target else v)
                                 for k, v in a.params.items()}) for a in oracle]
        res = replay(SITE, w, wrong)
        if res.error is None:
            assert not all(verify(t.verifier, SITE.facts(res.final)).values()), t.id
            checked[t.template] += 1
    assert len(checked) >= 10


def test_instructions_name_the_city_for_a_hurried_search() -> None:
    for t in site_tasks("housing"):
        assert t.params["city"] in t.instruction
        assert t.params["city"] in SITE.observe(
            _run(_world(t), Action("Search", {"query": t.params["city"]})), _world(t)
        ).entities[0].fields["city"]
