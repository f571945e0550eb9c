"""Which CAP type a rendered widget exercises: the rule tables of the site cards.

A rule names a widget (what a card records as the item's UI component), the type ids it yields
and how to recognise it: a selector over the element (:mod:`webmdp.cap.dom`) and / or a test
``(element, page, action) -> bool``. :data:`ACTION_RULES` are tried in order on every element
that binds an action and the first that matches decides (rules that yield no type mark a plain
control: a link, a radio pill, a search box); :data:`PERCEPTION_RULES` are all tried on every
element. Adding a widget means adding a rule here, nowhere else.

Elements are looked at in four ways (``Rule.on``): ``bind``, an element carrying
``data-action`` (click, submit, quiet field entry); ``part``, an element inside a bound form
(its date picker, slider, upload field); ``drag``, an element carrying ``data-drag``; ``page``,
a control that changes only page state (``data-page-control``: a carousel's arrows, an image
preview's zoom, a chart legend entry, a map's zoom buttons).

Markers of widgets that do not exist yet (cascaders, drawers, editors, video) are guesses at
what the kit will emit (``kit-cascader*``, ``kit-drawer*``, ``data-gesture`` values); adjust
them here when those widgets land.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from webmdp.cap.dom import Element, closest, matches

Test = Callable[[Element, "PageInfo", str], bool]


@dataclass(frozen=True)
class PageInfo:
    """What a rule may know about the page beyond the element: the site's declarations and
    what the crawl saw the page's actions do."""

    site: str
    surface: str
    root: Element
    confirm: bool = False
    skills: dict[str, str] = field(default_factory=dict)
    opens_detail: frozenset[str] = frozenset()
    opens_modal: frozenset[str] = frozenset()
    commits: frozenset[str] = frozenset()
    """Actions that change application state."""
    moves: frozenset[tuple[str, str]] = frozenset()
    """(surface, action) pairs seen to move from that surface to another."""


@dataclass(frozen=True)
class Rule:
    """A widget signature and the CAP type ids it yields (none: a plain control)."""

    widget: str
    types: tuple[str, ...]
    selector: str = ""
    test: Test | None = None
    on: tuple[str, ...] = ("bind",)
    doc: str = ""

    def applies(self, el: Element, page: PageInfo, action: str = "", kind: str = "bind") -> bool:
        if kind not in self.on:
            return False
        if self.selector and not matches(el, self.selector):
            return False
        return self.test is None or self.test(el, page, action)


# -- predicates the rules share -----------------------------------------------------------------
_DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
_MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|"
           "December")
_DATE = re.compile(rf"\b({_DAYS}), ({_MONTHS}) \d{{1,2}}\b")
_TIME = re.compile(r"^\d{1,2}:\d{2}\s*([AP]M)?$", re.IGNORECASE)
_PERIOD = re.compile(r"^(previous|next) (day|week|month|year)\b|^(day|week|month|year)$",
                     re.IGNORECASE)
_EXPANDER = re.compile(r"^(expand|collapse|show all|show more|show less)\b", re.IGNORECASE)
_CLOSER = re.compile(r"^(close|cancel|discard|dismiss)\b|^[\u00d7\u2715]$", re.IGNORECASE)
_SLIDE = re.compile(r"\b(previous|next|slide)\b", re.IGNORECASE)
_SELECT_ALL = re.compile(r"\b(select all|deselect all|invert selection)\b", re.IGNORECASE)
_BADGE = re.compile(r"(^|-)badge(-|$)")
_TAB = re.compile(r"(^|-)tab$")
_FIELD_SKIP = frozenset({"hidden", "submit", "button", "checkbox", "radio", "reset", "image"})
_MENU_ROLES = frozenset({"menu", "menubar", "listbox"})
_LIST_TAGS = frozenset({"ul", "ol", "tbody", "table"})
_CURRENT = '[aria-current=true], [aria-current=page], [aria-selected=true], ' \
           '[aria-checked=true], .is-active, .is-selected'


