"""Local servers answer only their own origin (issue 35 §1). Browsers apply no CORS to
WebSockets and a DNS-rebinding page can name any host, so a server on loopback checks the
``Host`` of every request (Starlette's :class:`TrustedHostMiddleware`, 400) and the ``Origin``
of every WebSocket upgrade and state-changing request (:class:`OriginGuard`, ours: Starlette
has no Origin check, 403). Off loopback a bearer token (401 without it) stands in for the Host
check, which then accepts any name unless ``allow_hosts`` narrows it."""

from __future__ import annotations

import hmac
import ipaddress
import sys
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from webmdp.errors import ConfigError

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods an Origin is checked on; a cross-site GET cannot read the answer."""
MAX_SAID = 64
"""Refused origins said one by one; past them, one more line and then silence."""

Origin = tuple[str, str, int]
"""scheme, host name (lower case, IPv6 without brackets), port."""


def is_loopback(host: str) -> bool:
    """``localhost`` or a loopback address (``127.0.0.0/8``, ``::1``; brackets allowed)."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def parse_origin(url: str) -> Origin | None:
    """``scheme://host[:port]`` as an :data:`Origin` (the port defaults by scheme), or None
    for anything else (``null``, a path, a query, credentials)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if (parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/")
            or parts.query or parts.fragment or "@" in parts.netloc):
        return None
    return parts.scheme, parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


def _host_name(name: str) -> str:
    """A host name as Starlette compares a ``Host`` header: IPv6 literals in brackets."""
    name = name.strip().lower()
    return f"[{name.strip('[]')}]" if ":" in name else name


@dataclass(frozen=True)
class Access:
    """Who a local server answers. ``bind``: the interface it listens on; ``token``: the
    bearer token every request must carry (required off loopback); ``allow_origins``: origins
    (``scheme://host:port``) let in beside the server's own; ``allow_hosts``: extra ``Host``
    names (off loopback, the only ones, with loopback's and the bind address)."""

    bind: str = "127.0.0.1"
    token: str | None = None
    allow_origins: tuple[str, ...] = ()
    allow_hosts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.token is not None and not (self.token.isascii() and self.token.isprintable()
                                           and self.token.strip() == self.token != ""):
            raise ConfigError("the token must be printable ASCII, not empty, with no spaces "
                              "around it")
        if not self.loopback and self.token is None:
            raise ConfigError(f"{self.bind} is not loopback: a server there needs a token")
        bad = [o for o in self.allow_origins if parse_origin(o) is None]
        if bad:
            raise ConfigError(f"not an origin (scheme://host[:port]): {bad[0]}")
        bad = [h for h in self.allow_hosts if not h.strip() or "/" in h or "*" in h[1:]]
        if bad:
            raise ConfigError(f"not a host name: {bad[0]!r}")

    @property
    def loopback(self) -> bool:
        return is_loopback(self.bind)

    def hosts(self) -> list[str]:
        """The ``Host`` names answered (Starlette's patterns): on loopback, loopback's names;
        off it, any (``*``) unless ``allow_hosts`` narrows it."""
        if not self.loopback and not self.allow_hosts:
            return ["*"]
        own = [self.bind] if self.bind not in ("0.0.0.0", "::") else []
        return list(dict.fromkeys(_host_name(h) for h in (*LOOPBACK_NAMES, *own,
                                                          *self.allow_hosts)))

    def origins(self) -> frozenset[Origin]:
        return frozenset(o for o in map(parse_origin, self.allow_origins) if o is not None)


def protect(app: Starlette, access: Access, *,
            say: Callable[[str], None] | None = None) -> None:
    """Put ``app`` behind the Host check (outermost) and :class:`OriginGuard`; call it before
    the app serves. ``say`` gets one line per refused origin (default: stderr)."""
    app.add_middleware(OriginGuard, access=access, say=say)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=access.hosts())


class OriginGuard:
    """Refuses (403) a WebSocket upgrade or a state-changing request whose ``Origin`` is
    neither this server's (a loopback name or the request's own ``Host``, at the port it
    answers on) nor allowed; then, with a token, any request without
    ``Authorization: Bearer TOKEN`` (401). Each refused origin is said once."""

    def __init__(self, app: ASGIApp, *, access: Access,
                 say: Callable[[str], None] | None = None) -> None:
        self.app = app
        self._allowed = access.origins()
        self._bearer = None if access.token is None else f"Bearer {access.token}".encode("ascii")
        self._say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self._said: set[str] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        upgrade = scope["type"] == "websocket"
        if origin is not None and (upgrade or scope["method"] in UNSAFE_METHODS) \
                and not self._own(origin, scope, headers):
            shown = _printable(origin)
            self._once(shown, "a WebSocket upgrade" if upgrade else scope["method"],
                       _printable(scope["path"]))
            await _deny(scope, receive, send, 403, f"origin {shown} is not allowed here")
            return
        if self._bearer is not None and not hmac.compare_digest(
                headers.get("authorization", "").encode("latin-1"), self._bearer):
            await _deny(scope, receive, send, 401, "this server needs Authorization: Bearer "
                        "TOKEN", {"WWW-Authenticate": "Bearer"})
            return
        await self.app(scope, receive, send)

    def _own(self, origin: str, scope: Scope, headers: Headers) -> bool:
        parsed = parse_origin(origin)
        if parsed is None:
            return False
        if parsed in self._allowed:
            return True
        scheme, name, port = parsed
        if scheme != "http":  # the server speaks plain HTTP
            return False
        server = scope.get("server")
        if server and is_loopback(name) and port == server[1]:
            return True
        host = parse_origin(f"http://{headers.get('host', '')}")
        return host is not None and host == parsed  # same origin as the request itself

    def _once(self, origin: str, what: str, path: str) -> None:
        if origin in self._said or len(self._said) > MAX_SAID:
            return
        self._said.add(origin)
        if len(self._said) > MAX_SAID:
            self._say(f"refused more than {MAX_SAID} origins: refusing the rest silently")
            return
        self._say(f"refused origin {origin}: {what} to {path} from a page of another site "
                  "(later requests from it are refused silently)")


def _printable(text: str, limit: int = 200) -> str:
    """``text`` safe for a log line: no control characters (a path is percent-decoded)."""
    return "".join(c if c.isprintable() else "?" for c in text[:limit])


async def _deny(scope: Scope, receive: Receive, send: Send, status: int, line: str,
                headers: dict[str, str] | None = None) -> None:
    """An HTTP answer of one line. A WebSocket upgrade is closed before it is accepted (the
    server answers 403) unless the status is another and the server offers the denial-response
    extension. (uvicorn's default WebSocket implementation logs a spurious error after a
    denial response, Kludex/uvicorn#3138; a close before accepting logs nothing.)"""
    if scope["type"] == "websocket" and (status == 403 or "websocket.http.response" not in
                                         scope.get("extensions", {})):
        await send({"type": "websocket.close", "code": 1008})
        return
    await PlainTextResponse(f"{status}: {line}\n", status, headers)(scope, receive, send)
