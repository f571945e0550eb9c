"""Accommodation MDP: counts from WebSTEP Tables 4/5/7, listing, card/detail split, booking,
checkout cancellation, trips, and the generated task set."""

from __future__ import annotations

import collections
from functools import cache

import pytest

from support import play, site_tasks
from webmdp.core import Action, SurfaceKind, World
from webmdp.core.model import WorldSpec
from webmdp.errors import InvalidAction
from webmdp.sites import get_site
from webmdp.sites.accommodation import catalog as C
from webmdp.sites.accommodation.state import AccommodationState
from webmdp.tasks import Task, make_task
from webmdp.tasks.replay import replay
from webmdp.tasks.template import Draft
from webmdp.tasks.verifier import verify

SITE = get_site("accommodation")
TABLE7 = ("pagination", "search_return", "query_formulation", "property_type_filtering",
          "price_filtering", "beds_filtering", "amenity_filtering", "sort_usage",
          "listing_inspection", "amenity_expansion", "booking_initiation",
          "booking_confirmation", "booking_cancellation", "checkout_cancellation")


@cache
def _tasks() -> list[Task]:
    return site_tasks("accommodation")


def _world(task: Task) -> World:
    return World.from_dict(task.world)


def _run(world: World, *actions: Action) -> AccommodationState:
    s = play(SITE, world, *actions)
    assert isinstance(s, AccommodationState)
    return s


def _task(template: str, hn: int) -> Task:
    return next(t for t in _tasks() if t.template == template
                and t.complexity.hard_negative_count == hn)


def test_declared_counts_match_the_paper() -> None:
    kinds = {s.name: s.kind for s in SITE.surfaces}
    assert kinds == {"SearchResults": SurfaceKind.CARD, "ListingDetail": SurfaceKind.DETAIL,
                     "Checkout": SurfaceKind.COMMIT, "Reservations": SurfaceKind.COMMIT}
    assert len(SITE.actions) >= 16
    assert len(SITE.visibility.card_fields) == 9
    assert len(SITE.visibility.detail_fields) == 8
    assert len(SITE.templates) >= 12
    skills = {a.skill for a in SITE.actions}
    assert set(TABLE7) <= skills
    names = {a.name for a in SITE.actions}
    assert {"ViewListing", "CloseListing", "BookListing", "ConfirmBooking", "SortBy"} <= names


def test_search_filters_sort_and_pages() -> None:
    w = _world(_tasks()[0])
    s = _run(w)
    first = SITE.observe(s, w)
    assert first.context["total_results"] == C.N_LISTINGS and first.context["pages"] > 1
    nxt = SITE.step(s, Action("NextPage"), w)
    assert {e.id for e in SITE.observe(nxt, w).entities}.isdisjoint(e.id for e in first.entities)
    city = first.entities[0].fields["city"]
    s = _run(w, Action("Search", {"query": city.lower()}),
             Action("SortBy", {"order": "price_asc"}))
    obs = SITE.observe(s, w)
    assert obs.entities and all(e.fields["city"] == city for e in obs.entities)
    prices = [e.fields["price_per_night"] for e in obs.entities]
    assert prices == sorted(prices)
    s = _run(w, Action("SetMinBeds", {"beds": "3"}), Action("SetPriceRange", {"max": 250.0}),
             Action("ToggleAmenity", {"amenity": "Washer"}))
    for e in SITE.observe(s, w).entities:
        full = w.entities[e.id]
        assert full["beds"] >= 3 and full["price_per_night"] <= 250
        assert "Washer" in full["amenities"]
    again = SITE.step(s, Action("SetMinBeds", {"beds": "3"}), w)  # the active pill clears it
    assert isinstance(again, AccommodationState) and again.filter("beds") is None
    with pytest.raises(InvalidAction):
        SITE.step(s, Action("ViewListing", {"listing_id": "LST-999"}), w)


def test_detail_fields_only_on_the_listing_page_and_amenities_behind_show_all() -> None:
    t = _task("hidden_amenity_book", 2)
    w = _world(t)
    s = _run(w, Action("Search", {"query": t.params["city"]}))
    for e in SITE.observe(s, w).entities:
        assert not set(e.fields) & set(SITE.visibility.detail_fields)
    d = SITE.step(s, Action("ViewListing", {"listing_id": t.target}), w)
    obs = SITE.observe(d, w)
    fields = obs.entities[0].fields
    assert fields["host_name"] == w.entities[t.target]["host_name"] and "amenities" not in fields
    assert t.params["amenity"] not in obs.context["amenity_preview"]
    assert len(obs.context["amenity_preview"]) == C.PREVIEW
    opened = SITE.observe(SITE.step(d, Action("ShowAllAmenities"), w), w)
    assert t.params["amenity"] in opened.entities[0].fields["amenities"]
    assert Action("ShowAllAmenities") not in opened.available


