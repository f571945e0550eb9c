"""The listing engine shared by catalogue sites: a declared search box, facets, sort orders and
paging over one entity collection (DESIGN.md, The site toolkit).

A site declares a :class:`Catalog` (which fields the query searches, its facets, its sort
orders, its page size) and keeps a :class:`BrowseState` (query, active filters, sort, page) in its
own state class. The catalog then supplies, from that declaration alone:

* the listing actions' specs (:meth:`Catalog.action_specs`), named and skilled by the site;
* the transition of every listing action (:meth:`Catalog.transition`);
* the concrete actions a results surface offers (:meth:`Catalog.available`);
* the results, in sort order, and the page on screen (:meth:`Catalog.visible`);
* the context a view needs to draw the search box, filter sidebar, sort menu and pager
  (:meth:`Catalog.context`), rendered by the macros in ``views/kit.html``.

Facet kinds (WebSTEP Table 6 "filter" skills):

``one``
    single choice (property type, cuisine); picking the active value again clears it.
``any``
    multi-select on a scalar field: an entity matches when its value is among those ticked.
``all``
    multi-select on a list field (amenities, dietary tags): an entity matches when it has every
    ticked value.
``min``
    an "at least" threshold (beds, rating, school rating) over numeric options; picking the
    active threshold again clears it.
``range``
    a min / max pair typed into two inputs (price, square feet); both optional.
``flag``
    an on / off toggle over a boolean field (instant book, free delivery), or over a set of ids
    the state holds (``held``: mail's unread and starred threads).

A listing can also depend on the episode's state, as Mail's does: the folder or label decides
which entities are listed (``scope``), the search box understands operators (``match``), flags
live in the state, and results are cached on the part of the state they read (``key``).
Flags can share one action pair whose parameter names the facet (``switch``: mail's
``ApplyFilter`` / ``RemoveFilter``). An empty action name (``search``, ``clear_search``,
``sort_action``, ``goto``) leaves that control to the site or leaves it out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from dataclasses import field as dc_field
from functools import lru_cache
from typing import Any, Literal, TypeVar

from webmdp.core.model import PAGE_META, Entity, State, World
from webmdp.core.spec import Action, ActionSpec, ParamSpec, SkillCategory, declare_action
from webmdp.errors import require
from webmdp.sites._common.listing import page_count, page_slice, turn_page

B = TypeVar("B", bound="BrowseState")
FacetKind = Literal["one", "any", "all", "min", "range", "flag"]
FACET_KINDS: dict[str, str] = {
    "one": "one option at a time (a department, a cuisine); its action takes the option, and "
           "picking the active one again clears it unless `toggles` is False; an entity "
           "passes when its field equals the option",
    "any": "options ticked one by one (brands); an entity passes when its field is any "
           "ticked option",
    "all": "options ticked one by one (amenities, topics); an entity passes when its "
           "list field holds every ticked option",
    "min": "a threshold among the options (a minimum rating, at least N stars); an entity "
           "passes when its field is at least the option",
    "range": "a `min` / `max` pair, either optional (a price range; the page may draw it as a "
             "slider); an entity passes when its field lies within",
    "flag": "on or off, no parameter (Prime only, unread only); an entity passes when its "
            "field is true (or, with `held`, its id is in the state's set of that name)",
}
"""What each :class:`Facet` ``kind`` asks of its action and of an entity (the toolkit
reference generates its table from this)."""
FilterValue = str | tuple[str, ...] | tuple[float | None, float | None] | bool
Filters = tuple[tuple[str, Any], ...]

NAV, SE, FI = SkillCategory.NAVIGATE, SkillCategory.SEARCH, SkillCategory.FILTER


@dataclass(frozen=True)
class BrowseState(State):
    """The listing part of a site's state: mix it in by subclassing (its fields have defaults).

    ``filters`` holds ``(facet name, value)`` pairs in facet declaration order; a value is a
    string (one / min), a tuple of strings (any / all), a ``(lo, hi)`` pair (range) or True
    (flag). Absent facets are inactive.
    """

    query: str = ""
    filters: Filters = ()
    sort: str = ""
    page: int = 1

    def filter(self, name: str) -> Any:
        return dict(self.filters).get(name)


@dataclass(frozen=True)
class Facet:
    """One filter of the sidebar. ``action`` sets it; ``param`` names its choice parameter;
    ``kind`` is one of :data:`FACET_KINDS` (``one``, ``any``, ``all``, ``min``, ``range``,
    ``flag``); ``field`` is the entity field it reads (default: its name)."""

    name: str
    label: str
    kind: FacetKind
    action: str
    skill: str
    field: str = ""
    options: tuple[str, ...] = ()
    param: str = ""
    unit: str = ""
    option_labels: dict[str, str] = dc_field(default_factory=dict, hash=False, compare=False)
    offered: Callable[[World, BrowseState], tuple[str, ...]] | None = dc_field(
        default=None, hash=False, compare=False)
    """The options a state offers, when they depend on it (brands among the results, the
    chosen department's categories). A transition accepts ``options`` (or, without static
    options, what is offered and what is already ticked)."""
    clears: tuple[str, ...] = ()
    """Facets that setting this one resets (a department clears its category and brands)."""
    implies: Callable[[str], dict[str, Any]] | None = dc_field(
        default=None, hash=False, compare=False)
    """Values of other facets that picking an option sets (a category sets its department)."""
    toggles: bool = True
    """A one / min facet: picking the active option again clears it (else it stays)."""
    held: str = ""
    """A flag the state holds as a set of ids (mail's ``unread``), not an entity field."""

    def options_in(self, world: World, s: BrowseState) -> tuple[str, ...]:
        return self.offered(world, s) if self.offered is not None else self.options

    @property
    def entity_field(self) -> str:
        return self.field or self.name

    @property
    def param_name(self) -> str:
        return self.param or self.name

    def params(self) -> tuple[ParamSpec, ...]:
        if self.kind == "range":
            return (ParamSpec("min", "float", optional=True, text=True),
                    ParamSpec("max", "float", optional=True, text=True))
        if self.kind == "flag":
            return ()
        if not self.options:  # offered per state: any string, checked by the transition
            return (ParamSpec(self.param_name, "str"),)
        return (ParamSpec(self.param_name, "choice", self.options),)

    def accepts(self, entity: Entity, value: Any) -> bool:
        v = entity[self.entity_field]
        if self.kind == "one":
            return bool(v == value)
        if self.kind == "any":
            return v in value
        if self.kind == "all":
            return all(x in v for x in value)
        if self.kind == "min":
            return bool(v >= float(value))
        if self.kind == "range":
            lo, hi = value
            return (lo is None or v >= lo) and (hi is None or v <= hi)
        return bool(v)

    def label_of(self, option: str) -> str:
        return self.option_labels.get(option, option)


@dataclass(frozen=True)
class Sort:
    """A sort order: ``key`` gives an entity's sort key (ties broken by rank, then id)."""

    name: str
    label: str
    key: Callable[[Entity], Any] = dc_field(hash=False, compare=False)


@dataclass(frozen=True, eq=False)
class Catalog:
    """A site's declared listing: searchable fields, facets, sort orders, paging.

    ``rank`` is the entity field holding the default ("recommended") order: higher first.
    Action names are the site's own; the defaults are the common ones.
    """

    surface: str
    search_fields: tuple[str, ...]
    facets: tuple[Facet, ...]
    sorts: tuple[Sort, ...]
    page_size: int
    rank: str = "popularity"
    search: str = "Search"
    search_param: str = "query"
    search_skill: str = "query_formulation"
    clear_search: str = "ClearSearch"
    clear_filters: str = "ClearFilters"
    clear_skill: str = "filter_clearing"
    sort_action: str = "SortBy"
    sort_skill: str = "sort_usage"
    pagination_skill: str = "pagination"
    goto: str = "GoToPage"
    prefix: str = ""
    """When set, only entities whose id starts with it are listed (worlds holding two entity
    kinds, e.g. restaurants ``RST-`` and their menu items ``ITM-``)."""
    switch: tuple[str, ...] = ()
    """(apply, remove, parameter): flag facets set and unset by one action pair."""
    scope: Callable[[World, Any], Iterable[str]] | None = dc_field(
        default=None, hash=False, compare=False)
    """The ids listed before search and facets, when the state decides (a mail folder)."""
    match: Callable[[World, Any, str, tuple[str, ...]], bool] | None = dc_field(
        default=None, hash=False, compare=False)
    """Whether an entity matches the query's lower-cased terms, when the search box is not a
    plain word search over ``search_fields``."""
    key: Callable[[Any], BrowseState] | None = dc_field(default=None, hash=False, compare=False)
    """The part of the state the results read, for a listing that depends on the state."""
    _by_action: dict[str, Facet] = dc_field(init=False, repr=False)
    _sorts: dict[str, Sort] = dc_field(init=False, repr=False)

    def __post_init__(self) -> None:
        by_action: dict[str, Facet] = {} if self.switch else {f.action: f for f in self.facets}
        object.__setattr__(self, "_by_action", by_action)
        object.__setattr__(self, "_sorts", {s.name: s for s in self.sorts})

    # -- declaration -----------------------------------------------------------------------------
    def action_specs(self) -> tuple[ActionSpec, ...]:
        """Specs of the search, facet, sort and paging actions (to splice into a site's
        ``actions``)."""
        a = declare_action
        return (
            a(self.search, self.search_skill, SE,
              ParamSpec(self.search_param, "str", text=True), doc="submit the search box"),
            a(self.clear_search, self.search_skill, SE, doc="remove the search query"),
            *(a(f.action, f.skill, FI, *f.params(), doc=f"{f.label} filter")
              for f in self.facets),
            a(self.clear_filters, self.clear_skill, FI, doc="remove every filter"),
            a(self.sort_action, self.sort_skill, FI,
              ParamSpec("order", "choice", tuple(self._sorts))),
            a("NextPage", self.pagination_skill, NAV),
            a("PrevPage", self.pagination_skill, NAV),
            a("GoToPage", self.pagination_skill, NAV, ParamSpec("page", "int")),
        )

    def facet(self, name: str) -> Facet:
        return next(f for f in self.facets if f.name == name)

    def handles(self, action: str) -> bool:
        return bool(action) and (action in self._by_action or action in (
            self.search, self.clear_search, self.clear_filters, self.sort_action,
            "NextPage", "PrevPage", self.goto, *self.switch[:2]))

    @property
    def default_sort(self) -> str:
        return self.sorts[0].name

    # -- results ---------------------------------------------------------------------------------
    def results(self, world: World, s: BrowseState) -> tuple[str, ...]:
        """Ids matching the state's query and filters, in its sort order."""
        if self.key is not None:
            return _state_results(self, world, self.key(s))
        return _results(self, world, s.query, s.filters, s.sort or self.default_sort)

    def size(self, world: World) -> int:
        """Results per page in ``world``: its :data:`PAGE_META`, else the site's own."""
        return int(world.meta.get(PAGE_META) or self.page_size)

    def visible(self, world: World, s: BrowseState) -> tuple[str, ...]:
        return tuple(page_slice(self.results(world, s), s.page, self.size(world)))

    def pages(self, world: World, s: BrowseState) -> int:
        return page_count(len(self.results(world, s)), self.size(world))

    # -- transitions -----------------------------------------------------------------------------
    def transition(self, s: B, a: Action, world: World) -> B:
        """Apply a listing action (the caller checks the surface). Filters, sorts and searches
        go back to page 1; the search box keeps the filters, as on the real sites."""
        p, name = a.params, a.name
        if name == self.search:
            q = str(p[self.search_param]).strip()
            require(bool(q), f"{name}: empty query")
            return s.replace(query=q, page=1)
        if name == self.clear_search:
            require(bool(s.query), f"{name}: no active search")
            return s.replace(query="", page=1)
        if name == self.clear_filters:
            require(bool(s.filters), f"{name}: no filter is active")
            return s.replace(filters=(), page=1)
        if name == self.sort_action:
            require(p["order"] in self._sorts, f"{name}: unknown order {p['order']!r}")
            return s.replace(sort=p["order"], page=1)
        if name in self._by_action:
            facet: Facet = self._by_action[name]
            return s.replace(filters=self._set(s, facet, p, world), page=1)
        if name in self.switch[:2]:
            on, f = name == self.switch[0], self._switched(p)
            require((s.filter(f.name) is not None) != on,
                    f"{name}: {f.name} is {'already on' if on else 'off'}")
            return s.replace(filters=self._set(s, f, p, world), page=1)
        return turn_page(s, name, p, self.pages(world, s))

    def _switched(self, p: dict[str, Any]) -> Facet:
        name = p[self.switch[2]]
        require(any(f.name == name for f in self.facets), f"unknown filter {name!r}")
        return self.facet(name)

    def _set(self, s: BrowseState, f: Facet, p: dict[str, Any], world: World) -> Filters:
        current = s.filter(f.name)
        value: Any
        implied: dict[str, Any] = {}
        if f.kind == "range":
            lo, hi = p.get("min"), p.get("max")
            require(lo is None or hi is None or lo <= hi, f"{f.action}: min above max")
            value = None if lo is None and hi is None else (lo, hi)
        elif f.kind == "flag":
            value = None if current else True
        else:
            v = p[f.param_name]
            ticked = current if isinstance(current, tuple) else ()
            accepted = f.options or (*f.options_in(world, s), *ticked)
            require(v in accepted, f"{f.action}: {v!r} is not an option")
            if f.kind in ("any", "all"):
                picked = set(current or ()) ^ {v}
                value = tuple(sorted(picked)) if not f.options else \
                    tuple(o for o in f.options if o in picked)
                value = value or None
            else:
                value = None if current == v and f.toggles else v
            if f.implies is not None:
                implied = f.implies(v)
        out = {k: val for k, val in s.filters if k != f.name and k not in f.clears}
        out.update(implied)
        if value is not None:
            out[f.name] = value
        return tuple((x.name, out[x.name]) for x in self.facets if x.name in out)

    # -- what the results surface offers -------------------------------------------------------
    def available(self, s: BrowseState, world: World) -> list[Action]:
        """Listing actions a results surface offers (the search box is the site's to offer)."""
        out: list[Action] = []
        if s.query and self.clear_search:
            out.append(Action(self.clear_search))
        for f in self.facets:
            if self.switch:
                on = s.filter(f.name) is not None
                out.append(Action(self.switch[1] if on else self.switch[0],
                                  {self.switch[2]: f.name}))
            elif f.kind in ("range", "flag"):
                out.append(Action(f.action))
            else:
                out += [Action(f.action, {f.param_name: o}) for o in f.options_in(world, s)]
        if s.filters:
            out.append(Action(self.clear_filters))
        if self.sort_action:
            out += [Action(self.sort_action, {"order": o.name}) for o in self.sorts]
        pages = self.pages(world, s)
        if s.page > 1:
            out.append(Action("PrevPage"))
        if s.page < pages:
            out.append(Action("NextPage"))
        if pages > 1 and self.goto:
            out += [Action(self.goto, {"page": n}) for n in range(1, pages + 1) if n != s.page]
        return out

    def context(self, s: BrowseState, world: World) -> dict[str, Any]:
        """What the kit's listing macros draw: query, facets with their state, sort, paging."""
        active = dict(s.filters)
        facets = []
        for f in self.facets:
            cur = active.get(f.name)
            entry: dict[str, Any] = {"name": f.name, "label": f.label, "kind": f.kind,
                                     "action": f.action, "param": f.param_name,
                                     "unit": f.unit, "active": cur is not None}
            if f.kind == "range":
                entry["lo"], entry["hi"] = cur if cur else (None, None)
                entry["bounds"] = _bounds(world, f.entity_field, self.prefix)
            elif f.kind == "flag":
                entry["on"] = bool(cur)
            else:
                chosen = set(cur) if isinstance(cur, tuple) else {cur}
                entry["options"] = [{"value": o, "label": f.label_of(o), "on": o in chosen}
                                    for o in f.options_in(world, s)]
            facets.append(entry)
        total = len(self.results(world, s))
        return {"query": s.query, "facets": facets, "sort": s.sort or self.default_sort,
                "sorts": [{"name": o.name, "label": o.label} for o in self.sorts],
                "page": s.page, "pages": self.pages(world, s), "total_results": total,
                "page_size": self.size(world), "filters_active": bool(s.filters),
                "first": (s.page - 1) * self.size(world) + 1}

    def sort_key(self, world: World, order: str) -> Callable[[str], Any]:
        key, rank, ents = self._sorts[order].key, self.rank, world.entities
        if not rank:
            return lambda i: (key(ents[i]), i)
        return lambda i: (key(ents[i]), -ents[i][rank], i)


@lru_cache(maxsize=1 << 16)
def norm_word(word: str) -> str:
    """Lower-cased, punctuation-stripped, crude singular: how the search box compares words.
    Cached: a pure function over the sites' small vocabulary, met again in every world."""
    word = word.lower().strip(".,'\"()")
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def words(text: str) -> list[str]:
    return list(_words(text))


@lru_cache(maxsize=1 << 16)
def _words(text: str) -> tuple[str, ...]:
    """:func:`words`, cached (entity texts recur from world to world)."""
    cleaned = text.replace("&", " ").replace("-", " ").replace(",", " ").replace("/", " ")
    return tuple(norm_word(w) for w in cleaned.split() if w.strip(".,'\"()"))


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def offscreen(catalog: Catalog, world: World) -> Callable[..., int]:
    """For admissible distance bounds (a site's ``bound.py``): ``(s, eid, look, query=True)``,
    the listing actions before a results page of ``catalog`` shows ``eid``. The search box
    only sets the query and each filter action only its facet (a clear: all of them), so a
    query that misses ``eid`` costs one (search / clear) and filters that reject it one more;
    else one turn of the page (or a sort) when it is not on this one (``look`` False: assumed
    on it). ``query`` False: the caller counts the action reaching the results page (maybe a
    search). Misses and rejections are cached per (query or filters, entity)."""
    misses: dict[tuple[str, str], int] = {}
    rejects: dict[tuple[Filters, str], int] = {}

    def cost(s: BrowseState, eid: str, look: bool, query: bool = True) -> int:
        q = misses.get((s.query, eid)) if query else 0
        if q is None:
            hay = _haystack(catalog, world, eid)
            q = misses[(s.query, eid)] = int(any(w not in hay for w in words(s.query)))
        f = rejects.get((s.filters, eid))
        if f is None:
            e = world.entities[eid]
            f = rejects[(s.filters, eid)] = int(any(not catalog.facet(name).accepts(e, v)
                                                    for name, v in s.filters))
        if q or f or not query:
            return q + f
        return int(look and eid not in catalog.visible(world, s))

    return cost


@lru_cache(maxsize=16384)
def _haystack(catalog: Catalog, world: World, eid: str) -> frozenset[str]:
    e = world.entities[eid]
    return frozenset(words(" ".join(_text(e[f]) for f in catalog.search_fields)))


@lru_cache(maxsize=16384)
def _results(catalog: Catalog, world: World, query: str, filters: Filters,
             sort: str) -> tuple[str, ...]:
    want = words(query)
    checks = [(catalog.facet(name), value) for name, value in filters]
    out = [eid for eid, e in world.entities.items()
           if eid.startswith(catalog.prefix)
           and (not want or all(w in _haystack(catalog, world, eid) for w in want))
           and (not checks or all(f.accepts(e, v) for f, v in checks))]
    return tuple(sorted(out, key=catalog.sort_key(world, sort)))


@lru_cache(maxsize=8192)
def _state_results(catalog: Catalog, world: World, s: BrowseState) -> tuple[str, ...]:
    """Results of a listing that depends on the state ``s`` (already cut to ``catalog.key``)."""
    assert catalog.scope is not None and catalog.match is not None
    terms = tuple(s.query.lower().split())
    checks = [(catalog.facet(name), value) for name, value in s.filters]
    out = [i for i in catalog.scope(world, s)
           if all(i in getattr(s, f.held) if f.held else f.accepts(world.entities[i], v)
                  for f, v in checks)
           and (not terms or catalog.match(world, s, i, terms))]
    return tuple(sorted(out, key=catalog.sort_key(world, s.sort or catalog.default_sort)))


@lru_cache(maxsize=1024)
def _bounds(world: World, field_name: str, prefix: str = "") -> tuple[float, float]:
    values = [e[field_name] for eid, e in world.entities.items() if eid.startswith(prefix)]
    return (min(values), max(values)) if values else (0.0, 0.0)


def entities_where(world: World, **eq: Any) -> list[Entity]:
    """Entities whose fields equal every given value (a template's ``matches`` building block)."""
    return [e for e in world.entities.values() if all(e.get(k) == v for k, v in eq.items())]


def best(entities: Iterable[Entity], field_name: str, *, highest: bool) -> list[str]:
    """Ids of the entities with the extreme value of ``field_name`` (ties all returned)."""
    ents = list(entities)
    if not ents:
        return []
    pick = max if highest else min
    top = pick(e[field_name] for e in ents)
    return [e["id"] for e in ents if e[field_name] == top]
