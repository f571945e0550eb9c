"""The OpenEnv server: :func:`build_app` is OpenEnv's own ``create_app`` over a factory of
:class:`~webmdp.rl.openenv.WebMDPEnvironment`, so every route, the WebSocket session protocol
and the session cap are the library's, not a copy."""

from __future__ import annotations

import functools

from fastapi import FastAPI
from openenv.core.env_server.http_server import create_app

from webmdp.env.episode import DEFAULT_STEP_BUDGET
from webmdp.rl.browser import BrowserCap
from webmdp.rl.openenv import (
    ENV_NAME,
    WebMDPAction,
    WebMDPEnvironment,
    WebMDPObservation,
    WebMDPState,
)
from webmdp.rl.rewards import RewardMode
from webmdp.rl.splits import ALL

DEFAULT_MAX_SESSIONS = 16
"""At least a trainer's generation batch: OpenEnv's default of 1 stalls training."""
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def build_app(*, site: str = ALL, mode: str = "semantic", reward: RewardMode = "terminal",
              max_sessions: int = DEFAULT_MAX_SESSIONS, step_budget: int = DEFAULT_STEP_BUDGET,
              tasks_file: str | None = None) -> FastAPI:
    """The FastAPI app; the arguments are checked here, once, by building one environment.
    In browser mode ``max_sessions`` also caps the Chromiums (one per session; a stateless
    HTTP call borrows one for its own lifetime)."""
    browsers = BrowserCap(max_sessions) if mode == "browser" else None
    factory = functools.partial(WebMDPEnvironment, site, mode=mode, reward=reward,
                                step_budget=step_budget, tasks_file=tasks_file,
                                browsers=browsers)
    factory().close()  # a bad option fails now, not on the first session
    return create_app(factory, WebMDPAction, WebMDPObservation, env_name=ENV_NAME,
                      max_concurrent_envs=max_sessions, state_cls=WebMDPState)


def serve(app: FastAPI, *, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
    """Run the app with uvicorn until interrupted."""
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="warning")
