"""Thought augmentation (WebSTAR 3.3): a thought for every step of a stored trace, in the seed's
three parts (the situation on screen, the reasoning toward the goal, an actionable instruction
that says the step's action). Thoughts go to side files (``RUN/synth/thoughts-<source>.jsonl``);
the trace, its actions and a model's own ``notes.thought`` are never touched.

- ``exact`` (:class:`ExactThoughts`) needs no model and uses no hindsight (the seed asks
  thoughts to "avoid using the current action or the annotation ... as they represent
  hindsight rather than predictive insight"): the situation is the site's ``observe`` of the
  replayed state before the step (:func:`webmdp.synth.replay.replay`), the reasoning comes
  from the category of the action the step's element binds (search, filter, inspect,
  navigate, commit: known before it runs) and whether the previous step was refused, and the
  instruction from the GUI action (no coordinates: the target carries them in its grammar's
  pixel frame) and that element's action. The step's grade, the goal distance, the
  verifier's conditions and the step's outcome are never read.
- ``model`` (:class:`ModelThoughts`) asks a model with the thought prompt of
  :mod:`webmdp.synth.prompts`, showing the screenshot the step acted on marked with its action.
  The action is given, never asked for: whatever the model answers, only its thought is kept
  (an ``Action:`` line it adds is cut off), and every row repeats the trace's own action.

Rows: ``task_id``, ``agent`` (run label), ``mode``, ``seed``, ``step``, ``thought`` (None when
none could be made), ``source``, ``why`` and ``action``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from pathlib import Path
from typing import Any

from webmdp.agents.llm.clients import ModelClient
from webmdp.core.model import EntityView, Observation, State, World
from webmdp.core.registry import get_site
from webmdp.core.site import Site
from webmdp.core.spec import SkillCategory
from webmdp.synth.annotate import EpisodeScreens, action_text
from webmdp.synth.model_grader import INFRA_ERROR, UNPARSEABLE, ModelChat, call_usage, prior_steps
from webmdp.synth.prompts import parse_thought, thought_messages
from webmdp.synth.replay import StepStates, is_finish, replay
from webmdp.synth.sidefile import Row
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace, GUIStep, SemanticTransition

NAME_FIELDS = ("name", "title", "subject", "summary", "label", "headline")
"""Entity fields that name an entity, first found wins."""
SHOWN_FIELDS = 3
LISTED = 3


def thought_row(label: str, mode: str, trace: EpisodeTrace, step: int, thought: str | None,
                source: str, why: str) -> Row:
    return {"task_id": trace.task_id, "agent": label, "mode": mode, "seed": trace.seed,
            "step": step, "thought": thought, "source": source, "why": why,
            "action": trace.steps[step].action}


# -- exact thoughts ------------------------------------------------------------------------------
def words(name: str) -> str:
    """``AddToCart`` -> ``add to cart``; ``go_back`` -> ``go back``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").lower()


def entity_name(e: EntityView) -> str:
    for f in NAME_FIELDS:
        v = e.fields.get(f)
        if isinstance(v, str) and v:
            return v
    return e.id


def _value(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False) if isinstance(v, str) else str(v)


def phrase(action: str, params: dict[str, Any], names: dict[str, str]) -> str:
    """A semantic action as words: ``open product PRD-011 ("Bamboo Tee")``,
    ``search "t-shirts"``, ``set price range with min 25 and max 50``."""
    head = words(action)

    def val(v: Any) -> str:
        if isinstance(v, str) and v in names and names[v] != v:
            return f'{v} ("{names[v]}")'
        return _value(v)

    if not params:
        return head
    if len(params) == 1:
        return f"{head} {val(next(iter(params.values())))}"
    return f"{head} with " + " and ".join(f"{k} {val(v)}" for k, v in params.items())


def _element(step: GUIStep) -> SemanticTransition | None:
    """The semantic action bound to the element the step acts on (its first transition,
    accepted or not: which element an action targets is known before it runs; whether the
    site accepts it is not)."""
    return step.transitions[0] if step.transitions else None


