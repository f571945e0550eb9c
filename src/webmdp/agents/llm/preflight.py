"""One request before a run's first episode, so that a wrong endpoint fails in a second.

Without it a wrong URL or a missing key shows only as "N infrastructure errors" after every
episode has spent its retries. :func:`preflight` sends one chat request with a one-token limit
(no retries, a short timeout) and turns a failure into one line that names the cause (refused,
DNS, timeout, 401 / 403, 404) and the option that fixes it. :func:`credential` says, before it,
which credential the endpoint will get (a URL's ``user:pass`` replaces the API key).
"""

from __future__ import annotations

import socket
from dataclasses import replace
from typing import Any

from webmdp.errors import ConfigError, ModelEndpointError
from webmdp.redact import scrub

PROBE_TIMEOUT_S = 20.0
PROBE_TOKENS = 1
PROBE_TOKENS_RESPONSES = 16
"""The OpenAI Responses API's smallest ``max_output_tokens``."""


class PreflightError(ConfigError):
    """The model endpoint failed the preflight request."""


def preflight(config: Any) -> None:
    """Send one tiny request with the model agent config ``config`` (a ``ModelAgentConfig``);
    raise :class:`PreflightError` with the cause and its fix."""
    from webmdp.agents.llm.clients import ChatMessage, client_config, make_client, provider_info
    from webmdp.agents.llm.grammars import grammar_info

    options = config.client_options()
    responses = grammar_info(config.grammar).channel == "computer"
    options.update(max_retries=0, timeout_s=min(config.timeout_s or PROBE_TIMEOUT_S,
                                                 PROBE_TIMEOUT_S),
                   max_tokens=PROBE_TOKENS_RESPONSES if responses else PROBE_TOKENS,
                   temperature=0.0)
    cc = client_config(config.model, **options)
    if responses:
        cc = replace(cc, chat_api="responses")
    provider = provider_info(cc.provider)
    try:
        make_client(cc).chat([ChatMessage.text("user", "Reply with OK.")], purpose="act")
    except ModelEndpointError as exc:
        raise PreflightError(scrub(describe(
            exc, url=cc.base_url or f"{cc.provider}'s default URL", model=cc.model,
            key_env=provider.key_env, has_key=bool(cc.api_key)))) from None


def credential(config: Any) -> str:
    """Which credential the endpoint of the model agent config ``config`` will get, in words
    (:func:`webmdp.agents.llm.clients.credential_sent`)."""
    from webmdp.agents.llm.clients import client_config, credential_sent

    return credential_sent(client_config(config.model, **config.client_options()))


def describe(exc: BaseException, *, url: str, model: str, key_env: str, has_key: bool) -> str:
    """One line: what failed, why, and which option fixes it."""
    head = f"model endpoint preflight failed at {url}"
    skip = " (--no-preflight skips this check)"
    status = _status(exc)
    if status in (401, 403):
        fix = ("the key was rejected: check --api-key or " + key_env if has_key
               else f"no API key was given: pass --api-key or set {key_env}")
        return f"{head}: {status} {'unauthorized' if status == 401 else 'forbidden'}; {fix}"
    if status == 404:
        return (f"{head}: 404 not found; the endpoint has no model '{model}' or no such API "
                "path: check --model, and --base-url (OpenAI-compatible servers usually end "
                "in /v1)" + skip)
    if status is not None:
        return f"{head}: HTTP {status}: {_first_line(exc)}" + skip
    chain = list(_chain(exc))
    if any(isinstance(e, socket.gaierror) for e in chain) or _mentions(chain, (
            "name or service not known", "nodename nor servname", "name resolution",
            "getaddrinfo")):
        return f"{head}: DNS lookup failed (no such host); fix --base-url"
    if any(isinstance(e, ConnectionRefusedError) for e in chain) or _mentions(
            chain, ("connection refused", "connect call failed")):
        return (f"{head}: connection refused (nothing listens there); start the model server "
                "or fix --base-url")
    if any("timeout" in type(e).__name__.lower() for e in chain) or _mentions(
            chain, ("timed out",)):
        return (f"{head}: no answer within {PROBE_TIMEOUT_S:g} s; check --base-url, or "
                "raise --timeout" + skip)
    return f"{head}: {_first_line(exc)}" + skip


def _chain(exc: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    e: BaseException | None = exc
    while e is not None and e not in out:
        out.append(e)
        e = e.__cause__ or e.__context__
    return out


def _status(exc: BaseException) -> int | None:
    for e in _chain(exc):
        code = getattr(e, "status_code", None)
        if isinstance(code, int):
            return code
    return None


def _mentions(chain: list[BaseException], needles: tuple[str, ...]) -> bool:
    text = " ".join(str(e).lower() for e in chain)
    return any(n in text for n in needles)


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0][:300] if lines else type(exc).__name__
