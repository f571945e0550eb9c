"""`webmdp run`: run agents on a task selection with parallel workers; resumable."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

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
from webmdp.redact import redact_url
from webmdp.runner import resume
from webmdp.runner.limits import check_workers
from webmdp.runner.spec import AgentSpec, RunSettings

MODES = ("semantic", "browser")
OBSERVATIONS = ("screenshot", "axtree", "both")
COORDS = ("absolute", "relative1000", "normalized1")
BACKENDS = ("local", "ray")
SERVERS = ("per-worker", "shared")
_S = "Scale and faults"
_M = "Model agents"




Site = Annotated[str | None, typer.Option(
    "--site", "-s", help="Site, comma-separated sites, or 'all' (default: shopping; with --tasks "
    "or --task, no site filter unless given).")]
Agents = Annotated[list[str], typer.Option(
    "--agent", "-a", help="Agent (repeatable): oracle, random, greedy (built in), a model agent: "
    "step, plan, tree (needs --model), or your own as module:Class.")]
ModeOpt = Annotated[str, typer.Option(
    "--mode", "-m", help="semantic (typed actions on the MDP) or browser (Chromium).")]
Limit = Annotated[int | None, typer.Option(
    "--limit", "-n", help="At most N tasks, spread over the selection.")]
Out = Annotated[Path, typer.Option(
    "--out", "-o", help="Run directory.")]
Template = Annotated[str | None, typer.Option(
    help="Only these templates (comma-separated).")]
HardNegatives = Annotated[str | None, typer.Option(
    "--hard-negatives", help="Only these hard-negative counts, e.g. 0,3.")]
AccessLevel = Annotated[str | None, typer.Option(
    "--access-level", help="Only these access levels: card, filter, detail (comma-separated).")]
TaskIds = Annotated[list[str], typer.Option(
    "--task", help="Only these task ids (repeatable).")]
TasksFile = Annotated[Path | None, typer.Option(
    "--tasks", help="Read tasks from a JSONL file.")]
Suite = Annotated[str, typer.Option(
    "--suite", help="'builtin' (the sites' tasks), 'cross-site' (CAP's cross-site tasks over "
    "2-4 sites, scored by rubric trees; --site keeps those that include the site) or 'grid' "
    "(40 tasks per site and WebForge level 1-3; the report adds success per level and per "
    "dimension level).")]
Split = Annotated[str | None, typer.Option(
    "--split", help="Only the tasks of this RL split (train or test, as `webmdp rl splits` shows "
    "it), so a trained policy is evaluated on exactly the held-out tasks; the report names it.")]
Holdout = Annotated[str, typer.Option(
    "--holdout", help="With --split: what test holds out (task, template or site:NAME).")]
Seeds = Annotated[str, typer.Option(
    "--seeds", help="Agent seeds, e.g. 0,1,2: every task once per seed; a seed other than 0 is "
    "stored as agent NAME@sSEED.")]
StepBudget = Annotated[int, typer.Option(
    help="GUI steps before an episode is truncated (per site: a cross-site episode over k sites "
    "gets k times as many).")]
Screenshots = Annotated[bool, typer.Option(
    help="Save a screenshot per browser step.")]
Observation = Annotated[str, typer.Option(
    help="Browser observation: screenshot, axtree or both.")]
Noise = Annotated[str, typer.Option(
    "--noise", help="Real-web noise in browser mode, seeded per episode: none; light (a cookie "
    "banner and 20-120 ms latency per action); real (light, plus a pop-up that blocks the "
    "page, a newsletter slide-in and a slow image); real-time (real, on the page's clock). It "
    "never changes the MDP.")]
ResumeDir = Annotated[Path | None, typer.Option(
    "--resume", rich_help_panel=_S, help="Continue the run in DIR with its stored configuration "
    "and tasks: finished episodes are skipped, unfinished or infrastructure-failed ones run "
    "again.")]
Force = Annotated[bool, typer.Option(
    "--force", rich_help_panel=_S, help="Continue a run directory even though its agents, mode or "
    "task set differ.")]
Rerun = Annotated[bool, typer.Option(
    "--rerun", rich_help_panel=_S, help="Run finished episodes again too.")]
Workers = Annotated[int, typer.Option(
    "--workers", "-w", rich_help_panel=_S, help="Worker processes (0: run in this process).")]
Slots = Annotated[int | None, typer.Option(
    rich_help_panel=_S, help="Episodes each worker runs at once (default 1; model agents: the "
    "endpoint concurrency shared out over the workers).")]
Backend = Annotated[str, typer.Option(
    rich_help_panel=_S, help="local (processes on this machine) or ray.")]
RayAddress = Annotated[str | None, typer.Option(
    rich_help_panel=_S, help="Ray cluster address (default: RAY_ADDRESS, else a local Ray "
    "instance).")]
Server = Annotated[str, typer.Option(
    rich_help_panel=_S, help="Browser mode: a webmdp server per worker, or one shared by all "
    "(local backend).")]
Retries = Annotated[int, typer.Option(
    rich_help_panel=_S, help="Attempts after an infrastructure failure before the episode is "
    "recorded as an infra error.")]
EpisodeTimeout = Annotated[float, typer.Option(
    rich_help_panel=_S, help="Wall-clock seconds per episode before its worker is killed and the "
    "episode retried.")]
StepTimeout = Annotated[float, typer.Option(
    rich_help_panel=_S, help="Seconds a browser step may go without progress before its Chromium "
    "is killed.")]
PriceIn = Annotated[float | None, typer.Option(
    rich_help_panel=_M, help="USD per million prompt tokens (cost in the live display).")]
PriceOut = Annotated[float | None, typer.Option(
    rich_help_panel=_M, help="USD per million completion tokens.")]
Model = Annotated[str | None, typer.Option(
    "--model", rich_help_panel=_M, help="Model agents: PROVIDER/MODEL, e.g. openai/gpt-4o, "
    "vllm/ByteDance-Seed/UI-TARS-1.5-7B, anthropic/claude-sonnet-4-6 (see `webmdp agents`).")]
Grammar = Annotated[str, typer.Option(
    "--grammar", "-g", rich_help_panel=_M, help="Action grammar: uitars, qwen, fara, openai-cua, "
    "anthropic-cua, axtree, json.")]
BaseUrl = Annotated[str | None, typer.Option(
    "--base-url", rich_help_panel=_M, help="Endpoint URL (default: the provider's, or "
    "OPENAI_BASE_URL / ANTHROPIC_BASE_URL / VLLM_BASE_URL / SGLANG_BASE_URL).")]
ApiKey = Annotated[str | None, typer.Option(
    "--api-key", rich_help_panel=_M, help="API key (default: the provider's environment "
    "variable).")]
Value = Annotated[str, typer.Option(
    "--value", rich_help_panel=_M, help="tree: value function V(s), 'model' or 'oracle' (exact, "
    "1/(1+distance to goal) from the MDP).")]
Branching = Annotated[int, typer.Option(
    rich_help_panel=_M, help="tree: candidate actions per expanded node.")]
Coords = Annotated[str | None, typer.Option(
    rich_help_panel=_M, help="Coordinate convention of the model's output: absolute, relative1000 "
    "or normalized1 (default: the grammar's).")]
HistoryImages = Annotated[int | None, typer.Option(
    rich_help_panel=_M, help="Screenshots per prompt, the current one included (default: the "
    "family's).")]
SetOfMarks = Annotated[bool, typer.Option(
    rich_help_panel=_M, help="Show a set-of-marks screenshot (numbered boxes over interactive "
    "elements).")]
Temperature = Annotated[float | None, typer.Option(
    rich_help_panel=_M, help="Sampling temperature (default 0).")]
MaxTokens = Annotated[int | None, typer.Option(
    rich_help_panel=_M, help="Completion token limit per call (default 1024).")]
Timeout = Annotated[float | None, typer.Option(
    rich_help_panel=_M, help="Request timeout in seconds (default 120).")]
MaxRetries = Annotated[int | None, typer.Option(
    rich_help_panel=_M, help="Retries on 429 / 5xx / timeouts (default 4, exponential backoff).")]
Concurrency = Annotated[int | None, typer.Option(
    rich_help_panel=_M, help="Concurrent requests per endpoint, over all workers (default 4).")]
NoPreflight = Annotated[bool, typer.Option(
    "--no-preflight", rich_help_panel=_M, help="Skip the one-token request that checks the model "
    "endpoint (URL, key, model) before the first episode.")]


def run(
    ctx: typer.Context, site: Site = None, agent: Agents = ["oracle"],  # noqa: B006
    mode: ModeOpt = "semantic", limit: Limit = None, out: Out = Path("runs/latest"),
    template: Template = None, hard_negatives: HardNegatives = None,
    access_level: AccessLevel = None, task_id: TaskIds = None,  # type: ignore[assignment]
    tasks_file: TasksFile = None, suite: Suite = "builtin", split: Split = None,
    holdout: Holdout = "task", seeds: Seeds = "0", step_budget: StepBudget = 50,
    screenshots: Screenshots = False, observation: Observation = "both", noise: Noise = "none",
    resume_dir: ResumeDir = None, force: Force = False, rerun: Rerun = False,
    workers: Workers = 1, slots: Slots = None, backend: Backend = "local",
    ray_address: RayAddress = None, server: Server = "per-worker", retries: Retries = 2,
    episode_timeout: EpisodeTimeout = 1800.0, step_timeout: StepTimeout = 300.0,
    price_in: PriceIn = None, price_out: PriceOut = None, model: Model = None,
    grammar: Grammar = "json", base_url: BaseUrl = None, api_key: ApiKey = None,
    value: Value = "model", branching: Branching = 3, coords: Coords = None,
    history_images: HistoryImages = None, set_of_marks: SetOfMarks = False,
    temperature: Temperature = None, max_tokens: MaxTokens = None, timeout: Timeout = None,
    max_retries: MaxRetries = None, concurrency: Concurrency = None,
    no_preflight: NoPreflight = False,
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
    from webmdp.runner.run import execute_run

    # every number and path was checked as the line was parsed (webmdp.cli.ranges)
    given = {name for name in ctx.params  # options typed on this command line
             if getattr(ctx.get_parameter_source(name), "name", "") == "COMMANDLINE"}
    register_secret(api_key)
    opts = dict(ctx.params)
    with user_errors():
        plan = _plan(opts, given)
        label = f"{', '.join(a.label() for a in plan.agents)} · {plan.mode}"
        with LiveDisplay(label, console, price_in=price_in, price_out=price_out) as live:
            outcome = execute_run(plan, on_change=live.update)
    _summary(outcome, plan.root)
    _exit(outcome, plan.root)


def _plan(o: dict[str, Any], given: set[str]) -> Any:
    """The run an invocation asks for: a resume's stored options first
    (:mod:`webmdp.runner.resume`), then the agents, settings and tasks, all checked."""
    from webmdp.runner.run import RunPlan

    stored = None
    if o["resume_dir"] is not None:
        o["out"] = o["resume_dir"]
        stored = resume.load(o["resume_dir"])
        resume.apply_settings(stored, given, o)
    model_cfg, endpoint = _model(o, given, stored)
    if stored is not None:
        resume.apply_identity(stored, given, o)
    _check_options(o, model_cfg)
    agents = [AgentSpec(a, seed=s, model=model_cfg if a in MODEL_AGENTS else None)
              for a in o["agent"] for s in _seeds(o["seeds"])]
    workers = o["workers"]
    per_worker = o["slots"] or _default_slots(agents, workers)
    settings = RunSettings(
        step_budget=o["step_budget"], observation=o["observation"],
        screenshots=o["screenshots"], noise=o["noise"], workers=max(workers, 1),
        slots=per_worker if workers else 1,
        backend="inline" if workers == 0 else o["backend"],
        server=o["server"], retries=o["retries"], episode_timeout_s=o["episode_timeout"],
        step_timeout_s=o["step_timeout"], ray_address=o["ray_address"], endpoint=endpoint)
    tasks, split_info = _tasks(o, given, stored)
    return RunPlan(o["out"], tasks, agents, o["mode"], settings, force=o["force"],
                   rerun=o["rerun"], preflight=_preflight(o, model_cfg, endpoint),
                   overrides=resume.overrides(given) if stored is not None else (),
                   split=split_info)


def _model(o: dict[str, Any], given: set[str], stored: dict[str, Any] | None
           ) -> tuple[Any, dict[str, Any]]:
    """The model agents' config (this command line's, else a resume's stored one) and the
    endpoint settings the run stores."""
    model_cfg = None
    if o["model"] is not None:
        model_cfg = _model_config(o)
    if stored is not None and "model" not in given:
        model_cfg = resume.stored_model(
            stored, given, say=lambda line: console.print(line, highlight=False),
            base_url=o["base_url"], api_key=o["api_key"], timeout_s=o["timeout"],
            max_retries=o["max_retries"], concurrency=o["concurrency"])
    endpoint = resume.endpoint(model_cfg, o["api_key"], stored if "model" not in given else None)
    if model_cfg is not None:
        model_cfg = resume.with_endpoint(model_cfg, endpoint)
        # the manifest and the preflight line show the URL without its credential
        endpoint["base_url"] = redact_url(endpoint["base_url"] or "") or None
    return model_cfg, endpoint


def _check_options(o: dict[str, Any], model_cfg: Any) -> None:
    """Agents, choices and the worker bound, each refused in one line."""
    for name in o["agent"]:
        if name in MODEL_AGENTS and model_cfg is None:
            raise ConfigError(f"agent '{name}' is driven by a model: give --model "
                              "PROVIDER/MODEL (see `webmdp agents`)")
        if ":" in name and name not in agent_names():
            _importable(name)
        elif name not in agent_names():
            raise unknown_choice("agent", name, agent_names())
    _choice("mode", o["mode"], MODES)
    _choice("observation", o["observation"], OBSERVATIONS)
    check_noise(o["noise"], o["mode"])
    _choice("backend", o["backend"], BACKENDS)
    _choice("server mode", o["server"], SERVERS)
    if o["workers"] == 0 and o["backend"] == "ray":
        raise ConfigError("--backend ray needs at least one worker")
    if o["backend"] == "local":  # Ray's bound is checked once connected, against its CPUs
        check_workers(o["workers"])


def _tasks(o: dict[str, Any], given: set[str], stored: dict[str, Any] | None
           ) -> tuple[list[Any], dict[str, Any] | None]:
    """The run's tasks and the split they come from: a resume's stored tasks (it keeps the
    split its manifest records), else the selection (:mod:`webmdp.tasks.select`)."""
    if stored is not None and not resume.reselects(given):
        return resume.stored_tasks(o["out"], stored), None
    site, suite, tasks_file = o["site"], o["suite"], o["tasks_file"]
    if site is None and tasks_file is None and not o["task_id"] and suite == "builtin":
        site = "shopping"
    tasks = select_tasks(site, tasks_file=tasks_file, template=o["template"],
                         task_ids=o["task_id"] or None, limit=o["limit"], spread=True,
                         hard_negatives=_ints(o["hard_negatives"], "--hard-negatives"),
                         access_levels=_list(o["access_level"]), suite=suite,
                         split=o["split"], holdout=o["holdout"])
    source = tasks_file or (None if suite in SUITES else suite)
    if source is not None:  # a file's vectors, checked on the tasks this run runs
        check_difficulty([t for t in tasks if t.cross is None], source)
    split = o["split"]
    return tasks, None if split is None else split_record(split, o["holdout"])


def _preflight(o: dict[str, Any], model_cfg: Any, endpoint: dict[str, Any]
               ) -> Callable[[], None] | None:
    """The model endpoint's one-token request, run once before the first episode."""
    if model_cfg is None or o["no_preflight"]:
        return None
    from webmdp.agents.llm.preflight import credential, preflight

    def check() -> None:
        console.print(f"preflight: one request to "
                      f"{redact_url(endpoint.get('base_url') or '') or o['model']}; "
                      f"credential: {credential(model_cfg)}", highlight=False)
        preflight(model_cfg)

    return check


