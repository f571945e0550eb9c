"""The Agent protocol and the semantic view that built-in agents plan on."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction
from webmdp.tasks.model import Task
from webmdp.trace import Mode


@dataclass
class AgentOutput:
    """An agent's step: the action and, for model agents, the raw text it came from."""

    action: Action | GUIAction
    raw: str | None = None


class Agent(Protocol):
    """Anything with ``reset(task, mode)`` and ``act(observation) -> AgentOutput``."""

    name: str

    def reset(self, task: Task, mode: Mode) -> None: ...

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
