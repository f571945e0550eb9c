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

The field asked for is the first of the site's :data:`~webmdp.tasks.outputs.OUTPUTS` that the
variant's oracle shows and the base instruction does not state
(:func:`~webmdp.tasks.outputs.pick_output`). A base task with no such field yields no variant
(:class:`~webmdp.errors.GenerationError`). Variants are dial-only: a site's built-in tasks
never use them.
"""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from webmdp.core.model import World
from webmdp.core.spec import Action
from webmdp.errors import GenerationError
from webmdp.tasks.model import AccessLevel, Condition, InfoConstraint
from webmdp.tasks.outputs import OUTPUTS, PORT_TYPES, noun, pick_output, shown_on
from webmdp.tasks.template import Draft, TaskTemplate

if TYPE_CHECKING:
    from webmdp.core.site import Site

SEP = ":"
MODES = ("direct", "mixed", "calc")
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
        actions = self.oracle(draft, world, site)
        port = pick_output(site.name, draft.target, world.entities[draft.target],
                           shown_on(site.name, world, actions), (draft.instruction,),
                           ("money",) if self.mode == "calc" else PORT_TYPES)
        if port is None:
            raise GenerationError(f"{self.name}: the oracle shows no field of the target to "
                                  "ask for")
        draft.params["asked_field"] = port.field
        what = noun(site.name, world.entities[draft.target])
        base = draft.instruction
        if self.mode == "direct":
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
        actions = self.base.oracle(draft, world, site)
        if self.mode == "mixed":
            return actions
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
         "calc": "report a multiple of the target's price instead (Direct answer, arithmetic)"}


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
    if mode not in MODES:
        raise KeyError(f"{site.name} has no template '{name}' (variants: {', '.join(MODES)})")
    return AnswerVariant(site.template(base), site, mode)


def base_name(template: str) -> str:
    """The template a variant's name is built on (a plain name is its own)."""
    return template.partition(SEP)[0]
