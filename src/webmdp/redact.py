"""Secrets never reach a file a run writes.

What counts as a secret is an explicit list, matched on word boundaries so that ``--max-tokens``
and the traces' token counts stay:

- the value of a command-line option named ``--api-key`` (or ``--<something>-api-key``,
  ``--token``, ``--secret``, ``--password``), given as ``--api-key V`` or ``--api-key=V``;
- the value of every environment variable whose name ends in ``_API_KEY`` or ``_TOKEN`` (or is
  ``API_KEY`` / ``TOKEN``) or contains ``SECRET``;
- values registered at run time: an API key given by flag or environment to any model client
  (:func:`webmdp.agents.llm.clients.client_config` registers it), the webmdp server's control
  token;
- a credential inside a URL, whatever its length: the password of the userinfo
  (``http://user:PASSWORD@host/v1``) and the value of a query parameter named ``key``,
  ``api_key``, ``token`` or ``sig`` (:func:`redact_url`; :func:`scrub` blanks them in any
  text).

:func:`redact_argv` blanks the first kind where a command line is recorded; :func:`scrub`
replaces any known value in text the run store, the manifest and the event log write (the
report and the viewer read only those files). Values shorter than :data:`MIN_LEN` characters
are too short to search for in text without damaging it (``--api-key x`` for a local server
that ignores keys): they are blanked in argv only.
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
from pathlib import Path
from typing import Any

REDACTED = "***"
MIN_LEN = 8

_FLAG = re.compile(r"^--(?:[a-z0-9]+-)*(?:api-key|token|secret|password)$")
_ENV = re.compile(r"(?:^|_)(?:API_KEY|TOKEN)$|SECRET")
_URL_PASSWORD = re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://[^/\s:@\"']*:)([^@\s/\"']+)(@)")
_URL_PARAM = re.compile(r"(?i)([?&](?:key|api_key|api-key|token|sig)=)([^&#\s\"']+)")
_registered: set[str] = set()
_lock = threading.Lock()


def secret_flag(option: str) -> bool:
    """Whether a command-line option (``--api-key``) carries a secret value."""
    return bool(_FLAG.match(option.split("=", 1)[0]))


def secret_env(name: str) -> bool:
    """Whether an environment variable's name marks its value as a secret."""
    return bool(_ENV.search(name.upper()))


def register(value: str | None) -> None:
    """Treat ``value`` as a secret in this process from now on."""
    if value:
        with _lock:
            _registered.add(value)


def secret_values() -> list[str]:
    """Every secret known to this process that is long enough to search for, longest first
    (so a key containing another is replaced whole)."""
    with _lock:
        values = set(_registered)
    values.update(v for k, v in os.environ.items() if v and secret_env(k))
    return sorted((v for v in values if len(v) >= MIN_LEN), key=len, reverse=True)


def redact_argv(argv: list[str]) -> list[str]:
    """``argv`` with the value of every secret option blanked (and registered)."""
    out: list[str] = []
    blank_next = False
    for arg in argv:
        if blank_next:
            register(arg)
            out.append(REDACTED)
            blank_next = False
        elif arg.startswith("--") and secret_flag(arg):
            if "=" in arg:
                name, value = arg.split("=", 1)
                register(value)
                out.append(f"{name}={REDACTED}")
            else:
                out.append(arg)
                blank_next = True
        else:
            out.append(arg)
    return [scrub(a) for a in out]


def redact_url(url: str) -> str:
    """``url`` with its credentials (userinfo password, ``key`` / ``api_key`` / ``token`` /
    ``sig`` query values) replaced by :data:`REDACTED`: the form a URL is stored and printed
    in."""
    return _URL_PARAM.sub(lambda m: m.group(1) + REDACTED,
                          _URL_PASSWORD.sub(lambda m: m.group(1) + REDACTED + m.group(3), url))


def url_has_secret(url: str | None) -> bool:
    return bool(url) and redact_url(url or "") != url


def scrub(text: str) -> str:
    """``text`` with every known secret replaced by :data:`REDACTED` (also in its JSON-escaped
    form, for text that is serialised JSON), and every URL credential blanked."""
    text = redact_url(text)
    for value in secret_values():
        if value in text:
            text = text.replace(value, REDACTED)
        escaped = json.dumps(value)[1:-1]
        if escaped != value and escaped in text:
            text = text.replace(escaped, REDACTED)
    return text


def write_scrubbed(path: Path, text: str) -> None:
    """The one scrubbing writer of files a model-calling command writes whole (a report, an
    agreement file): ``text`` with every secret blanked."""
    path.write_text(scrub(text), encoding="utf-8")


def finite(obj: Any) -> Any:
    """``obj`` with every NaN or infinite float replaced by ``None`` (JSON's null): a kappa
    over no pair is "no value", never an invalid ``NaN`` token."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [finite(v) for v in obj]
    return obj


def strict_dumps(obj: Any, **options: Any) -> str:
    """``json.dumps`` of :func:`finite` ``obj`` with ``allow_nan=False``: every JSON file
    webmdp writes is valid JSON."""
    return json.dumps(finite(obj), allow_nan=False, **options)


def scrubbed_line(row: object) -> str:
    """One JSONL line of ``row``, secrets blanked, valid JSON (:func:`strict_dumps`)."""
    return scrub(strict_dumps(row, sort_keys=True, ensure_ascii=False)) + "\n"
