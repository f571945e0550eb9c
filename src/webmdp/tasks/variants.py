"""WebForge's answer types (§D.5) and a calculation knob, as variants of any site's template.

A variant ``BASE:MODE`` keeps its base template's draft, world and target, and changes what
the agent must return:

* ``direct``: find the base task's target without doing the task, and report one of its
  fields. The oracle is the base oracle up to its first action that changes the application
  state; nothing is committed and the verifier is empty, so the answer alone is judged.
* ``mixed``: do the base task (its verifier and confirmation code stand) and report the field
  as well.
* ``calc``: ``direct``, but the answer is a multiple of a money field (``k`` times the price),
  so the agent must compute it (WebForge's Reasoning/Calc: arithmetic at least).
* ``lookup``: ``direct`` with the shortest oracle that shows the field (:func:`shortest_reveal`:
  no filter or sort the base applies is kept unless the way needs it). Only the dial's
  ``lookups`` segment uses it, in sparse worlds, where WebForge's level-1 look-ups live; it is
  not in :data:`MODES`, so the ``answers`` segments are unchanged.

The field asked for is the first of the site's :data:`~webmdp.tasks.outputs.OUTPUTS` that the
variant's oracle shows and the base instruction does not state
(:func:`~webmdp.tasks.outputs.pick_output`). A base task with no such field yields no variant
(:class:`~webmdp.errors.GenerationError`). Variants are dial-only: a site's built-in tasks
never use them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from webmdp.core.model import State, World
from webmdp.core.spec import Action
from webmdp.errors import GenerationError, InvalidAction
from webmdp.tasks.model import AccessLevel, Condition, InfoConstraint
from webmdp.tasks.outputs import OUTPUTS, PORT_TYPES, noun, pick_output, shown_on
from webmdp.tasks.template import Draft, TaskTemplate

if TYPE_CHECKING:
    from webmdp.core.site import Site

SEP = ":"
MODES = ("direct", "mixed", "calc")
LOOKUP = "lookup"
REVEAL_DEPTH, REVEAL_NODES = 6, 4000
"""The breadth-first search for a ``lookup`` oracle: at most this many actions and states."""
CALC_FACTORS = (2, 3, 4, 5)
"""How many of the item a ``calc`` variant asks the total for."""


class AnswerVariant(TaskTemplate):
    """``base`` with WebForge's ``mode`` answer (see the module docstring)."""

    commit_action: ClassVar[str] = ""

    def __init__(self, base: TaskTemplate, site: Site, mode: str) -> None:
        self.base, self.site, self.mode = base, site, mode
        self.name = f"{base.name}{SEP}{mode}"  # type: ignore[misc]
        self.description = (  # type: ignore[misc]
            f"{base.description}; {_WHAT[mode]}")
        self.answer_type = "mixed" if mode == "mixed" else "direct"  # type: ignore[misc]
        self.commit_action = base.commit_action  # type: ignore[misc]

    def __getattr__(self, name: str) -> Any:
        # the base's declarations (``reasoning``, ``best_by``, ``wants``...) read through
        if name == "base":
            raise AttributeError(name)
        return getattr(self.base, name)

    @property
    def adds_computation(self) -> str:
        """The computation the variant adds to its base's (``calc``: arithmetic)."""
        return "arithmetic" if self.mode == "calc" else ""

    # -- the template hooks ---------------------------------------------------------------------
    def draft(self, site: Site, rng: random.Random, hard_negatives: int) -> Draft:
        d = self.base.draft(site, rng, hard_negatives)
        if self.mode == "calc":
            d.params["calc_factor"] = rng.choice(CALC_FACTORS)
        return d

    def matches(self, draft: Draft, world: World) -> list[str]:
        return self.base.matches(draft, world)

    def finish(self, draft: Draft, world: World, site: Site) -> None:
        """Choose the field to ask for, now that the oracle's path is known, and word the
        instruction."""
        actions = (self.base.oracle(draft, world, site) if self.mode == "mixed"
                   else self._direct(draft, world, site))  # a look-up asks what direct asks
        port = pick_output(site.name, draft.target, world.entities[draft.target],
                           shown_on(site.name, world, actions), (draft.instruction,),
                           ("money",) if self.mode == "calc" else PORT_TYPES)
        if port is None:
            raise GenerationError(f"{self.name}: the oracle shows no field of the target to "
                                  "ask for")
        draft.params["asked_field"] = port.field
        what = noun(site.name, world.entities[draft.target])
        base = draft.instruction
        if self.mode in ("direct", LOOKUP):
            draft.instruction = (f"Do not change anything. Find the {what} this request is "
                                 f"about and tell me its {port.label}: \"{base}\"")
        elif self.mode == "mixed":
            draft.instruction = (f"{base} Then tell me the {what}'s {port.label} as well as "
                                 "the confirmation code.")
        else:
            k = draft.params["calc_factor"]
            draft.instruction = (f"Do not change anything. Find the {what} this request is "
                                 f"about and tell me what {k} times its {port.label} comes "
                                 f"to: \"{base}\"")

    def oracle(self, draft: Draft, world: World, site: Site) -> list[Action]:
        if self.mode == "mixed":
            return self.base.oracle(draft, world, site)
        if self.mode == LOOKUP and "asked_field" in draft.params:
            base = self._direct(draft, world, site)
            way = shortest_reveal(site, world, draft.target, draft.params["asked_field"], base)
            if way is None:
                raise GenerationError(f"{self.name}: no way of at most {REVEAL_DEPTH} actions "
                                      "shows the asked field")
            return way
        return self._direct(draft, world, site)

    def _direct(self, draft: Draft, world: World, site: Site) -> list[Action]:
        """The base oracle up to its first action that changes the application state."""
        actions = self.base.oracle(draft, world, site)
        for i, a in enumerate(actions):
            if site.action_spec(a.name).changes_state:
                return actions[:i]
        return actions

    def verifier(self, draft: Draft, world: World) -> list[Condition]:
        return self.base.verifier(draft, world) if self.mode == "mixed" else []

    def answer(self, draft: Draft, world: World) -> str | None:
        value = world.entities[draft.target][draft.params["asked_field"]]
        if self.mode == "calc":
            return f"{draft.params['calc_factor'] * value:.2f}"
        return _plain(value)

    def access_level(self, draft: Draft, oracle: list[Action], site: Site) -> AccessLevel:
        return self.base.access_level(draft, oracle, site)

    def info_constraints(self, draft: Draft, world: World, site: Site) -> list[InfoConstraint]:
        field = draft.params["asked_field"]
        asked = InfoConstraint(entity=draft.target, field=field, level="detail",
                               description=f"see target's {field} (the answer)")
        found = self.base.info_constraints(draft, world, site)
        return found if any((c.entity, c.field) == (asked.entity, asked.field)
                            for c in found) else [*found, asked]


