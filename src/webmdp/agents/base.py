"""The Agent protocol and the semantic view that built-in agents plan on."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction
from webmdp.tasks.model import Task
from webmdp.trace import AgentLog, Mode, StepNotes, Termination


@dataclass
class AgentOutput:
    """An agent's step: the action and, for model agents, the raw text it came from.

    ``error`` set: the output did not parse; the step is recorded as invalid (``action`` is
    ignored). ``stop`` set: the agent ends the episode with that termination (a stop rule).
    ``notes``: thought, stated intent, plan step, model calls, recorded on the step.
    """

    action: Action | GUIAction | None
    raw: str | None = None
    notes: StepNotes | None = None
    error: str | None = None
    stop: Termination | None = None


class Agent(Protocol):
    """Anything with ``reset(task, mode)`` and ``act(observation) -> AgentOutput``.

    ``bind(env)`` is called after each reset: agents that search (snapshot / restore the
    session) keep the env; others ignore it. ``log`` is the episode-level record a model agent
    keeps (plans, search tree, stop reason), attached to the trace; None for others.
    """

    name: str
    log: AgentLog | None

    def reset(self, task: Task, mode: Mode) -> None: ...

    def bind(self, env: Any) -> None: ...

    def act(self, obs: dict[str, Any]) -> AgentOutput: ...


@dataclass
class SemanticView:
    """The semantic actions a screen offers, in display order: from the MDP observation in
    semantic mode, from the page's bound elements in browser mode."""

    available: list[Action] = field(default_factory=list)
    surface: str = ""
    focus: str | None = None

    @classmethod
    def of(cls, obs: dict[str, Any]) -> SemanticView:
        if "observation" in obs:
            o = obs["observation"]
            focus = o.entities[0].id if o.kind.value == "detail" and o.entities else None
            return cls(list(o.available), o.surface, focus)
        seen: dict[tuple[str, str], Action] = {}
        for n in obs.get("nodes", []):
            name = n.get("action")
            if not name:
                continue
            # a text field offers its action with the typed parameters left to the agent
            params = {} if n.get("field") else json.loads(n.get("params") or "{}")
            seen.setdefault((name, json.dumps(params, sort_keys=True)), Action(name, params))
        return cls(list(seen.values()))

    def names(self) -> set[str]:
        return {a.name for a in self.available}

    def find(self, name: str, **params: Any) -> Action | None:
        for a in self.available:
            if a.name == name and all(a.params.get(k) == v for k, v in params.items()):
                return a
        return None
