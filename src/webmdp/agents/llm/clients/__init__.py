"""Model clients addressed as ``provider/model`` (``openai/gpt-4o``, ``vllm/ui-tars-1.5-7b``,
``anthropic/claude-sonnet-4-5``), imported lazily so their SDKs stay optional extras."""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from webmdp.agents.llm.clients.base import (
    ChatMessage,
    ClientConfig,
    CUAState,
    ModelClient,
    ModelReply,
    with_retries,
)
from webmdp.errors import ConfigError, unknown_choice
from webmdp.redact import register as register_secret
from webmdp.redact import register_url


@dataclass(frozen=True)
class Provider:
    """A provider: its client, the extra that installs its SDK, where keys and URLs come from."""

    name: str
    entry_point: str
    extra: str
    key_env: str
    url_env: str
    default_url: str | None
    description: str


PROVIDERS: dict[str, Provider] = {p.name: p for p in (
    Provider("openai", "webmdp.agents.llm.clients.openai_client:OpenAIClient", "openai",
             "OPENAI_API_KEY", "OPENAI_BASE_URL", None,
             "OpenAI Chat Completions; Responses API for computer use (grammar openai-cua)"),
    Provider("vllm", "webmdp.agents.llm.clients.openai_client:OpenAIClient", "openai",
             "VLLM_API_KEY", "VLLM_BASE_URL", "http://127.0.0.1:8000/v1",
             "a vLLM server's OpenAI-compatible Chat Completions (UI-TARS, Qwen-VL, ...)"),
    Provider("sglang", "webmdp.agents.llm.clients.openai_client:OpenAIClient", "openai",
             "SGLANG_API_KEY", "SGLANG_BASE_URL", "http://127.0.0.1:30000/v1",
             "an SGLang server's OpenAI-compatible Chat Completions"),
    Provider("openai-compatible", "webmdp.agents.llm.clients.openai_client:OpenAIClient",
             "openai", "OPENAI_API_KEY", "OPENAI_BASE_URL", None,
             "any OpenAI-compatible endpoint (give --base-url)"),
    Provider("anthropic", "webmdp.agents.llm.clients.anthropic_client:AnthropicClient",
             "anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", None,
             "Anthropic Messages; the computer-use tool for grammar anthropic-cua"),
)}


def parse_model_id(model_id: str) -> tuple[str, str]:
    """``provider/model`` -> (provider, model); the model part may itself contain slashes."""
    provider, sep, model = model_id.partition("/")
    if not sep or not model:
        raise ConfigError(f"model '{model_id}' must be given as PROVIDER/MODEL, e.g. "
                          f"openai/gpt-4o or vllm/ByteDance-Seed/UI-TARS-1.5-7B; providers: "
                          f"{', '.join(sorted(PROVIDERS))}")
    if provider not in PROVIDERS:
        raise unknown_choice("model provider", provider, list(PROVIDERS))
    return provider, model


def base_url_for(provider: str, base_url: str | None = None) -> str | None:
    """The endpoint a provider's client calls: ``base_url`` (a flag), else the provider's
    environment variable, else its default (None: the SDK's own)."""
    p = PROVIDERS[provider]
    return base_url or os.environ.get(p.url_env) or p.default_url


def client_config(model_id: str, **options: Any) -> ClientConfig:
    """A :class:`ClientConfig` from ``provider/model``, flags (``options``) and the provider's
    environment variables (flags win)."""
    provider, model = parse_model_id(model_id)
    p = PROVIDERS[provider]
    cfg = ClientConfig(provider=provider, model=model)
    base_url = base_url_for(provider, options.pop("base_url", None))
    api_key = options.pop("api_key", None) or os.environ.get(p.key_env)
    register_secret(api_key)  # whatever command calls the model, the key is never written
    register_url(base_url)  # nor a credential its URL carries, in any encoding
    if provider == "openai-compatible" and not base_url:
        raise ConfigError("provider openai-compatible needs --base-url (or OPENAI_BASE_URL)")
    return replace(cfg, base_url=base_url, api_key=api_key,
                   **{k: v for k, v in options.items() if v is not None})


def credential_sent(config: ClientConfig) -> str:
    """Which credential the endpoint of ``config`` gets, in words. A ``user:pass@`` in the URL
    becomes HTTP Basic auth (httpx builds it from the URL) and takes the Authorization header
    the SDK would fill with the API key: the key is then not sent."""
    parts = urlsplit(config.base_url or "")
    if parts.username or parts.password:
        return ("HTTP Basic auth from the user:pass in the URL" + (
            "; the API key is not sent (the URL's user:pass takes its Authorization header)"
            if config.api_key else ""))
    env = PROVIDERS[config.provider].key_env
    return ("the API key" if config.api_key
            else f"none (no API key; give --api-key or set {env} if the endpoint needs one)")


def make_client(config: ClientConfig) -> ModelClient:
    """Instantiate the provider's client (imports its SDK now, not before)."""
    module, attr = PROVIDERS[config.provider].entry_point.split(":")
    client: ModelClient = getattr(importlib.import_module(module), attr)(config)
    return client


__all__ = ["PROVIDERS", "CUAState", "ChatMessage", "ClientConfig", "ModelClient", "ModelReply",
           "Provider", "base_url_for", "client_config", "credential_sent", "make_client",
           "parse_model_id", "with_retries"]
