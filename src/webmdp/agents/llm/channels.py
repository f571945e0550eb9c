"""Channels: how one decision turn talks to a model, as a pure step over a conversation state.

``decide(state, view, ...) -> Decision`` never mutates: the returned ``state`` is the
conversation after this turn, so the tree agent can fork a node's conversation for each
candidate and restore it when it backtracks.

- :class:`ChatChannel` rebuilds the prompt each turn (system prompt, instruction, trimmed
  history with the last screenshots, current observation): every text grammar on any provider.
- :class:`ComputerChannel` drives a provider's computer-use tool (OpenAI Responses, Anthropic),
  whose conversation carries tool-call ids from turn to turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from webmdp.agents.llm.clients import ChatMessage, CUAState, ModelClient
from webmdp.agents.llm.clients.base import Purpose
from webmdp.agents.llm.grammars.base import Grammar, ParseContext, Parsed, parse_output
from webmdp.agents.llm.observe import History, ModelView, ObservationConfig
from webmdp.trace import Mode, ModelCall

Cleaner = Callable[[str], str]
"""Removes paradigm lines (``Plan step: 2``) from a raw output before the grammar parses it."""


@dataclass
class Decision:
    parsed: Parsed
    call: ModelCall
    state: Any


class Channel(Protocol):
    def initial_state(self) -> Any: ...

    def decide(self, state: Any, view: ModelView, *, extra: str = "", purpose: Purpose = "act",
               temperature: float | None = None, clean: Cleaner | None = None) -> Decision: ...


def parse_context(mode: Mode, grammar: Grammar, obs_cfg: ObservationConfig, view: ModelView,
                  coords: str | None) -> ParseContext:
    return ParseContext(mode=mode, image_size=obs_cfg.image_size,
                        coords=(coords or grammar.default_coords),  # type: ignore[arg-type]
                        element_ids=view.element_ids)


def _merge(messages: list[ChatMessage]) -> list[ChatMessage]:
    """Join consecutive messages of one role (Anthropic requires strict alternation)."""
    out: list[ChatMessage] = []
    for m in messages:
        if out and out[-1].role == m.role:
            out[-1] = ChatMessage(m.role, out[-1].parts + m.parts)
        else:
            out.append(m)
    return out


def chat_messages(system: str, history: History, view: ModelView, obs_cfg: ObservationConfig,
                  extra: str = "") -> list[ChatMessage]:
    """One turn's prompt for a chat model: the system prompt, the instruction with the older
    answers (as ``history.trimmed(obs_cfg.history_tokens)`` keeps them), the recent turns with
    their screenshots, then the current observation. The step agent sends exactly this, and
    the SFT exporter writes exactly this (:mod:`webmdp.synth.export`), so a training input
    and an evaluation input are the same bytes."""
    turns = history.trimmed(obs_cfg.history_tokens)
    with_images = max(0, obs_cfg.history_images - 1)
    split = len(turns) - with_images
    older, recent = turns[:max(0, split)], turns[max(0, split):]
    intro = f"Task: {view.instruction}"
    if older:
        intro += "\n\nPrevious steps (oldest first):\n" + "\n".join(
            f"{i + 1}. {t.answer.strip()}" for i, t in enumerate(older))
    msgs = [ChatMessage.text("system", system), ChatMessage.text("user", intro)]
    for t in recent:
        if t.image is not None:
            msgs.append(ChatMessage("user", (t.image,)))
        msgs.append(ChatMessage.text("assistant", t.answer))
    current = "Current observation:\n" + view.text if view.text else "Current screenshot:"
    parts: tuple[str | bytes, ...] = (current,) + ((view.image,) if view.image else ())
    if extra:
        parts += (extra,)
    msgs.append(ChatMessage("user", parts))
    return _merge(msgs)


class ChatChannel:
    """Text grammars over a chat endpoint; the state is the :class:`History`."""

    def __init__(self, client: ModelClient, grammar: Grammar, *, mode: Mode,
                 obs_cfg: ObservationConfig, actions_doc: str = "", coords: str | None = None):
        self.client, self.grammar, self.mode = client, grammar, mode
        self.obs_cfg, self.coords = obs_cfg, coords
        self.system = grammar.system_prompt(mode=mode, actions_doc=actions_doc)

    def initial_state(self) -> History:
        return History()

    def messages(self, history: History, view: ModelView, extra: str) -> list[ChatMessage]:
        return chat_messages(self.system, history, view, self.obs_cfg, extra)

    def decide(self, state: History, view: ModelView, *, extra: str = "",
               purpose: Purpose = "act", temperature: float | None = None,
               clean: Cleaner | None = None) -> Decision:
        reply = self.client.chat(self.messages(state, view, extra), purpose=purpose,
                                 temperature=temperature)
        ctx = parse_context(self.mode, self.grammar, self.obs_cfg, view, self.coords)
        parsed = parse_output(self.grammar, clean(reply.raw) if clean else reply.raw, ctx)
        parsed.raw = reply.raw
        return Decision(parsed, reply.call, state.add(view.image, reply.raw))


class ComputerChannel:
    """A provider's computer-use tool; the state is the client's :class:`CUAState`."""

    def __init__(self, client: ModelClient, grammar: Any, *, obs_cfg: ObservationConfig,
                 coords: str | None = None):
        self.client, self.grammar, self.obs_cfg, self.coords = client, grammar, obs_cfg, coords
        self.tool = grammar.tool_spec(obs_cfg.image_size)
        self.system = grammar.system_prompt(mode="browser")

    def initial_state(self) -> CUAState:
        return CUAState()

    def decide(self, state: CUAState, view: ModelView, *, extra: str = "",
               purpose: Purpose = "act", temperature: float | None = None,
               clean: Cleaner | None = None) -> Decision:
        first = state.previous_id is None and not state.messages
        text = f"{view.instruction}\n\n{extra}".strip() if first else (extra or None)
        if view.image is None:
            raise ValueError("computer-use grammars need screenshot observations")
        reply, new = self.client.computer_turn(state, screenshot=view.image, text=text,
                                               tool=self.tool, purpose=purpose,
                                               system=self.system, temperature=temperature)
        ctx = parse_context("browser", self.grammar, self.obs_cfg, view, self.coords)
        return Decision(parse_output(self.grammar, reply.raw, ctx), reply.call, new)