def _token(el: Element, pattern: str) -> bool:
    """``el`` or an ancestor has a class token matching ``pattern``."""
    rx = re.compile(pattern)
    return any(rx.search(t) for node in (el, *el.ancestors()) for t in node.classes)


def fields(container: Element) -> set[str]:
    """Names of the typed fields (inputs, text areas, selects) under ``container``."""
    out = set()
    for el in container.iter():
        if el.tag in ("textarea", "select") or (
                el.tag == "input" and el.get("type", "text") not in _FIELD_SKIP):
            out.add(el.get("name") or el.get("aria-label") or el.get("id") or str(id(el)))
    return out


def collection_item(el: Element) -> Element | None:
    """The repeated item ``el`` lies in: a list item, row or card whose parent is a list, a
    table body or holds several siblings of the item's kind."""
    for node in (el, *el.ancestors()):
        parent = node.parent
        if parent is None:
            return None
        itemish = (node.tag in ("li", "article", "tr") or node.get("role") in ("listitem", "row")
                   or any(t.endswith("card") or t.endswith("-row") for t in node.classes))
        if not itemish or node.tag in ("main", "section", "aside"):
            continue
        if parent.tag in _LIST_TAGS or parent.get("role") == "list":
            return node
        kind = node.classes[:1]
        if kind and sum(1 for c in parent.children if c.classes[:1] == kind) >= 2:
            return node
    return None


def is_card(item: Element | None) -> bool:
    return item is not None and any(t.endswith("card") for t in item.classes)


def _is_menu(el: Element, *, disclosure: bool = True) -> bool:
    """A menu container; a ``<details>`` disclosure counts unless ``disclosure`` is False."""
    return ((disclosure and el.tag == "details") or el.get("role") in _MENU_ROLES
            or any(t == "kit-menu" or t.startswith(("kit-menu-sub", "kit-submenu"))
                   for t in el.classes))


def nested_menu(el: Element) -> bool:
    """``el`` sits in a menu opened from an item of another menu (a submenu)."""
    if _token(el, r"^kit-(menu-sub|submenu)"):
        return True
    inner, item_between = False, False
    for anc in el.ancestors():
        if _is_menu(anc, disclosure=False):
            if inner and item_between:
                return True
            inner, item_between = True, False
        elif inner and (anc.tag == "li" or anc.get("role", "").startswith("menuitem")):
            item_between = True
    return False


def _popup(el: Element) -> Element | None:
    return next((a for a in el.ancestors() if _is_menu(a)), None)


def _in_menubar(el: Element) -> bool:
    return any(a.get("role") == "menubar" for a in el.ancestors())


def _select_like(el: Element, page: PageInfo, action: str) -> bool:
    """A dropdown that holds a value: it marks the current option(s) or its trigger says it."""
    pop = _popup(el)
    if pop is None:
        return False
    if any(matches(n, _CURRENT) for n in pop.iter()):
        return True
    summary = next((c for c in pop.children if c.tag == "summary"), None)
    return summary is not None and ":" in summary.get("aria-label")


def _filterable(el: Element, page: PageInfo, action: str) -> bool:
    pop = _popup(el)
    return pop is not None and any(
        n.tag == "input" and n.get("type", "text") in ("search", "text") for n in pop.iter())


def _popover(el: Element, page: PageInfo, action: str) -> bool:
    """In a disclosure whose panel is not a list of options (a grid, a card): a popover."""
    node = el
    for anc in el.ancestors():
        if anc.tag == "details":
            return node.tag not in _LIST_TAGS and node.get("role") not in _MENU_ROLES
        node = anc
    return False


def _time_choices(el: Element) -> bool:
    values = [b.get("data-value") for b in el.iter() if b.has("data-value")]
    return bool(values) and all(_TIME.match(v) for v in values)