def test_booking_checks_dates_guests_and_minimum_stay() -> None:
    t = _task("minimum_stay_book", 1)
    w = _world(t)
    hn = t.hard_negatives[0]
    s = _run(w, Action("Search", {"query": t.params["city"]}))
    d = SITE.step(s, Action("ViewListing", {"listing_id": hn}), w)
    stay = {"check_in": t.params["check_in"], "check_out": t.params["check_out"],
            "guests": t.params["guests"]}
    bad = [{**stay, "check_in": "04/15/2026"}, {**stay, "check_out": t.params["check_in"]},
           {**stay, "check_in": "2025-04-15"}, {**stay, "guests": 99}, stay]
    for params in bad:  # the last is 2 nights against the hard negative's 3+ night minimum
        with pytest.raises(InvalidAction):
            SITE.step(d, Action("BookListing", params), w)
    d = SITE.step(SITE.step(d, Action("CloseListing"), w),
                  Action("ViewListing", {"listing_id": t.target}), w)
    co = SITE.step(d, Action("BookListing", stay), w)
    obs = SITE.observe(co, w)
    assert obs.surface == "Checkout" and obs.context["nights"] == 2
    price = w.entities[t.target]["price_per_night"]
    assert obs.context["stay"] == 2 * price
    assert obs.context["total"] == price * 2 + obs.context["cleaning_fee"] + \
        obs.context["service_fee"]
    assert [a.name for a in obs.available] == ["ConfirmBooking", "CancelCheckout"]
    with pytest.raises(InvalidAction):
        SITE.step(co, Action("Search", {"query": "x"}), w)
    done = SITE.step(co, Action("ConfirmBooking"), w)
    facts = SITE.facts(done)
    assert done.surface == "Reservations" and facts["booked.listings"] == [t.target]
    assert facts["booking.check_in"] == stay["check_in"]
    assert facts["booking.guests"] == stay["guests"]
    assert facts["booking.status"] == "confirmed"


def test_checkout_cancellation_and_trip_cancellation() -> None:
    t = _task("cancel_trip", 2)
    w = _world(t)
    trips = w.meta["reservations"]
    assert len(trips) == 5 and all(r["status"] == "upcoming" for r in trips)
    s = _run(w, Action("OpenTrips"))
    assert {e.id for e in SITE.observe(s, w).entities} == {r["listing"] for r in trips}
    d = SITE.step(s, Action("ViewListing", {"listing_id": t.target}), w)
    back = SITE.step(d, Action("CloseListing"), w)
    assert back.surface == "Reservations"
    rid = next(r["id"] for r in trips if r["listing"] == t.target)
    done = SITE.step(back, Action("CancelReservation", {"reservation_id": rid}), w)
    assert SITE.facts(done)["cancelled.listings"] == [t.target]
    with pytest.raises(InvalidAction):  # already cancelled
        SITE.step(done, Action("CancelReservation", {"reservation_id": rid}), w)
    stay = {"check_in": "2026-05-04", "check_out": "2026-05-11", "guests": 1}
    co = _run(w, Action("ViewListing", {"listing_id": SITE.observe(_run(w), w).entities[0].id}),
              Action("BookListing", stay))
    left = SITE.step(co, Action("CancelCheckout"), w)
    facts = SITE.facts(left)
    assert left.surface == "ListingDetail" and facts["booked.listings"] == []
    assert facts["abandoned.check_out"] == "2026-05-11" and len(facts["checkout.abandoned"]) == 1


def test_task_set_is_deterministic_balanced_and_unique() -> None:
    tasks = _tasks()
    assert len(tasks) == 180
    for t in tasks[::17]:  # same (index, template, hard negatives): same bytes
        again = make_task(SITE, t.index, t.template, t.complexity.hard_negative_count)
        assert again.model_dump_json() == t.model_dump_json()
    counts: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
    for t in tasks:
        counts[t.template][t.complexity.hard_negative_count] += 1
        assert len(t.hard_negatives) == t.complexity.hard_negative_count
        d = Draft(t.instruction, t.params, WorldSpec((), 0), (), (), target=t.target,
                  hard_negatives=t.hard_negatives)
        assert SITE.templates[t.template].matches(d, _world(t)) == [t.target], t.id
    assert len(counts) == 12
    for per in counts.values():
        assert set(per) == {0, 1, 2, 3} and max(per.values()) - min(per.values()) <= 1


@pytest.mark.parametrize("template", ["search_filter_book", "abandon_checkout"])
def test_verifier_names_every_commit_parameter(template: str) -> None:
    t = _task(template, 1)
    w = _world(t)
    oracle = t.oracle_actions()
    final = replay(SITE, w, oracle).final
    assert all(verify(t.verifier, SITE.facts(final)).values())
    book = next(i for i, a in enumerate(oracle) if a.name == "BookListing")
    guests = 1 + oracle[book].params["guests"] % 2
    wrong = Action("BookListing", {**oracle[book].params, "guests": guests})
    off = replay(SITE, w, [*oracle[:book], wrong, *oracle[book + 1:]])
    verdict = verify(t.verifier, SITE.facts(off.final))
    assert [k for k, ok in verdict.items() if not ok] == [k for k in verdict if "guests" in k]
