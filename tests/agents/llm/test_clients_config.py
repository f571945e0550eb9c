"""Provider addressing, configuration from flags and environment, and the retry policy."""

from __future__ import annotations

import pytest

from webmdp.agents.llm.clients import PROVIDERS, client_config, parse_model_id
from webmdp.agents.llm.clients.base import ClientConfig, with_retries
from webmdp.errors import ConfigError, ModelEndpointError


def test_parse_model_id_keeps_slashes_in_the_model() -> None:
    assert parse_model_id("vllm/ByteDance-Seed/UI-TARS-1.5-7B") == \
        ("vllm", "ByteDance-Seed/UI-TARS-1.5-7B")
    assert parse_model_id("anthropic/claude-sonnet-4-5") == ("anthropic", "claude-sonnet-4-5")


@pytest.mark.parametrize("bad", ["gpt-4o", "openai/", "nope/model"])
def test_parse_model_id_rejects(bad: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_model_id(bad)
    assert "openai" in str(err.value)  # names the valid providers


def test_config_flags_beat_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "env-key")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://env/v1")
    cfg = client_config("openai/gpt-4o")
    assert (cfg.api_key, cfg.base_url) == ("env-key", "http://env/v1")
    cfg = client_config("openai/gpt-4o", api_key="flag", base_url="http://flag/v1",
                        timeout_s=3.0, max_retries=None)
    assert (cfg.api_key, cfg.base_url, cfg.timeout_s) == ("flag", "http://flag/v1", 3.0)
    assert cfg.max_retries == ClientConfig("x", "y").max_retries  # None keeps the default


def test_vllm_has_a_local_default_and_compatible_needs_url(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VLLM_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert client_config("vllm/ui-tars").base_url == PROVIDERS["vllm"].default_url
    with pytest.raises(ConfigError, match="base-url"):
        client_config("openai-compatible/m")


class Transient(Exception):
    pass


def test_with_retries_backs_off_exponentially_then_succeeds() -> None:
    cfg = ClientConfig("vllm", "m", max_retries=4, backoff_s=0.5, max_backoff_s=1.5)
    sleeps: list[float] = []
    outcomes = iter([Transient(), Transient(), Transient(), "ok"])

    def send() -> str:
        v = next(outcomes)
        if isinstance(v, Exception):
            raise v
        return v

    value, att = with_retries(cfg, send, lambda e: "429" if isinstance(e, Transient) else None,
                              sleep=sleeps.append)
    assert value == "ok" and att.retries == 3
    assert sleeps == [0.5, 1.0, 1.5]  # doubled, capped at max_backoff_s


def test_with_retries_gives_up_with_every_cause() -> None:
    cfg = ClientConfig("vllm", "m", base_url="http://h/v1", max_retries=2, backoff_s=0)

    def send() -> str:
        raise Transient("boom")

    with pytest.raises(ModelEndpointError) as err:
        with_retries(cfg, send, lambda e: "503 server error", sleep=lambda s: None)
    msg = str(err.value)
    assert "vllm/m at http://h/v1" in msg and msg.count("503 server error") == 3


def test_with_retries_does_not_retry_a_client_error() -> None:
    calls = []

    def send() -> str:
        calls.append(1)
        raise ValueError("400 bad request")

    with pytest.raises(ModelEndpointError, match="400 bad request"):
        with_retries(ClientConfig("openai", "m", max_retries=5), send, lambda e: None,
                     sleep=lambda s: None)
    assert len(calls) == 1
