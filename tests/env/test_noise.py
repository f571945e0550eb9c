"""Real-web noise (webmdp.env.noise): a pure seeded schedule, shown in a real Chromium outside
#app; it blocks clicks until closed, closing it is a `noise` step, and the MDP never sees it."""

from __future__ import annotations

import pytest

from support import site_tasks
from webmdp.agents import OracleAgent
from webmdp.agents.driver import noise_blocker
from webmdp.env.actions import GUIAction
from webmdp.env.browser import BrowserConfig, BrowserEnv
from webmdp.env.noise import (
    BANNER,
    IMAGE,
    MODAL,
    NOISE_LEVELS,
    SCRIPT,
    SLIDE_IN,
    NoiseRuntime,
    schedule,
)
from webmdp.env.semantic import SemanticEnv
from webmdp.errors import ConfigError
from webmdp.eval.metrics import episode_metrics
from webmdp.runner.episode import run_episode
from webmdp.runner.validate import semantic_signature, validate_site
from webmdp.trace import EpisodeTrace, GUIStep

WAIT = GUIAction(kind="wait", seconds=0)


def test_the_schedule_is_a_pure_function_of_level_and_seed() -> None:
    for level in NOISE_LEVELS:
        assert schedule(level, 7) == schedule(level, 7)
        assert [schedule(level, 7).latency_ms(i) for i in range(5)] == \
            [schedule(level, 7).latency_ms(i) for i in range(5)]
    assert not schedule("none", 7).active and schedule("none", 7).latency_ms(0) == 0
    light = schedule("light", 7)
    assert [e.name for e in light.elements] == [BANNER] and light.image_delay_ms is None
    modals = set()
    for seed in range(40):
        real = schedule("real", seed)
        at = {e.name: e.at_step for e in real.elements}
        assert set(at) == {BANNER, MODAL, SLIDE_IN, IMAGE} and at[BANNER] == 1
        assert 2 <= at[MODAL] <= 6 and 3 <= at[SLIDE_IN] <= 8
        assert all(20 <= real.latency_ms(i) <= 120 for i in range(10))
        timed = {e.name: e.at_ms for e in schedule("real-time", seed).elements}
        assert 5000 <= timed[MODAL] <= 15000 and 800 <= timed[BANNER] <= 1500
        modals.add(at[MODAL])
    assert len(modals) > 3  # the seed moves it
    with pytest.raises(ConfigError, match="unknown noise level 'loud'; valid choices: light, "
                                          "none, real, real-time"):
        schedule("loud", 1)


def test_the_runtime_keeps_dismissed_noise_closed_and_shows_due_noise_again() -> None:
    rt = NoiseRuntime(schedule("real", 3))
    modal_at = next(e.at_step for e in rt.plan.elements if e.name == MODAL)
    assert rt.sync_arg(0)["show"] == [IMAGE]
    assert set(rt.sync_arg(modal_at)["show"]) == {BANNER, MODAL, IMAGE}
    assert rt.read_report({"hits": [BANNER, BANNER], "shown": [MODAL], "dismissed": [BANNER]}) \
        == BANNER
    assert BANNER not in rt.sync_arg(modal_at)["show"]  # after a reload too
    assert rt.read_report({"hits": [], "shown": [], "dismissed": []}) is None


