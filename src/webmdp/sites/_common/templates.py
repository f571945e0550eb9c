"""Template machinery the sites share (WebSTEP H.1, E.3): a template whose target and hard
negatives are pinned as one group, the oracle around it (reach the list, open the hard negatives
ranked above the target, open the target, commit), and the small pin / verifier / observe helpers
every site wrote again. A template's own words (pins, sentence, acceptance, commit, verifier)
stay in its class."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.tasks.model import Condition
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft, TaskTemplate
from webmdp.tasks.verifier import commit_conditions, membership

Group = tuple[Entity, Entity, list[Entity], tuple[Entity, ...], dict[str, Any]]
"""(shared base, the target's own values, each hard negative's values, decoys, params)."""
Params = dict[str, Any]


TARGET = "<target>"
"""A commit parameter that is the target's id, not a task param."""


class Step:
    """One action of a declared commit, each parameter taken from the task's param of the same
    name (``same``) or of the name given (``named``; ``TARGET``: the target's id):
    ``Step("PlaceOrder", "tip")``, ``Step("UpdateQuantity", item_id=TARGET, quantity="n")``."""

    def __init__(self, name: str, *same: str, **named: str) -> None:
        self.name = name
        self.sources = {**{k: k for k in same}, **named}

    def action(self, d: Draft) -> Action:
        return Action(self.name, {k: d.target if v == TARGET else d.params[v]
                                  for k, v in self.sources.items()})


Steps = tuple[Action | Step, ...]


def perform(steps: Steps, d: Draft) -> list[Action]:
    """The actions of declared steps for one draft."""
    return [s.action(d) if isinstance(s, Step) else s for s in steps]


