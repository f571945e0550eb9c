"""Trainer integrations against the bare environment, in one run (issue 31, part 5).

Prints ratios against baselines measured in the same run (these machines are noisy):
- TRL environment steps (``webmdp.rl.trl`` tools, ``--reward terminal``) over
  ``SemanticEnv.step`` in process, on the same oracle actions; ``dense`` reported apart (it
  searches a goal distance at every step);
- OpenEnv WebSocket steps on loopback (one session) over in-process steps: the ratio and the
  milliseconds added per step;
- 64 concurrent WebSocket sessions on one server: aggregate steps/s against one session's
  rate.

Needs ``webmdp[openenv]`` for the last two parts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from webmdp.env.semantic import SemanticEnv
from webmdp.rl.trl import environment, method_name
from webmdp.sites import get_site
from webmdp.tasks.generate import generate_site_tasks

SITE = "shopping"
SESSIONS = 64


def _tasks() -> list:  # type: ignore[type-arg]
    return generate_site_tasks(get_site(SITE))[:40]


def _rate(run: Callable[[], int], min_s: float = 1.5) -> float:
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < min_s:
        n += run()
    return n / (time.perf_counter() - t0)


def bare() -> int:
    k = 0
    for t in _TASKS:
        env = SemanticEnv(t, agent="bench")
        env.reset()
        for a in t.oracle_actions():
            env.step(a)
            k += 1
    return k


def trl(reward: str) -> Callable[[], int]:
    cls = environment(SITE, reward=reward)  # type: ignore[arg-type]

    def run() -> int:
        k = 0
        for t in _TASKS:
            env = cls()
            env.reset(task_id=t.id)
            for a in t.oracle_actions():
                getattr(env, method_name(a.name))(**a.params)
                k += 1
        return k

    return run


def _server(sessions: int) -> tuple[str, Callable[[], None]]:
    import uvicorn

    from webmdp.rl.server import build_app

    server = uvicorn.Server(uvicorn.Config(build_app(site=SITE, max_sessions=sessions),
                                           host="127.0.0.1", port=0, log_level="warning",
                                           ws="websockets-sansio"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started and thread.is_alive():
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]

    def stop() -> None:
        server.should_exit = True
        thread.join()

    return f"http://127.0.0.1:{port}", stop


def websocket(url: str, tasks: list) -> int:  # type: ignore[type-arg]
    from webmdp.rl.client import WebMDPClient
    from webmdp.rl.openenv import WebMDPAction

    k = 0
    with WebMDPClient(base_url=url).sync() as env:
        for t in tasks:
            env.reset(task_id=t.id)
            for a in t.oracle_actions():
                env.step(WebMDPAction(name=a.name, params=dict(a.params)))
                k += 1
    return k


_TASKS = _tasks()


def main() -> None:
    base = _rate(bare)
    terminal = _rate(trl("terminal"))
    base2 = _rate(bare)
    dense = _rate(trl("dense"), 1.0)
    mean = (base + base2) / 2
    print(f"## TRL tools vs SemanticEnv.step ({SITE}, {len(_TASKS)} oracles, in process)")
    print(f"  SemanticEnv.step      {mean:10,.0f} steps/s")
    print(f"  TRL, terminal         {terminal:10,.0f} steps/s   {mean / terminal:.2f}x the "
          "time per step (target <= 1.5x)")
    print(f"  TRL, dense            {dense:10,.0f} steps/s   {mean / dense:.2f}x (searches a "
          "goal distance at every step)")
    try:
        url, stop = _server(SESSIONS)
    except ImportError:
        print("## OpenEnv: not installed (pip install 'webmdp[openenv]')")
        return
    try:
        n, t0 = websocket(url, _TASKS[:10]), time.perf_counter()
        n = websocket(url, _TASKS[:10])
        one = n / (time.perf_counter() - t0)
        print("## OpenEnv WebSocket on loopback, one session")
        print(f"  {one:10,.0f} steps/s   {mean / one:.1f}x in-process time per step, "
              f"+{1000 / one - 1000 / mean:.2f} ms a step")
        t0 = time.perf_counter()
        with ThreadPoolExecutor(SESSIONS) as pool:
            total = sum(pool.map(lambda i: websocket(url, [_TASKS[(i * 5 + j) % len(_TASKS)]
                                                           for j in range(5)]),
                                 range(SESSIONS)))
        many = total / (time.perf_counter() - t0)
        print(f"## {SESSIONS} concurrent sessions: {many:,.0f} steps/s in all, "
              f"{many / one:.2f}x one session's rate")
    finally:
        stop()


if __name__ == "__main__":
    main()