_WHAT = {"direct": "report a field of the target instead (Direct answer)",
         "mixed": "and report a field of the target (Mixed answer)",
         "calc": "report a multiple of the target's price instead (Direct answer, arithmetic)",
         LOOKUP: "report a field of the target instead, by the shortest way (Direct answer, "
                 "look-up)"}


def _plain(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def modes(site: Site) -> tuple[str, ...]:
    """The variants a site's templates take (``calc`` needs a money output)."""
    money = any(o.type == "money" for o in OUTPUTS.get(site.name, ()))
    return tuple(m for m in MODES if m != "calc" or money)


def template_of(site: Site, name: str) -> TaskTemplate:
    """A site's template by name: one of its own, or a ``BASE:MODE`` variant of one."""
    if SEP not in name:
        return site.template(name)
    return _variant(site, name)


@cache
def _variant(site: Site, name: str) -> AnswerVariant:
    base, _, mode = name.partition(SEP)
    if mode not in (*MODES, LOOKUP):
        raise KeyError(f"{site.name} has no template '{name}' (variants: "
                       f"{', '.join((*MODES, LOOKUP))})")
    return AnswerVariant(site.template(base), site, mode)


def base_name(template: str) -> str:
    """The template a variant's name is built on (a plain name is its own)."""
    return template.partition(SEP)[0]


def shortest_reveal(site: Site, world: World, target: str, field: str,
                    base: Sequence[Action]) -> list[Action] | None:
    """The shortest way (at least one action) from the start to a page showing ``field`` of
    ``target``, by breadth-first search over the offered actions that change nothing (a
    parameter the agent types comes from the base oracle's action of that name; without one
    the action is skipped), first found in the offered order; None within
    :data:`REVEAL_DEPTH` actions and :data:`REVEAL_NODES` states."""
    typed = {a.name: a for a in base}
    start = site.initial_state(world)
    seen = {start}
    frontier: list[tuple[State, list[Action]]] = [(start, [])]
    while frontier:
        nxt: list[tuple[State, list[Action]]] = []
        for state, way in frontier:
            for act in site.observe(state, world).available:
                spec = site.action_spec(act.name)
                if spec.changes_state:
                    continue
                missing = [p for p in spec.params if not p.optional and p.name not in act.params]
                if missing:
                    if act.name not in typed:
                        continue
                    act = typed[act.name]
                try:
                    after = site.step(state, act, world)
                except InvalidAction:
                    continue
                if after in seen:
                    continue
                seen.add(after)
                path = [*way, act]
                if any(e.id == target and field in e.fields
                       for e in site.observe(after, world).entities):
                    return path
                if len(path) < REVEAL_DEPTH and len(seen) < REVEAL_NODES:
                    nxt.append((after, path))
        frontier = nxt
    return None
