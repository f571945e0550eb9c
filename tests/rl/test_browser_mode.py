"""Browser mode for trainers: OpenEnv sessions and TRL instances that drive Chromium with the
GUI action space, each on a Chromium of its own (capped by ``--max-sessions``), with the
screenshot in every observation and the same exact rewards as semantic mode."""

from __future__ import annotations

import base64
import io
import threading
from collections.abc import Iterator

import httpx
import pytest
from openenv.cli._validation import validate_running_environment
from PIL import Image
from rl_support import assert_no_leak, gui_oracle, run, serving

from webmdp.env.chromium import VIEWPORT
from webmdp.rl.browser import shared_server
from webmdp.rl.client import WebMDPClient
from webmdp.rl.openenv import WebMDPAction, WebMDPEnvironment, WebMDPObservation
from webmdp.rl.rewards import potential
from webmdp.rl.server import build_app
from webmdp.rl.splits import TRAIN
from webmdp.rl.trl import GUI_TOOLS, environment
from webmdp.tasks.distance import state_after

CAP = 2


@pytest.fixture(scope="module")
def local() -> Iterator[WebMDPEnvironment]:
    env = WebMDPEnvironment("shopping", mode="browser")
    yield env
    env.close()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serving(build_app(site="shopping", mode="browser", max_sessions=CAP)) as base:
        yield base


def _png_size(b64: str | None) -> tuple[int, int]:
    assert b64 is not None
    return Image.open(io.BytesIO(base64.b64decode(b64))).size


def _without_pixels(obs: WebMDPObservation) -> dict:
    return obs.model_dump(exclude={"screenshot"})


def test_the_oracle_in_chromium_earns_the_reward(local: WebMDPEnvironment) -> None:
    """Terminal and dense rewards in browser mode are semantic mode's: 1 for the oracle, and
    dense rewards summing to 1 - Φ(s₀); every observation has the viewport as a PNG."""
    task = local.catalog.tasks(TRAIN)[3]
    got = run(local, task, gui_oracle(task))
    assert got[-1].done and got[-1].reward == 1.0
    assert all(o.reward == 0.0 and o.error is None for o in got[1:-1])
    assert {_png_size(o.screenshot) for o in got} == {(VIEWPORT["width"], VIEWPORT["height"])}
    assert got[0].text.startswith("URL: /\nAccessibility tree")
    assert_no_leak(task, got)
    token = shared_server().token  # the run path's page check, on what a trainer receives
    for o in got:
        assert token not in o.model_dump_json()
        assert not [w for w in ("hard_negative", "oracle", '"role"', "target") if w in o.text]
    dense = WebMDPEnvironment("shopping", mode="browser", reward="dense")
    try:
        shaped = run(dense, task, gui_oracle(task))
    finally:
        dense.close()
    assert [o.text for o in shaped] == [o.text for o in got]
    total = sum(o.reward or 0.0 for o in shaped[1:])
    assert abs(total - (1.0 - potential(task, state_after(task, [])))) < 1e-9


def test_invalid_gui_actions_answer_with_the_error(local: WebMDPEnvironment) -> None:
    first = local.reset(index=0)
    gone = local.step(WebMDPAction(name="click", params={"element": 99999}))
    assert gone.reward == 0.0 and not gone.done and "no element with id 99999" in gone.error
    assert gone.text == first.text
    bad = local.step(WebMDPAction(name="fly"))
    assert bad.reward == 0.0 and "malformed action" in (bad.error or "")
    assert local.state.step_count == 2


def test_two_sessions_at_once_reproduce_the_in_process_episode(
        local: WebMDPEnvironment, url: str) -> None:
    """Two WebSocket sessions, each with its own Chromium, replay the oracle at the same time
    and see what the in-process environment saw; a third is refused at the cap."""
    tasks = [local.catalog.tasks(TRAIN)[i] for i in (3, 5)]
    want = [[_without_pixels(o) for o in run(local, t, gui_oracle(t))] for t in tasks]
    got: list[list[dict]] = [[], []]
    errors: list[BaseException] = []
    clients = [WebMDPClient(base_url=url).sync() for _ in tasks]
    for c in clients:
        c.connect()

    def drive(i: int) -> None:
        try:
            c, task = clients[i], tasks[i]
            got[i].append(_without_pixels(c.reset(task_id=task.id).observation))
            for a in gui_oracle(task):
                got[i].append(_without_pixels(c.step(a).observation))
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    try:
        threads = [threading.Thread(target=drive, args=(i,)) for i in range(len(tasks))]
        for t in threads:
            t.start()
        with pytest.raises(Exception, match="CAPACITY_REACHED"):
            extra = WebMDPClient(base_url=url).sync()
            try:
                extra.connect()
                extra.reset()
            finally:
                extra.close()
        for t in threads:
            t.join()
    finally:
        for c in clients:
            c.close()
    assert not errors, errors
    for i in range(len(tasks)):
        for g, w in zip(got[i], want[i], strict=True):
            assert {**g, "metadata": {}} == {**w, "metadata": {}}
        assert got[i][-1]["reward"] == 1.0


