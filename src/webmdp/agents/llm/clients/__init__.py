"""Model clients addressed as ``provider/model`` (``openai/gpt-4o``, ``vllm/ui-tars-1.5-7b``,
``anthropic/claude-sonnet-4-5``), imported lazily so their SDKs stay optional extras."""

from __future__ import annotations

import importlib
import os
from dataclasses import replace
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
from webmdp.agents.llm.clients.providers import Provider
from webmdp.errors import ConfigError, unknown_choice
from webmdp.plugins import PluginError, Registry
from webmdp.redact import register as register_secret
from webmdp.redact import register_url


def _is_provider(value: object) -> None:
    if not isinstance(value, Provider):
        raise PluginError(f"a client entry point must name a Provider, not {value!r}")


_P = "webmdp.agents.llm.clients.providers:"
PROVIDERS: Registry[Provider] = Registry("model provider", "webmdp.clients", {
    "openai": _P + "OPENAI", "vllm": _P + "VLLM", "sglang": _P + "SGLANG",
    "openai-compatible": _P + "OPENAI_COMPATIBLE", "anthropic": _P + "ANTHROPIC",
}, check=_is_provider)
"""Every provider (a :class:`webmdp.plugins.Registry`, group ``webmdp.clients``)."""


def provider_names() -> list[str]:
    return PROVIDERS.names()


def provider_info(name: str) -> Provider:
    """The provider ``name`` (its client, extra, key and URL variables)."""
    provider = PROVIDERS.load(name)
    if provider.name != name:
        raise PluginError(f"provider '{name}' from package {PROVIDERS.entry(name).package} "
                          f"names itself '{provider.name}'")
    return provider


def parse_model_id(model_id: str) -> tuple[str, str]:
    """``provider/model`` -> (provider, model); the model part may itself contain slashes."""
    provider, sep, model = model_id.partition("/")
    if not sep or not model:
        raise ConfigError(f"model '{model_id}' must be given as PROVIDER/MODEL, e.g. "
                          f"openai/gpt-4o or vllm/ByteDance-Seed/UI-TARS-1.5-7B; providers: "
                          f"{', '.join(provider_names())}")
    if provider not in PROVIDERS:
        raise unknown_choice("model provider", provider, provider_names())
    return provider, model


def base_url_for(provider: str, base_url: str | None = None) -> str | None:
    """The endpoint a provider's client calls: ``base_url`` (a flag), else the provider's
    environment variable, else its default (None: the SDK's own)."""
    p = provider_info(provider)
    return base_url or os.environ.get(p.url_env) or p.default_url


def client_config(model_id: str, **options: Any) -> ClientConfig:
    """A :class:`ClientConfig` from ``provider/model``, flags (``options``) and the provider's
    environment variables (flags win)."""
    provider, model = parse_model_id(model_id)
    p = provider_info(provider)
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
    env = provider_info(config.provider).key_env
    return ("the API key" if config.api_key
            else f"none (no API key; give --api-key or set {env} if the endpoint needs one)")


def make_client(config: ClientConfig) -> ModelClient:
    """Instantiate the provider's client (imports its SDK now, not before)."""
    module, attr = provider_info(config.provider).entry_point.split(":")
    client: ModelClient = getattr(importlib.import_module(module), attr)(config)
    return client


__all__ = [
    "PROVIDERS",
    "CUAState",
    "ChatMessage",
    "ClientConfig",
    "ModelClient",
    "ModelReply",
    "Provider",
    "base_url_for",
    "client_config",
    "credential_sent",
    "make_client",
    "parse_model_id",
    "provider_info",
    "provider_names",
    "with_retries",
]
