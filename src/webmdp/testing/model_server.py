"""A scripted model server: real HTTP on loopback speaking three model protocols.

Tests, benchmarks and users checking their setup point the official ``openai`` and
``anthropic`` SDKs at it. It answers

- ``POST /v1/chat/completions``: OpenAI Chat Completions (also what vLLM and SGLang serve),
- ``POST /v1/responses``: the OpenAI Responses API with ``computer_call`` items,
- ``POST /v1/messages``: Anthropic Messages with ``tool_use`` blocks,

Chat Completions also streams (``"stream": true``: server-sent ``chat.completion.chunk``
events, the usage chunk when ``stream_options.include_usage`` asks, then ``[DONE]``), as
vLLM and OpenAI do; replies come
from a script of :class:`Reply` values or a responder function that sees each parsed
:class:`Request` (its texts and decoded images). It checks the parts of each protocol a
client gets wrong in practice (missing fields, images that are not PNG data, a tool result for
an unknown call, unacknowledged safety checks, a missing computer-use beta header) and answers
those with the provider's 400 error body, like the real service. A reply can also be an error
status (429, 5xx) or a delay longer than the client's timeout.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

Protocol = Literal["chat", "responses", "messages"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_PATHS: dict[str, Protocol] = {"/v1/chat/completions": "chat", "/v1/responses": "responses",
                               "/v1/messages": "messages"}


class ProtocolViolation(ValueError):
    """A request the real service would reject with 400."""


@dataclass
class Reply:
    """One scripted answer.

    ``text`` is the assistant text (Responses: a message item; a ``thought`` becomes a
    reasoning summary). ``tool_calls`` are ``{"name", "arguments"}`` function calls (Chat
    Completions ``tool_calls``, Anthropic ``tool_use``; arguments may be a dict or a raw
    string, to script malformed calls). ``computer`` is one computer-use action: a Responses
    ``computer_call`` action or the input of Anthropic's ``computer`` tool. ``status`` other
    than 200 answers with that provider's error body; ``delay_s`` waits first."""

    text: str = ""
    thought: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    computer: dict[str, Any] | None = None
    safety_checks: list[dict[str, Any]] = field(default_factory=list)
    status: int = 200
    error: str = ""
    delay_s: float = 0.0
    usage: tuple[int, int] | None = None


@dataclass
class Request:
    """One request as the server saw it."""

    protocol: Protocol
    body: dict[str, Any]
    headers: dict[str, str]

    @property
    def model(self) -> str:
        return str(self.body.get("model", ""))

    def texts(self) -> list[str]:
        """Every text part, in order (system prompt, messages, tool results)."""
        return [t for kind, t in _walk(self.body) if kind == "text"]

    def images(self) -> list[bytes]:
        """Every image, decoded, in order."""
        return [_decode_image(v) for kind, v in _walk(self.body) if kind == "image"]

    def last_text(self) -> str:
        texts = self.texts()
        return texts[-1] if texts else ""


Responder = Callable[[Request], Reply]


