"""OpenAI-compatible endpoints through the official ``openai`` SDK (extra ``webmdp[openai]``).

``chat`` uses Chat Completions (OpenAI, vLLM, SGLang, any ``--base-url``); ``computer_turn``
uses the Responses API with the computer-use tool: ``computer_call`` items in, a
``computer_call_output`` with the new screenshot back, ``pending_safety_checks`` recorded in the
trace and acknowledged.
"""

from __future__ import annotations

from typing import Any

from webmdp.agents.llm.clients.base import (
    ChatMessage,
    ClientConfig,
    CUAState,
    ModelReply,
    Purpose,
    dumps,
    join_text,
    record,
    transient_cause,
    with_retries,
)
from webmdp.agents.llm.images import data_url
from webmdp.errors import ModelEndpointError


def _sdk() -> Any:
    try:
        import openai
    except ImportError as exc:  # the extra is optional
        raise ModelEndpointError("the openai SDK is not installed: pip install 'webmdp[openai]'"
                                 ) from exc
    return openai


def retryable(exc: Exception) -> str | None:
    """The transient cause of an SDK error (retried), or None (fail at once)."""
    return transient_cause(exc, _sdk())


def _chat_content(parts: tuple[str | bytes, ...]) -> list[dict[str, Any]] | str:
    if all(isinstance(p, str) for p in parts):
        return join_text(parts)
    return [{"type": "text", "text": p} if isinstance(p, str)
            else {"type": "image_url", "image_url": {"url": data_url(p)}} for p in parts]


def _responses_content(parts: tuple[str | bytes, ...]) -> list[dict[str, Any]]:
    return [{"type": "input_text", "text": p} if isinstance(p, str)
            else {"type": "input_image", "image_url": data_url(p)} for p in parts]


def _output_text(output: list[dict[str, Any]]) -> str:
    """The text of a response's ``message`` items."""
    return "\n".join(c.get("text", "") for o in output if o.get("type") == "message"
                     for c in o.get("content", []) if isinstance(c, dict))


