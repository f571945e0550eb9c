"""What every model client shares: configuration, messages, replies, retries, concurrency.

Clients are the narrow seam to the outside world (STYLE.md, httpx): an agent talks to a
:class:`ModelClient`; only the provider modules import an SDK, lazily.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, TypeVar

from webmdp.errors import ModelEndpointError
from webmdp.trace import ModelCall

Purpose = Literal["act", "plan", "replan", "value", "propose", "judge"]
T = TypeVar("T")


@dataclass(frozen=True)
class ClientConfig:
    """How to reach and call one model endpoint."""

    provider: str
    model: str
    base_url: str | None = None
    api_key: str | None = None
    timeout_s: float = 120.0
    max_retries: int = 4
    backoff_s: float = 1.0
    max_backoff_s: float = 30.0
    concurrency: int = 4
    temperature: float = 0.0
    max_tokens: int = 1024
    chat_api: Literal["chat", "responses"] = "chat"
    """OpenAI: where ``chat`` requests go. Computer-use models answer only the Responses API,
    so their plan and value requests go there too."""

    @property
    def endpoint(self) -> str:
        return self.base_url or self.provider


@dataclass(frozen=True)
class ChatMessage:
    """One message: ``parts`` are text (str) or PNG images (bytes), in order."""

    role: Literal["system", "user", "assistant"]
    parts: tuple[str | bytes, ...]

    @classmethod
    def text(cls, role: Literal["system", "user", "assistant"], text: str) -> ChatMessage:
        return cls(role, (text,))

    @property
    def joined(self) -> str:
        """The text parts as one string, as an OpenAI-compatible chat request carries a
        text-only message (and as an exported sample's turn holds it)."""
        return join_text(self.parts)


def join_text(parts: tuple[str | bytes, ...]) -> str:
    return "\n".join(p for p in parts if isinstance(p, str))


@dataclass
class ModelReply:
    """One model answer. ``raw`` is what grammars parse: the text, or JSON of the tool calls /
    output items / content blocks when the model answered with tools."""

    text: str
    raw: str
    call: ModelCall
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    items: list[dict[str, Any]] = field(default_factory=list)
    response_id: str | None = None


@dataclass(frozen=True)
class CUAState:
    """The client side of a computer-use conversation, as an immutable value so a tree-search
    agent can fork and restore it. OpenAI Responses: ``previous_id`` and the pending call;
    Anthropic: the whole message list."""

    previous_id: str | None = None
    pending_call: str | None = None
    safety_checks: tuple[dict[str, Any], ...] = ()
    messages: tuple[dict[str, Any], ...] = ()
    pending_tool_uses: tuple[str, ...] = ()

    def evolve(self, **changes: Any) -> CUAState:
        return replace(self, **changes)


class ModelClient(Protocol):
    """A model endpoint. ``chat`` works for every provider; ``computer_turn`` for those with a
    computer-use tool (OpenAI Responses, Anthropic)."""

    config: ClientConfig
    api_for_computer: str | None

    def chat(self, messages: list[ChatMessage], *, tools: list[dict[str, Any]] | None = None,
             purpose: Purpose = "act", temperature: float | None = None) -> ModelReply: ...

    def computer_turn(self, state: CUAState, *, screenshot: bytes, text: str | None,
                      tool: dict[str, Any], purpose: Purpose = "act", system: str = "",
                      temperature: float | None = None) -> tuple[ModelReply, CUAState]: ...


# -- per-endpoint concurrency (a registry: one semaphore per endpoint and process) -------------
_LIMITS: dict[str, threading.BoundedSemaphore] = {}
_LIMITS_LOCK = threading.Lock()


def endpoint_slot(config: ClientConfig) -> threading.BoundedSemaphore:
    """The semaphore that caps concurrent requests to ``config``'s endpoint."""
    with _LIMITS_LOCK:
        sem = _LIMITS.get(config.endpoint)
        if sem is None:
            sem = _LIMITS[config.endpoint] = threading.BoundedSemaphore(max(1, config.concurrency))
        return sem


# -- retries ------------------------------------------------------------------------------------
@dataclass
class Attempts:
    """Outcome of :func:`with_retries`: the value, how many retries it took, the latency."""

    retries: int = 0
    latency_s: float = 0.0
    errors: list[str] = field(default_factory=list)


def with_retries(config: ClientConfig, send: Callable[[], T],
                 retryable: Callable[[Exception], str | None],
                 sleep: Callable[[float], None] = time.sleep) -> tuple[T, Attempts]:
    """Call ``send`` under the endpoint's concurrency limit; retry with exponential backoff
    while ``retryable(exc)`` names a transient cause (429, 5xx, timeout, refused). A final
    failure raises :class:`ModelEndpointError` naming every cause."""
    att = Attempts()
    for attempt in range(config.max_retries + 1):
        t0 = time.perf_counter()
        try:
            with endpoint_slot(config):
                value = send()
            att.latency_s = round(time.perf_counter() - t0, 4)
            return value, att
        except Exception as exc:
            cause = retryable(exc)
            att.errors.append(cause or f"{type(exc).__name__}: {exc}")
            if cause is None or attempt == config.max_retries:
                raise ModelEndpointError(
                    f"{config.provider}/{config.model} at {config.endpoint} failed after "
                    f"{attempt} retries: {'; '.join(att.errors)}") from exc
            att.retries += 1
            sleep(min(config.max_backoff_s, config.backoff_s * 2 ** attempt))
    raise AssertionError("unreachable")


def transient_cause(exc: Exception, sdk: Any) -> str | None:
    """The transient cause of an ``openai`` / ``anthropic`` SDK error (both SDKs name their
    errors alike), to be retried; None for an error that will not go away by itself."""
    if isinstance(exc, sdk.APITimeoutError):
        return "request timed out"
    if isinstance(exc, sdk.APIConnectionError):
        return f"connection failed ({exc.__cause__ or exc})"
    if isinstance(exc, sdk.RateLimitError):
        return "429 rate limited"
    if isinstance(exc, sdk.APIStatusError) and exc.status_code >= 500:
        return f"{exc.status_code} server error"
    return None


def record(config: ClientConfig, api: Literal["chat", "responses", "messages"], purpose: Purpose,
           att: Attempts, *, raw: str, usage: tuple[int | None, int | None],
           safety_checks: list[dict[str, Any]] | None = None) -> ModelCall:
    """The :class:`ModelCall` accounting entry of one successful request."""
    return ModelCall(provider=config.provider, model=config.model, api=api, purpose=purpose,
                     prompt_tokens=usage[0], completion_tokens=usage[1],
                     latency_s=att.latency_s, retries=att.retries, raw=raw,
                     safety_checks=safety_checks or [])


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=False)
