"""The resume rules (webmdp.runner.resume): what a run directory's manifest gives back to a new
invocation, and what an option given again overrides."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from webmdp.errors import ConfigError
from webmdp.runner import resume

STORED: dict[str, Any] = {
    "identity": {"agents": [{"name": "random", "seed": 1, "model": None},
                            {"name": "greedy", "seed": 0, "model": None},
                            {"name": "random", "seed": 0, "model": None}],
                 "mode": "browser", "step_budget": 20, "observation": "axtree",
                 "screenshots": True, "noise": "light"},
    "task_set": {"ids": ["shopping_0002", "shopping_0001"]},
    "settings": {"workers": 3, "backend": "local", "slots": 2, "server": "shared",
                 "retries": 5, "episode_timeout_s": 60.0, "step_timeout_s": 7.0,
                 "ray_address": None},
}


def options(**over: Any) -> dict[str, Any]:
    base = {"workers": 1, "backend": "local", "slots": None, "server": "per-worker",
            "retries": 2, "episode_timeout": 1800.0, "step_timeout": 300.0,
            "ray_address": None, "agent": ["oracle"], "mode": "semantic", "step_budget": 50,
            "observation": "both", "screenshots": False, "noise": "none", "seeds": "0"}
    return {**base, **over}


def test_settings_come_back_unless_given_again() -> None:
    o = options()
    resume.apply_settings(STORED, set(), o)
    assert (o["workers"], o["slots"], o["server"], o["retries"]) == (3, 2, "shared", 5)
    assert (o["episode_timeout"], o["step_timeout"]) == (60.0, 7.0)  # stored under _s names
    o = options(workers=2, retries=0)
    resume.apply_settings(STORED, {"workers", "retries"}, o)
    assert (o["workers"], o["retries"], o["slots"]) == (2, 0, 2)


def test_an_inline_run_resumes_inline_with_this_commands_backend() -> None:
    stored = {**STORED, "settings": {**STORED["settings"], "backend": "inline"}}
    o = options(backend="ray")
    resume.apply_settings(stored, set(), o)
    assert (o["workers"], o["backend"]) == (0, "ray")


def test_identity_comes_back_unless_given_again() -> None:
    o = options()
    resume.apply_identity(STORED, set(), o)
    assert o["agent"] == ["random", "greedy"]  # names once, in stored order
    assert o["seeds"] == "0,1"
    assert (o["mode"], o["step_budget"], o["observation"], o["screenshots"], o["noise"]) == \
        ("browser", 20, "axtree", True, "light")
    o = options(mode="semantic", noise="none")
    resume.apply_identity(STORED, {"mode", "noise"}, o)
    assert (o["mode"], o["noise"], o["step_budget"]) == ("semantic", "none", 20)


def test_a_run_stored_before_noise_resumes_without_it() -> None:
    ident = {k: v for k, v in STORED["identity"].items() if k != "noise"}
    o = options(noise="real")
    resume.apply_identity({**STORED, "identity": ident}, set(), o)
    assert o["noise"] == "none"


def test_selection_options_reselect_and_operational_ones_are_overrides() -> None:
    assert not resume.reselects({"workers", "retries", "agent"})
    assert resume.reselects({"limit"}) and resume.reselects({"split"})
    assert resume.overrides({"workers", "limit", "api_key", "mode"}) == ("api_key", "workers")


def test_stored_tasks_keep_their_order_and_a_missing_one_is_named(tmp_path: Path) -> None:
    from support import site_tasks

    tasks = site_tasks("shopping")[:3]
    (tmp_path / "tasks.jsonl").write_text("".join(t.model_dump_json() + "\n" for t in tasks))
    got = resume.stored_tasks(tmp_path, STORED)
    assert [t.id for t in got] == ["shopping_0002", "shopping_0001"]
    damaged = {**STORED, "task_set": {"ids": ["shopping_0002", "shopping_0099"]}}
    with pytest.raises(ConfigError, match=r"lacks 1 of the run's tasks \(e.g. shopping_0099\)"):
        resume.stored_tasks(tmp_path, damaged)


def test_nothing_to_resume_without_a_manifest(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nothing to resume: .* has no manifest\.json"):
        resume.load(tmp_path)
    (tmp_path / "manifest.json").write_text(json.dumps(STORED))
    assert resume.load(tmp_path)["task_set"]["ids"] == STORED["task_set"]["ids"]


def test_a_model_run_started_with_a_flag_key_needs_one_again(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    model = {"model": "openai/gpt-4o", "grammar": "json"}
    stored = {"identity": {"agents": [{"name": "step", "seed": 0, "model": model}]},
              "settings": {"endpoint": {"base_url": "http://127.0.0.1:9/v1",
                                        "api_key_from": "flag"}}}
    args = {"base_url": None, "timeout_s": None, "max_retries": None, "concurrency": None}
    with pytest.raises(ConfigError, match="set OPENAI_API_KEY"):
        resume.stored_model(stored, set(), say=print, api_key=None, **args)
    cfg = resume.stored_model(stored, set(), say=print, api_key="k", **args)
    assert (cfg.model, cfg.base_url, cfg.api_key) == ("openai/gpt-4o", "http://127.0.0.1:9/v1",
                                                      "k")
    assert resume.stored_model(STORED, set(), say=print, api_key=None, **args) is None
