"""Resuming a run: what a run directory's manifest gives back to a new invocation.

Running the same command again, or ``webmdp run --resume DIR``, continues a run. The rules:

- **How it is run** (:data:`OPERATIONAL`: workers, backend, slots, server, retries, timeouts,
  the model endpoint) comes back from the manifest's ``settings``; an option given again on
  the command line overrides it, and is listed in that invocation's ``overrides``.
- **What it measures** (agents with their seeds, mode, step budget, observation,
  screenshots, noise) comes back from the manifest's ``identity`` unless given again (then
  the manifest check decides whether the run may continue).
- **Which tasks**: the stored ``tasks.jsonl``, in the stored order, unless a selection
  option (:data:`SELECT`) is given again.
- **The model**: its stored config; endpoint URL, retries, timeout and concurrency from the
  stored endpoint unless given again. The key is never stored: it comes from the command line
  or the environment, and a run started with ``--api-key`` cannot resume without one; an
  endpoint URL whose credential was blanked comes back only from the environment.

Options are passed as one dict, keyed by the ``webmdp run`` parameter names; ``given`` names
the options typed on this command line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from webmdp.errors import ConfigError
from webmdp.redact import REDACTED, redact_url
from webmdp.runner import manifest as mf

SELECT = ("site", "template", "hard_negatives", "access_level", "task_id", "tasks_file",
          "suite", "limit", "split", "holdout")
"""Selection options: giving one selects the tasks again instead of reading the stored ones."""
OPERATIONAL = ("workers", "slots", "backend", "server", "retries", "episode_timeout",
               "step_timeout", "ray_address", "base_url", "api_key", "timeout", "max_retries",
               "concurrency")
"""Options that change how a run goes, not what it measures: stored, defaults on resume."""
_STORED_AS = {"episode_timeout": "episode_timeout_s", "step_timeout": "step_timeout_s"}
"""Options whose stored setting has another name."""
_SETTINGS = ("slots", "server", "retries", "episode_timeout", "step_timeout", "ray_address")
_IDENTITY = ("mode", "step_budget", "observation", "screenshots")


def load(root: Path) -> dict[str, Any]:
    """The manifest of the run to resume in ``root``; a directory without one is refused."""
    stored = mf.read(root)
    if stored is None:
        raise ConfigError(f"nothing to resume: {root} has no {mf.MANIFEST} "
                          "(start the run with --out)")
    return stored


def apply_settings(stored: dict[str, Any], given: set[str], opts: dict[str, Any]) -> None:
    """How the run was run, into ``opts``, for each option not given again. A run stored as
    ``inline`` resumes with ``--workers 0`` and this command's backend."""
    ops = stored.get("settings", {})
    if "workers" not in given:
        opts["workers"] = 0 if ops.get("backend") == "inline" \
            else ops.get("workers", opts["workers"])
    if "backend" not in given and ops.get("backend") != "inline":
        opts["backend"] = ops.get("backend", opts["backend"])
    for option in _SETTINGS:
        if option not in given:
            opts[option] = ops.get(_STORED_AS.get(option, option), opts[option])


def apply_identity(stored: dict[str, Any], given: set[str], opts: dict[str, Any]) -> None:
    """What the run measures (agents, seeds, mode, trace settings), into ``opts``, for each
    option not given again."""
    ident = stored["identity"]
    if "agent" not in given:
        opts["agent"] = list(dict.fromkeys(a["name"] for a in ident["agents"]))
    for option in _IDENTITY:
        if option not in given:
            opts[option] = ident[option]
    if "noise" not in given:
        opts["noise"] = ident.get("noise", "none")
    if "seeds" not in given:
        opts["seeds"] = ",".join(str(s) for s in sorted({a["seed"] for a in ident["agents"]}))


def reselects(given: set[str]) -> bool:
    """Whether this command line selects tasks again (a selection option given)."""
    return bool(given & set(SELECT))


def overrides(given: set[str]) -> tuple[str, ...]:
    """The operational options a resume was given explicitly (recorded in its invocation)."""
    return tuple(sorted(given & set(OPERATIONAL)))


