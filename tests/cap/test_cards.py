"""Site cards derived from the real sites, their coverage, the conformance check and the CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from webmdp.cap import card_problems, coverage, site_card
from webmdp.cli.main import app
from webmdp.sites import get_site, site_names

runner = CliRunner()


def _items(site: str) -> set[tuple[str | None, str]]:
    return {(i.type_id, a) for i in site_card(site).execution for a in i.actions}


def test_shopping_card_has_its_widgets() -> None:
    card = site_card("shopping")
    items = _items("shopping")
    assert ("AT04", "GoToPage") in items  # the pager
    assert ("AT10", "ToggleBrand") in items  # the brand facet's checkboxes
    assert ("AT18", "SortBy") in items  # the sort menu
    assert ("AT27", "OpenProduct") in items  # a product card
    assert {"PT18", "PT19", "PT07"} <= card.perception_type_ids()
    assert "AT21" not in card.action_type_ids()  # shopping's price facet is links and inputs
    assert {f.name for f in card.functions} == {a.skill for a in get_site("shopping").actions}


def test_range_sliders_and_date_pickers() -> None:
    assert ("AT21", "SetPriceRange") in _items("housing")
    assert ("AT15", "BookListing") in _items("accommodation")
    assert {"PT27", "PT28", "PT13"} <= site_card("housing").perception_type_ids()


def test_cards_are_deterministic_and_agree_with_views() -> None:
    site = get_site("food")
    card = site_card("food")
    again = type(card)(**{k: getattr(card, k) for k in card.__dataclass_fields__})
    assert again.to_dict() == card.to_dict()
    from webmdp.cap.cards import build_card

    assert build_card(site).to_dict() == card.to_dict()
    assert card_problems(site, {a.name for a in site.actions}) == []
    assert card_problems(site, {"NoSuchAction"}) == [
        "card: reachable actions bound to no classified widget: ['NoSuchAction']"]


def test_coverage_keys_and_totals() -> None:
    cov = coverage(site_card(n) for n in site_names())
    assert cov["action_types_total"] == 64
    assert cov["perception_types_total"] == 56
    assert 0 < cov["action_types_covered"] == 64 - len(cov["uncovered_action_types"])
    assert 0 < cov["perception_types_covered"] == 56 - len(cov["uncovered_perception_types"])
    assert sum(c["total"] for c in cov["action_categories"].values()) == 64
    assert sum(c["covered"] for c in cov["perception_categories"].values()) == \
        cov["perception_types_covered"]


def test_cli_card_and_coverage() -> None:
    res = runner.invoke(app, ["sites", "card", "shopping", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["site"] == "shopping" and "AT04" in data["action_types"]
    res = runner.invoke(app, ["sites", "card", "shopping"])
    assert res.exit_code == 0 and "Execution items A" in res.output
    res = runner.invoke(app, ["sites", "coverage", "--json"])
    assert res.exit_code == 0, res.output
    cov = json.loads(res.output)
    assert {"action_types_covered", "action_types_total", "perception_types_covered",
            "perception_types_total"} <= set(cov)
    assert (cov["action_types_total"], cov["perception_types_total"]) == (64, 56)
    res = runner.invoke(app, ["sites", "coverage"])
    assert res.exit_code == 0 and "Uncovered action types" in res.output


@pytest.mark.parametrize("args", [("sites", "card", "nope"), ("sites", "card", "nope", "--json")])
def test_cli_unknown_site(args: tuple[str, ...]) -> None:
    res = runner.invoke(app, list(args))
    assert res.exit_code != 0
    choices = ", ".join(site_names(plugins=True))
    assert f"unknown site 'nope'; valid choices: {choices}" in res.output