def _exit(outcome: Any, out: Path) -> None:
    """The exit status: 2 for a failed run, 128+N for a signal, else the run's own."""
    if outcome.status == "failed":
        raise fail(f"run stopped: {outcome.error}")
    if outcome.status == "interrupted":
        t = outcome.tally
        console.print(f"[yellow]interrupted[/yellow]: {t.total - t.done} episodes not run; "
                      f"continue with: webmdp run --resume {out}")
        raise typer.Exit(code=128 + (outcome.signal or 2))
    if outcome.final.exit_code:
        raise typer.Exit(code=outcome.final.exit_code)


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


def _model_config(o: dict[str, Any]) -> object:
    """The model agents' config from this command line's options, each checked."""
    from webmdp.agents.llm import ModelAgentConfig
    from webmdp.agents.llm.clients import parse_model_id
    from webmdp.agents.llm.grammars import get_grammar, grammar_info

    model, grammar, mode, value, coords = (o[k] for k in ("model", "grammar", "mode", "value",
                                                         "coords"))
    parse_model_id(model)
    grammar_info(grammar)
    builtin = [a for a in o["agent"] if a not in MODEL_AGENTS]
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
        model=model, grammar=grammar, base_url=o["base_url"], api_key=o["api_key"],
        value=value, branching=o["branching"], coords=coords,
        history_images=o["history_images"], set_of_marks=o["set_of_marks"],
        temperature=o["temperature"], max_tokens=o["max_tokens"], timeout_s=o["timeout"],
        max_retries=o["max_retries"], concurrency=o["concurrency"])


