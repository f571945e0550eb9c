"""Environments: SemanticEnv (typed actions on the MDP) and BrowserEnv (Chromium)."""

from webmdp.env.actions import GUIAction
from webmdp.env.registry import env_ids, make, resolve_task

__all__ = ["GUIAction", "env_ids", "make", "resolve_task"]