def test_validator_passes_in_browser_mode(url: str) -> None:
    report = validate_running_environment(url)
    assert report["passed"], [c for c in report["criteria"] if not c["passed"]]
    schema = httpx.get(f"{url}/schema").json()
    assert "screenshot" in schema["observation"]["properties"]
    assert "GUI actions in Chromium" in httpx.get(f"{url}/metadata").json()["description"]


def test_a_stateless_http_reset_gives_its_browser_back(url: str) -> None:
    """An HTTP /reset builds an environment for the one call (its Chromium too) and closes it
    from another thread: the browser is closed on its own thread and its slot freed."""
    for _ in range(CAP + 1):  # more than the cap: each call gave its slot back
        body = httpx.post(f"{url}/reset", json={"index": 1}, timeout=120).json()
        assert _png_size(body["observation"]["screenshot"]) == (1440, 900)
        assert body["observation"]["text"].startswith("URL: /")


def test_trl_browser_tools_return_the_screenshot_blocks() -> None:
    """TRL's class in browser mode: the GUI actions as tools; reset and each action return
    the screenshot as an image block, then the text; the oracle earns the reward."""
    cls = environment("shopping", mode="browser")
    assert cls.__name__ == "WebMDPShoppingBrowserEnv"
    tools = {n for n in vars(cls) if not n.startswith("_")}
    assert tools == set(GUI_TOOLS)
    env, other = cls(), cls()
    task = WebMDPEnvironment("shopping").catalog.tasks(TRAIN)[3]
    blocks = env.reset(task_id=task.id, prompt=[{"role": "user", "content": "x"}])
    assert [b["type"] for b in blocks] == ["image", "text"]
    assert blocks[0]["image"].size == (1440, 900)
    assert other.reset(task_id=task.id)[1]["text"] == blocks[1]["text"]  # a group's prompt
    with pytest.raises(ValueError, match="no element with id 99999"):
        env.click(element=99999)
    out = None
    for a in gui_oracle(task):
        out = getattr(env, a.name)(**a.params)
    assert out == "The episode is over." and env.get_reward() == 1.0
    with pytest.raises(ValueError, match="the episode is over"):
        env.go_back()


def test_a_step_past_its_time_ends_the_episode_and_recycles_the_browser() -> None:
    """A step that runs past step_timeout (a 5 s wait against a 1 s bound) ends the episode
    with an error observation and kills that session's Chromium; the next reset works on a
    fresh one. A huge `type` is refused by its bound at once, as an invalid step."""
    env = WebMDPEnvironment("shopping", mode="browser", step_timeout=1.0)
    try:
        task = env.catalog.tasks(TRAIN)[0]
        env.reset(task_id=task.id)
        typed = env.step(WebMDPAction(name="type", params={"text": "a" * 1_000_000}))
        assert typed.error and "at most 2000" in typed.error and "\n" not in typed.error
        assert not typed.done
        seat = env._seat
        assert seat is not None and seat._host is not None
        first = seat._host
        over = env.step(WebMDPAction(name="wait", params={"seconds": 5}))
        assert over.done and over.error and "ran past 1 s" in over.error
        assert over.metadata["success"] is False and env.state.success is False
        assert first.pid is not None and _dies(first.pid)
        again = env.reset(task_id=task.id)
        assert not again.done and again.screenshot
        assert seat._host is not None and seat._host is not first
    finally:
        env.close()


def _dies(pid: int, within_s: float = 10.0) -> bool:
    """Whether process ``pid`` is gone (or a zombie) within ``within_s`` seconds."""
    import time

    import psutil

    from webmdp.runner.procs import alive

    try:
        proc = [psutil.Process(pid)]
    except psutil.NoSuchProcess:
        return True
    end = time.monotonic() + within_s
    while alive(proc) and time.monotonic() < end:
        time.sleep(0.1)
    return not alive(proc)