class ExactThoughts:
    """Thoughts written, with no model, from what the agent could know before each step."""

    source = "exact"

    def thoughts(self, trace: EpisodeTrace, task: Task) -> list[str]:
        states = replay(trace, task)
        site, world = get_site(task.site), World.from_dict(task.world)
        return [exact_thought(trace, task, i, states, site=site, world=world)
                for i in range(len(trace.steps))]

    def rows(self, label: str, mode: str, trace: EpisodeTrace, task: Task) -> list[Row]:
        return [thought_row(label, mode, trace, i, t, self.source, "exact")
                for i, t in enumerate(self.thoughts(trace, task))]


def exact_thought(trace: EpisodeTrace, task: Task, step_index: int, states: list[StepStates],
                  *, site: Site | None = None, world: World | None = None) -> str:
    """The thought of step ``step_index``: situation, reasoning, instruction (one paragraph,
    first person), written only from what exists before the step (WebSTAR 3.3: no hindsight):
    the instruction, the page before it (``states`` from :func:`webmdp.synth.replay.replay`),
    whether the previous step was refused, and the step's element and values. Never the
    step's grade, the goal distance, the verifier's conditions or the step's outcome; no
    pixel coordinates either (the target states them, in its grammar's frame)."""
    site = site or get_site(task.site)
    world = world or World.from_dict(task.world)
    step, s = trace.steps[step_index], states[step_index]
    element = _element(step)
    obs = _observe(site, world, s.before)
    names = _names(obs, world)
    parts = []
    if step_index == 0:
        parts.append(f"My task: {task.instruction.rstrip('.')}.")
    parts.append(_situation(obs, _involved(element, obs), element))
    previous = trace.steps[step_index - 1] if step_index else None
    if previous is not None and previous.error is not None:
        parts.append("My previous attempt was not accepted.")
    parts.append(_reasoning(site, step, element, names))
    parts.append(_instruction(step, element, names))
    return " ".join(p for p in parts if p)


def _observe(site: Site, world: World, state: State | None) -> Observation | None:
    if state is None:
        return None
    try:
        return site.observe(state, world)
    except Exception:  # a state the site cannot render: say less, never fail the thought
        return None


def _names(obs: Observation | None, world: World) -> dict[str, str]:
    """Entity id -> name, from what is on screen, else the world's entities."""
    out: dict[str, str] = {}
    for eid, fields in world.entities.items():
        out[eid] = next((str(fields[f]) for f in NAME_FIELDS if fields.get(f)), eid)
    if obs is not None:
        out.update({e.id: entity_name(e) for e in obs.entities})
    return out


def _involved(t: SemanticTransition | None, obs: Observation | None) -> EntityView | None:
    """The on-screen entity the action is about: one named in its parameters, else the only
    entity of a detail page."""
    if obs is None:
        return None
    by_id = {e.id: e for e in obs.entities}
    if t is not None:
        for v in t.params.values():
            if isinstance(v, str) and v in by_id:
                return by_id[v]
    if obs.kind.value == "detail" and len(obs.entities) == 1:
        return obs.entities[0]
    return None


def _situation(obs: Observation | None, involved: EntityView | None,
               element: SemanticTransition | None) -> str:
    surface = obs.surface if obs is not None else (
        element.surface_before if element is not None else "")
    if not surface:
        return ""
    text = f"I am on the {words(surface)} page"
    if involved is not None:
        shown = [f"{k} {_value(v)}" for k, v in involved.fields.items()
                 if k not in NAME_FIELDS][:SHOWN_FIELDS]
        text += f", which shows {entity_name(involved)} ({involved.id}" + \
            (f"; {', '.join(shown)})" if shown else ")")
    elif obs is not None and obs.entities:
        first = ", ".join(entity_name(e) for e in obs.entities[:LISTED])
        more = " among others" if len(obs.entities) > LISTED else ""
        text += f"; it lists {len(obs.entities)} item{'s' if len(obs.entities) != 1 else ''} " \
                f"({first}{more})"
    return text + "."


