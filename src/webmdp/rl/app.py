"""The OpenEnv server as an importable app: :func:`create_app` is a factory uvicorn calls in
each worker (``uvicorn webmdp.rl.app:create_app --factory --workers N``), configured by
environment variables with the same options as ``webmdp rl serve``. One mechanism serves
``rl serve --workers``, the image (``Dockerfile``), OpenEnv's providers (``openenv.yaml``'s
``app``) and Ray Serve (:mod:`webmdp.rl.scale`).

==========================  ==========================================================
variable                    ``rl serve`` option (default)
==========================  ==========================================================
``WEBMDP_RL_SITE``          ``--site`` (all)
``WEBMDP_RL_MODE``          ``--mode`` (semantic)
``WEBMDP_RL_REWARD``        ``--reward`` (terminal)
``WEBMDP_RL_MAX_SESSIONS``  ``--max-sessions``, per process (16)
``WEBMDP_RL_STEP_BUDGET``   ``--step-budget`` (50)
``WEBMDP_RL_STEP_TIMEOUT``  ``--step-timeout`` (30)
``WEBMDP_RL_HOLDOUT``       ``--holdout`` (task)
``WEBMDP_RL_TASKS``         ``--tasks`` (none)
``WEBMDP_RL_HOST``          ``--host``: the address clients reach (127.0.0.1)
``WEBMDP_RL_PORT``          ``--port`` (8000)
``WEBMDP_RL_TOKEN``         ``--token`` (none; required when the host is not loopback)
``WEBMDP_RL_ALLOW_ORIGIN``  ``--allow-origin``, comma-separated
``WEBMDP_RL_ALLOW_HOST``    ``--allow-host``, comma-separated
``WEBMDP_RL_QUIET``         ``--quiet`` (0)
``WEBMDP_RL_WARM``          read the task pools: 1 (before serving), 0 (each on first use),
                            auto (default: while serving, when the disk cache holds them)
==========================  ==========================================================

``WEBMDP_RL_HOST`` is the host the access checks are for (:mod:`webmdp.server.origin`), not
necessarily the socket's: in a container uvicorn binds 0.0.0.0 while clients reach it as
``localhost`` through a published port, and the loopback policy (Host names, origins) holds.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from webmdp.rl.settings import STATS_DIR_ENV, ServeSettings

__all__ = ["ServeSettings", "create_app"]


def create_app() -> Any:
    """The FastAPI app of the settings in the environment (uvicorn's ``--factory``)."""
    from webmdp.rl.server import SWITCH_INTERVAL_S, ServeLog, app_for
    from webmdp.tasks.sources import pools_cached

    settings = ServeSettings.from_env()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    shared = os.environ.get(STATS_DIR_ENV)
    log = ServeLog(settings.quiet, share=Path(shared) if shared else None)
    warm: bool | str = settings.warm == "1" or (
        "background" if settings.warm == "auto" and pools_cached(settings.site) else False)
    app = app_for(settings, log=log, warm=warm)
    if shared is None:
        log.every()  # a worker of rl serve --workers leaves them to the parent, which merges
    log.ready()
    return app
