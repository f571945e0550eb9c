"""webmdp.gym in browser mode: check_env, screenshots as a Box, rendering, close frees Chromium."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import webmdp.gym as wgym  # noqa: E402
from webmdp.env.chromium import BrowserHost  # noqa: E402
from webmdp.server.runner import ServerHandle  # noqa: E402
from webmdp.sites import site_names  # noqa: E402

pytestmark = pytest.mark.browser


def _element(axtree: str, pattern: str) -> int:
    """The id of the first element whose axtree line matches ``pattern``."""
    m = re.search(rf"^\[(\d+)\] {pattern}", axtree, re.MULTILINE)
    assert m, (pattern, axtree[:800])
    return int(m[1])


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is no zombie."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def test_check_env_passes_in_browser_mode() -> None:
    env = gymnasium.make("webmdp/shopping-v1", mode="browser", observation="both")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped)  # also makes it with render_mode="rgb_array", and closes
        assert not [str(w.message) for w in caught]
        obs, _ = env.reset(seed=0)
        assert obs["screenshot"].shape == (900, 1440, 3) and obs["screenshot"].dtype == "uint8"
        assert obs in env.observation_space
    finally:
        env.close()


def test_render_and_close_frees_chromium() -> None:
    env = gymnasium.make("webmdp/mail-v1", mode="browser", render_mode="rgb_array")
    obs, info = env.reset(seed=1)
    assert isinstance(obs, str) and "[1] " in obs and info["task_id"].startswith("mail_")
    frame = env.render()
    assert frame.shape == (900, 1440, 3) and frame.std() > 0
    inner = env.unwrapped
    pid = inner._host.pid
    assert pid is not None and _running(pid)
    env.close()
    assert not _running(pid)
    assert inner._host is None and inner._server is None
    env.close()  # a second close is fine


def test_axtree_observations_of_every_site_and_a_trajectory_are_in_the_space(
        server: ServerHandle, host: BrowserHost) -> None:
    for site in site_names():  # sharing one server and browser: built directly, not by id
        env = wgym.WebMDPEnv(f"{site}-v1", mode="browser", server=server, host=host)
        obs, _ = env.reset(seed=0)
        assert obs in env.observation_space, site
        env.close()
        assert host.alive()  # a shared browser outlives the env
    env = wgym.WebMDPEnv("shopping-v1", mode="browser", server=server, host=host,
                         task_id="shopping_0000")
    obs, _ = env.reset()
    query = env.task.params["query"]  # type: ignore[union-attr]
    box = _element(obs, 'textbox "Search')
    obs, _, _, _, info = env.step(json.dumps({"kind": "type", "element": box,
                                              "text": query + "\n"}))
    assert info["error"] is None and obs in env.observation_space
    assert [t.action for t in env.inner.trace.steps[-1].transitions] == ["Search"]
    obs, _, _, _, info = env.step('{"kind": "click", "element": 9999}')
    assert "9999" in info["error"] and obs in env.observation_space
    with pytest.raises(gymnasium.error.InvalidAction):
        env.step({"kind": "wait"})
    obs, reward, term, trunc, _ = env.step('{"kind": "finish", "answer": "x"}')
    assert term and not trunc and reward in (0.0, 1.0)
    env.close()
