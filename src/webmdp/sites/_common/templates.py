"""Template machinery the sites share (WebSTEP H.1, E.3): a template whose target and hard
negatives are pinned as one group, the oracle around it (reach the list, open the hard negatives
ranked above the target, open the target, commit), and the small pin / verifier / observe helpers
every site wrote again. A template's own words (pins, sentence, acceptance, commit, verifier)
stay in its class."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any, ClassVar

from webmdp.core.model import Entity, World, WorldSpec
from webmdp.core.site import Site
from webmdp.core.spec import Action
from webmdp.sites._common.catalog import best
from webmdp.tasks.model import Condition
from webmdp.tasks.oracle import reach_and_explore
from webmdp.tasks.template import Draft, TaskTemplate

Group = tuple[Entity, Entity, list[Entity], tuple[Entity, ...], dict[str, Any]]
"""(shared base, the target's own values, each hard negative's values, decoys, params)."""
Params = dict[str, Any]


class Worded(TaskTemplate):
    """What both template bases (this module's and ``tasklib.FindTemplate``) share: the
    instruction is the format string ``sentence`` over the params and the phrases ``words(p)``
    adds; when ``best_by`` is set, the accepted entities' extreme ``best_by`` wins (lowest
    unless ``highest``)."""

    sentence: ClassVar[str] = ""
    best_by: ClassVar[str] = ""
    highest: ClassVar[bool] = False

    def words(self, p: Params) -> Params:
        """The params and the phrases a site's sentences share."""
        return p

    def instruction(self, p: Params) -> str:
        return self.sentence.format(**self.words(p))

    def pick(self, accepted: list[Entity]) -> list[str]:
        return best(accepted, self.best_by, highest=self.highest) if self.best_by else \
            [e["id"] for e in accepted]


class PinnedTemplate(Worded):
    """The target and its hard negatives are pinned together; ``fits`` is the instruction's
    constraint on one entity (before any superlative), ``prefix`` reaches the list surface and
    ``opener`` names the (open, back, entity parameter) actions the oracle inspects with."""

    card: tuple[str, ...] = ()
    detail: tuple[str, ...] = ()
    compare = False
    """Comparisons open every hard negative; other templates stop at the target."""
    inspect: ClassVar[tuple[Action, ...]] = ()
    """What the oracle does on each opened entity before judging it (show its reviews...)."""
    ids = ""
    """The id prefix of the entities the instruction picks among."""
    opener: ClassVar[tuple[str, str, str]]

    def fits(self, e: Entity, p: dict[str, Any]) -> bool:
        raise NotImplementedError

    def prefix(self, p: dict[str, Any], world: World) -> list[Action]:
        return []

    def commit(self, d: Draft, world: World) -> list[Action]:
        raise NotImplementedError

    def compose(self, params: dict[str, Any], spec: WorldSpec) -> Draft:
        return Draft(instruction=self.instruction(params), params=params, spec=spec,
                     card_fields=self.card, detail_fields=self.detail)

    def candidates(self, d: Draft, world: World) -> list[Entity]:
        return [e for k, e in world.entities.items()
                if k.startswith(self.ids) and self.fits(e, d.params)]

    def matches(self, d: Draft, world: World) -> list[str]:
        return self.pick(self.candidates(d, world))

    def reach(self, d: Draft, world: World, site: Site) -> list[Action]:
        opened, back, param = self.opener
        return reach_and_explore(site, world, d, self.prefix(d.params, world),
                                 open_action=Action(opened), back=Action(back),
                                 entity_param=param, inspect=self.inspect,
                                 all_negatives=self.compare)

    def oracle(self, d: Draft, world: World, site: Site) -> list[Action]:
        return [*self.reach(d, world, site), *self.commit(d, world)]


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