def stored_tasks(root: Path, stored: dict[str, Any]) -> list[Any]:
    """The run's tasks from its ``tasks.jsonl``, in the stored order."""
    from webmdp.tasks.io import read_tasks

    ids = stored["task_set"].get("ids", [])
    by_id = {t.id: t for t in read_tasks(root / "tasks.jsonl")}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise ConfigError(f"{root}/tasks.jsonl lacks {len(missing)} of the run's tasks "
                          f"(e.g. {missing[0]}); the run directory is damaged")
    return [by_id[i] for i in ids]


# -- the model agent's endpoint -------------------------------------------------------------------
def stored_model(stored: dict[str, Any], given: set[str], *, say: Callable[[str], None],
                 **operational: Any) -> Any:
    """The model config a resumed run was started with. Endpoint, retries, timeout and
    concurrency come back from the manifest unless given again; the key only ever comes from
    this command line or the environment, and a run started with --api-key cannot resume
    without one. ``say`` hears the one line a URL taken from the environment prints."""
    models = [a["model"] for a in stored["identity"]["agents"] if a.get("model")]
    if not models:
        return None
    from webmdp.agents.llm import ModelAgentConfig

    ops = stored.get("settings", {}).get("endpoint") or {}
    restored = {k: ops.get(k) for k in ("base_url", "timeout_s", "max_retries", "backoff_s",
                                        "concurrency")}
    for option, key in (("base_url", "base_url"), ("timeout", "timeout_s"),
                        ("max_retries", "max_retries"), ("concurrency", "concurrency")):
        if option in given:
            restored[key] = operational[key]
    if "base_url" not in given and REDACTED in (restored["base_url"] or ""):
        restored["base_url"] = _credential_url(models[0]["model"], str(restored["base_url"]),
                                               say)
    key_env = provider(models[0]["model"]).key_env
    if operational["api_key"] is None and not os.environ.get(key_env) \
            and ops.get("api_key_from") == "flag":
        raise ConfigError(f"this run's API key was given with --api-key, which webmdp never "
                          f"stores: set {key_env} (or pass --api-key) to resume it")
    return ModelAgentConfig(**models[0], **restored,  # type: ignore[arg-type]
                            api_key=operational["api_key"])


def _credential_url(model: str, stored_url: str, say: Callable[[str], None]) -> str:
    """The real URL of a resumed run whose stored endpoint URL had its credential blanked:
    the provider's base-URL environment variable when it redacts to the stored form, else a
    one-line error asking for --base-url again."""
    from webmdp.agents.llm.clients import base_url_for

    from_env = base_url_for(provider(model).name, None)
    if from_env and redact_url(from_env) == stored_url:
        say("resume: the endpoint URL's credential is not stored; taking the URL from the "
            "environment")
        return from_env
    raise ConfigError(f"this run's endpoint URL ({stored_url}) carries a credential, which "
                      "webmdp never stores: pass --base-url again (or set the provider's "
                      "base-URL environment variable) to resume it")


def provider(model: str) -> Any:
    from webmdp.agents.llm.clients import PROVIDERS, parse_model_id

    return PROVIDERS[parse_model_id(model)[0]]


def endpoint(model_cfg: Any, api_key: str | None, stored: dict[str, Any] | None
             ) -> dict[str, Any]:
    """The endpoint settings a run stores (never the key itself): the effective base URL
    (from --base-url, else the provider's environment variable, else its default), the
    client's retries, timeout and concurrency, and where the key came from (``stored``: the
    resumed run's manifest, whose record stands when neither gives a key now)."""
    if model_cfg is None:
        return {}
    p = provider(model_cfg.model)
    old = ((stored or {}).get("settings", {}).get("endpoint") or {})
    key_from = ("flag" if api_key else "environment" if os.environ.get(p.key_env)
                else old.get("api_key_from"))
    from webmdp.agents.llm.clients import base_url_for

    return {"base_url": base_url_for(p.name, model_cfg.base_url),
            "timeout_s": model_cfg.timeout_s, "max_retries": model_cfg.max_retries,
            "backoff_s": model_cfg.backoff_s, "concurrency": model_cfg.concurrency,
            "api_key_from": key_from, "api_key_env": p.key_env}


def with_endpoint(model_cfg: Any, endpoint: dict[str, Any]) -> Any:
    """Workers call the endpoint the run recorded, whatever their environment says."""
    from dataclasses import replace

    return replace(model_cfg, base_url=endpoint["base_url"])