class ScriptedModelServer:
    """The server; a context manager. ``base_url`` suits the ``openai`` SDK (``.../v1``),
    ``root_url`` the ``anthropic`` SDK. ``requests`` holds every request received."""

    def __init__(self, script: Iterable[Reply] | Responder, *, port: int = 0,
                 api_key: str | None = None, models: Iterable[str] | None = None):
        self.api_key = api_key
        """When set, a request without this key (``Authorization: Bearer`` or ``x-api-key``)
        gets the provider's 401 body, as a real service does."""
        self.models = set(models) if models is not None else None
        """When set, a request for another model gets the provider's 404 body."""
        self.probes: list[Request] = []
        """Preflight probes (a one-token request): answered ``OK`` without using the script,
        and kept apart from ``requests``."""
        if callable(script):
            self.responder: Responder = script
        else:
            queue = list(script)

            def scripted(_: Request) -> Reply:
                if not queue:
                    return Reply(status=400, error="scripted model server: script exhausted")
                return queue.pop(0)

            self.responder = scripted
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._pending: dict[str, set[str]] = {}
        """Responses: response id -> ids of the safety checks its computer_call raised."""
        self._closing = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True,
                                        name="scripted-model-server")

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    def start(self) -> ScriptedModelServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ScriptedModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one request -----------------------------------------------------------------------
    def answer(self, protocol: Protocol, body: dict[str, Any], headers: dict[str, str]
               ) -> tuple[int, dict[str, Any]]:
        """The status and JSON body for one request (also usable without HTTP)."""
        request = Request(protocol, body, headers)
        probe = _is_probe(request)
        with self._lock:
            (self.probes if probe else self.requests).append(request)
        if self.api_key is not None and self.api_key not in (
                headers.get("authorization", "").removeprefix("Bearer "),
                headers.get("x-api-key", "")):
            return 401, _error_body(protocol, 401, "invalid API key")
        if self.models is not None and request.model not in self.models:
            return 404, _error_body(protocol, 404, f"the model '{request.model}' does not exist")
        try:
            _CHECKS[protocol](self, request)
        except ProtocolViolation as exc:
            return 400, _error_body(protocol, 400, str(exc))
        reply = Reply(text="OK") if probe else self.responder(request)
        if reply.delay_s:
            self._closing.wait(reply.delay_s)
        if reply.status != 200:
            return reply.status, _error_body(protocol, reply.status,
                                             reply.error or f"scripted {reply.status}")
        with self._lock:
            n = next(self._ids)
        return 200, _BUILDERS[protocol](self, request, reply, n)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                proto = _PATHS.get(self.path.split("?", 1)[0])
                length = int(self.headers.get("content-length") or 0)
                data = self.rfile.read(length)
                if proto is None:
                    self._send(404, {"error": {"message": f"no route {self.path}",
                                               "type": "not_found"}})
                    return
                try:
                    body = json.loads(data)
                    if not isinstance(body, dict):
                        raise ValueError("the body is not a JSON object")
                except ValueError as exc:
                    self._send(400, _error_body(proto, 400, f"invalid JSON body: {exc}"))
                    return
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, payload = server.answer(proto, body, headers)
                if status == 200 and proto == "chat" and body.get("stream") is True:
                    usage = (body.get("stream_options") or {}).get("include_usage") is True
                    self._send_events(_chat_chunks(payload, usage))
                else:
                    self._send(status, payload)

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                self._write(status, json.dumps(payload).encode(), "application/json")

            def _send_events(self, events: list[dict[str, Any]]) -> None:
                self._write(200, b"".join(b"data: " + json.dumps(e).encode() + b"\n\n"
                                          for e in events) + b"data: [DONE]\n\n",
                            "text/event-stream")

            def _write(self, status: int, data: bytes, content_type: str) -> None:
                try:
                    self.send_response(status)
                    self.send_header("content-type", content_type)
                    self.send_header("content-length", str(len(data)))
                    if status == 429:
                        self.send_header("retry-after", "0")
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its timeout): nothing left to answer

            def log_message(self, format: str, *args: Any) -> None:
                return  # quiet: tests read ``requests`` instead

        return Handler


# -- walking request bodies -----------------------------------------------------------------
def _walk(node: Any) -> Iterable[tuple[str, Any]]:
    """(``"text"``, str) and (``"image"``, url-or-source) parts of a request, in order."""
    if isinstance(node, list):
        for item in node:
            yield from _walk(item)
        return
    if not isinstance(node, dict):
        return
    kind = node.get("type")
    if kind in ("text", "input_text", "output_text") and isinstance(node.get("text"), str):
        yield "text", node["text"]
    elif kind == "image_url":
        yield "image", node["image_url"]["url"]
    elif kind in ("input_image", "computer_screenshot"):
        yield "image", node.get("image_url", "")
    elif kind == "image":
        yield "image", node.get("source", {})
    for key in ("system", "instructions", "messages", "input", "content", "output"):
        value = node.get(key)
        if isinstance(value, str) and key in ("system", "instructions", "content", "input"):
            yield "text", value
        else:
            yield from _walk(value)


def _decode_image(value: Any) -> bytes:
    if isinstance(value, dict):  # Anthropic source block
        if value.get("type") != "base64":
            raise ProtocolViolation(f"image source type {value.get('type')!r} is not base64")
        if value.get("media_type") not in ("image/png", "image/jpeg", "image/gif",
                                           "image/webp"):
            raise ProtocolViolation(f"image media_type {value.get('media_type')!r}")
        data = value.get("data", "")
    else:
        url = str(value)
        if not url.startswith("data:image/") or ";base64," not in url:
            raise ProtocolViolation(f"image_url is not a base64 data URL: {url[:40]!r}")
        data = url.split(";base64,", 1)[1]
    try:
        raw = base64.b64decode(data, validate=True)
    except ValueError as exc:
        raise ProtocolViolation(f"image data is not base64: {exc}") from exc
    if not raw.startswith(PNG_MAGIC):
        raise ProtocolViolation("image data is not a PNG")
    return raw