def _date_with_time(el: Element, page: PageInfo, action: str) -> bool:
    form = closest(el, "form")
    return form is not None and any(
        (n.tag == "input" and n.get("type") == "time")
        or (matches(n, ".kit-choices") and _time_choices(n)) for n in form.iter())


def _multi_field_form(el: Element, page: PageInfo, action: str) -> bool:
    names = fields(el)
    return len(names) >= 2 and names != {"min", "max"}


def _quiet_in_form(el: Element, page: PageInfo, action: str) -> bool:
    """A field sent on change that belongs to a larger form (a compose window)."""
    return any(len(fields(anc)) >= 2 for anc in el.ancestors())


def _crumbs(el: Element, page: PageInfo, action: str) -> bool:
    trail = next((a for a in el.ancestors() if any("crumb" in t for t in a.classes)
                  or a.get("aria-label").lower() == "breadcrumb"), None)
    return trail is not None and sum(1 for n in trail.iter() if n.tag == "a") >= 2


def _card(el: Element, page: PageInfo, action: str) -> bool:
    return is_card(collection_item(el))


def _item_to_detail(el: Element, page: PageInfo, action: str) -> bool:
    return (collection_item(el) is not None and action in page.opens_detail
            and (el.tag == "a" or el.get("role") == "link"))


def _opens_modal(el: Element, page: PageInfo, action: str) -> bool:
    return action in page.opens_modal and closest(el, "[role=dialog]") is None


def _closes_modal(el: Element, page: PageInfo, action: str) -> bool:
    return closest(el, "[role=dialog]") is not None and bool(_CLOSER.search(el.label()))


def _confirm_step(el: Element, page: PageInfo, action: str) -> bool:
    """A button of a confirm step that commits or cancels: it changes state and leaves."""
    return (page.confirm and el.tag in ("a", "button") and action in page.commits
            and (page.surface, action) in page.moves)


def _label(rx: re.Pattern[str]) -> Test:
    return lambda el, page, action: bool(rx.search(el.label()))


def _calendar_drag(el: Element, page: PageInfo, action: str) -> bool:
    """A drag whose drop targets are calendar days (a date label or ``data-date``)."""
    targets = [n for n in page.root.iter() if n.get("data-drop-for") == el.get("data-drag")]
    return any(n.has("data-date") or _DATE.search(n.label()) for n in targets)


def _in_list(el: Element, page: PageInfo, action: str) -> bool:
    return collection_item(el) is not None


def _sorted_current(el: Element, page: PageInfo, action: str) -> bool:
    bound = el.get("data-action")
    return "sort" in page.skills.get(bound, "") and matches(el, _CURRENT + ", .is-on")


def _date_cell_marks(el: Element, page: PageInfo, action: str) -> bool:
    """A calendar cell: it holds a date-labelled element and something else bound (an event)."""
    if not any(t.endswith("cell") or t.endswith("col") for t in el.classes):
        return False
    kids = [n for n in el.iter() if n is not el and n.has("data-action")]
    return any(_DATE.search(n.label()) for n in kids) and len(kids) >= 2


def _date_state(el: Element, page: PageInfo, action: str) -> bool:
    return bool(_DATE.search(el.get("aria-label"))) and any(
        t in ("is-today", "is-sel", "is-selected", "is-out", "is-disabled") for t in el.classes)


_NOT_LISTS = "nav, [role=menu], details, .kit-facets, .kit-checks, .kit-pills"


def _list(el: Element, page: PageInfo, action: str) -> bool:
    """A list of content items (not a menu, a facet or a pager): two or more items."""
    if len(el.children) < 2:
        return False
    if el.tag in ("ul", "ol") or el.get("role") == "list":
        items = [c for c in el.children if c.tag == "li" or c.get("role") == "listitem"]
    else:
        items = [c for c in el.children if any(t.endswith("card") for t in c.classes)]
    return (len(items) >= 2 and closest(el, _NOT_LISTS) is None
            and all(i.text() for i in items))


def _table(el: Element, page: PageInfo, action: str) -> bool:
    return sum(1 for n in el.iter() if n.tag == "tr") >= 2


