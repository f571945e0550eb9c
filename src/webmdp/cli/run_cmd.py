"""`webmdp run`: run agents on a task selection with parallel workers; resumable."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from webmdp.agents.registry import MODEL_AGENTS, agent_names
from webmdp.cli.common import (
    SUITES,
    check_difficulty,
    check_noise,
    console,
    fail,
    select_tasks,
    split_record,
    user_errors,
)
from webmdp.errors import ConfigError, unknown_choice
from webmdp.redact import REDACTED, redact_url
from webmdp.runner import manifest as mf
from webmdp.runner.limits import check_workers
from webmdp.runner.spec import AgentSpec, RunSettings

MODES = ("semantic", "browser")
OBSERVATIONS = ("screenshot", "axtree", "both")
COORDS = ("absolute", "relative1000", "normalized1")
BACKENDS = ("local", "ray")
SERVERS = ("per-worker", "shared")
_SELECT = ("site", "template", "hard_negatives", "access_level", "task_id", "tasks_file", "suite",
           "limit", "split", "holdout")
_OPERATIONAL = ("workers", "slots", "backend", "server", "retries", "episode_timeout",
                "step_timeout", "ray_address", "base_url", "api_key", "timeout", "max_retries",
                "concurrency")
"""Options that change how a run goes, not what it measures: stored, defaults on resume."""
_M = "Model agents"
_S = "Scale and faults"


def run(
    ctx: typer.Context,
    site: str | None = typer.Option(None, "--site", "-s",
                                    help="Site, comma-separated sites, or 'all' (default: "
                                         "shopping; with --tasks or --task, no site filter "
                                         "unless given)."),
    agent: list[str] = typer.Option(["oracle"], "--agent", "-a",
                                    help="Agent (repeatable): oracle, random, greedy (built "
                                         "in), a model agent: step, plan, tree (needs "
                                         "--model), or your own as module:Class."),
    mode: str = typer.Option("semantic", "--mode", "-m",
                             help="semantic (typed actions on the MDP) or browser (Chromium)."),
    limit: int | None = typer.Option(None, "--limit", "-n",
                                     help="At most N tasks, spread over the selection."),
    out: Path = typer.Option(Path("runs/latest"), "--out", "-o", help="Run directory."),
    template: str | None = typer.Option(None, help="Only these templates (comma-separated)."),
    hard_negatives: str | None = typer.Option(None, "--hard-negatives",
                                              help="Only these hard-negative counts, e.g. 0,3."),
    access_level: str | None = typer.Option(None, "--access-level",
                                            help="Only these access levels: card, filter, "
                                                 "detail (comma-separated)."),
    task_id: list[str] = typer.Option(None, "--task", help="Only these task ids (repeatable)."),
    tasks_file: Path | None = typer.Option(None, "--tasks", help="Read tasks from a JSONL file."),
    suite: str = typer.Option("builtin", "--suite", help="'builtin' (the sites' tasks) or "
                              "'cross-site' (CAP's cross-site tasks over 2-4 sites, scored by "
                              "rubric trees; --site keeps those that include the site)."),
    split: str | None = typer.Option(None, "--split", help="Only the tasks of this RL split "
                                     "(train or test, as `webmdp rl splits` shows it), so a "
                                     "trained policy is evaluated on exactly the held-out "
                                     "tasks; the report names it."),
    holdout: str = typer.Option("task", "--holdout", help="With --split: what test holds out "
                                "(task, template or site:NAME)."),
    seeds: str = typer.Option("0", "--seeds", help="Agent seeds, e.g. 0,1,2: every task once "
                              "per seed; a seed other than 0 is stored as agent NAME@sSEED."),
    step_budget: int = typer.Option(50, help="GUI steps before an episode is truncated (per "
                                    "site: a cross-site episode over k sites gets k times as "
                                    "many)."),
    screenshots: bool = typer.Option(False, help="Save a screenshot per browser step."),
    observation: str = typer.Option("both", help="Browser observation: screenshot, axtree or "
                                                  "both."),
    noise: str = typer.Option("none", "--noise", help="Real-web noise in browser mode, seeded "
                              "per episode: none; light (a cookie banner and 20-120 ms latency "
                              "per action); real (light, plus a pop-up that blocks the page, a "
                              "newsletter slide-in and a slow image); real-time (real, on the "
                              "page's clock). It never changes the MDP."),
    resume_dir: Path | None = typer.Option(None, "--resume", help="Continue the run in DIR with "
                                           "its stored configuration and tasks: finished "
                                           "episodes are skipped, unfinished or infrastructure-"
                                           "failed ones run again.", rich_help_panel=_S),
    force: bool = typer.Option(False, "--force", help="Continue a run directory even though "
                               "its agents, mode or task set differ.", rich_help_panel=_S),
    rerun: bool = typer.Option(False, "--rerun", help="Run finished episodes again too.",
                               rich_help_panel=_S),
    workers: int = typer.Option(1, "--workers", "-w", help="Worker processes (0: run in this "
                                "process).", rich_help_panel=_S),
    slots: int | None = typer.Option(None, help="Episodes each worker runs at once (default 1; "
                                     "model agents: the endpoint concurrency shared out over "
                                     "the workers).", rich_help_panel=_S),
    backend: str = typer.Option("local", help="local (processes on this machine) or ray.",
                                rich_help_panel=_S),
    ray_address: str | None = typer.Option(None, help="Ray cluster address (default: "
                                           "RAY_ADDRESS, else a local Ray instance).",
                                           rich_help_panel=_S),
    server: str = typer.Option("per-worker", help="Browser mode: a webmdp server per worker, "
                               "or one shared by all (local backend).", rich_help_panel=_S),
    retries: int = typer.Option(2, help="Attempts after an infrastructure failure before the "
                                "episode is recorded as an infra error.",
                                rich_help_panel=_S),
    episode_timeout: float = typer.Option(1800.0, help="Wall-clock seconds per episode before "
                                          "its worker is killed and the episode retried.",
                                          rich_help_panel=_S),
    step_timeout: float = typer.Option(300.0, help="Seconds a browser step may go without "
                                       "progress before its Chromium is killed.",
                                       rich_help_panel=_S),
    price_in: float | None = typer.Option(None, help="USD per million prompt tokens (cost in "
                                          "the live display).", rich_help_panel=_M),
    price_out: float | None = typer.Option(None, help="USD per million completion tokens.",
                                           rich_help_panel=_M),
    model: str | None = typer.Option(None, "--model", help="Model agents: PROVIDER/MODEL, e.g. "
                                     "openai/gpt-4o, vllm/ByteDance-Seed/UI-TARS-1.5-7B, "
                                     "anthropic/claude-sonnet-4-6 (see `webmdp agents`).",
                                     rich_help_panel=_M),
    grammar: str = typer.Option("json", "--grammar", "-g", help="Action grammar: uitars, qwen, "
                                "fara, openai-cua, anthropic-cua, axtree, json.",
                                rich_help_panel=_M),
    base_url: str | None = typer.Option(None, "--base-url", help="Endpoint URL (default: the "
                                        "provider's, or OPENAI_BASE_URL / ANTHROPIC_BASE_URL / "
                                        "VLLM_BASE_URL / SGLANG_BASE_URL).",
                                        rich_help_panel=_M),
    api_key: str | None = typer.Option(None, "--api-key", help="API key (default: the "
                                       "provider's environment variable).", rich_help_panel=_M),
    value: str = typer.Option("model", "--value", help="tree: value function V(s), 'model' or "
                              "'oracle' (exact, 1/(1+distance to goal) from the MDP).",
                              rich_help_panel=_M),
    branching: int = typer.Option(3, help="tree: candidate actions per expanded node.",
                                  rich_help_panel=_M),
    coords: str | None = typer.Option(None, help="Coordinate convention of the model's "
                                      "output: absolute, relative1000 or normalized1 (default: "
                                      "the grammar's).", rich_help_panel=_M),
    history_images: int | None = typer.Option(None, help="Screenshots per prompt, the current "
                                              "one included (default: the family's).",
                                              rich_help_panel=_M),
    set_of_marks: bool = typer.Option(False, help="Show a set-of-marks screenshot (numbered "
                                      "boxes over interactive elements).", rich_help_panel=_M),
    temperature: float | None = typer.Option(None, help="Sampling temperature (default 0).",
                                             rich_help_panel=_M),
    max_tokens: int | None = typer.Option(None, help="Completion token limit per call "
                                          "(default 1024).", rich_help_panel=_M),
    timeout: float | None = typer.Option(None, help="Request timeout in seconds (default 120).",
                                         rich_help_panel=_M),
    max_retries: int | None = typer.Option(None, help="Retries on 429 / 5xx / timeouts "
                                           "(default 4, exponential backoff).",
                                           rich_help_panel=_M),
    concurrency: int | None = typer.Option(None, help="Concurrent requests per endpoint, "
                                           "over "
                                           "all workers (default 4).", rich_help_panel=_M),
    no_preflight: bool = typer.Option(False, "--no-preflight", help="Skip the one-token "
                                      "request that checks the model endpoint (URL, key, "
                                      "model) before the first episode.", rich_help_panel=_M),
) -> None:
    """Run agents on a task selection; one trace per episode is stored as soon as it ends.

    Every task runs once per agent and seed. A run directory keeps a manifest (configuration,
    versions, task-set hash, how it is run): running the same command again, or `--resume
    DIR`, continues it with the stored settings (endpoint included; options given again
    override them). API keys are never stored: a resume takes them from the environment.

    Exit status: 0 when every episode of the run is stored without an infrastructure error;
    3 when some of the run's episodes ended as infra errors and 4 when all did (counted over
    the whole run after this invocation; `--resume` runs them again); 2 for bad input or a
    failed model-endpoint preflight; 128+N when stopped by signal N (130 for Ctrl-C).
    """
    from webmdp.redact import register as register_secret
    from webmdp.runner.display import LiveDisplay
    from webmdp.runner.run import RunPlan, execute_run

    # every number and path was checked as the line was parsed (webmdp.cli.ranges)
    given = {name for name in ctx.params  # options typed on this command line
             if getattr(ctx.get_parameter_source(name), "name", "") == "COMMANDLINE"}
    register_secret(api_key)
    with user_errors():
        stored = None
        if resume_dir is not None:
            out = resume_dir
            stored = mf.read(resume_dir)
            if stored is None:
                raise ConfigError(f"nothing to resume: {resume_dir} has no {mf.MANIFEST} "
                                  "(start the run with --out)")
        ops = (stored or {}).get("settings", {})
        if stored is not None:  # how the run was run, unless given again
            workers = workers if "workers" in given else (
                0 if ops.get("backend") == "inline" else ops.get("workers", workers))
            backend = backend if "backend" in given else (
                ops.get("backend", backend) if ops.get("backend") != "inline" else backend)
            slots, server, retries, episode_timeout, step_timeout, ray_address = _resumed(
                ops, given, slots=slots, server=server, retries=retries,
                episode_timeout=episode_timeout, step_timeout=step_timeout,
                ray_address=ray_address)
        model_cfg = None
        if model is not None:
            model_cfg = _model_config(agent, mode, model, grammar, base_url, api_key, value,
                                      branching, coords, history_images, set_of_marks,
                                      temperature, max_tokens, timeout, max_retries, concurrency)
        if stored is not None and "model" not in given:
            model_cfg = _stored_model(stored, given, base_url=base_url, api_key=api_key,
                                      timeout_s=timeout, max_retries=max_retries,
                                      concurrency=concurrency)
        endpoint = _endpoint(model_cfg, api_key, stored if "model" not in given else None)
        if model_cfg is not None:
            model_cfg = _with_endpoint(model_cfg, endpoint)
            # the manifest and the preflight line show the URL without its credential
            endpoint["base_url"] = redact_url(endpoint["base_url"] or "") or None
        if stored is not None:
            ident = stored["identity"]
            if "agent" not in given:
                agent = list(dict.fromkeys(a["name"] for a in ident["agents"]))
            mode = mode if "mode" in given else ident["mode"]
            step_budget = step_budget if "step_budget" in given else ident["step_budget"]
            observation = observation if "observation" in given else ident["observation"]
            screenshots = screenshots if "screenshots" in given else ident["screenshots"]
            noise = noise if "noise" in given else ident.get("noise", "none")
            if "seeds" not in given:
                seeds = ",".join(str(s) for s in sorted({a["seed"] for a in ident["agents"]}))
        for name in agent:
            if name in MODEL_AGENTS and model_cfg is None:
                raise ConfigError(f"agent '{name}' is driven by a model: give --model "
                                  "PROVIDER/MODEL (see `webmdp agents`)")
            if ":" in name and name not in agent_names():
                _importable(name)
            elif name not in agent_names():
                raise unknown_choice("agent", name, agent_names())
        _choice("mode", mode, MODES)
        _choice("observation", observation, OBSERVATIONS)
        check_noise(noise, mode)
        _choice("backend", backend, BACKENDS)
        _choice("server mode", server, SERVERS)
        if workers == 0 and backend == "ray":
            raise ConfigError("--backend ray needs at least one worker")
        if backend == "local":  # Ray's bound is checked once connected, against its CPUs
            check_workers(workers)
        agent_seeds = _seeds(seeds)
        split_info = None  # a resume keeps the split its manifest records
        if stored is not None and not (given & set(_SELECT)):
            tasks = _stored_tasks(out, stored)
        else:
            if site is None and tasks_file is None and not task_id and suite == "builtin":
                site = "shopping"
            tasks = select_tasks(site, tasks_file=tasks_file, template=template,
                                 task_ids=task_id or None, limit=limit, spread=True,
                                 hard_negatives=_ints(hard_negatives, "--hard-negatives"),
                                 access_levels=_list(access_level), suite=suite,
                                 split=split, holdout=holdout)
            split_info = None if split is None else split_record(split, holdout)
            source = tasks_file or (None if suite in SUITES else suite)
            if source is not None:  # a file's vectors, checked on the tasks this run runs
                check_difficulty([t for t in tasks if t.cross is None], source)
        agents = [AgentSpec(a, seed=s, model=model_cfg if a in MODEL_AGENTS else None)
                  for a in agent for s in agent_seeds]
        per_worker = slots or _default_slots(agents, workers)
        settings = RunSettings(
            step_budget=step_budget, observation=observation, screenshots=screenshots,
            noise=noise, workers=max(workers, 1), slots=per_worker if workers else 1,
            backend="inline" if workers == 0 else backend,  # type: ignore[arg-type]
            server=server, retries=retries,  # type: ignore[arg-type]
            episode_timeout_s=episode_timeout, step_timeout_s=step_timeout,
            ray_address=ray_address, endpoint=endpoint)
        overrides = tuple(sorted(given & set(_OPERATIONAL))) if stored is not None else ()
        check = None
        if model_cfg is not None and not no_preflight:
            from webmdp.agents.llm.preflight import credential, preflight

            def check() -> None:
                console.print(f"preflight: one request to "
                              f"{redact_url(endpoint.get('base_url') or '') or model}; "
                              f"credential: {credential(model_cfg)}", highlight=False)
                preflight(model_cfg)

        plan = RunPlan(out, tasks, agents, mode, settings, force=force,  # type: ignore[arg-type]
                       rerun=rerun, overrides=overrides, preflight=check, split=split_info)
        label = f"{', '.join(a.label() for a in agents)} · {mode}"
        with LiveDisplay(label, console, price_in=price_in, price_out=price_out) as live:
            outcome = execute_run(plan, on_change=live.update)
    _summary(outcome, out)
    if outcome.status == "failed":
        raise fail(f"run stopped: {outcome.error}")
    if outcome.status == "interrupted":
        t = outcome.tally
        console.print(f"[yellow]interrupted[/yellow]: {t.total - t.done} episodes not run; "
                      f"continue with: webmdp run --resume {out}")
        raise typer.Exit(code=128 + (outcome.signal or 2))
    if outcome.final.exit_code:
        raise typer.Exit(code=outcome.final.exit_code)


_STORED_AS = {"episode_timeout": "episode_timeout_s", "step_timeout": "step_timeout_s"}
"""Options whose stored setting has another name."""


def _resumed(stored: dict[str, Any], given: set[str], **current: Any) -> list[Any]:
    """Each option's value as given on this command line, else as the run stored it."""
    return [value if option in given else stored.get(_STORED_AS.get(option, option), value)
            for option, value in current.items()]


