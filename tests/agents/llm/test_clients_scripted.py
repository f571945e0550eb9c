"""The model clients through the real ``openai`` / ``anthropic`` SDKs against the scripted
model server on loopback: accounting, retries, timeouts, refused connections, and the
computer-use conversations (safety checks acknowledged, tool results paired)."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from webmdp.agents.llm.clients import ChatMessage, CUAState, client_config, make_client
from webmdp.agents.llm.clients.base import ModelClient
from webmdp.errors import ModelEndpointError
from webmdp.testing import Reply, ScriptedModelServer


def _png() -> bytes:
    from io import BytesIO

    from PIL import Image

    buf = BytesIO()
    Image.new("RGB", (16, 10), "white").save(buf, format="PNG")
    return buf.getvalue()


def _client(model: str, srv: ScriptedModelServer, **options: Any) -> ModelClient:
    url = srv.root_url if model.startswith("anthropic/") else srv.base_url
    options = {"backoff_s": 0.01, "max_retries": 2, "timeout_s": 5.0, **options}
    return make_client(client_config(model, base_url=url, api_key="test", **options))


def _ask(client: ModelClient) -> Any:
    return client.chat([ChatMessage.text("system", "be brief"),
                        ChatMessage("user", ("what is on screen?", _png()))])


@pytest.mark.parametrize("model", ["vllm/ui-tars-1.5-7b", "anthropic/claude-sonnet-4-6"])
def test_chat_accounts_tokens_latency_and_raw(model: str) -> None:
    with ScriptedModelServer([Reply(text="Thought: ok\nAction: wait()", usage=(321, 12))]
                             ) as srv:
        reply = _ask(_client(model, srv))
    assert reply.raw == "Thought: ok\nAction: wait()"
    call = reply.call
    assert (call.prompt_tokens, call.completion_tokens, call.retries) == (321, 12, 0)
    assert call.latency_s > 0 and call.raw == reply.raw
    assert call.api == ("messages" if model.startswith("anthropic") else "chat")
    req = srv.requests[0]
    assert req.images() == [_png()]  # the screenshot arrived as a real PNG
    assert "be brief" in req.texts()


@pytest.mark.parametrize("model", ["openai/gpt-4o", "anthropic/claude-sonnet-4-6"])
@pytest.mark.parametrize("status", [429, 500, 503])
def test_transient_status_is_retried_then_succeeds(model: str, status: int) -> None:
    with ScriptedModelServer([Reply(status=status), Reply(text="fine")]) as srv:
        reply = _ask(_client(model, srv))
    assert reply.text == "fine"
    assert reply.call.retries == 1
    assert len(srv.requests) == 2


def test_timeout_is_retried_and_finally_names_the_cause() -> None:
    script = [Reply(delay_s=3.0, text="late")] * 3
    with ScriptedModelServer(script) as srv:
        client = _client("openai/gpt-4o", srv, timeout_s=0.3, max_retries=1)
        with pytest.raises(ModelEndpointError) as err:
            _ask(client)
    assert "timed out" in str(err.value)
    assert "after 1 retries" in str(err.value)


def test_server_down_is_an_infrastructure_error_naming_the_endpoint() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = make_client(client_config("vllm/ui-tars-1.5-7b",
                                       base_url=f"http://127.0.0.1:{port}/v1",
                                       backoff_s=0.01, max_retries=1))
    with pytest.raises(ModelEndpointError) as err:
        _ask(client)
    assert "connection failed" in str(err.value)
    assert f"127.0.0.1:{port}" in str(err.value)


def test_protocol_violation_fails_at_once_without_retry() -> None:
    with ScriptedModelServer([Reply(text="never")]) as srv:
        client = _client("anthropic/claude-sonnet-4-6", srv)
        with pytest.raises(ModelEndpointError) as err:  # Anthropic: first message must be user
            client.chat([ChatMessage.text("assistant", "hi")])
    assert "retries" in str(err.value) and "user" in str(err.value)
    assert len(srv.requests) == 1


def test_chat_tool_calls_are_kept_raw_even_when_malformed() -> None:
    with ScriptedModelServer([Reply(tool_calls=[{"name": "AddToCart",
                                                 "arguments": '{"product": '}])]) as srv:
        reply = _ask(_client("openai/gpt-4o", srv))
    assert reply.tool_calls[0]["name"] == "AddToCart"
    assert reply.tool_calls[0]["arguments"] == '{"product": '
    assert '"AddToCart"' in reply.raw


def test_responses_computer_turns_acknowledge_safety_checks() -> None:
    check = {"id": "cu_sc_1", "code": "malicious_instructions", "message": "be careful"}
    script = [Reply(thought="open the cart", computer={"type": "click", "x": 10, "y": 20,
                                                       "button": "left"},
                    safety_checks=[check]),
              Reply(computer={"type": "wait"})]
    with ScriptedModelServer(script) as srv:
        client = _client("openai/computer-use-preview", srv)
        tool = {"type": "computer_use_preview", "display_width": 1440, "display_height": 900,
                "environment": "browser"}
        first, state = client.computer_turn(CUAState(), screenshot=_png(), text="Buy it",
                                            tool=tool)
        second, state = client.computer_turn(state, screenshot=_png(), text=None, tool=tool,
                                             system="Stay on the site.")
    assert first.call.safety_checks == [check]  # recorded in the trace's model call
    assert state.pending_call is not None and state.previous_id == second.response_id
    follow_up = srv.requests[1].body
    assert follow_up["instructions"] == "Stay on the site."
    assert follow_up["previous_response_id"] == first.response_id
    output = follow_up["input"][0]
    assert output["type"] == "computer_call_output"
    assert output["acknowledged_safety_checks"] == [check]
    assert '"computer_call"' in first.raw and "open the cart" in first.raw


def test_responses_server_rejects_an_unacknowledged_safety_check() -> None:
    """The double is strict where the real API is: without the acknowledgement it is a 400."""
    check = {"id": "cu_sc_9", "code": "sensitive_domain", "message": "!"}
    script = [Reply(computer={"type": "wait"}, safety_checks=[check]), Reply(text="no")]
    with ScriptedModelServer(script) as srv:
        client = _client("openai/computer-use-preview", srv)
        tool = {"type": "computer_use_preview", "display_width": 1440, "display_height": 900,
                "environment": "browser"}
        _, state = client.computer_turn(CUAState(), screenshot=_png(), text="go", tool=tool)
        with pytest.raises(ModelEndpointError) as err:
            client.computer_turn(state.evolve(safety_checks=()), screenshot=_png(), text=None,
                                 tool=tool)
    assert "not acknowledged" in str(err.value)


def test_anthropic_computer_turns_pair_tool_results_with_screenshots() -> None:
    script = [Reply(text="I will click", computer={"action": "left_click",
                                                   "coordinate": [100, 50]}),
              Reply(computer={"action": "screenshot"}),
              Reply(text="done")]
    with ScriptedModelServer(script) as srv:
        client = _client("anthropic/claude-sonnet-4-6", srv)
        tool = {"type": "computer_20250124", "name": "computer", "display_width_px": 1356,
                "display_height_px": 847}
        state = CUAState()
        for _ in range(3):
            reply, state = client.computer_turn(state, screenshot=_png(), text="Buy it",
                                                tool=tool, system="Stay on the site.")
    assert reply.text == "done" and not state.pending_tool_uses
    last = srv.requests[2]
    assert last.body["system"] == "Stay on the site."
    assert "computer-use-2025-01-24" in last.headers["anthropic-beta"]
    results = [b for b in last.body["messages"][-1]["content"] if b["type"] == "tool_result"]
    assert [r["tool_use_id"] for r in results] == ["toolu_2"]
    assert len(last.images()) == 3  # the first screenshot and one per tool result


def test_chat_streams_text_tool_calls_and_usage_as_the_openai_sdk_reads_them() -> None:
    """``"stream": true``: server-sent chunks the official SDK reassembles (verifiers' eval
    client streams every request)."""
    import openai

    script = [Reply(text="hello"),
              Reply(tool_calls=[{"name": "Search", "arguments": {"query": "tents"}},
                                {"name": "Finish", "arguments": "{bad"}])]
    with ScriptedModelServer(script) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0)
        msgs: Any = [{"role": "user", "content": "hi"}]
        chunks = list(client.chat.completions.create(
            model="m", messages=msgs, stream=True, stream_options={"include_usage": True}))
        assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "hello"
        assert chunks[-1].choices == [] and chunks[-1].usage is not None
        assert chunks[-1].usage.total_tokens > 0
        chunks = list(client.chat.completions.create(model="m", messages=msgs, stream=True))
        calls = [tc for c in chunks for tc in (c.choices[0].delta.tool_calls or [])]
        assert [(tc.index, tc.function.name, tc.function.arguments) for tc in calls] == \
            [(0, "Search", '{"query": "tents"}'), (1, "Finish", "{bad")]
        assert chunks[-1].choices[0].finish_reason == "tool_calls"
        assert all(c.usage is None for c in chunks)