def _grid_table(el: Element, page: PageInfo, action: str) -> bool:
    rows = [n for n in el.iter() if n.tag == "tr"]
    return len(rows) >= 2 and all(sum(1 for c in r.children if c.tag in ("td", "th")) >= 3
                                  for r in rows)


def _tooltip(el: Element, page: PageInfo, action: str) -> bool:
    title = el.get("title").strip()
    return bool(title) and title != el.text()


def _informative_photo(el: Element, page: PageInfo, action: str) -> bool:
    """A picture that depicts something specific: a photo with a subject glyph, a product
    shape drawn per category."""
    if matches(el, ".kit-photo"):
        return any(matches(n, ".kit-photo-glyph") for n in el.children)
    return matches(el, ".pimg") and any(t.startswith("cat-") for t in el.classes)


def _in_card(el: Element, page: PageInfo, action: str) -> bool:
    return is_card(collection_item(el))


def _not_in_card(el: Element, page: PageInfo, action: str) -> bool:
    return not is_card(collection_item(el))


def _all(*tests: Test) -> Test:
    return lambda el, page, action: all(t(el, page, action) for t in tests)


def _multi_series(el: Element, page: PageInfo, action: str) -> bool:
    """A chart (``data-chart``) that draws two or more series."""
    return el.has("data-chart") and el.get("data-series", "0").isdigit() and int(
        el.get("data-series")) >= 2


def _legend_of_series(el: Element, page: PageInfo, action: str) -> bool:
    """A chart's legend with an entry per series (two or more), each naming its series."""
    chart = closest(el, "[data-chart]")
    entries = [n for n in el.iter() if n.has("data-legend") and n.text().strip()]
    return chart is not None and len(entries) >= 2


def _origin_destination(el: Element, page: PageInfo, action: str) -> bool:
    return {"origin", "destination"} <= fields(el)


_FIELDS = ("bind", "part")


def look(widget: str, types: tuple[str, ...], selector: str = "", test: Test | None = None,
         doc: str = "") -> Rule:
    """A perception rule: tried on every element of a page (``on="look"``)."""
    return Rule(widget, types, selector, test, ("look",), doc)