def test_the_driver_closes_only_noise_in_its_way() -> None:
    banner = {"id": None, "noise": BANNER, "modal": False, "x": 720, "y": 858, "w": 1440,
              "h": 84, "in_viewport": True}
    reject = {"id": 9, "noise": BANNER, "dismisses": True, "x": 800, "y": 858, "w": 80, "h": 36}
    page = {"id": 3, "action": "Open", "x": 300, "y": 400, "w": 100, "h": 20}
    nodes = [page, banner, reject]
    assert noise_blocker(GUIAction(kind="click", x=300, y=400), nodes) is None
    assert noise_blocker(GUIAction(kind="type", text="x"), nodes) is None
    close = noise_blocker(GUIAction(kind="click", x=300, y=870), nodes)
    assert close is not None and (close.kind, close.x, close.y) == ("click", 800, 858)
    modal = {"id": None, "noise": MODAL, "modal": True, "x": 720, "y": 450, "w": 1440,
             "h": 900, "in_viewport": True}
    no = {"id": 11, "noise": MODAL, "dismisses": True, "x": 720, "y": 520, "w": 90, "h": 36}
    for step in (GUIAction(kind="type", text="x"), GUIAction(kind="click", x=300, y=870)):
        close = noise_blocker(step, [*nodes, modal, no])  # the modal first: it blocks all
        assert close is not None and (close.x, close.y) == (720, 520)


def test_old_traces_load_without_noise() -> None:
    step = GUIStep.model_validate({"index": 0, "action": {"kind": "click"}})
    trace = EpisodeTrace.model_validate({"version": 2, "task_id": "t", "site": "s",
                                         "template": "x", "agent": "a", "mode": "browser",
                                         "seed": 1})
    assert step.noise is None and trace.noise is None and trace.version == 2


def _ids(obs: dict, noise: str) -> dict[str, int]:
    return {n["name"]: n["id"] for n in obs["nodes"] if n.get("noise") == noise and n.get("id")}


def _root(obs: dict, noise: str) -> dict | None:
    return next((n for n in obs["nodes"] if n.get("noise") == noise and "modal" in n), None)


@pytest.mark.browser
def test_real_noise_appears_blocks_clicks_and_closing_it_is_a_noise_step(server, host,  # type: ignore[no-untyped-def]
                                                                         shopping_tasks) -> None:
    task = shopping_tasks[0]
    plan = schedule("real", task.seed)
    at = {e.name: e.at_step for e in plan.elements}
    image = "document.querySelector('[data-webmdp-noise=slow-image] img').complete"
    env = BrowserEnv(task, agent="test", server=server, host=host,
                     config=BrowserConfig(observation="axtree", noise="real"))
    try:
        obs, _ = env.reset()
        assert _root(obs, BANNER) is None and env.trace.noise == "real"
        key0 = server.control("GET", f"/control/sessions/{env.session_id}/snapshot")
        # the slow image's request is held until its delay has passed, then answered
        assert env.page.evaluate(image) is False
        env.step(GUIAction(kind="wait", seconds=plan.image_delay_ms / 1000))
        for _ in range(max(at[MODAL], at[SLIDE_IN]) - 1):
            obs = env.step(WAIT)[0]
        assert env.page.evaluate(image) is True
        # all three are on screen, in the axtree (with ids for their buttons), outside #app
        assert {"Accept all", "Reject"} <= set(_ids(obs, BANNER))
        assert {"Close", "No thanks"} <= set(_ids(obs, MODAL)) and _root(obs, MODAL)["modal"]
        assert "Close newsletter" in _ids(obs, SLIDE_IN)
        assert 'dialog "Special offer"' in obs["axtree"]
        assert 'dialog "Cookie consent"' in obs["axtree"]
        assert env.page.evaluate("document.querySelectorAll('#app [data-webmdp-noise]').length"
                                 " + document.querySelectorAll('[data-webmdp-noise] "
                                 "[data-action]').length") == 0
        # the modal catches a click meant for the page: nothing is dispatched
        search = next(n for n in obs["nodes"] if n.get("field") == "query")
        obs = env.step(GUIAction(kind="click", element=search["id"]))[0]
        assert (env.trace.steps[-1].noise, env.trace.steps[-1].transitions) == (MODAL, [])
        obs = env.step(GUIAction(kind="click", element=_ids(obs, MODAL)["No thanks"]))[0]
        assert env.trace.steps[-1].noise == MODAL and _root(obs, MODAL) is None
        # the banner catches a click on its own text; "Reject" closes it
        banner = _root(obs, BANNER)
        obs = env.step(GUIAction(kind="click", x=banner["x"] + 600, y=banner["y"]))[0]
        assert env.trace.steps[-1].noise == BANNER and _root(obs, BANNER) is not None
        obs = env.step(GUIAction(kind="click", element=_ids(obs, BANNER)["Reject"]))[0]
        assert env.trace.steps[-1].noise == BANNER and _root(obs, BANNER) is None
        obs = env.step(GUIAction(kind="click", element=_ids(obs, SLIDE_IN)["Close newsletter"]))[0]
        assert env.trace.steps[-1].noise == SLIDE_IN and _root(obs, SLIDE_IN) is None
        # a reload shows none of the closed noise again; the MDP state never moved
        env.page.reload()
        obs = env.step(WAIT)[0]
        assert not [n for n in obs["nodes"] if n.get("noise")]
        assert not env.trace.transitions()
        key1 = server.control("GET", f"/control/sessions/{env.session_id}/snapshot")
        assert key1 == key0
    finally:
        env.close()


