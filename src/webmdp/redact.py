"""Secrets never reach a file a run writes.

What counts as a secret is an explicit list, matched on word boundaries so that ``--max-tokens``
and the traces' token counts stay:

- the value of a command-line option named ``--api-key`` (or ``--<something>-api-key``,
  ``--token``, ``--secret``, ``--password``), given as ``--api-key V`` or ``--api-key=V``;
- the value of every environment variable whose name ends in ``_API_KEY`` or ``_TOKEN`` (or is
  ``API_KEY`` / ``TOKEN``) or contains ``SECRET``;
- values registered at run time: an API key given by flag or environment to any model client
  (:func:`webmdp.agents.llm.clients.client_config` registers it), the credentials of a model
  endpoint's URL (:func:`register_url`), the webmdp server's control token;
- a credential inside a URL, whatever its length: the password of the userinfo
  (``http://user:PASSWORD@host/v1``) and the value of every query parameter whose name,
  case-insensitive, is or ends with one of :data:`CREDENTIAL_PARAMS` (``access_token``,
  ``apikey``, ``X-Amz-Signature``, ``client_secret``; :func:`redact_url`; :func:`scrub`
  blanks them in any text).

A known secret is found in every form it travels in (:func:`secret_forms`): as it is, in any
letter case, percent-encoded, JSON- or HTML-escaped, and base64-encoded (standard and URL-safe
alphabets, at each of the three byte alignments, so that a key encoded inside a longer string,
such as the ``Basic`` header of a URL's ``user:password``, is caught too).

:func:`redact_argv` blanks the first kind where a command line is recorded; :func:`scrub`
replaces any known value in text the run store, the manifest, the event log and the viewer
write or serve. Values shorter than :data:`MIN_LEN` characters are too short to search for in
text without damaging it (``--api-key x`` for a local server that ignores keys): they are
blanked in argv and in URLs only.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import string
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

REDACTED = "***"
MIN_LEN = 8
"""The shortest secret searched for in text: 8 characters. Its shortest derived pattern (a
base64 core at the worst alignment) is then 10 characters, long enough never to occur in
ordinary text by chance."""
CREDENTIAL_PARAMS = ("key", "token", "secret", "password", "passwd", "signature", "sig",
                     "credential", "auth")
"""A URL query parameter whose name (case-insensitive) is or ends with one of these carries a
credential."""

_FLAG = re.compile(r"^--(?:[a-z0-9]+-)*(?:api-key|token|secret|password)$")
_ENV = re.compile(r"(?:^|_)(?:API_KEY|TOKEN)$|SECRET")
_PARAM_NAME = rf"[\w.\-]*(?:{'|'.join(CREDENTIAL_PARAMS)})"
_URL_PASSWORD = re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://[^/\s:@\"']*:)([^@\s/\"']+)(@)")
_URL_PARAM = re.compile(rf"(?i)([?&;]{_PARAM_NAME}=)([^&#\s\"'<>\\]+)")
_CREDENTIAL_NAME = re.compile(rf"(?i){_PARAM_NAME}")
_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
_HTML = {"&": ("&amp;", "&#38;"), "<": ("&lt;", "&#60;"), ">": ("&gt;", "&#62;"),
         '"': ("&quot;", "&#34;"), "'": ("&#x27;", "&#39;")}


def secret_flag(option: str) -> bool:
    """Whether a command-line option (``--api-key``) carries a secret value."""
    return bool(_FLAG.match(option.split("=", 1)[0]))


def secret_env(name: str) -> bool:
    """Whether an environment variable's name marks its value as a secret."""
    return bool(_ENV.search(name.upper()))


def credential_param(name: str) -> bool:
    """Whether a URL query parameter named ``name`` carries a credential."""
    return bool(_CREDENTIAL_NAME.fullmatch(name))


def _char(c: str) -> str:
    """A pattern for one character of a secret in any of its text encodings."""
    alts = {re.escape(c), re.escape(json.dumps(c)[1:-1]), *map(re.escape, _HTML.get(c, ()))}
    if c not in _UNRESERVED:
        alts.add("".join(f"%{b:02X}" for b in c.encode()))
    if c == " ":
        alts.add(r"\+")
    return alts.pop() if len(alts) == 1 else f"(?:{'|'.join(sorted(alts, key=len, reverse=True))})"


def _b64(text: str) -> str:
    """A base64 string as a pattern: ``+``, ``/`` and ``=`` also percent-encoded."""
    alts = {"+": r"(?:\+|%2B)", "/": r"(?:/|%2F)", "=": r"(?:=|%3D)"}
    return "".join(alts.get(c, c) for c in text)


