"""Test doubles for the edges webmdp cannot run itself: a scripted model server."""

from webmdp.testing.model_server import Reply, Request, ScriptedModelServer

__all__ = ["Reply", "Request", "ScriptedModelServer"]
