"""A client for a webmdp server started by another process (the runner's shared server)."""

from __future__ import annotations

from typing import Any

import httpx

from webmdp.errors import ServerError
from webmdp.redact import register as register_secret
from webmdp.server.runner import LOOPBACK


class RemoteServer:
    """What :class:`BrowserEnv` needs of a server (``url``, ``token``, ``control``) for one
    that runs elsewhere on this machine; ``stop`` only closes the client."""

    def __init__(self, url: str, token: str):
        if not url.startswith((f"http://{LOOPBACK}:", "http://localhost:")):
            raise ServerError(f"refusing a non-loopback server {url}")
        self.url = url
        self.token = token
        register_secret(token)
        self.client = httpx.Client(base_url=url, headers={"X-WebMDP-Token": token},
                                   timeout=30.0)

    def control(self, method: str, path: str, **kw: Any) -> dict:
        """Call the control API; raises :class:`ServerError` on failure."""
        try:
            r = self.client.request(method, path, **kw)
        except httpx.HTTPError as exc:
            raise ServerError(f"control API unreachable: {exc}") from exc
        if r.status_code >= 400:
            raise ServerError(f"control API {method} {path}: {r.status_code} {r.text}")
        return r.json()

    def stop(self) -> None:
        self.client.close()
