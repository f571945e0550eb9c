"""Anthropic Messages through the official ``anthropic`` SDK (extra ``webmdp[anthropic]``).

``chat`` is a plain Messages call; ``computer_turn`` drives the computer-use tool: the reply's
``tool_use`` blocks are answered next turn with ``tool_result`` blocks holding the new
screenshot. The conversation lives in :class:`CUAState`, so it can be forked and restored.
"""

from __future__ import annotations

import inspect
from typing import Any

from webmdp.agents.llm.clients.base import (
    ChatMessage,
    ClientConfig,
    CUAState,
    ModelReply,
    Purpose,
    dumps,
    record,
    transient_cause,
    with_retries,
)
from webmdp.agents.llm.images import b64
from webmdp.errors import ModelEndpointError

COMPUTER_BETAS = {"computer_20250124": "computer-use-2025-01-24",
                  "computer_20251124": "computer-use-2025-11-24"}


def _sdk() -> Any:
    try:
        import anthropic
    except ImportError as exc:  # the extra is optional
        raise ModelEndpointError(
            "the anthropic SDK is not installed: pip install 'webmdp[anthropic]'") from exc
    return anthropic


def retryable(exc: Exception) -> str | None:
    """The transient cause of an SDK error (retried), or None (fail at once)."""
    return transient_cause(exc, _sdk())


def _accepts(method: Any, name: str) -> bool:
    try:
        return name in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return True


def image_block(png: bytes) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                        "data": b64(png)}}


def _content(parts: tuple[str | bytes, ...]) -> list[dict[str, Any]]:
    return [{"type": "text", "text": p} if isinstance(p, str) else image_block(p) for p in parts]


class AnthropicClient:
    """Messages and the computer-use tool against Anthropic (or a compatible ``--base-url``)."""

    api_for_computer: str | None = "messages"

    def __init__(self, config: ClientConfig):
        self.config = config
        anthropic = _sdk()
        self._client = anthropic.Anthropic(api_key=config.api_key or "EMPTY",
                                           base_url=config.base_url, timeout=config.timeout_s,
                                           max_retries=0)

    def _send(self, kwargs: dict[str, Any], purpose: Purpose, beta: bool
              ) -> tuple[ModelReply, list[dict[str, Any]]]:
        cfg = self.config
        api = self._client.beta.messages if beta else self._client.messages
        if "temperature" in kwargs and not _accepts(api.create, "temperature"):
            del kwargs["temperature"]  # newer SDKs (and models) no longer take it
        resp, att = with_retries(cfg, lambda: api.create(**kwargs), retryable)
        blocks = [b.model_dump(mode="json", exclude_none=True) for b in (resp.content or [])]
        text = "\n".join(b.get("text", "") for b in blocks if b.get("type") == "text")
        uses = [b for b in blocks if b.get("type") == "tool_use"]
        raw = dumps(blocks) if uses else text
        usage = getattr(resp, "usage", None)
        call = record(cfg, "messages", purpose, att, raw=raw,
                      usage=(getattr(usage, "input_tokens", None),
                             getattr(usage, "output_tokens", None)))
        calls = [{"id": b.get("id"), "name": b.get("name"), "arguments": b.get("input", {})}
                 for b in uses]
        return ModelReply(text=text, raw=raw, call=call, tool_calls=calls, items=blocks,
                          response_id=getattr(resp, "id", None)), blocks

    def chat(self, messages: list[ChatMessage], *, tools: list[dict[str, Any]] | None = None,
             purpose: Purpose = "act", temperature: float | None = None) -> ModelReply:
        cfg = self.config
        system = "\n\n".join(p for m in messages if m.role == "system" for p in m.parts
                             if isinstance(p, str))
        wire = [{"role": m.role, "content": _content(m.parts)} for m in messages
                if m.role != "system"]
        kwargs: dict[str, Any] = {"model": cfg.model, "max_tokens": cfg.max_tokens,
                                  "messages": wire, "temperature": cfg.temperature
                                  if temperature is None else temperature}
        if system:
            kwargs["system"] = system
        if tools:  # OpenAI function tools -> Anthropic tools
            kwargs["tools"] = [{"name": t["function"]["name"],
                                "description": t["function"].get("description", ""),
                                "input_schema": t["function"].get("parameters", {})}
                               for t in tools]
        reply, _ = self._send(kwargs, purpose, beta=False)
        return reply

    def computer_turn(self, state: CUAState, *, screenshot: bytes, text: str | None,
                      tool: dict[str, Any], purpose: Purpose = "act", system: str = "",
                      temperature: float | None = None, keep_images: int = 3
                      ) -> tuple[ModelReply, CUAState]:
        """One computer-use turn: answer every pending ``tool_use`` with a ``tool_result``
        (the new screenshot goes in the last one); the first turn carries the instruction.
        Only the last ``keep_images`` screenshots are sent, as Anthropic's reference loop does."""
        cfg = self.config
        if state.pending_tool_uses:
            content: list[dict[str, Any]] = [
                {"type": "tool_result", "tool_use_id": tid,
                 "content": [image_block(screenshot)] if i == len(state.pending_tool_uses) - 1
                 else [{"type": "text", "text": "done"}]}
                for i, tid in enumerate(state.pending_tool_uses)]
            if text:
                content.append({"type": "text", "text": text})
        else:
            content = _content(((text,) if text else ()) + (screenshot,))
        messages = _keep_last_images([*state.messages, {"role": "user", "content": content}],
                                     keep_images)
        beta = COMPUTER_BETAS.get(tool.get("type", ""), "computer-use-2025-01-24")
        kwargs: dict[str, Any] = {"model": cfg.model, "max_tokens": cfg.max_tokens,
                                  "messages": messages, "tools": [tool], "betas": [beta],
                                  "temperature": cfg.temperature if temperature is None
                                  else temperature}
        if system:
            kwargs["system"] = system
        reply, blocks = self._send(kwargs, purpose, beta=True)
        uses = tuple(str(b.get("id")) for b in blocks if b.get("type") == "tool_use")
        new = CUAState(messages=(*messages, {"role": "assistant", "content": blocks}),
                       pending_tool_uses=uses)
        return reply, new


def _keep_last_images(messages: list[dict[str, Any]], keep: int) -> list[dict[str, Any]]:
    """Replace all but the last ``keep`` screenshots in tool results with a text stub."""
    seen = 0
    out: list[dict[str, Any]] = []
    for msg in reversed(messages):
        content = msg.get("content")
        if msg.get("role") != "user" or not isinstance(content, list):
            out.append(msg)
            continue
        blocks = []
        for block in content:
            if block.get("type") == "tool_result" and isinstance(block.get("content"), list):
                inner = []
                for part in block["content"]:
                    if part.get("type") == "image":
                        seen += 1
                        if seen > keep:
                            part = {"type": "text", "text": "(older screenshot omitted)"}
                    inner.append(part)
                block = {**block, "content": inner}
            blocks.append(block)
        out.append({**msg, "content": blocks})
    return list(reversed(out))