ACTION_RULES: tuple[Rule, ...] = (
    # Navigation
    Rule("menubar submenu", ("AT03",), test=_all(lambda e, p, a: nested_menu(e),
                                                          lambda e, p, a: _in_menubar(e)),
         doc="an item of a submenu of a menu bar (role=menubar)"),
    Rule("nested dropdown", ("AT02",), test=lambda e, p, a: nested_menu(e),
         doc="an item of a dropdown level opened from another level's item (kit.nested_menu)"),
    Rule("wizard step", ("AT06",), "[data-wizard] [data-wizard-go], .kit-wizard* a, "
         ".kit-wizard* button, [data-gesture=wizard] button, .kit-steps* button", on=_FIELDS,
         doc="back / next buttons of a multi-step form (kit.wizard)"),
    Rule("pager", ("AT04",), ".kit-pager *, nav[aria-label=Pagination] *, "
         "[aria-label=\"Next page\"], [aria-label=\"Previous page\"]"),
    Rule("pager", ("AT04",), test=lambda e, p, a: _token(e, r"-pager$")),
    Rule("page jump field", ("AT05",), ".kit-pager input, input[name=page]", on=_FIELDS),
    Rule("page jump field", ("AT05",), "[data-page-control=page-jump]", on=("page",),
         doc="kit.pager's \"Go to page\" field: it operates the pager's own page links"),
    Rule("breadcrumb", ("AT09",), test=_crumbs, doc="a link of a trail of two or more links"),
    Rule("tab", ("AT07",), "[role=tab]"),
    Rule("tab", ("AT07",), test=lambda e, p, a: any(_TAB.search(t) for t in e.classes)),
    # Data Visualization
    Rule("map pan / zoom", ("AT47",), "[data-page-control=map-zoom], [data-page-control=map-pan]",
         on=("page",), doc="kit.map's zoom buttons and its view, dragged to pan"),
    Rule("map pan / zoom", ("AT47",), ".kit-map*[data-gesture], .kit-map* [data-gesture=pan], "
         ".kit-map* [data-gesture=zoom], [data-gesture=map], [data-gesture=pan]", on=_FIELDS),
    Rule("map marker", ("AT48",), ".kit-map* .kit-map-pin, .kit-map* .kit-marker*, "
         ".kit-map* .kit-map-marker*, .kit-map* [data-marker], [data-gesture=marker]",
         doc="a pin of kit.map, bound to its result's open action"),
    Rule("chart legend", ("AT44",), "[data-page-control=legend]", on=("page",),
         doc="a legend entry that shows or hides its series"),
    Rule("chart hover", ("AT43",), "[data-page-control=chart-hover]", on=("page",),
         doc="a chart whose marks show their values on hover"),
    Rule("carousel control", ("AT29",), "[data-page-control=carousel]", on=("page",),
         doc="a carousel's previous / next arrows and slide dots"),
    Rule("image preview", ("AT31",), "[data-page-control=preview]", on=("page",),
         doc="a photo that opens a preview, and the preview's zoom and paging"),
    Rule("map route", ("AT50",), ".kit-map* [data-gesture=route], [data-gesture=route]",
         on=_FIELDS),
    Rule("map route form", ("AT50",), "form", test=_origin_destination),
    Rule("map search", ("AT49",), ".kit-map* form, .kit-map* .kit-search"),
    Rule("chart legend", ("AT44",), ".kit-legend* *, .kit-visual* .kit-legend*"),
    Rule("chart zoom", ("AT45",), ".kit-visual*[data-gesture=zoom], .kit-chart*[data-gesture=zoom]",
         on=_FIELDS),
    Rule("chart hover", ("AT43",), ".kit-visual*[data-gesture=hover], "
         ".kit-chart* [data-gesture=hover]", on=_FIELDS),
    Rule("chart drill-down", ("AT46",), ".kit-visual* *, .kit-chart* *, .kit-visual*, .kit-chart*"),
    # Data Entry
    Rule("file upload", ("AT24",), ".w-upload, [data-widget=upload]", on=_FIELDS,
         doc="attach a file by click or drag-and-drop; its link goes into the form's text "
             "(widgets.upload)"),
    Rule("file upload", ("AT24",), "input[type=file], [data-gesture=upload], .kit-upload*",
         on=_FIELDS),
    Rule("range slider", ("AT21",), "[data-gesture=range]", on=_FIELDS),
    Rule("slider", ("AT20",), "input[type=range], [data-gesture=slider], [data-gesture=value]",
         on=_FIELDS),
    Rule("date range picker", ("AT15",), "[data-rangepicker], .kit-daterange", on=_FIELDS),
    Rule("date and time picker", ("AT16",), "[data-datepicker]", test=_date_with_time,
         on=_FIELDS),
    Rule("date and time picker", ("AT16",), "input[type=datetime-local]", on=_FIELDS),
    Rule("date picker", ("AT14",), "[data-datepicker], input[type=date]", on=_FIELDS),
    Rule("time picker", ("AT22",), "input[type=time]", on=_FIELDS),
    Rule("time slot picker", ("AT22",), ".kit-choices", test=lambda e, p, a: _time_choices(e),
         on=_FIELDS),
    Rule("cascader search", ("AT13",), ".w-cascader-found [data-action], "
         ".kit-cascader-found [data-action]",
         doc="a deep option found by typing in the cascader's search box (widgets.cascader)"),
    Rule("cascader", ("AT12",), ".w-cascader [data-action], [data-widget=cascader] "
         "[data-action]",
         doc="a leaf picked level by level in the cascader's columns (widgets.cascader)"),
    Rule("cascader", ("AT12",), ".kit-cascader*, [data-gesture=cascader]", on=_FIELDS),
    Rule("tree select", ("AT23",), "[role=combobox] [role=tree] *, .kit-treeselect*", on=_FIELDS),
    Rule("select", ("AT18",), "select", on=_FIELDS),
    Rule("select all", ("AT11",), test=_label(_SELECT_ALL)),
    # Data Display
    Rule("calendar drag", ("AT25",), "[data-drag]", test=_calendar_drag, on=("drag",),
         doc="an event dragged onto a calendar day"),
    Rule("calendar drag", ("AT25",), "[data-gesture*=calendar], .kit-cal* [data-drag]",
         on=("bind", "drag")),
    Rule("draggable list item", ("AT39",), "[data-drag]", test=_in_list, on=("drag",),
         doc="a list item dragged onto a target (kit.drop_zone)"),
    Rule("popover", ("AT32",), ".kit-popover* *, [popover] *", ),
    Rule("popover", ("AT32",), test=_popover),
    Rule("search-filtered select", ("AT19",), test=_filterable),
    Rule("select menu", ("AT18",), test=_select_like,
         doc="a dropdown that shows or marks its current value (the sort menu)"),
    Rule("dropdown menu", ("AT01",), test=lambda e, p, a: _popup(e) is not None),
    Rule("tree", ("AT36",), "[role=tree] *, [role=treeitem]"),
    Rule("table header sort", ("AT33",), "th *, th[data-action]",
         test=lambda e, p, a: "sort" in p.skills.get(a, "")),
    Rule("table column filter", ("AT34",), "th *, th[data-action]",
         test=lambda e, p, a: "filter" in p.skills.get(a, "")),
    Rule("table row action", ("AT35",), "td *, [role=row] *, [role=gridcell] *"),
    Rule("checkbox", ("AT10",), "[role=checkbox], input[type=checkbox]"),
    Rule("calendar view switch", ("AT26",), test=_label(_PERIOD)),
    Rule("calendar date", ("AT25",), "[data-date]"),
    Rule("calendar date", ("AT25",), test=_label(_DATE)),
    Rule("carousel control", ("AT29",), ".kit-carousel* *, [aria-roledescription=carousel] *",
         test=lambda e, p, a: e.get("role") == "tab" or bool(
             _SLIDE.search(e.label()))),
    Rule("image preview", ("AT31",), ".kit-lightbox* *, [data-lightbox], .kit-gallery* *"),
    Rule("collapse toggle", ("AT30",), "summary, [aria-expanded], .is-collapsed, "
         ".kit-collapse* *"),
    Rule("collapse toggle", ("AT30",), test=_label(_EXPANDER)),
    Rule("infinite list", ("AT37",), "[data-gesture=scroll], [data-gesture=infinite], "
         ".kit-infinite*"),
    # Feedback
    Rule("drawer", ("AT40",), ".kit-drawer* *, [class*=drawer] *"),
    Rule("modal close", ("AT41",), test=_closes_modal),
    Rule("modal opener", ("AT41",), test=_opens_modal),
    Rule("hover actions", ("AT28",), "[data-hover] *, .kit-hover* *"),
    Rule("hover actions", ("AT28",), test=lambda e, p, a: _token(e, r"(^|-)hover$")),
    Rule("card", ("AT27",), test=_card, doc="a link or button on one card of a grid or list"),
    Rule("list item link", ("AT38",), test=_item_to_detail),
    Rule("confirmation", ("AT42",), "[role=alertdialog] *, .kit-confirm* *, .kit-popconfirm* *"),
    Rule("multi-field form", ("AT17",), "form", test=_multi_field_form),
    Rule("multi-field form", ("AT17",), "[data-quiet]", test=_quiet_in_form),
    Rule("confirmation step", ("AT42",), test=_confirm_step,
         doc="the confirm / cancel buttons of a surface the site declares a confirm step"),
    # Editor and media (no site has them yet)
    Rule("video control", ("AT56",), "video, .kit-video* *"),
    Rule("rich text toolbar", ("AT59",), ".w-md-toolbar, [role=toolbar][aria-label=Formatting]",
         on=_FIELDS, doc="bold / italic / code / link / quote / list buttons formatting the "
                         "draft (widgets.md_editor)"),
    Rule("rich text editor", ("AT58",), ".w-md[data-widget=md-editor]", on=_FIELDS,
         doc="a Markdown editor with Write / Preview (widgets.md_editor)"),
    Rule("rich text editor", ("AT58",), "[contenteditable]", on=_FIELDS),
    Rule("canvas", ("AT63",), "canvas, svg *", on=("bind", "drag")),
    # plain controls: bound, but no complex interaction
    Rule("search box", (), "form[role=search], .kit-search"),
    Rule("radio option", (), "[role=radio], input[type=radio]"),
    Rule("switch", (), "[role=switch]"),
    Rule("toggle button", (), "[aria-pressed]"),
    Rule("form", (), "form"),
    Rule("field", (), "input, textarea"),
    Rule("button", (), "button"),
    Rule("link", (), "a"),
    Rule("drag", (), on=("drag",)),
    Rule("control", ()),
)
"""Action rules, tried in order; the first that applies to a bound element decides."""

