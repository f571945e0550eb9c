"""Drive an environment with a task's oracle (its actions, then Finish with its answer), in
semantic or browser mode, and serve an app on loopback."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import threading
from collections.abc import Iterator
from typing import Any

import uvicorn

from webmdp.rl.openenv import WebMDPAction, WebMDPObservation
from webmdp.tasks.model import Task


def oracle_actions(task: Task) -> list[WebMDPAction]:
    acts = [WebMDPAction(name=a.name, params=dict(a.params)) for a in task.oracle_actions()]
    return [*acts, WebMDPAction(name="Finish", params={"answer": task.answer or "done"})]


def run(env: object, task: Task, actions: list[WebMDPAction]) -> list[WebMDPObservation]:
    """Reset ``env`` to ``task`` and step through ``actions``; the observations, reset first."""
    out = [env.reset(task_id=task.id)]  # type: ignore[attr-defined]
    for a in actions:
        out.append(env.step(a))  # type: ignore[attr-defined]
        if out[-1].done:
            break
    return out


_GUI: dict[str, list[tuple[str, dict[str, Any]]]] = {}


def _gui_oracle(task: Task) -> list[tuple[str, dict[str, Any]]]:
    if task.id not in _GUI:
        _GUI[task.id] = _play_gui_oracle(task)
    return _GUI[task.id]


def _play_gui_oracle(task: Task) -> list[tuple[str, dict[str, Any]]]:
    from webmdp.agents.builtin import OracleAgent
    from webmdp.env.browser import BrowserConfig, BrowserEnv

    env = BrowserEnv(task, config=BrowserConfig(observation="axtree"))
    agent = OracleAgent()
    agent.reset(task, "browser")
    agent.bind(env)
    obs, _ = env.reset()
    out = []
    try:
        while True:
            act = agent.act(obs).action
            assert act is not None
            fields = act.model_dump(exclude_defaults=True)
            out.append((fields.pop("kind"), fields))
            obs, _, term, trunc, _ = env.step(act)
            if term or trunc:
                return out
    finally:
        env.close()


def gui_oracle(task: Task) -> list[WebMDPAction]:
    """The oracle's GUI actions in browser mode (the built-in oracle agent's, in Chromium)."""
    return [WebMDPAction(name=k, params=dict(p)) for k, p in _gui_oracle(task)]


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` on a free loopback port, in a thread; its base URL."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                           ws="websockets-sansio"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    ready = threading.Event()
    while not (server.started or not thread.is_alive()):
        ready.wait(0.05)  # uvicorn offers no start hook; poll its flag
    assert server.started, "the server did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join()


def assert_no_leak(task, observations) -> None:  # type: ignore[no-untyped-def]
    """The page text is the agent's own view (each test checks it against the env's); nothing
    else in an observation may carry the goal: no verifier value, no distance."""
    secrets = [str(c.value) for c in task.verifier if isinstance(c.value, str)
               and len(c.value) >= 4] + [c.fact for c in task.verifier]
    for o in observations:
        assert set(o.model_dump()) == {"text", "instruction", "error", "screenshot", "done",
                                       "reward", "metadata"}
        ended = {"success"} if o.done else set()  # the exact verdict, once it is done
        assert set(o.metadata) == {"task_id", "step", "truncated", "shaping"} | ended
        extra = json.dumps(o.metadata) + (o.error or "")
        assert not [s for s in secrets if s in extra]
        for word in ("distance", "verifier", "potential"):
            assert word not in extra.lower() and word not in o.text.lower()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def until(proc: subprocess.Popen[str], prefix: str) -> list[str]:
    """stderr lines up to the first that starts with ``prefix``."""
    assert proc.stderr is not None
    lines: list[str] = []
    for line in proc.stderr:
        lines.append(line.rstrip("\n"))
        if line.startswith(prefix):
            return lines
    raise AssertionError(f"the server exited before '{prefix}': {lines}")
