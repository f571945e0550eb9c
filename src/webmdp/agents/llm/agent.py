"""The model agent: a channel to a model, a grammar, stop rules, and step notes.

Subclasses are the planning paper's paradigms (section 3.1): :class:`StepAgent` (step-by-step,
one thought + action per turn), ``PlanAgent`` (full plan in advance) and ``TreeAgent``
(best-first tree search). Stop rules follow the paper's setup (6.3): 3 consecutive unparseable
outputs end the episode (``unparseable``), and so does the same action repeated more than 3
times on an unchanged observation (``repeated_action``).
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from typing import Any, Literal

from webmdp.agents.base import AgentOutput
from webmdp.agents.llm.channels import (
    Channel,
    ChatChannel,
    Cleaner,
    ComputerChannel,
    Decision,
)
from webmdp.agents.llm.clients import client_config, make_client
from webmdp.agents.llm.grammars import GrammarInfo, actions_doc, get_grammar, grammar_info
from webmdp.agents.llm.observe import ModelView, model_view
from webmdp.core.spec import Action
from webmdp.env.actions import GUIAction
from webmdp.errors import ConfigError
from webmdp.sites import get_site
from webmdp.tasks.model import Task
from webmdp.trace import AgentLog, Mode, ModelCall, StepNotes

Paradigm = Literal["step", "plan", "tree"]


@dataclass(frozen=True)
class ModelAgentConfig:
    """Everything that defines a model agent run; a results file can rebuild it."""

    model: str
    grammar: str = "json"
    base_url: str | None = None
    api_key: str | None = None
    timeout_s: float | None = None
    max_retries: int | None = None
    backoff_s: float | None = None
    concurrency: int | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    coords: str | None = None
    history_images: int | None = None
    history_tokens: int = 6000
    set_of_marks: bool = False
    axtree: bool | None = None
    value: Literal["model", "oracle"] = "model"
    branching: int = 3
    max_replans: int = 3
    unparseable_limit: int = 3
    repeat_limit: int = 3

    def client_options(self) -> dict[str, Any]:
        return {"base_url": self.base_url, "api_key": self.api_key, "timeout_s": self.timeout_s,
                "max_retries": self.max_retries, "backoff_s": self.backoff_s,
                "concurrency": self.concurrency, "temperature": self.temperature,
                "max_tokens": self.max_tokens}


def action_dict(action: GUIAction | Action) -> dict[str, Any]:
    return action.to_dict()


class ModelAgent:
    """Shared machinery of the three paradigms; :meth:`turn` is what they vary."""

    paradigm: Paradigm = "step"

    def __init__(self, config: ModelAgentConfig, seed: int = 0):
        self.config = config
        self.name = f"{self.paradigm}:{config.model}"
        self.info: GrammarInfo = grammar_info(config.grammar)
        self.grammar = get_grammar(config.grammar)
        if config.coords == "relative1000" and hasattr(self.grammar, "display_size"):
            # Qwen3-VL style: the prompt declares a 1000x1000 screen to match 0-1000 output
            self.grammar = type(self.grammar)(display_size=(1000, 1000))
        options = config.client_options()
        if self.info.channel == "computer":
            options["chat_api"] = "responses"
        self.client = make_client(client_config(config.model, **options))
        self.seed = seed
        self.task: Task | None = None
        self.mode: Mode = "semantic"
        self.env: Any = None
        self.log: AgentLog | None = None

    # -- protocol ---------------------------------------------------------------------------
    def reset(self, task: Task, mode: Mode) -> None:
        if mode not in self.grammar.modes:
            raise ConfigError(f"grammar {self.config.grammar} works in "
                              f"{' / '.join(self.grammar.modes)} mode, not {mode}")
        self.task, self.mode = task, mode
        self.obs_cfg = self.info.observation(mode, self.config)
        self.channel = self._channel(task, mode)
        self.state: Any = self.channel.initial_state()
        self.queue: deque[tuple[GUIAction | Action, StepNotes]] = deque()
        self.bad_outputs = 0
        self.last_key: tuple[str, str] | None = None
        self.repeats = 0
        self.log = AgentLog(paradigm=self.paradigm, model=self.config.model,
                            grammar=self.config.grammar)
        self.start()

    def bind(self, env: Any) -> None:
        self.env = env

    def act(self, obs: dict[str, Any]) -> AgentOutput:
        view = model_view(obs, self.obs_cfg)
        if self.queue:  # the rest of a multi-action output
            action, notes = self.queue.popleft()
            return self._checked(action, notes, view)
        return self.turn(obs, view)

    # -- paradigm hooks ---------------------------------------------------------------------
    def start(self) -> None:
        """Per-episode initialisation of a paradigm."""

    def turn(self, obs: dict[str, Any], view: ModelView) -> AgentOutput:
        decision = self.decide(view)
        return self.emit(decision, [decision.call], view)

    # -- shared machinery -------------------------------------------------------------------
    def _channel(self, task: Task, mode: Mode) -> Channel:
        if self.info.channel == "computer":
            return ComputerChannel(self.client, self.grammar, obs_cfg=self.obs_cfg,
                                   coords=self.config.coords)
        return ChatChannel(self.client, self.grammar, mode=mode, obs_cfg=self.obs_cfg,
                           actions_doc=actions_doc(self.info.name, get_site(task.site), mode),
                           coords=self.config.coords)

    def decide(self, view: ModelView, *, extra: str = "", temperature: float | None = None,
               clean: Cleaner | None = None) -> Decision:
        decision = self.channel.decide(self.state, view, extra=extra, temperature=temperature,
                                       clean=clean)
        self.state = decision.state
        return decision

    def emit(self, decision: Decision, calls: list[ModelCall], view: ModelView, *,
             plan_step: int | None = None, node: int | None = None) -> AgentOutput:
        """Turn a decision into this step's output, applying the stop rules."""
        parsed = decision.parsed
        notes = StepNotes(thought=parsed.thought or None, plan_step=plan_step, node=node,
                          model_calls=calls)
        if not parsed.ok:
            self.bad_outputs += 1
            if self.bad_outputs >= self.config.unparseable_limit:
                return self.stop("unparseable", f"{self.bad_outputs} consecutive unparseable "
                                 f"outputs; last: {parsed.error}", parsed.raw, notes)
            return AgentOutput(None, raw=parsed.raw, notes=notes,
                               error=f"unparseable output: {parsed.error}")
        self.bad_outputs = 0
        first, *rest = parsed.actions
        for extra_action in rest:
            self.queue.append((extra_action, StepNotes(intent=action_dict(extra_action),
                                                       plan_step=plan_step, node=node)))
        notes.intent = parsed.intent or action_dict(first)
        out = self._checked(first, notes, view)
        out.raw = parsed.raw
        return out

    def _checked(self, action: GUIAction | Action, notes: StepNotes, view: ModelView
                 ) -> AgentOutput:
        if notes.intent is None:
            notes.intent = action_dict(action)
        key = (json.dumps(action_dict(action), sort_keys=True), view.digest)
        self.repeats = self.repeats + 1 if key == self.last_key else 1
        self.last_key = key
        if self.repeats > self.config.repeat_limit:
            return self.stop("repeated_action", f"{key[0]} repeated {self.repeats} times on an "
                             "unchanged observation", None, notes)
        return AgentOutput(action, notes=notes)

    def stop(self, termination: Literal["unparseable", "repeated_action"], reason: str,
             raw: str | None, notes: StepNotes) -> AgentOutput:
        assert self.log is not None
        self.log.stop_reason = reason
        return AgentOutput(None, raw=raw, notes=notes, error=reason, stop=termination)


class StepAgent(ModelAgent):
    """Step-by-step (ReAct): one thought and one action per turn, on the current observation."""

    paradigm: Paradigm = "step"