def _selected_deep_node(el: Element, page: PageInfo, action: str) -> bool:
    """A tree whose selected node sits below a parent (level >= 2): reading which branch holds
    it is following its path from the root."""
    return any(n.get("role") == "treeitem" and n.get("aria-selected") == "true"
               and n.get("aria-level", "1") not in ("", "1") for n in el.iter())


PERCEPTION_RULES: tuple[Rule, ...] = (
    look("tree path", ("PT26",), "[role=tree]", test=_selected_deep_node,
         doc="a tree whose selected node is below a parent: which branch holds it"),
    look("tooltip", ("PT01",), "[title]", test=_tooltip,
         doc="a title shown on hover that the element's text does not repeat"),
    look("tooltip", ("PT01",), "[role=tooltip], [data-tooltip], .kit-tooltip*"),
    look("typed tooltip", ("PT02",), ".kit-tooltip-warning, .kit-tooltip-error, "
         "[role=tooltip][data-tone]"),
    look("calendar markers", ("PT03",), test=_date_cell_marks,
         doc="a day cell holding its events"),
    look("calendar day states", ("PT04",), test=_date_state,
         doc="a day shown as today / selected / outside the month / disabled"),
    look("card photo", ("PT05",), test=_all(_informative_photo, _in_card)),
    look("card pixel photo", ("PT06",), ".kit-visual-photo", test=_in_card),
    look("badge", ("PT07",), test=lambda e, p, a: any(_BADGE.search(t) for t in e.classes)),
    look("carousel", ("PT08", "PT10"), ".kit-carousel*, [aria-roledescription=carousel]"),
    look("image", ("PT11",), test=_all(_informative_photo, _not_in_card)),
    look("pixel photo", ("PT13",), ".kit-visual-photo", test=_not_in_card),
    look("image comparison", ("PT15",), test=lambda e, p, a: sum(
        1 for n in e.iter() if matches(n, ".kit-visual-photo")) >= 2 and e.tag in ("table", "ul")),
    look("collapse state", ("PT16",), "[aria-expanded], .is-collapsed, .kit-collapse*"),
    look("popover", ("PT17",), ".kit-popover*, [popover]"),
    look("list", ("PT18",), test=_list),
    look("sort state", ("PT19",), test=_sorted_current,
         doc="the sort control's current option, marked"),
    look("table", ("PT20",), "table", test=_table),
    look("table cell state", ("PT21",), "td.is-*, tr.is-*, td[aria-disabled]"),
    look("table sort state", ("PT22",), "th[aria-sort]"),
    look("grid table", ("PT23",), "table", test=_grid_table,
         doc="a table of three or more columns: values relate across rows and columns"),
    look("tree", ("PT24", "PT25"), "[role=tree], .kit-tree*"),
    look("breadcrumb path", ("PT26",), "nav[aria-label=Breadcrumb], .kit-crumbs",
         test=lambda e, p, a: sum(1 for n in e.iter() if n.tag == "li") >= 3,
         doc="a trail of three or more levels: the path from the root to the page"),
    look("time series chart", ("PT27", "PT28"), ".kit-visual-bar, .kit-visual-line",
         doc="a bar or line chart over time: read values, see the trend"),
    look("heat map", ("PT27",), ".kit-visual-heat"),
    look("multi-series chart", ("PT29",), "[data-series]", test=_multi_series,
         doc="a chart of two or more series over the same axis (kit.series_chart)"),
    look("chart legend", ("PT33",), ".kit-legend", test=_legend_of_series,
         doc="a legend whose entries name (and toggle) the series of their chart"),
    look("chart extrema", ("PT31",), "[data-chart]", test=lambda e, p, a: any(
        n.get("data-extreme") in ("max", "min") for n in e.iter()),
         doc="a chart whose highest or lowest mark is marked (kit.histogram's fullest band)"),
    look("pie chart", ("PT30",), ".kit-chart-donut, .kit-visual-pie, .kit-visual-donut",
         doc="a donut of a total's parts: read each part's share (kit.donut)"),
    look("map markers", ("PT34",), ".kit-map* .kit-map-pin, .kit-map* .kit-marker*, "
         ".kit-map* .kit-map-marker*, .kit-map* [data-marker]",
         doc="markers placed on a map: finding one means reading where it lies in the view"),
    # not kit.map's pins: they are placed by a hash of the id, so their spread says nothing
    look("map marker spread", ("PT35",), ".kit-map*", test=lambda e, p, a: sum(
        1 for n in e.iter() if matches(n, ".kit-marker*, .kit-map-marker*, [data-marker]")) >= 3),
    look("map route", ("PT36",), ".kit-map* .kit-route*, .kit-map* .kit-map-route*"),
    look("video", ("PT50", "PT51", "PT52"), "video"),
    look("canvas", ("PT55",), "canvas"),
)
"""Perception rules: every one that applies to an element adds its types."""


