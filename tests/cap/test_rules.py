"""The widget rules on small hand-written pages: each recognises its signature, and only it."""

from __future__ import annotations

from webmdp.cap.dom import matches, parse, select
from webmdp.cap.rules import PageInfo, classify_action, classify_perception


def _first(html: str, selector: str = "[data-action]"):  # type: ignore[no-untyped-def]
    root = parse(html)
    return root, select(root, selector)[0]


def _type(html: str, **info: object) -> tuple[str, ...]:
    root, el = _first(html)
    rule = classify_action(el, PageInfo("x", "S", root, **info), el.get("data-action"))
    assert rule is not None
    return rule.types


def test_selector_subset() -> None:
    root = parse('<nav class="kit-pager x"><a class="kit-page" data-action="NextPage" '
                 'aria-label="Next page">&rsaquo;</a></nav>')
    (a,) = select(root, "a")
    assert matches(a, ".kit-pager a")
    assert matches(a, "nav.kit-* [data-action=NextPage]")
    assert matches(a, '[aria-label="Next page"]')
    assert not matches(a, "details a")
    assert not matches(a, "[data-action^=Prev]")


def test_action_rules() -> None:
    assert _type('<nav class="kit-pager"><a data-action="GoToPage">2</a></nav>') == ("AT04",)
    assert _type('<a role="checkbox" data-action="ToggleBrand">A</a>') == ("AT10",)
    assert _type('<div class="kit-slider" data-gesture="range" data-action="SetPrice"></div>'
                 ) == ("AT21",)
    assert _type('<a role="radio" data-action="SetDepartment">Books</a>') == ()
    sort = ('<details class="kit-dropdown"><summary aria-label="Sort by: Price">Sort</summary>'
            '<ul><li><a data-action="SortBy" aria-current="true">Price</a></li></ul></details>')
    assert _type(sort) == ("AT18",)
    menu = ('<details class="kit-menu"><summary>All</summary><ul role="menu"><li role="none">'
            '<details class="kit-submenu"><summary>Books</summary><ul role="menu">'
            '<li role="none"><a role="menuitem" data-action="SetCategory">Fiction</a></li>'
            '</ul></details></li></ul></details>')
    assert _type(menu) == ("AT02",)
    form = ('<form data-action="Book"><input name="a" type="text"><input name="b" type="text">'
            '</form>')
    assert _type(form) == ("AT17",)
    assert _type('<form data-action="Range"><input name="min"><input name="max"></form>') == ()


def test_confirm_step_needs_a_commit_that_leaves() -> None:
    html = '<button data-action="PlaceOrder">Place order</button>'
    assert _type(html, confirm=True, commits=frozenset({"PlaceOrder"}),
                 moves=frozenset({("S", "PlaceOrder")})) == ("AT42",)
    assert _type(html, confirm=True, commits=frozenset({"PlaceOrder"})) == ()


def test_perception_rules() -> None:
    root = parse('<ul><li class="card"><span class="kit-badge">Deal</span></li>'
                 '<li class="card">b</li></ul>'
                 '<figure class="kit-visual kit-visual-line"><img alt="chart"></figure>')
    page = PageInfo("x", "S", root)
    found = {t for el in root.iter() for r in classify_perception(el, page) for t in r.types}
    assert found == {"PT07", "PT18", "PT27", "PT28"}


def _page_types(html: str) -> set[str]:
    """Types of the page controls (``data-page-control``, no action) of ``html``."""
    root = parse(html)
    page = PageInfo("x", "S", root)
    out = set()
    for el in select(root, "[data-page-control]"):
        rule = classify_action(el, page, "", "page")
        out |= set(rule.types if rule else ())
    return out


def test_page_controls_and_map() -> None:
    carousel = ('<section class="kit-carousel" aria-roledescription="carousel">'
                '<div class="kit-carousel-slide">a</div>'
                '<button data-page-control="carousel" aria-label="Next photo">&rsaquo;</button>'
                '<button data-page-control="preview" aria-label="Enlarge photo"></button>'
                '</section>')
    assert _page_types(carousel) == {"AT29", "AT31"}
    map_html = ('<section class="kit-map"><div class="kit-map-bar"><button data-map-zoom="1" '
                'data-page-control="map-zoom" aria-label="Zoom in">+</button></div>'
                '<div class="kit-map-view" data-map data-page-control="map-pan">'
                '<a class="kit-map-pin" data-action="OpenProperty">$3,430</a>'
                '<a class="kit-map-pin" data-action="OpenProperty">$613K</a>'
                '<a class="kit-map-pin" data-action="OpenProperty">$196</a></div></section>')
    assert _page_types(map_html) == {"AT47"}
    assert _type(map_html) == ("AT48",)
    root = parse(map_html)
    page = PageInfo("x", "S", root)
    found = {t for el in root.iter() for r in classify_perception(el, page) for t in r.types}
    assert found == {"PT34"}  # hashed places: their spread (PT35) means nothing
    crumbs = ('<nav class="kit-crumbs" aria-label="Breadcrumb"><ol><li><a data-action="GoHome">'
              'Home</a></li><li><a data-action="Back">All stores</a></li><li><span '
              'aria-current="page">Casa</span></li></ol></nav>')
    assert _type(crumbs) == ("AT09",)
    root = parse(crumbs + '<span class="kit-tip"><span class="kit-tooltip kit-tooltip-warning" '
                 'role="tooltip" data-tone="warning">Charged at once</span></span>')
    page = PageInfo("x", "S", root)
    found = {t for el in root.iter() for r in classify_perception(el, page) for t in r.types}
    assert found == {"PT01", "PT02", "PT26"}
