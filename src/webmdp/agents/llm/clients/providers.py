"""The model providers webmdp ships (a provider plugin's entry point, group
``webmdp.clients``, names a :class:`Provider` like these)."""

from __future__ import annotations

from dataclasses import dataclass


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


_CLIENT = "webmdp.agents.llm.clients.openai_client:OpenAIClient"
OPENAI = Provider("openai", _CLIENT, "openai", "OPENAI_API_KEY", "OPENAI_BASE_URL", None,
                  "OpenAI Chat Completions; Responses API for computer use (grammar openai-cua)")
VLLM = Provider("vllm", _CLIENT, "openai", "VLLM_API_KEY", "VLLM_BASE_URL",
                "http://127.0.0.1:8000/v1",
                "a vLLM server's OpenAI-compatible Chat Completions (UI-TARS, Qwen-VL, ...)")
SGLANG = Provider("sglang", _CLIENT, "openai", "SGLANG_API_KEY", "SGLANG_BASE_URL",
                  "http://127.0.0.1:30000/v1",
                  "an SGLang server's OpenAI-compatible Chat Completions")
OPENAI_COMPATIBLE = Provider("openai-compatible", _CLIENT, "openai", "OPENAI_API_KEY",
                             "OPENAI_BASE_URL", None,
                             "any OpenAI-compatible endpoint (give --base-url)")
ANTHROPIC = Provider("anthropic", "webmdp.agents.llm.clients.anthropic_client:AnthropicClient",
                     "anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", None,
                     "Anthropic Messages; the computer-use tool for grammar anthropic-cua")