def _summary(outcome: Any, out: Path) -> None:
    """This invocation's counts, then the run's infra errors and their most common causes."""
    t, f = outcome.tally, outcome.final
    console.print(f"{t.done} episodes run ({t.skipped} resumed), {t.success} successful, "
                  f"{t.infra_errors} infrastructure errors, {t.retries} retries -> {out}",
                  highlight=False)
    if not f.infra_errors:
        return
    share = "all" if f.infra_errors >= f.episodes else f"{f.infra_errors} of {f.episodes}"
    console.print(f"[red]{share} episodes of the run ended in an infrastructure error[/red] "
                  f"({f.infra_errors} of {f.episodes}); `webmdp run --resume {out}` runs them "
                  "again. Causes:", highlight=False)
    for cause, n in list(f.causes.items())[:3]:
        console.print(f"  {n} x {escape(cause)}", highlight=False, soft_wrap=True)


def _importable(entry: str) -> None:
    """An agent given as ``module:Class`` must import here, before any worker starts."""
    import importlib

    module, attr = entry.split(":", 1)
    try:
        getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"cannot load agent {entry}: {exc}") from exc


def _choice(what: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise unknown_choice(what, value, choices)


def _list(spec: str | None) -> list[str] | None:
    return [x.strip() for x in spec.split(",") if x.strip()] if spec else None


def _ints(spec: str | None, option: str) -> list[int] | None:
    try:
        return [int(x) for x in _list(spec) or []] or None
    except ValueError:
        raise ConfigError(f"{option} takes whole numbers, e.g. 0,1: got {spec!r}") from None


def _seeds(spec: str) -> list[int]:
    seeds = _ints(spec, "--seeds")
    if not seeds:
        raise ConfigError("--seeds needs at least one seed, e.g. 0 or 0,1,2")
    return list(dict.fromkeys(seeds))


def _default_slots(agents: list[AgentSpec], workers: int) -> int:
    """1 for built-in agents; model agents spread the endpoint's concurrency over workers so
    that their model waits overlap without exceeding it."""
    models = [a.model for a in agents if a.model is not None]
    if not models:
        return 1
    total = models[0].concurrency or 4
    return max(1, math.ceil(total / max(workers, 1)))


def _model_config(agent: list[str], mode: str, model: str, grammar: str,
                  base_url: str | None, api_key: str | None, value: str, branching: int,
                  coords: str | None, history_images: int | None, set_of_marks: bool,
                  temperature: float | None, max_tokens: int | None, timeout: float | None,
                  max_retries: int | None, concurrency: int | None) -> object:
    from webmdp.agents.llm import ModelAgentConfig
    from webmdp.agents.llm.clients import parse_model_id
    from webmdp.agents.llm.grammars import get_grammar, grammar_info

    parse_model_id(model)
    grammar_info(grammar)
    builtin = [a for a in agent if a not in MODEL_AGENTS]
    if builtin:
        raise ConfigError(f"--model drives the model agents {', '.join(MODEL_AGENTS)}; "
                          f"'{builtin[0]}' is built in")
    if mode in MODES and mode not in get_grammar(grammar).modes:
        raise ConfigError(f"grammar {grammar} works in "
                          f"{' / '.join(get_grammar(grammar).modes)} mode, not {mode}")
    if value not in ("model", "oracle"):
        raise unknown_choice("value function", value, ("model", "oracle"))
    if coords is not None and coords not in COORDS:
        raise unknown_choice("coordinate convention", coords, COORDS)
    return ModelAgentConfig(
        model=model, grammar=grammar, base_url=base_url, api_key=api_key,
        value=value,  # type: ignore[arg-type]
        branching=branching, coords=coords, history_images=history_images,  # type: ignore[arg-type]
        set_of_marks=set_of_marks, temperature=temperature, max_tokens=max_tokens,
        timeout_s=timeout, max_retries=max_retries, concurrency=concurrency)


def _stored_model(stored: dict, given: set[str], **operational: Any) -> object:
    """The model config a resumed run was started with. Endpoint, retries, timeout and
    concurrency come back from the manifest unless given again; the key only ever comes from
    this command line or the environment, and a run started with --api-key cannot resume
    without one."""
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
        restored["base_url"] = _credential_url(models[0]["model"], str(restored["base_url"]))
    key_env = _provider(models[0]["model"]).key_env
    if operational["api_key"] is None and not os.environ.get(key_env) \
            and ops.get("api_key_from") == "flag":
        raise ConfigError(f"this run's API key was given with --api-key, which webmdp never "
                          f"stores: set {key_env} (or pass --api-key) to resume it")
    return ModelAgentConfig(**models[0], **restored,  # type: ignore[arg-type]
                            api_key=operational["api_key"])


def _credential_url(model: str, stored_url: str) -> str:
    """The real URL of a resumed run whose stored endpoint URL had its credential blanked:
    the provider's base-URL environment variable when it redacts to the stored form, else a
    one-line error asking for --base-url again."""
    from webmdp.agents.llm.clients import base_url_for

    from_env = base_url_for(_provider(model).name, None)
    if from_env and redact_url(from_env) == stored_url:
        console.print("resume: the endpoint URL's credential is not stored; taking the URL from "
                      "the environment", highlight=False)
        return from_env
    raise ConfigError(f"this run's endpoint URL ({stored_url}) carries a credential, which "
                      "webmdp never stores: pass --base-url again (or set the provider's "
                      "base-URL environment variable) to resume it")


def _provider(model: str) -> Any:
    from webmdp.agents.llm.clients import PROVIDERS, parse_model_id

    return PROVIDERS[parse_model_id(model)[0]]


def _endpoint(model_cfg: Any, api_key: str | None, stored: dict | None) -> dict[str, Any]:
    """The endpoint settings a run stores (never the key itself): the effective base URL
    (from --base-url, else the provider's environment variable, else its default), the
    client's retries, timeout and concurrency, and where the key came from."""
    if model_cfg is None:
        return {}
    p = _provider(model_cfg.model)
    old = ((stored or {}).get("settings", {}).get("endpoint") or {})
    key_from = ("flag" if api_key else "environment" if os.environ.get(p.key_env)
                else old.get("api_key_from"))
    from webmdp.agents.llm.clients import base_url_for

    return {"base_url": base_url_for(p.name, model_cfg.base_url),
            "timeout_s": model_cfg.timeout_s, "max_retries": model_cfg.max_retries,
            "backoff_s": model_cfg.backoff_s, "concurrency": model_cfg.concurrency,
            "api_key_from": key_from, "api_key_env": p.key_env}


def _with_endpoint(model_cfg: Any, endpoint: dict[str, Any]) -> Any:
    """Workers call the endpoint the run recorded, whatever their environment says."""
    from dataclasses import replace

    return replace(model_cfg, base_url=endpoint["base_url"])


def _stored_tasks(root: Path, stored: dict) -> list:
    from webmdp.tasks.io import read_tasks

    ids = stored["task_set"].get("ids", [])
    by_id = {t.id: t for t in read_tasks(root / "tasks.jsonl")}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise ConfigError(f"{root}/tasks.jsonl lacks {len(missing)} of the run's tasks "
                          f"(e.g. {missing[0]}); the run directory is damaged")
    return [by_id[i] for i in ids]