WHY = {
    SkillCategory.SEARCH: "To find what the task names, I {what}.",
    SkillCategory.FILTER: "To narrow the results to what the task asks for, I {what}.",
    SkillCategory.INSPECT: "I need details the page does not show yet, so I {what}.",
    SkillCategory.NAVIGATE: "To reach the part of the site the task is about, I {what}.",
    SkillCategory.COMMIT: "The task asks me to act on it, so I {what}.",
}
"""The reasoning of a step by its action's category (WebSTEP Table 6), known before it runs."""


def _reasoning(site: Site, step: GUIStep, element: SemanticTransition | None,
               names: dict[str, str]) -> str:
    a = step.action
    if is_finish(step):
        return "I believe everything the task asks for is done, so I finish."
    name, params = (str(a["name"]), a.get("params") or {}) if "name" in a else \
        ((element.action, element.params) if element is not None else (None, {}))
    if name is None:
        if a.get("kind") == "invalid":
            return "I need to state my next action."
        if a.get("kind") == "type":
            return "I enter the text the task calls for."
        return "I look at the page before acting."
    category = next((spec.category for spec in site.actions if spec.name == name), None)
    template = WHY.get(category) if category is not None else None
    what = phrase(name, params, names)
    return template.format(what=what) if template else f"I {what}."


def _gesture(a: dict[str, Any]) -> str:
    """A GUI action in words, without coordinates or pixel amounts."""
    kind = str(a.get("kind", ""))
    if kind == "scroll":
        dx, dy = float(a.get("dx") or 0), float(a.get("dy") or 0)
        return "scroll " + (("down" if dy > 0 else "up") if abs(dy) >= abs(dx) else
                            ("right" if dx > 0 else "left"))
    if kind == "select_option":
        return f"select {_value(a.get('option'))}"
    return words(kind) or "act"


def _instruction(step: GUIStep, element: SemanticTransition | None,
                 names: dict[str, str]) -> str:
    a = step.action
    goal = f" to {phrase(element.action, element.params, names)}" if element is not None \
        else ""
    if "name" in a:  # semantic mode: the action is the semantic one
        return f"Next action: {phrase(str(a['name']), a.get('params') or {}, names)}."
    kind = str(a.get("kind", ""))
    if kind == "finish":
        answer = a.get("answer")
        return f'I finish with the answer "{answer}".' if answer is not None else \
            "I finish the task."
    if kind == "type":
        text = str(a.get("text", ""))
        enter = " and press Enter" if text.endswith("\n") else ""
        return f"I type {_value(text.rstrip(chr(10)))}{enter}{goal}."
    if kind == "key":
        return f"I press {a.get('key', '')}{goal}."
    if kind == "invalid":
        return "I write my next action again."
    return f"I {_gesture(a)}{goal or ' on the page'}."


# -- model thoughts --------------------------------------------------------------------------------
class ModelThoughts(ModelChat):
    """Thoughts from a model, shown the task, the earlier actions (with the agent's own
    thoughts, where it wrote any) and the last ``window`` screenshots marked with their actions.
    A reply with no thought is ``unparseable``; a failed endpoint ``infra_error``."""

    source = "model"

    def __init__(self, model_id: str, base_url: str | None = None, window: int = 1, *,
                 client: ModelClient | None = None, **options: Any):
        super().__init__(model_id, base_url, client=client, **options)
        self.window = max(1, window)

    def rows(self, label: str, mode: str, trace: EpisodeTrace, trace_path: Path, task: Task,
             steps: Collection[int] | None = None) -> list[Row]:
        screens = EpisodeScreens(trace, trace_path)
        todo = [i for i in range(len(trace.steps)) if steps is None or i in steps]
        requests = {i: thought_messages(task.instruction, prior_steps(trace, i), i,
                                        action_text(trace.steps[i].action),
                                        screens.window(i, self.window)) for i in todo}

        def run(i: int) -> Row:
            text, call, error = self.ask(requests[i])
            thought = parse_thought(text) if text is not None else None
            why = INFRA_ERROR if error is not None else (
                self.source if thought is not None else UNPARSEABLE)
            row = thought_row(label, mode, trace, i, thought, self.source, why)
            row["model"] = self.model_id
            row.update(call_usage(call))
            if error is not None:
                row["error"] = error
            return row

        return self.map(todo, run)