def secret_forms(value: str) -> list[str]:
    """Regular expressions for ``value`` in every form it travels in, longest first: as text
    (any case, each character as it is or percent-, JSON- or HTML-escaped), and base64 (the
    whole encoding, then for each byte alignment the core that depends on ``value`` alone), in
    the standard and the URL-safe alphabet."""
    raw = value.encode()
    encoded = base64.b64encode(raw).decode()
    b64 = [encoded, encoded.rstrip("=")]
    for k in range(3):  # k bytes of something else before the secret
        whole = base64.b64encode(b"\0" * k + raw + b"\0\0").decode()
        b64.append(whole[-(-8 * k // 6):8 * (k + len(raw)) // 6])
    safe = [b.translate(str.maketrans("+/", "-_")) for b in b64]
    patterns = [_b64(b) for b in dict.fromkeys(b64 + safe) if len(b) >= MIN_LEN]
    return ["(?i:" + "".join(_char(c) for c in value) + ")", *patterns]


class _Secrets:
    """The registry of secret values known to this process, each with its patterns (made when
    it is first seen), and the one compiled pattern for the current set."""

    def __init__(self) -> None:
        self.registered: set[str] = set()
        self._forms: dict[str, list[str]] = {}
        self._compiled: tuple[tuple[str, ...], re.Pattern[str] | None] = ((), None)
        self._lock = threading.Lock()

    def add(self, value: str) -> None:
        with self._lock:
            self.registered.add(value)
            if len(value) >= MIN_LEN and value not in self._forms:
                self._forms[value] = secret_forms(value)

    def pattern(self, values: tuple[str, ...]) -> re.Pattern[str] | None:
        """One pattern matching every form of every value in ``values`` (longest first)."""
        with self._lock:
            if self._compiled[0] == values:
                return self._compiled[1]
            for v in values:
                if v not in self._forms:
                    self._forms[v] = secret_forms(v)
            compiled = re.compile("|".join(p for v in values for p in self._forms[v])
                                  ) if values else None
            self._compiled = (values, compiled)
            return compiled


_SECRETS = _Secrets()


def register(value: str | None) -> None:
    """Treat ``value`` as a secret in this process from now on."""
    if value:
        _SECRETS.add(value)


def register_url(url: str | None) -> None:
    """Treat the credentials ``url`` carries as secrets: the userinfo's password (as written
    and percent-decoded), the ``user:password`` an HTTP client sends as Basic auth, and the
    value of every credential query parameter."""
    if not url or "://" not in url:
        return
    try:
        parts = urlsplit(url.strip())
        user, password = parts.username, parts.password
    except ValueError:
        return
    if password:
        for value in (password, unquote(password),
                      f"{unquote(user or '')}:{unquote(password)}"):
            register(value)
    for name, value in parse_qsl(parts.query):
        if credential_param(name):
            register(value)


def secret_values() -> list[str]:
    """Every secret known to this process that is long enough to search for, longest first
    (so a key containing another is replaced whole)."""
    with _SECRETS._lock:
        values = set(_SECRETS.registered)
    values.update(v for k in _secret_env_names() if (v := os.environ.get(k)))
    return sorted((v for v in values if len(v) >= MIN_LEN), key=lambda v: (-len(v), v))


_ENV_NAMES: list[tuple[frozenset[object], tuple[str, ...]]] = []


def _secret_env_names() -> tuple[str, ...]:
    """The names of the environment variables that hold secrets, read again whenever a
    variable is added or removed (the values are read at every call): a scrubbing writer
    calls this on every line, and decoding and matching every name each time was most of
    its cost."""
    raw = getattr(os.environ, "_data", None)
    keys: frozenset[object] = frozenset(raw if raw is not None else os.environ)
    if not _ENV_NAMES or _ENV_NAMES[0][0] != keys:
        _ENV_NAMES[:] = [(keys, tuple(k for k in os.environ if secret_env(k)))]
    return _ENV_NAMES[0][1]


def redact_argv(argv: list[str]) -> list[str]:
    """``argv`` with the value of every secret option blanked (and registered), and the
    credentials of every URL in it registered."""
    out: list[str] = []
    blank_next = False
    for arg in argv:
        register_url(arg)
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
    """``url`` with its credentials (userinfo password, credential query values) replaced by
    :data:`REDACTED`: the form a URL is stored and printed in."""
    return _URL_PARAM.sub(lambda m: m.group(1) + REDACTED,
                          _URL_PASSWORD.sub(lambda m: m.group(1) + REDACTED + m.group(3), url))


def url_has_secret(url: str | None) -> bool:
    return bool(url) and redact_url(url or "") != url


def scrub(text: str) -> str:
    """``text`` with every known secret, in every form (:func:`secret_forms`), replaced by
    :data:`REDACTED`, and every URL credential blanked."""
    text = redact_url(text)
    pattern = _SECRETS.pattern(tuple(secret_values()))
    return text if pattern is None else pattern.sub(REDACTED, text)
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
