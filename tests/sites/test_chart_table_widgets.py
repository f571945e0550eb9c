"""Housing's charts and results table (issue 20, CAP coverage) in a real Chromium against the
real server: the payment chart's legend and point tooltips and the results view toggle are page
state (nothing is sent); a sortable header sends SortBy with its column's order and the page
says the current sort (``aria-sort``). Without a browser: the rendered values are the ones
derived from the home, and the CAP rules count only what the widgets exercise."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_gestures import _Run

from support import site_tasks
from webmdp.cap.dom import parse
from webmdp.cap.rules import PageInfo, classify_perception
from webmdp.core.model import World
from webmdp.env.actions import GUIAction, click
from webmdp.sites import get_site
from webmdp.sites._common.views import render_app

Node = dict[str, Any]
_POINT = re.compile(r"^(Principal|Interest) paid, Year (\d+): \$([\d,]+)$")


def _amortized(price: int, years: int) -> tuple[int, int]:
    """Principal and interest paid after ``years`` (20% down, 30 years at 6.5%)."""
    loan, r = price * 0.8, 0.065 / 12
    pay = loan * r / (1 - (1 + r) ** -360)
    g = (1 + r) ** (12 * years)
    paid = loan - (loan * g - pay * (g - 1) / r)
    return round(paid), round(pay * 12 * years - paid)


def _for_sale_detail() -> tuple[Any, list[Any], dict[str, Any]]:
    """A task, the oracle prefix that opens a home for sale, and that home's fields."""
    for task in site_tasks("housing"):
        world = World.from_dict(task.world)
        oracle = task.oracle_actions()
        for i, a in enumerate(oracle):
            if a.name == "OpenProperty":
                f = world.entities[a.params["property_id"]]
                if f["listing_type"] == "for_sale":
                    return task, oracle[:i + 1], f
    raise AssertionError("no task opens a home for sale")


def _scrolled_to(run: _Run, pattern: str) -> Node:
    node = next(n for n in run.nodes if re.search(pattern, str(n.get("name", ""))))
    if not node.get("in_viewport") or node["y"] > 800:
        run.gui([GUIAction(kind="scroll", x=720, y=450, dy=node["y"] - 400)])
        node = next(n for n in run.nodes if re.search(pattern, str(n.get("name", ""))))
    return node


@pytest.mark.browser
def test_payment_chart_legend_and_hover_are_page_state(server, host) -> None:  # type: ignore[no-untyped-def]
    task, path, home = _for_sale_detail()
    run = _Run(task, server, host)
    try:
        for a in path:
            run.drive(a)
        # a point is drawn, not a control: find it from the axes' labels, as a reader would
        year = _scrolled_to(run, r"^Year 10$")
        zero = next(n for n in run.nodes if n.get("name") == "$0" and n["x"] < year["x"])
        top = min((n for n in run.nodes if re.fullmatch(r"\$[\d,]+", str(n.get("name", "")))
                   and abs(n["x"] - zero["x"]) < 30 and 0 < zero["y"] - n["y"] < 200),
                  key=lambda n: n["y"])
        interest, vmax = _amortized(home["price"], 10)[1], _amortized(home["price"], 30)[1]
        y = zero["y"] + (top["y"] - zero["y"]) * interest / vmax
        assert run.gui([GUIAction(kind="move", x=year["x"], y=y)]) == []
        tips = [n for n in run.nodes if n.get("role") == "tooltip"]
        assert len(tips) == 1, tips
        m = _POINT.match(tips[0]["name"])
        assert m and m[1] == "Interest" and m[2] == "10"
        assert int(m[3].replace(",", "")) == interest
        entry = next(n for n in run.nodes if n.get("name") == "Interest paid")
        assert run.gui([click(entry["x"], entry["y"])]) == []
        # the series is hidden: the same spot shows no tooltip any more
        assert run.gui([GUIAction(kind="move", x=year["x"], y=y)]) == []
        assert not [n for n in run.nodes if n.get("role") == "tooltip"]
    finally:
        run.close()


@pytest.mark.browser
def test_table_view_headers_send_sort_and_show_it(server, host) -> None:  # type: ignore[no-untyped-def]
    task = site_tasks("housing")[0]
    run = _Run(task, server, host)
    try:
        assert not any(n.get("name") == "Price" and n.get("action") for n in run.nodes)
        table = _scrolled_to(run, r"^Table$")
        assert run.gui([click(table["x"], table["y"])]) == []
        price = next(n for n in run.nodes if n.get("name", "").startswith("Price")
                     and n.get("action") == "SortBy")
        assert run.gui([click(price["x"], price["y"])]) == [("SortBy", {"order": "price_asc"})]
        # the table view outlives the re-render; the header now offers the other direction
        price = next(n for n in run.nodes if n.get("name", "").startswith("Price")
                     and n.get("action") == "SortBy")
        assert '"price_desc"' in price["params"]
        assert run.gui([click(price["x"], price["y"])]) == [("SortBy", {"order": "price_desc"})]
    finally:
        run.close()


def _page(surface_action: str | None = None) -> tuple[str, dict[str, Any]]:
    site = get_site("housing")
    task, path, home = _for_sale_detail()
    world = World.from_dict(task.world)
    state = site.initial_state(world)
    for a in path if surface_action else ():
        state = site.transition(state, a, world)
    return render_app("housing", site.observe(state, world), error=None), home


def test_table_marks_each_columns_best_and_the_sort() -> None:
    html, _ = _page()
    root = parse(html)
    table = next(n for n in root.iter() if n.tag == "table" and "hs-table" in n.classes)
    heads = {n.text().strip()[:5]: n.get("aria-sort") for n in table.iter() if n.tag == "th"}
    assert heads["Price"] == "none" and heads["Baths"] == "" and heads["Addre"] == ""
    rows = [[c for c in r.children if c.tag == "td"] for r in table.iter() if r.tag == "tr"]
    rows = [r for r in rows if r]
    prices = [int(re.sub(r"\D", "", r[1].text().split("/")[0])) for r in rows]
    marked = [p for p, r in zip(prices, rows, strict=True) if "is-best" in r[1].classes]
    assert marked and set(marked) == {min(prices)}


def test_rules_count_what_the_charts_exercise() -> None:
    html, home = _page("detail")
    root = parse(html)
    info = PageInfo(site="housing", surface="PropertyDetail", root=root)
    types = {t for el in root.iter() for r in classify_perception(el, info) for t in r.types}
    assert {"PT29", "PT30", "PT33"} <= types
    assert "PT31" not in types  # the payment charts mark no extreme
    assert f"{round(home['price'] * 0.011 / 12):,}" in html  # the tax part of the donut
    one = parse('<figure data-chart data-series="1"><ul class="kit-legend">'
                '<li><button data-legend="0">Price</button></li></ul></figure>')
    info = PageInfo(site="x", surface="X", root=one)
    assert not {t for el in one.iter() for r in classify_perception(el, info) for t in r.types}