class PinnedTemplate(TaskTemplate):
    """The base of every site's templates. The target and its hard negatives are pinned
    together; the instruction is the format string ``sentence`` over the params and the phrases
    ``words(p)`` adds; ``fits`` is its constraint on one entity (before any superlative: when
    ``best_by`` is set, the accepted entities' extreme ``best_by`` wins, lowest unless
    ``highest``); ``prefix`` reaches the list surface and ``opener`` names the (open, back,
    entity parameter) actions the oracle inspects with.

    Where a template's constraint, prefix, commit or verifier is only a table, it declares
    the table and the defaults below build the method from it."""

    sentence: ClassVar[str] = ""
    """The instruction: a format string over the params and the phrases ``words(p)`` adds."""
    best_by: ClassVar[str] = ""
    """A superlative: among the entities that fit, the one with the extreme value of this
    field is the target (the lowest, unless ``highest``)."""
    highest: ClassVar[bool] = False
    """``best_by`` picks the highest value instead of the lowest."""
    keys: ClassVar[tuple[str, ...]] = ()
    """The params every entity of the group shares, also the first card fields."""
    card: tuple[str, ...] = ()
    detail: tuple[str, ...] = ()
    compare: ClassVar[bool] = False
    """Comparisons open every hard negative; other templates stop at the target."""
    inspect: ClassVar[tuple[Action, ...]] = ()
    """What the oracle does on each opened entity before judging it (show its reviews...)."""
    ids: ClassVar[str] = ""
    """The id prefix of the entities the instruction picks among."""
    opener: ClassVar[tuple[str, str, str]]
    """(open action, back action, entity parameter): how the oracle opens each candidate it
    inspects and goes back to the list (``("OpenBook", "BackToResults", "book_id")``)."""
    wants: ClassVar[Mapping[str, str]] = {}
    """``fits``: entity field -> the param it must equal (a list field: hold, see :func:`holds`)."""
    fixed: ClassVar[Mapping[str, Any]] = {}
    """``fits``: entity field -> the value it must have whatever the params."""
    by: ClassVar[Mapping[str, Callable[[Params], Action]]] = {}
    """The site's list steps (searches, filters), by name."""
    narrow: ClassVar[tuple[str, ...]] = ()
    """``prefix``: the list steps of ``by`` that bring the group on screen..."""
    order: ClassVar[str] = ""
    """... then the sort order picked."""
    steps: ClassVar[Steps] = ()
    """``commit``: the actions after the target is open; by default these two tables say it:"""
    commit_after: ClassVar[tuple[str, ...]] = ()
    """... the buttons pressed on the target's page before ``commit_action``..."""
    commit_with: ClassVar[Mapping[str, str]] = {}
    """... and its parameters: each the param whose value it takes (``TARGET``: the target's
    id)."""
    marked: ClassVar[tuple[str, str]]
    """``verifier``: (list fact, what it says) the commit puts the target in and no hard
    negative..."""
    stored: ClassVar[tuple[str, str]] = ("", "")
    """... and (fact prefix, ``{}`` for the target's id; its name) where each parameter of the
    commit but the target's id is recorded."""

    def words(self, p: Params) -> Params:
        """The params and the phrases a site's sentences share."""
        return p

    def instruction(self, p: Params) -> str:
        return self.sentence.format(**self.words(p))

    def pick(self, accepted: list[Entity]) -> list[str]:
        return best(accepted, self.best_by, highest=self.highest) if self.best_by else \
            [e["id"] for e in accepted]

    def criteria(self, p: Params) -> Params:
        """What the instruction asks of an entity, field by field."""
        return {**self.fixed, **{field: p[key] for field, key in self.wants.items()}}

    def fits(self, e: Entity, p: Params) -> bool:
        return all(holds(field, e[field], want) for field, want in self.criteria(p).items())

    def prefix(self, p: Params, world: World) -> list[Action]:
        return [*(self.by[n](p) for n in self.narrow),
                *([Action("SortBy", {"order": self.order})] if self.order else [])]

    def commit(self, d: Draft, world: World) -> list[Action]:
        return perform(self.steps or (*map(Action, self.commit_after),
                                      Step(self.commit_action, **self.commit_with)), d)

    def verifier(self, d: Draft, world: World) -> list[Condition]:
        where, what = self.stored
        given = {k: d.params[v] for k, v in self.commit_with.items() if v != TARGET}
        recorded = commit_conditions(where.format(d.target), given, what) if where else []
        return [*membership(d, *self.marked), *recorded]

    def compose(self, params: dict[str, Any], spec: WorldSpec) -> Draft:
        return Draft(instruction=self.instruction(params), params=params, spec=spec,
                     card_fields=(*self.keys, *self.card), detail_fields=self.detail)

    def candidates(self, d: Draft, world: World) -> list[Entity]:
        return [e for k, e in world.entities.items()
                if k.startswith(self.ids) and self.fits(e, d.params)]

    def matches(self, d: Draft, world: World) -> list[str]:
        return self.pick(self.candidates(d, world))

    def reach(self, d: Draft, world: World, site: Site) -> list[Action]:
        """E.3 stages 1-2: the prefix, the hard negatives to visit, then the target."""
        opened, back, param = self.opener
        return reach_and_explore(site, world, d, self.prefix(d.params, world),
                                 open_action=Action(opened), back=Action(back),
                                 entity_param=param, inspect=self.inspect,
                                 all_negatives=self.compare)

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*self.reach(d, world, site), *self.commit(d, world)]


def holds(field: str, value: Any, want: Any) -> bool:
    """An entity's ``value`` of ``field`` satisfies ``want``: it equals it, or holds it (a list
    field, or the ``body`` text that mentions it)."""
    if field == "body" or isinstance(value, list):
        return bool(want in value)
    return bool(value == want)


def split(field: str, values: Sequence[Any]) -> tuple[Entity, list[Entity]]:
    """The target's value of ``field`` (the first of ``values``) and one hard negative per
    other value."""
    return {field: values[0]}, [{field: v} for v in values[1:]]


def untouched(d: Draft, fact: str, what: str) -> list[Condition]:
    """No hard negative appears in the list fact (it was not starred, closed, edited...)."""
    return [Condition(fact=fact, op="not_contains", value=h,
                      description=f"hard negative {h} is not {what}") for h in d.hard_negatives]


def collect(*modules: ModuleType) -> dict[str, TaskTemplate]:
    """A site's ``TEMPLATES``: one instance of every template class (a class naming its own
    ``name``) the modules define, in the order they are written there."""
    found = [c for m in modules for c in vars(m).values() if isinstance(c, type)
             and issubclass(c, TaskTemplate) and c.__module__ == m.__name__ and "name" in vars(c)]
    return {c.name: c() for c in found}
