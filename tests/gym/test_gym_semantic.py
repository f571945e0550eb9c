"""webmdp.gym in semantic mode: registration, spaces, seeding, episode ends, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import webmdp  # noqa: E402
import webmdp.gym as wgym  # noqa: E402
from webmdp.errors import ConfigError  # noqa: E402
from webmdp.sites import site_names  # noqa: E402
from webmdp.tasks import Task  # noqa: E402


def _json(action: object) -> str:
    """A semantic :class:`Action` (or a dict) as the JSON string the action space holds."""
    return json.dumps(action if isinstance(action, dict) else action.to_dict())  # type: ignore[attr-defined]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120, check=False)


def test_every_webmdp_id_is_registered_under_the_namespace() -> None:
    ids = wgym.env_ids()
    assert len(ids) == len(webmdp.env_ids())
    assert "webmdp/shopping-v1" in ids and "webmdp/shopping-review_extract-v1" in ids
    assert all(i in gymnasium.registry for i in ids)
    spec = gymnasium.spec("webmdp/shopping-review_extract-v1")
    assert spec.kwargs == {"env_id": "shopping/review_extract-v1"}
    wgym.register()  # a second registration keeps the specs (and warns about nothing)
    assert gymnasium.spec("webmdp/shopping-v1").entry_point == "webmdp.gym:WebMDPEnv"


def test_make_imports_the_module_before_the_colon() -> None:
    proc = _run("import gymnasium, sys\n"
                "assert 'webmdp.gym' not in sys.modules\n"
                "env = gymnasium.make('webmdp.gym:webmdp/mail-v1')\n"
                "obs, info = env.reset(seed=3)\n"
                "print(info['task_id'], obs.splitlines()[0])")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("mail_") and "Surface:" in proc.stdout


@pytest.mark.parametrize("site", site_names())
def test_check_env_passes_in_semantic_mode(site: str) -> None:
    env = gymnasium.make(f"webmdp/{site}-v1", mode="semantic")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not [str(w.message) for w in caught]
    env.close()


def test_seed_picks_the_task_deterministically() -> None:
    env = gymnasium.make("webmdp/shopping-v1")
    picks = [env.reset(seed=s)[1]["task_id"] for s in range(8)]
    assert picks == [env.reset(seed=s)[1]["task_id"] for s in range(8)]
    assert len(set(picks)) > 4
    env.reset(seed=11)
    follow = [env.reset()[1]["task_id"] for _ in range(3)]  # unseeded resets go on from it
    env.reset(seed=11)
    assert follow == [env.reset()[1]["task_id"] for _ in range(3)]
    fixed = gymnasium.make("webmdp/shopping-v1", task_id="shopping_0007")
    assert {fixed.reset(seed=s)[1]["task_id"] for s in range(5)} == {"shopping_0007"}
    obs, info = env.reset(options={"task_id": "shopping_0042"})
    assert info["task_id"] == "shopping_0042" and obs in env.observation_space
    templ = gymnasium.make("webmdp/shopping-review_extract-v1")
    for seed in range(5):
        templ.reset(seed=seed)
        assert templ.unwrapped.task.template == "review_extract"


def test_finish_terminates_and_the_budget_truncates(shopping_tasks: list[Task]) -> None:
    task = shopping_tasks[5]
    env = gymnasium.make("webmdp/shopping-v1", task_id=task.id)
    obs, info = env.reset(seed=0)
    assert info["instruction"] == task.instruction and obs.startswith("Surface: Home")
    for action in task.oracle_actions():
        obs, reward, term, trunc, info = env.step(_json(action))
        assert (reward, term, trunc, info["error"]) == (0.0, False, False, None)
        assert obs in env.observation_space
    out = env.step(_json({"name": "Finish", "params": {"answer": "done"}}))
    assert out[1:4] == (1.0, True, False)
    assert env.unwrapped.inner.trace.terminated and env.unwrapped.inner.trace.success

    short = gymnasium.make("webmdp/shopping-v1", task_id=task.id, step_budget=2)
    short.reset()
    ends = [short.step(_json({"name": "OpenCart"}))[2:4] for _ in range(2)]
    assert ends == [(False, False), (False, True)]


def test_invalid_actions_in_the_space_are_invalid_steps() -> None:
    env = gymnasium.make("webmdp/shopping-v1", task_id="shopping_0000")
    env.reset()
    for action, why in [("not json", "not JSON"), ("[1, 2]", "not a JSON object"),
                        ('{"params": {}}', "malformed"),
                        ('{"name": "AddToCart", "params": {}}', "no product open")]:
        obs, reward, term, trunc, info = env.step(action)
        assert why in info["error"] and (reward, term, trunc) == (0.0, False, False)
        assert obs in env.observation_space
    steps = env.unwrapped.inner.trace.steps
    assert len(steps) == 4 and all(s.error for s in steps)
    assert steps[0].raw_output == "not json"


@pytest.mark.parametrize("action,why", [
    ({"name": "OpenCart"}, "json.dumps"), (7, "got int"), ("", "got 0 characters"),
    ("x" * (wgym.ACTION_MAX_LENGTH + 1), "characters"), ('{"name": "Open\u0007"}', "charset"),
])
def test_an_action_outside_the_space_raises_and_the_episode_goes_on(action: object,
                                                                     why: str) -> None:
    env = gymnasium.make("webmdp/shopping-v1", task_id="shopping_0000")
    env.reset()
    with pytest.raises(gymnasium.error.InvalidAction, match="outside the action space") as exc:
        env.step(action)
    assert why in str(exc.value) and '{"name": "Search"' in str(exc.value)
    assert env.unwrapped.inner.trace.steps == []
    _, _, _, _, info = env.step(_json({"name": "OpenCart"}))
    assert info["error"] is None and info["steps"] == 1


def test_bad_ids_modes_and_observations_name_the_valid_choices() -> None:
    with pytest.raises(gymnasium.error.NameNotFound, match="Did you mean: `shopping`"):
        gymnasium.make("webmdp/shoping-v1")
    with pytest.raises(gymnasium.error.NameNotFound) as exc:
        wgym.make("webmdp/shoping-v1")
    assert "webmdp/shopping-v1" in str(exc.value) and "webmdp/mail-v1" in str(exc.value)
    with pytest.raises(gymnasium.error.VersionNotFound, match="webmdp/shopping-v1"):
        wgym.make("webmdp/shopping-v9")
    with pytest.raises(ConfigError, match="axtree, both, screenshot"):
        gymnasium.make("webmdp/shopping-v1", mode="browser", observation="pixels")
    with pytest.raises(ConfigError, match="valid choices: text"):
        gymnasium.make("webmdp/shopping-v1", observation="axtree")
    with pytest.raises(ConfigError, match="browser, semantic"):
        gymnasium.make("webmdp/shopping-v1", mode="gui")
    with pytest.raises(ConfigError, match="needs mode='browser'"):
        gymnasium.make("webmdp/shopping-v1", render_mode="rgb_array")
    with pytest.raises(ConfigError, match="task id"):
        gymnasium.make("webmdp/shopping-review_extract-v1", task_id="shopping_0000")
    env = gymnasium.make("webmdp/shopping-v1")
    with pytest.raises(ConfigError, match="index, task_id"):
        env.reset(options={"task": "shopping_0001"})
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.unwrapped.step('{"name": "OpenCart"}')


def test_gymnasium_stays_optional() -> None:
    proc = _run("import sys\n"
                "sys.modules['gymnasium'] = None  # as if not installed\n"
                "import webmdp, webmdp.cli.main\n"
                "webmdp.make('shopping-v1').reset()\n"
                "try:\n"
                "    import webmdp.gym\n"
                "except ImportError as e:\n"
                "    print(e)\n")
    assert proc.returncode == 0, proc.stderr
    assert "pip install 'webmdp[gym]'" in proc.stdout
    proc = _run("import sys, webmdp, webmdp.cli.main; print('gymnasium' in sys.modules)")
    assert proc.stdout.strip() == "False", proc.stderr


def test_valid_actions_are_what_step_accepts() -> None:
    """info["valid_actions"] lists the offered actions as JSON: each one with all its
    parameters filled steps without an error."""
    import json as _json

    import gymnasium

    import webmdp.gym  # noqa: F401

    env = gymnasium.make("webmdp/shopping-v1", mode="semantic", task_id="shopping_0000")
    _, info = env.reset()
    offered = info["valid_actions"]
    assert offered and all(isinstance(_json.loads(a), dict) for a in offered)
    complete = [a for a in offered if _json.loads(a)["name"] in ("GoHome", "OpenCart")]
    assert complete
    _, _, _, _, after = env.step(complete[0])
    assert after["error"] is None
    env.close()


def test_async_vector_env_needs_shared_memory_off() -> None:
    """Gymnasium's AsyncVectorEnv with shared memory returns only the first character of a
    Text observation (upstream); with shared_memory=False the whole text arrives."""
    import gymnasium

    import webmdp.gym  # noqa: F401

    envs = gymnasium.make_vec("webmdp/shopping-v1", num_envs=2, vectorization_mode="async",
                              vector_kwargs={"shared_memory": False}, mode="semantic")
    try:
        obs, _ = envs.reset(seed=0)
        assert all(len(o) > 50 and "Available actions" in o for o in obs)
    finally:
        envs.close()