_LABELS = (_DATE, _PERIOD, _EXPANDER, _CLOSER, _SELECT_ALL, _SLIDE)
_VARYING = frozenset({"data-params", "data-testid", "data-drag-params", "href", "style",
                      "aria-label", "title", "value", "placeholder", "id", "for", "name",
                      "data-value", "data-min", "data-max", "data-lo", "data-hi", "data-step",
                      "width", "height", "src", "alt"})


def shape(el: Element, path: tuple[object, ...], bound: bool) -> tuple[object, ...]:
    """What the rules read of an element, less what varies between repeats of it (a row's
    labels and ids): two elements of one shape on one surface get the same verdicts, so a
    card classifies each shape once. ``path`` is the (tag, classes, role) chain from the root;
    label features are computed for bound elements only (only action rules read labels)."""
    label = el.label() if bound else el.get("aria-label")
    title = el.get("title").strip()
    return (path, tuple(sorted(k for k in el.attrs if k not in _VARYING)),
            tuple(bool(rx.search(label)) for rx in _LABELS),
            bool(title) and title != (el.text() if title else ""),
            frozenset((c.tag, c.classes, c.has("data-action")) for c in el.children),
            len(fields(el)) if el.tag == "form" else 0)


def classify_action(el: Element, page: PageInfo, action: str, kind: str = "bind") -> Rule | None:
    """The first action rule that applies (None: a form's part that is no widget of note)."""
    for rule in ACTION_RULES:
        if rule.applies(el, page, action, kind):
            return rule
    return None


def classify_perception(el: Element, page: PageInfo) -> list[Rule]:
    return [r for r in PERCEPTION_RULES if r.applies(el, page, "", "look")]