@pytest.mark.browser
@pytest.mark.parametrize("site,index", [("shopping", 60), ("mail", 60), ("food", 120)])
def test_the_oracle_still_succeeds_under_real_noise(server, host, site, index) -> None:  # type: ignore[no-untyped-def]
    task = site_tasks(site)[index]
    want = run_episode(SemanticEnv(task), OracleAgent())
    env = BrowserEnv(task, agent="oracle", server=server, host=host,
                     config=BrowserConfig(observation="axtree", noise="real"))
    try:
        got = run_episode(env, OracleAgent())
    finally:
        env.close()
    assert got.success and semantic_signature(got) == semantic_signature(want)
    noisy = [s for s in got.steps if s.noise]
    assert noisy and all(not s.transitions and s.error is None for s in noisy)
    m = episode_metrics(got, task)
    assert (m.noise_steps, m.gui_steps) == (len(noisy), len(got.steps) - len(noisy))
    assert m.invalid_steps == 0 and m.exploration_success


@pytest.mark.browser
def test_validate_passes_under_real_noise(server, host) -> None:  # type: ignore[no-untyped-def]
    """Levels 2 and 3 on a slice (`make test-slow` validates every oracle under noise), on the
    session's server and Chromium."""
    for site, tasks in (("mail", site_tasks("mail")[100:102]), ("food", site_tasks("food")[:2])):
        rep = validate_site(site, tasks, conformance=False, noise="real", server=server,
                          host=host)
        assert rep.ok and rep.pages_checked >= 4, (site, rep.level2[:3], rep.level3[:3])


@pytest.mark.browser
def test_noise_injects_nothing_task_specific(server, host, shopping_tasks, mail_tasks) -> None:  # type: ignore[no-untyped-def]
    """One script for every episode; the noise on the page is the same markup whatever the
    task, and holds none of the task's values."""
    markup = []
    for task in (shopping_tasks[3], mail_tasks[5]):
        env = BrowserEnv(task, agent="test", server=server, host=host,
                         config=BrowserConfig(observation="axtree", noise="real"))
        try:
            env.reset()
            for _ in range(8):
                env.step(WAIT)
            markup.append(env.page.evaluate(
                "[...document.querySelectorAll('[data-webmdp-noise]')].map(e => e.outerHTML)"
                ".sort().join('').replace(/ data-webmdp-eid=\"\\d+\"/g, '')"))
            scripts = env.page.evaluate("document.documentElement.outerHTML")
        finally:
            env.close()
        values = [task.target, *(str(v) for v in task.params.values()),
                  *(str(c.value) for c in task.verifier if c.value not in (None, True, False))]
        for value in values:
            if len(value) >= 4:
                assert value not in SCRIPT and value not in markup[-1], value
        assert str(task.seed) not in SCRIPT and str(task.seed) not in scripts
    assert markup[0] == markup[1] and "data-action" not in markup[0]