class OpenAIClient:
    """Chat Completions and Responses (computer use) against one OpenAI-compatible endpoint."""

    api_for_computer: str | None = "responses"

    def __init__(self, config: ClientConfig):
        self.config = config
        openai = _sdk()
        self._client = openai.OpenAI(api_key=config.api_key or "EMPTY", base_url=config.base_url,
                                     timeout=config.timeout_s, max_retries=0)

    def chat(self, messages: list[ChatMessage], *, tools: list[dict[str, Any]] | None = None,
             purpose: Purpose = "act", temperature: float | None = None) -> ModelReply:
        cfg = self.config
        if cfg.chat_api == "responses":
            return self._chat_responses(messages, tools=tools, purpose=purpose)
        wire = [{"role": m.role, "content": _chat_content(m.parts)} for m in messages]
        kwargs: dict[str, Any] = {"model": cfg.model, "messages": wire,
                                  "temperature": cfg.temperature if temperature is None
                                  else temperature, "max_tokens": cfg.max_tokens}
        if tools:
            kwargs["tools"] = tools
        resp, att = with_retries(cfg, lambda: self._client.chat.completions.create(**kwargs),
                                 retryable)
        try:
            msg = resp.choices[0].message
        except (AttributeError, IndexError, TypeError) as exc:
            raise ModelEndpointError(f"{cfg.model}: malformed chat completion: {exc}") from exc
        text = msg.content or ""
        calls = [{"id": c.id, "name": c.function.name, "arguments": c.function.arguments}
                 for c in (msg.tool_calls or [])]
        raw = dumps({"content": text, "tool_calls": calls}) if calls else text
        usage = getattr(resp, "usage", None)
        call = record(cfg, "chat", purpose, att, raw=raw,
                      usage=(getattr(usage, "prompt_tokens", None),
                             getattr(usage, "completion_tokens", None)))
        return ModelReply(text=text, raw=raw, call=call, tool_calls=calls,
                          response_id=getattr(resp, "id", None))

    def _chat_responses(self, messages: list[ChatMessage], *,
                        tools: list[dict[str, Any]] | None, purpose: Purpose) -> ModelReply:
        """A chat request through the Responses API (system prompt as ``instructions``)."""
        cfg = self.config
        system = "\n\n".join(p for m in messages if m.role == "system" for p in m.parts
                              if isinstance(p, str))
        items = [{"role": m.role, "content": _responses_content(m.parts) if m.role == "user"
                  else "\n".join(p for p in m.parts if isinstance(p, str))}
                 for m in messages if m.role != "system"]
        kwargs: dict[str, Any] = {"model": cfg.model, "input": items, "truncation": "auto",
                                  "max_output_tokens": max(16, cfg.max_tokens)}
        if system:
            kwargs["instructions"] = system
        if tools:
            kwargs["tools"] = [{"type": "function", **t["function"]} for t in tools]
        resp, att = with_retries(cfg, lambda: self._client.responses.create(**kwargs), retryable)
        output = [o.model_dump(mode="json", exclude_none=True) for o in (resp.output or [])]
        text = _output_text(output)
        calls = [{"id": o.get("call_id"), "name": o.get("name"), "arguments": o.get("arguments")}
                 for o in output if o.get("type") == "function_call"]
        raw = dumps({"content": text, "tool_calls": calls}) if calls else text
        usage = getattr(resp, "usage", None)
        call = record(cfg, "responses", purpose, att, raw=raw,
                      usage=(getattr(usage, "input_tokens", None),
                             getattr(usage, "output_tokens", None)))
        return ModelReply(text=text, raw=raw, call=call, tool_calls=calls, items=output,
                          response_id=resp.id)

    def computer_turn(self, state: CUAState, *, screenshot: bytes, text: str | None,
                      tool: dict[str, Any], purpose: Purpose = "act", system: str = "",
                      temperature: float | None = None) -> tuple[ModelReply, CUAState]:
        """One Responses turn: the first carries the instruction and screenshot; later ones
        answer the pending ``computer_call`` with the new screenshot and acknowledge its
        safety checks (``text`` rides along as a user message)."""
        cfg = self.config
        items: list[dict[str, Any]] = []
        if state.pending_call is not None:
            items.append({"type": "computer_call_output", "call_id": state.pending_call,
                          "acknowledged_safety_checks": list(state.safety_checks),
                          "output": {"type": "computer_screenshot",
                                     "image_url": data_url(screenshot)}})
            if text:
                items.append({"role": "user", "content": _responses_content((text,))})
        else:
            parts: tuple[str | bytes, ...] = ((text,) if text else ()) + (screenshot,)
            items.append({"role": "user", "content": _responses_content(parts)})
        kwargs: dict[str, Any] = {"model": cfg.model, "input": items, "tools": [tool],
                                  "truncation": "auto", "reasoning": {"summary": "concise"}}
        if state.previous_id:
            kwargs["previous_response_id"] = state.previous_id
        if system:  # instructions do not carry over with previous_response_id: every turn
            kwargs["instructions"] = system
        if temperature is not None:
            kwargs["temperature"] = temperature
        resp, att = with_retries(cfg, lambda: self._client.responses.create(**kwargs), retryable)
        output = [o.model_dump(mode="json", exclude_none=True) for o in (resp.output or [])]
        call_item = next((o for o in output if o.get("type") == "computer_call"), None)
        checks = list(call_item.get("pending_safety_checks") or []) if call_item else []
        text_out = _output_text(output)
        usage = getattr(resp, "usage", None)
        raw = dumps(output)
        call = record(cfg, "responses", purpose, att, raw=raw, safety_checks=checks,
                      usage=(getattr(usage, "input_tokens", None),
                             getattr(usage, "output_tokens", None)))
        new = CUAState(previous_id=resp.id,
                       pending_call=call_item.get("call_id") if call_item else None,
                       safety_checks=tuple(checks))
        return ModelReply(text=text_out, raw=raw, call=call, items=output,
                          response_id=resp.id), new
