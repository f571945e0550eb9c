"""Thought augmentation (WebSTAR 3.3): a thought for every step of a stored trace, in the seed's
three parts (the situation on screen, the reasoning toward the goal, an actionable instruction
that says the step's action). Thoughts go to side files (``RUN/synth/thoughts-<source>.jsonl``);
the trace, its actions and a model's own ``notes.thought`` are never touched.

- ``exact`` (:class:`ExactThoughts`) needs no model: the situation is the site's ``observe`` of
  the replayed state before the step (:func:`webmdp.synth.replay.replay`), the reasoning comes
  from the step's exact grade and its reason (:class:`webmdp.synth.exact.ExactGrader`: closer,
  informs, prepares, detour, ...), and the instruction from the GUI action and the semantic
  action it caused (or, for a preparatory step, the one it prepares).
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
from webmdp.synth.annotate import EpisodeScreens, action_text
from webmdp.synth.exact import ExactGrader, Graded
from webmdp.synth.model_grader import INFRA_ERROR, UNPARSEABLE, ModelChat, call_usage, prior_steps
from webmdp.synth.prompts import parse_thought, thought_messages
from webmdp.synth.replay import StepStates, replay
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


def _semantic(step: GUIStep) -> SemanticTransition | None:
    """The first accepted transition of a step (the semantic action it caused)."""
    return next((t for t in step.transitions if t.error is None), None)


class ExactThoughts:
    """Thoughts written from the semantic transitions and the task, with no model."""

    source = "exact"

    def __init__(self, grader: ExactGrader | None = None):
        self.grader = grader or ExactGrader()

    def thoughts(self, trace: EpisodeTrace, task: Task) -> list[str]:
        states = replay(trace, task)
        grades = self.grader.grades(trace, task)
        site, world = get_site(task.site), World.from_dict(task.world)
        return [exact_thought(trace, task, i, states, grades, site=site, world=world)
                for i in range(len(trace.steps))]

    def rows(self, label: str, mode: str, trace: EpisodeTrace, task: Task) -> list[Row]:
        return [thought_row(label, mode, trace, i, t, self.source, "exact")
                for i, t in enumerate(self.thoughts(trace, task))]


def exact_thought(trace: EpisodeTrace, task: Task, step_index: int, states: list[StepStates],
                  grades: list[Graded], *, site: Site | None = None,
                  world: World | None = None) -> str:
    """The thought of step ``step_index``: situation, reasoning, instruction (one paragraph,
    first person). ``states`` from :func:`webmdp.synth.replay.replay`, ``grades`` from
    :meth:`webmdp.synth.exact.ExactGrader.grades` of the same trace."""
    site = site or get_site(task.site)
    world = world or World.from_dict(task.world)
    step, s, g = trace.steps[step_index], states[step_index], grades[step_index]
    sem = _semantic(step)
    prepared = _prepared_action(trace, states, step_index) if sem is None and \
        g.why == "prepares" else None
    target = sem or prepared
    obs = _observe(site, world, s.before)
    names = _names(obs, world)
    involved = _involved(target, obs)
    parts = []
    if step_index == 0:
        parts.append(f"My task: {task.instruction.rstrip('.')}.")
    parts.append(_situation(obs, involved, step, sem))
    parts.append(_reasoning(trace, task, step, sem, prepared, g, names, s.informs))
    parts.append(_instruction(step, target, names))
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


def _situation(obs: Observation | None, involved: EntityView | None, step: GUIStep,
               sem: SemanticTransition | None) -> str:
    surface = obs.surface if obs is not None else (
        sem.surface_before if sem is not None else "")
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


def _reasoning(trace: EpisodeTrace, task: Task, step: GUIStep, sem: SemanticTransition | None,
               prepared: SemanticTransition | None, g: Graded, names: dict[str, str],
               informs: bool = False) -> str:
    what = phrase(sem.action, sem.params, names) if sem is not None else None
    why = g.why
    if why == "finish_pass":
        done = "; ".join(c.description for c in task.verifier if c.description)
        return f"Everything the task asks for is done{f' ({done})' if done else ''}, so I can " \
               "finish."
    if why == "finish_fail":
        return "I decide that I am done and finish here."
    if step.error is not None or (not step.transitions and step.action.get("kind") == "invalid"):
        return "My last attempt did not produce a usable action, so I try again."
    if sem is None and any(t.error for t in step.transitions):
        tried = next(t for t in step.transitions if t.error)
        return f"I try to {phrase(tried.action, tried.params, names)}, though the page may " \
               "not allow it here."
    if why == "prepares" and prepared is not None:
        return f"This prepares the next action: to " \
               f"{phrase(prepared.action, prepared.params, names)}, which moves me toward the goal."
    if what is None:
        return "This does not change what the page holds; I look around before acting."
    if why in ("closer", "follows_oracle") and not informs:
        return f"To get closer to the goal I need to {what} now."
    if why in ("informs", "closer", "follows_oracle"):
        seen = sorted({f for t in step.transitions for e, f in t.revealed
                       if (e, f) in {(c.entity, c.field) for c in task.info_constraints}})
        fields = f" ({', '.join(seen)})" if seen else ""
        return f"Before I commit to anything I must check details the task depends on{fields}, " \
               f"so I {what}."
    if why == "no_progress":
        return f"I {what}, although this does not bring me closer to the goal."
    if why == "detour":
        return f"I {what}; this takes me away from the goal for now, but it can be undone."
    if why == "irreversible":
        return f"I {what}; this cannot be undone, and the task can no longer be completed."
    if why == "still_unreachable":
        return f"The task is already out of reach; I {what}."
    return f"I {what}."


def _instruction(step: GUIStep, target: SemanticTransition | None, names: dict[str, str]) -> str:
    a = step.action
    goal = f" to {phrase(target.action, target.params, names)}" if target is not None else ""
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
    return f"I {action_text(a)}{goal}."


def _prepared_action(trace: EpisodeTrace, states: list[StepStates], i: int
                     ) -> SemanticTransition | None:
    """The semantic action a preparatory step leads to: the next step that caused one."""
    for j in range(i + 1, len(trace.steps)):
        t = _semantic(trace.steps[j])
        if t is not None:
            return t
        if states[j].finish:
            return None
    return None


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
