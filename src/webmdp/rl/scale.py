"""``rl serve`` beyond one process: ``--workers N`` runs uvicorn's own worker processes behind
one port, each building the app with :func:`webmdp.rl.app.create_app` from the environment;
``--backend ray`` runs the same factory as a Ray Serve deployment of N replicas behind Ray's
proxy. Either way one mechanism (the app factory and its environment variables) serves.

Sessions: a WebSocket session lives in the worker whose process accepted its connection (the
kernel chooses), and OpenEnv caps sessions per process, so ``--max-sessions M`` over N workers
gives each ``ceil(M / N)``. A client whose connection lands on a full worker is refused as on
a full single server (OpenEnv's capacity error, a new connection may land on another), even
while another worker has room: give ``--max-sessions`` some slack over the trainer's batch.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from webmdp.rl.settings import STATS_DIR_ENV, ServeSettings, listen

APP = "webmdp.rl.app:create_app"
"""The factory every worker, replica and image starts (uvicorn's ``--factory``)."""
READY_TIMEOUT_S = 600.0
RAY_STOP_S = 8.0


def serve_workers(settings: ServeSettings, workers: int,
                  on_ready: Callable[[int], None], say: Callable[[str], None],
                  stats_every: float) -> None:
    """Serve with ``workers`` uvicorn worker processes until SIGINT or SIGTERM; ``on_ready``
    gets the port once every worker has built its app; ``say`` gets the workers' merged
    statistics every ``stats_every`` seconds (unless quiet)."""
    import uvicorn

    from webmdp.rl.server import STOP_GRACE_S, merged_stats, stats_line

    share = Path(tempfile.mkdtemp(prefix="webmdp-serve-"))
    sock = listen(settings.host, settings.port)
    port = sock.getsockname()[1]
    os.environ.update(settings.per_worker(workers).env())
    os.environ[STATS_DIR_ENV] = str(share)
    stop = threading.Event()

    def watch() -> None:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not stop.is_set() and time.monotonic() < deadline:
            if merged_stats(share)[3] >= workers:
                break
            time.sleep(0.1)
        else:
            return
        on_ready(port)
        while not settings.quiet and not stop.wait(stats_every):
            say(stats_line(*merged_stats(share)))

    threading.Thread(target=watch, name="webmdp-serve-workers", daemon=True).start()
    try:
        uvicorn.run(APP, factory=True, fd=sock.fileno(), workers=workers,
                    log_level="warning", timeout_graceful_shutdown=STOP_GRACE_S)
    finally:
        stop.set()
        sock.close()
        if not settings.quiet:
            say(f"stopped: {stats_line(*merged_stats(share)[:3])}")
        shutil.rmtree(share, ignore_errors=True)


def serve_ray(settings: ServeSettings, replicas: int, address: str | None,
              on_ready: Callable[[int], None]) -> None:
    """Serve as a Ray Serve application of ``replicas`` replicas on the cluster at ``address``
    (None: a local one) behind Ray's HTTP proxy on ``settings.host:port``; each replica takes
    as many requests at once as it has sessions (a WebSocket holds one for its life). Blocks
    until SIGINT or SIGTERM, then deletes the application and leaves the cluster."""
    import ray
    from ray import serve

    from webmdp.rl.app import create_app

    per = settings.per_worker(replicas)
    ray.init(address=address, runtime_env={"env_vars": per.env()},
             logging_level=logging.WARNING, log_to_driver=False, include_dashboard=False)
    stopped = threading.Event()
    try:
        serve.start(http_options={"host": settings.host, "port": settings.port},
                    logging_config={"log_level": "WARNING"})
        ingress: Any = serve.ingress(create_app)()
        deployment: Any = serve.deployment(name="webmdp", num_replicas=replicas,
                                           max_ongoing_requests=per.max_sessions,
                                           max_queued_requests=per.max_sessions)(ingress)
        serve.run(deployment.bind(), name="webmdp", route_prefix="/", blocking=False)
        on_ready(settings.port)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stopped.set())
        stopped.wait()
    finally:
        _leave(serve)
        ray.shutdown()


def _leave(serve: Any) -> None:
    """Delete the application and stop Serve on the cluster, giving up after
    :data:`RAY_STOP_S` (a local cluster's processes may already be going: Ctrl-C reaches the
    whole process group); ``ray.shutdown`` then stops a local cluster's processes."""
    done = threading.Event()

    def leave() -> None:
        with contextlib.suppress(Exception):
            serve.delete("webmdp")
            serve.shutdown()
        done.set()

    threading.Thread(target=leave, name="webmdp-ray-stop", daemon=True).start()
    done.wait(RAY_STOP_S)