# -- protocol checks ------------------------------------------------------------------------
def _require(body: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in body:
        raise ProtocolViolation(f"missing required parameter: '{name}'")
    if not isinstance(body[name], kind):
        raise ProtocolViolation(f"invalid type for '{name}'")
    return body[name]


def _check_chat(server: ScriptedModelServer, req: Request) -> None:
    _require(req.body, "model", str)
    messages = _require(req.body, "messages", list)
    if not messages:
        raise ProtocolViolation("'messages' must not be empty")
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in ("system", "user", "assistant",
                                                               "tool", "developer"):
            raise ProtocolViolation(f"messages[{i}]: invalid role")
    for tool in req.body.get("tools") or []:
        if tool.get("type") != "function" or "name" not in tool.get("function", {}):
            raise ProtocolViolation("tools[]: each tool needs type 'function' and a name")
    req.images()  # raises on a bad image


def _check_responses(server: ScriptedModelServer, req: Request) -> None:
    _require(req.body, "model", str)
    items = _require(req.body, "input", (list, str))
    previous = req.body.get("previous_response_id")
    with server._lock:
        pending = server._pending.get(previous) if previous else None
        if previous and pending is None:
            raise ProtocolViolation(f"previous response {previous!r} not found")
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("type") == "computer_call_output":
            output = item.get("output") or {}
            if output.get("type") not in ("computer_screenshot", "input_image"):
                raise ProtocolViolation("computer_call_output.output must be a screenshot")
            acked = {c.get("id") for c in item.get("acknowledged_safety_checks") or []}
            missing = (pending or set()) - acked
            if missing:
                raise ProtocolViolation(f"pending safety checks not acknowledged: "
                                        f"{sorted(missing)}")
    req.images()


def _check_messages(server: ScriptedModelServer, req: Request) -> None:
    _require(req.body, "model", str)
    _require(req.body, "max_tokens", int)
    messages = _require(req.body, "messages", list)
    if not messages or messages[0].get("role") != "user":
        raise ProtocolViolation("messages: first message must use the 'user' role")
    for prev, cur in itertools.pairwise(messages):
        if prev.get("role") == cur.get("role"):
            raise ProtocolViolation("messages: roles must alternate between 'user' and "
                                    "'assistant'")
        if prev.get("role") != "assistant" or not isinstance(prev.get("content"), list):
            continue
        uses = {b.get("id") for b in prev["content"] if b.get("type") == "tool_use"}
        results = {b.get("tool_use_id") for b in cur.get("content") or []
                   if isinstance(b, dict) and b.get("type") == "tool_result"}
        if uses - results or results - uses:
            raise ProtocolViolation("messages: each tool_use must have exactly one "
                                    "tool_result in the next message")
    computer = [t for t in req.body.get("tools") or [] if str(t.get("type", "")
                                                                 ).startswith("computer_")]
    if computer and "computer-use" not in req.headers.get("anthropic-beta", ""):
        raise ProtocolViolation("the computer tool needs the anthropic-beta computer-use "
                                "header")
    req.images()


_CHECKS: dict[Protocol, Callable[[ScriptedModelServer, Request], None]] = {
    "chat": _check_chat, "responses": _check_responses, "messages": _check_messages}


# -- reply bodies ---------------------------------------------------------------------------
def _usage(req: Request, reply: Reply) -> tuple[int, int]:
    """Scripted usage, else an estimate (4 characters a token, 1,000 an image)."""
    if reply.usage is not None:
        return reply.usage
    prompt = sum(len(t) for t in req.texts()) // 4 + 1000 * len(req.images())
    out = len(reply.text) + len(reply.thought) + len(json.dumps(reply.tool_calls)) + \
        len(json.dumps(reply.computer or {}))
    return prompt, max(1, out // 4)


def _arguments(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _chat_body(server: ScriptedModelServer, req: Request, reply: Reply, n: int
               ) -> dict[str, Any]:
    calls = [{"id": f"call_{n}_{i}", "type": "function",
              "function": {"name": c["name"], "arguments": _arguments(c.get("arguments", {}))}}
             for i, c in enumerate(reply.tool_calls)]
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if calls:
        message["tool_calls"] = calls
    n_in, n_out = _usage(req, reply)
    return {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": int(time.time()),
            "model": req.model, "choices": [{"index": 0, "message": message,
                                             "finish_reason": "tool_calls" if calls else "stop",
                                             "logprobs": None}],
            "usage": {"prompt_tokens": n_in, "completion_tokens": n_out,
                      "total_tokens": n_in + n_out}}


def _chat_chunks(body: dict[str, Any], usage: bool) -> list[dict[str, Any]]:
    """A chat completion as the stream of chunks that carries it: the role and text, each
    tool call (its index, id, name and whole arguments), the finish reason, and the usage
    (when asked, in a last chunk with no choices)."""
    choice = body["choices"][0]
    message = choice["message"]
    head = {k: body[k] for k in ("id", "created", "model")} | {
        "object": "chat.completion.chunk"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return head | {"choices": [{"index": 0, "delta": delta, "finish_reason": finish,
                                    "logprobs": None}]}

    out = [chunk({"role": "assistant", "content": message["content"] or ""})]
    out += [chunk({"tool_calls": [{"index": i, **call}]})
            for i, call in enumerate(message.get("tool_calls", []))]
    out.append(chunk({}, choice["finish_reason"]))
    if usage:
        out.append(head | {"choices": [], "usage": body["usage"]})
    return out


def _responses_body(server: ScriptedModelServer, req: Request, reply: Reply, n: int
                    ) -> dict[str, Any]:
    output: list[dict[str, Any]] = []
    if reply.thought:
        output.append({"type": "reasoning", "id": f"rs_{n}",
                       "summary": [{"type": "summary_text", "text": reply.thought}]})
    if reply.text:
        output.append({"type": "message", "id": f"msg_{n}", "role": "assistant",
                       "status": "completed",
                       "content": [{"type": "output_text", "text": reply.text,
                                    "annotations": []}]})
    for i, c in enumerate(reply.tool_calls):
        output.append({"type": "function_call", "id": f"fc_{n}_{i}", "call_id": f"call_{n}_{i}",
                       "name": c["name"], "arguments": _arguments(c.get("arguments", {})),
                       "status": "completed"})
    if reply.computer is not None:
        output.append({"type": "computer_call", "id": f"cu_{n}", "call_id": f"call_{n}",
                       "action": reply.computer, "status": "completed",
                       "pending_safety_checks": reply.safety_checks})
    rid = f"resp_{n}"
    with server._lock:
        server._pending[rid] = {str(c.get("id")) for c in reply.safety_checks}
    n_in, n_out = _usage(req, reply)
    return {"id": rid, "object": "response", "created_at": int(time.time()),
            "model": req.model, "status": "completed", "output": output,
            "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
            "usage": {"input_tokens": n_in, "output_tokens": n_out, "total_tokens": n_in + n_out,
                      "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens_details": {"reasoning_tokens": 0}}}


def _messages_body(server: ScriptedModelServer, req: Request, reply: Reply, n: int
                   ) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if reply.thought:
        content.append({"type": "thinking", "thinking": reply.thought, "signature": f"sig{n}"})
    if reply.text:
        content.append({"type": "text", "text": reply.text})
    for i, c in enumerate(reply.tool_calls):
        content.append({"type": "tool_use", "id": f"toolu_{n}_{i}", "name": c["name"],
                        "input": c.get("arguments", {})})
    if reply.computer is not None:
        content.append({"type": "tool_use", "id": f"toolu_{n}", "name": "computer",
                        "input": reply.computer})
    uses = any(b["type"] == "tool_use" for b in content)
    n_in, n_out = _usage(req, reply)
    return {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": req.model,
            "content": content, "stop_reason": "tool_use" if uses else "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": n_in, "output_tokens": n_out}}


_BUILDERS: dict[Protocol, Callable[[ScriptedModelServer, Request, Reply, int],
                                   dict[str, Any]]] = {
    "chat": _chat_body, "responses": _responses_body, "messages": _messages_body}


def _is_probe(req: Request) -> bool:
    """A preflight probe (:mod:`webmdp.agents.llm.preflight`): its token limit."""
    from webmdp.agents.llm.preflight import PROBE_TOKENS, PROBE_TOKENS_RESPONSES

    body = req.body
    if req.protocol == "responses":
        return body.get("max_output_tokens") == PROBE_TOKENS_RESPONSES
    return PROBE_TOKENS in (body.get("max_tokens"), body.get("max_completion_tokens"))


def _error_body(protocol: Protocol, status: int, message: str) -> dict[str, Any]:
    kind = {400: "invalid_request_error", 401: "authentication_error",
            404: "not_found_error", 429: "rate_limit_error",
            529: "overloaded_error"}.get(status, "api_error")
    if protocol == "messages":
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


# -- answering the synth prompts (webmdp.synth.prompts) ----------------------------------------
SYNTH_MARKERS: dict[str, str] = {"grade": "[webmdp synth: step critic]",
                                 "thought": "[webmdp synth: thought writer]",
                                 "judge": "[webmdp synth: trajectory judge]"}
"""The marker line each synth system prompt starts with (kept equal to
``webmdp.synth.prompts``'s markers; a test checks it)."""
_SYNTH_STEP = re.compile(r"^(?:PROPOSED|CURRENT) ACTION \(step (\d+)\): (.*)$", re.MULTILINE)
_SYNTH_TASK = re.compile(r"^USER TASK: (.*)$", re.MULTILINE)


@dataclass(frozen=True)
class SynthPrompt:
    """A synth request as :func:`synth_responder` reads it: its ``kind`` (``grade``,
    ``thought`` or ``judge``), the step it is about (0-based; None for the judge), that step's
    action text, the task's instruction and how many images came with it."""

    kind: str
    request: Request
    step: int | None
    action: str
    instruction: str
    images: int


def synth_prompt(request: Request) -> SynthPrompt | None:
    """The synth prompt in ``request``, or None when it is not one."""
    texts = request.texts()
    joined = "\n".join(texts)
    kind = next((k for k, marker in SYNTH_MARKERS.items() if marker in joined), None)
    if kind is None:
        return None
    step = _SYNTH_STEP.search(joined)
    task = _SYNTH_TASK.search(joined)
    return SynthPrompt(kind, request, int(step.group(1)) if step else None,
                       step.group(2).strip() if step else "", task.group(1).strip() if task
                       else "", len(request.images()))


SynthAnswer = Callable[[SynthPrompt], Any]


def critique(grade: int, prompt: SynthPrompt | None = None) -> str:
    """A critic's answer in the eight stages, ending ``Expected value: <grade>``."""
    action = prompt.action if prompt is not None else "the proposed action"
    return "\n".join([
        "1. Current screen: the page and the marks are as described.",
        "2. What success means: the conditions of the task.",
        "3. Progress so far: as the earlier actions show.",
        f"4. The proposed action: {action}.",
        "5. Outcomes: as expected.", "6. Alternatives: none strictly better.",
        "7. Verdict: see the value.", "8. Expected value", "", f"Expected value: {grade}"])


def synth_responder(grade: int | SynthAnswer = 8, *, thought: str | SynthAnswer | None = None,
                    verdict: bool | SynthAnswer = True,
                    other: Responder | None = None) -> Responder:
    """A responder for the synth prompts, so the model grader, the thought writer and the judge
    run offline against :class:`ScriptedModelServer`.

    ``grade``: the score every critic request gets, or a function of the :class:`SynthPrompt`
    answering an int (written as an eight-stage critique), a str (sent as is: to script an
    unparseable answer) or a :class:`Reply` (an error status, a delay). ``thought``: the
    thought text (default: one naming the step's action), or such a function. ``verdict``:
    True / False (``Verdict: success`` / ``failure``), or such a function. ``other`` answers
    any request that is not a synth prompt (default: a 400 error)."""

    def answer(value: Any, prompt: SynthPrompt, fmt: Callable[[Any], str]) -> Reply:
        got = value(prompt) if callable(value) else value
        if isinstance(got, Reply):
            return got
        return Reply(text=got if isinstance(got, str) else fmt(got))

    def respond(request: Request) -> Reply:
        prompt = synth_prompt(request)
        if prompt is None:
            return other(request) if other is not None else Reply(
                status=400, error="synth responder: not a synth prompt")
        if prompt.kind == "grade":
            return answer(grade, prompt, lambda g: critique(int(g), prompt))
        if prompt.kind == "thought":
            default = (f"Thought: I see the page for step {prompt.step}. To get on with the "
                       f"task I do this next: {prompt.action}.")
            return answer(thought if thought is not None else default, prompt, str)
        return answer(verdict, prompt, lambda v: "The evidence was weighed.\nVerdict: "
                      + ("success" if v else "failure"))

    return respond
