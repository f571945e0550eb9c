"""SemanticEnv: agents act with typed semantic actions directly on the MDP."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from webmdp.core.model import EntityView, Observation, World
from webmdp.core.site import Site
from webmdp.core.spec import MAX_TEXT, Action
from webmdp.env.episode import DEFAULT_STEP_BUDGET, INVALID_KIND, Episode
from webmdp.errors import shown
from webmdp.sites import get_site
from webmdp.tasks.codes import Coder
from webmdp.tasks.model import Task
from webmdp.trace import EpisodeTrace, StepNotes, Termination
from webmdp.tracking import Tracker, state_key

FINISH = "Finish"


def as_action(action: Action | dict[str, Any]) -> Action:
    if isinstance(action, Action):
        return action
    return Action.from_dict(action)


class SemanticEnv:
    """Gymnasium-shaped env over a task's semantic MDP.

    Observation: ``{"text", "observation", "instruction"}``. Actions: :class:`Action` (or its
    dict form); ``Action("Finish", {"answer": ...})`` ends the episode. An invalid action is
    recorded as an invalid step and the episode goes on, as is model output that gave no action
    (:meth:`record_invalid`). ``terminated``: the agent finished; ``truncated``: the step budget
    ran out. :meth:`snapshot` / :meth:`restore` let a tree-search agent backtrack.
    """

    mode = "semantic"

    def __init__(self, task: Task, *, agent: str = "agent", step_budget: int = DEFAULT_STEP_BUDGET):
        self.task = task
        self.site = get_site(task.site)
        self.world = World.from_dict(task.world)
        self.agent = agent
        self.step_budget = step_budget
        self.episode: Episode | None = None
        self.tracker: Tracker | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.tracker = Tracker(self.site, self.world, Coder.of(self.task).code)
        self.episode = Episode(self.task, agent=self.agent, mode="semantic",
                               step_budget=self.step_budget)
        self.episode.start(self.tracker.state.surface, self.tracker.initial_revealed)
        return self._obs(), {"task_id": self.task.id, "instruction": self.task.instruction}

    def _obs(self) -> dict[str, Any]:
        assert self.tracker is not None
        obs = _without_pixels(self.site, self.site.observe(self.tracker.state, self.world))
        if self.tracker.code is not None:  # what the latest commit showed, as pages show it
            obs = dataclasses.replace(obs, context={**obs.context,
                                                    "confirmation code": self.tracker.code})
        return {"text": obs.to_text(), "observation": obs, "instruction": self.task.instruction}

    def _live(self) -> tuple[Episode, Tracker]:
        if self.episode is None or self.tracker is None or self.episode.done:
            raise RuntimeError("no episode in progress: call reset() first")
        return self.episode, self.tracker

    def step(self, action: Action | dict[str, Any], *, raw_output: str | None = None,
             agent_s: float = 0.0, notes: StepNotes | None = None):
        episode, tracker = self._live()
        try:
            act = as_action(action)
        except (KeyError, TypeError, ValueError) as exc:
            return self.record_invalid(f"malformed action {shown(action)}: {shown(exc)}",
                                       raw_output=raw_output, agent_s=agent_s, notes=notes)
        t0 = time.perf_counter()
        if act.name == FINISH:
            answer = act.params.get("answer")
            if isinstance(answer, str) and len(answer) > MAX_TEXT:  # as GUIAction's answer
                return self.record_invalid(f"{FINISH}: answer is {len(answer)} characters, "
                                           f"at most {MAX_TEXT}", raw_output=raw_output,
                                           agent_s=agent_s, notes=notes)
            episode.record(act.to_dict(), [], raw_output=raw_output, agent_s=agent_s, notes=notes)
            trace = episode.close(self.site.facts(tracker.state), termination="finished",
                                  answer=answer)
            return self._obs(), float(trace.success), True, False, self._info()
        rec = tracker.apply(act)
        episode.record(act.to_dict(), [rec], raw_output=raw_output, agent_s=agent_s,
                       env_s=time.perf_counter() - t0, notes=notes)
        return self._after_step(rec.error)

    def record_invalid(self, error: str, *, raw_output: str | None = None, agent_s: float = 0.0,
                       notes: StepNotes | None = None):
        """A step whose model output gave no action: recorded with ``error``, no transition;
        it counts against the step budget. Returns the step 5-tuple."""
        episode, _ = self._live()
        episode.record({"kind": INVALID_KIND}, [], raw_output=raw_output, agent_s=agent_s,
                       error=error, notes=notes)
        return self._after_step(error)

    def _after_step(self, error: str | None):
        episode, tracker = self._live()
        truncated = episode.over_budget()
        if truncated:
            episode.close(self.site.facts(tracker.state), termination="budget")
        reward = float(episode.trace.success) if truncated else 0.0
        return self._obs(), reward, False, truncated, self._info(error)

    def snapshot(self) -> str:
        """Keep the current semantic state; returns its id for :meth:`restore`."""
        _, tracker = self._live()
        return tracker.snapshot()

    def restore(self, snapshot_id: str, *, node: int | None = None) -> dict[str, Any]:
        """Backtrack to a snapshot (recorded in ``trace.restores``; no transition, no step):
        returns the observation there. Raises :class:`ConfigError` for an unknown id."""
        episode, tracker = self._live()
        state = tracker.restore(snapshot_id)
        episode.record_restore(snapshot_id, node=node, state_key=state_key(state))
        return self._obs()

    def seal(self, termination: Termination, *, infra_error: str | None = None,
             agent_error: str | None = None) -> EpisodeTrace:
        """End the episode early (agent failure or a stop rule); the run goes on."""
        assert self.episode is not None
        facts = self.site.facts(self.tracker.state) if self.tracker is not None else {}
        return self.episode.close(facts, termination=termination, infra_error=infra_error,
                                  agent_error=agent_error)

    def _info(self, error: str | None = None) -> dict[str, Any]:
        assert self.episode is not None
        return {"error": error, "steps": self.episode.n_steps, "done": self.episode.done}

    @property
    def trace(self) -> EpisodeTrace:
        assert self.episode is not None
        return self.episode.trace

    def close(self) -> None:
        """Nothing to release; present for the gymnasium shape."""


PIXELS = "[shown only in an image]"


def _without_pixels(site: Site, obs: Observation) -> Observation:
    """What an agent may read: a field the surface shows only in pixels (``pixel_fields``: a
    chart, a photo) is not given as text, as the page gives it to no text agent either. The
    tracker still counts it as revealed, so coverage stays exact."""
    hidden = site.pixel_fields.get(obs.surface)
    if not hidden:
        return obs
    entities = tuple(EntityView(e.id, {k: PIXELS if k in hidden else v
                                       for k, v in e.fields.items()}) for e in obs.entities)
    return dataclasses.replace(obs, entities=entities)
