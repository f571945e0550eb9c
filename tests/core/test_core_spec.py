"""The site contract's data types and the conformance checker on every registered site."""

from __future__ import annotations

import re

import pytest

from webmdp.conformance import bound_pairs, check_site, fill
from webmdp.core import Action, SkillCategory
from webmdp.errors import InvalidAction
from webmdp.sites import get_site, site_names


def test_action_round_trip_and_str() -> None:
    a = Action("OpenProduct", {"product_id": "PRD-001"})
    assert Action.from_dict(a.to_dict()) == a
    assert str(a) == "OpenProduct(product_id='PRD-001')"


@pytest.mark.parametrize("name", site_names())
def test_conformance_checker_passes(name: str) -> None:
    rep = check_site(get_site(name))
    assert rep.ok, rep.problems
    assert rep.actions_reached == {a.name for a in get_site(name).actions}
    assert rep.states_visited > 50


def test_checker_reports_an_unbound_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that forgets to bind an action is caught."""
    from webmdp.sites._common import views

    real = views.render_app

    def forgetful(site, obs, **kw):  # type: ignore[no-untyped-def]
        return real(site, obs, **kw).replace('data-action="AddToCart"', 'data-x="AddToCart"')

    monkeypatch.setattr(views, "render_app", forgetful)
    rep = check_site(get_site("shopping"), tasks_per_template=1)
    assert any("does not bind AddToCart" in p for p in rep.problems)


def test_param_validation_rejects_bad_types() -> None:
    site = get_site("shopping")
    with pytest.raises(InvalidAction, match="must be one of"):
        site.validate_params(Action("SortBy", {"order": "cheapest"}))
    with pytest.raises(InvalidAction, match="missing parameter"):
        site.validate_params(Action("OpenProduct", {}))
    with pytest.raises(InvalidAction, match="unknown parameter"):
        site.validate_params(Action("AddToCart", {"qty": 1}))
    with pytest.raises(InvalidAction, match="unknown action"):
        site.validate_params(Action("Teleport", {}))


def test_fill_and_bound_pairs() -> None:
    site = get_site("shopping")
    assert fill(site, Action("Search")).params == {"query": "headphones"}
    html = '<a data-action="OpenProduct" data-params="{&#34;product_id&#34;: &#34;P&#34;}">x</a>'
    assert bound_pairs(html) == {("OpenProduct", '{"product_id": "P"}')}


def test_every_site_uses_all_five_skill_categories() -> None:
    for name in site_names():
        cats = {a.category for a in get_site(name).actions}
        assert cats == set(SkillCategory)


def test_state_replace_equals_dataclasses_replace() -> None:
    """The fast replace gives what dataclasses.replace gives, and refuses unknown fields."""
    import dataclasses

    from webmdp.sites.mail.state import MailState

    s = MailState(surface="ThreadList", starred=frozenset({"THR-001"}))
    fast = s.replace(surface="ThreadView", focus="THR-002")
    slow = dataclasses.replace(s, surface="ThreadView", focus="THR-002")
    assert fast == slow and hash(fast) == hash(slow) and fast is not s
    assert s.surface == "ThreadList"  # the original is untouched
    with pytest.raises(TypeError, match="no field 'nope'"):
        s.replace(nope=1)


def test_an_unbound_control_on_many_entities_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that forgets a per-entity control (one OpenProduct per card) is reported once
    per surface and action, with one example and how many more, not once per entity."""
    from webmdp.sites._common import views

    real = views.render_app

    def forgetful(site, obs, **kw):  # type: ignore[no-untyped-def]
        return real(site, obs, **kw).replace('data-action="OpenProduct"', 'data-x="OpenProduct"')

    monkeypatch.setattr(views, "render_app", forgetful)
    rep = check_site(get_site("shopping"), tasks_per_template=1)
    lines = [p for p in rep.problems if "does not bind OpenProduct" in p]
    surfaces = {p.split(":", 1)[0] for p in lines}
    assert lines and len(lines) == len(surfaces)  # one line per surface
    assert any(re.search(r"OpenProduct\(product_id='PRD-\d+'\) and \d+ more like it", p)
               for p in lines), lines
