"""The webmdp HTTP server: renders every site from its MDP state."""

from webmdp.server.app import create_app
from webmdp.server.runner import ServerHandle

__all__ = ["ServerHandle", "create_app"]
